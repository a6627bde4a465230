"""Rule options: RULES.md's base rules and every named variant, in one object.

The reference engine reads the dataclass; the kernels read the same options packed
into a small int64 array (``Rules.to_array``), so both always play the same game.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..util.errors import InputError, quoted
from ..util.limits import MAX_TARGET

# Indices into the packed int64 array the kernels read.
R_LOW_DEALT = 0  # 1: Low goes to the player who was dealt it
R_MIN_BID = 1  # 1 or 2
R_ALL_PASS_REDEAL = 2  # 1: all pass -> redeal; 0: dealer forced to bid 2+
R_DEALER_STEAL = 3  # 1: the dealer steals 1-3 by bidding equal
R_MUST_FOLLOW = 4  # 1: must follow suit when able (no trumping in)
R_TARGET = 5
R_SET_PITCHER_WINS = 6  # 1: a set pitcher still at/past the target wins
R_PARTNERSHIP = 7  # 1: seats 0+2 vs 1+3
N_RULE_FIELDS = 8

BIDS = (1, 2, 3, 4)  # a bid is 1 to 4 points: High, Low, Jack and Game


class RulesError(InputError):
    """Rule options that cannot be played; the message names the problem."""


# The allowed values of every rule option (dataclass field names; dashes in the CLI).
CHOICES = {"low": ("captured", "dealt"), "all_pass": ("forced", "redeal"),
           "follow": ("trump", "suit")}  # fmt: skip
INT_RANGES = {"min_bid": (1, 2), "target": (1, MAX_TARGET)}
BOOLEANS = ("dealer_steal", "set_pitcher_wins", "partnership")
# How a boolean may be written in a rule string (TOML and dicts take real booleans only).
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")


def _name(field: str) -> str:
    return field.replace("_", "-")


@dataclass(frozen=True)
class Rules:
    """The rules of one game.  Defaults are RULES.md's base rules.

    :meth:`parse` builds one from a rule string, a TOML file or a dict, strictly; the
    constructor itself refuses values of the wrong type or out of range.

    Example
    -------
    >>> Rules.parse("low=dealt,min-bid=2").low
    'dealt'
    """

    low: str = "captured"  # "captured" | "dealt"
    min_bid: int = 1  # 1 | 2
    all_pass: str = "forced"  # "forced" (dealer bids 2+) | "redeal"
    dealer_steal: bool = True
    follow: str = "trump"  # "trump": follow suit or trump | "suit": must follow suit
    target: int = 7
    set_pitcher_wins: bool = False
    partnership: bool = False

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_value(f.name, getattr(self, f.name))

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
            raise RulesError(f"players must be 2-7, not {players}")
        if self.partnership and players != 4:
            raise RulesError(f"partnership needs exactly 4 players, not {players}")

    def team(self, seat: int) -> int:
        """Seat -> side that pools points: seat 0+2 / 1+3 in partnership, else the seat."""
        return seat % 2 if self.partnership else seat

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_RULE_FIELDS, dtype=np.int64)
        a[R_LOW_DEALT] = self.low == "dealt"
        a[R_MIN_BID] = self.min_bid
        a[R_ALL_PASS_REDEAL] = self.all_pass == "redeal"
        a[R_DEALER_STEAL] = self.dealer_steal
        a[R_MUST_FOLLOW] = self.follow == "suit"
        a[R_TARGET] = self.target
        a[R_SET_PITCHER_WINS] = self.set_pitcher_wins
        a[R_PARTNERSHIP] = self.partnership
        return a

    def describe(self) -> dict:
        return {_name(f.name): getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def parse(cls, spec: Rules | str | Path | Mapping | None = None,
              partnership: bool | None = None) -> Rules:  # fmt: skip
        """Rules from whatever a user or a library caller gives: ``None`` (base rules),
        a :class:`Rules`, a rule string ``"low=dealt,min-bid=2"``, the path of a TOML
        file with the same keys (at the top level or all under one ``[rules]`` table),
        or a dict of them.  ``partnership=True`` adds partnership play.

        This is the one place rules are read, for the CLI and the library alike, and it
        is strict: an unknown or repeated option, a value of the wrong type (booleans
        only as booleans; in a rule string true/false, yes/no or on/off), a number out
        of range, a string outside its allowed set, a list or table, a file that is not
        UTF-8 TOML: each is a :class:`RulesError` naming it.

        >>> Rules.parse({"target": 11, "follow": "suit"}).target
        11
        """
        given = {} if isinstance(spec, Rules) else rule_values(spec)
        rules = spec if isinstance(spec, Rules) else cls(**given)
        if partnership is not None:
            if not isinstance(partnership, bool):
                raise RulesError(f"partnership takes true or false, not {partnership!r}")
            if partnership and given.get("partnership") is False:
                raise RulesError(
                    "partnership=True and the rules' partnership=false disagree: give one"
                )
            if partnership and not rules.partnership:
                rules = dataclasses.replace(rules, partnership=True)
        return rules


def rules_text(rules: Rules) -> str:
    """Every option of ``rules`` as one rule string (``low=captured,min-bid=1,...``):
    what a logged round carries, read back by :meth:`Rules.parse` to the same rules."""
    return ",".join(f"{k}={str(v).lower()}" for k, v in rules.describe().items())


def rule_values(spec: str | Path | Mapping | None, files: bool = True) -> dict[str, object]:
    """The rule options ``spec`` sets explicitly (field names as keys), checked: what
    :meth:`Rules.parse` builds its rules from.  Callers use it to tell an option given
    in the rules from a default (to refuse a conflicting ``--target``, say).
    ``files=False`` (rules inside a JSON document) never reads a TOML file."""
    if spec is None:
        return {}
    if isinstance(spec, Mapping):
        return _checked_items(spec.items(), "rules", from_text=False)
    if isinstance(spec, Path) and files:
        return _read_toml(spec)
    if not isinstance(spec, str):
        raise RulesError(f"rules must be a rule string, a TOML file or a dict, not {quoted(spec)}")
    if not spec.strip():
        raise RulesError("the rules are empty: give name=value,... or a TOML file")
    if files and "=" not in spec and (spec.endswith(".toml") or Path(spec).is_file()):
        return _read_toml(Path(spec))
    items = []
    for item in spec.split(","):
        if not item.strip():
            raise RulesError(f"empty rule option in {quoted(spec)}")
        if "=" not in item:
            raise RulesError(f"rule option {quoted(item.strip())} needs name=value")
        k, v = (s.strip() for s in item.split("=", 1))
        items.append((k, v))
    return _checked_items(items, "rules", from_text=True)


def _read_toml(path: Path) -> dict[str, object]:
    if path.exists() and not path.is_file():
        raise RulesError(f"cannot read rules file {path}: not a file")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise RulesError(f"cannot read rules file {path}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"rules file {path} is not UTF-8 text") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"rules file {path} is not valid TOML: {e}") from None
    if "rules" in doc:
        if not isinstance(doc["rules"], dict) or len(doc) != 1:
            raise RulesError(
                f"rules file {path}: put every option at the top level or all of them "
                "under one [rules] table, not both"
            )
        doc = doc["rules"]
    return _checked_items(doc.items(), f"rules file {path}", from_text=False)


def _checked_items(items, where: str, from_text: bool) -> dict[str, object]:
    fields = [f.name for f in dataclasses.fields(Rules)]
    out: dict[str, object] = {}
    for key, value in items:
        if not isinstance(key, str):
            raise RulesError(f"{where}: rule option names are strings, not {quoted(key)}")
        k = key.strip().replace("-", "_")
        if k not in fields:
            known = ", ".join(map(_name, fields))
            raise RulesError(f"unknown rule option {quoted(key)} (known: {known})")
        if k in out:
            raise RulesError(f"{where}: rule option {_name(k)} is given twice")
        out[k] = _from_text(k, value) if from_text else value
        _check_value(k, out[k])
    return out


def _from_text(name: str, text: str) -> object:
    if name in BOOLEANS:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise RulesError(f"{_name(name)} takes true or false, not {quoted(text)}")
    if name in INT_RANGES:
        if not text.isascii() or not text.lstrip("+-").isdigit():
            raise RulesError(f"{_name(name)} takes a whole number, not {quoted(text)}")
        if len(text) > 20:  # int() of thousands of digits is slow, then refused anyway
            lo, hi = INT_RANGES[name]
            raise RulesError(f"{_name(name)} must be {lo}-{hi}, not {text[:20]}...")
        return int(text)
    return text


def _check_value(name: str, value: object) -> None:
    """``value`` of the type and in the set or range rule option ``name`` allows."""
    if isinstance(value, (list, tuple, dict, set)):
        kind = "table" if isinstance(value, dict) else "list"
        raise RulesError(f"{_name(name)} takes a single value, not a {kind}")
    if name in CHOICES:
        allowed = CHOICES[name]
        if not isinstance(value, str) or value not in allowed:
            raise RulesError(
                f"{_name(name)} must be {' or '.join(map(repr, allowed))}, not {quoted(value)}"
            )
    elif name in INT_RANGES:
        lo, hi = INT_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{_name(name)} takes a whole number, not {quoted(value)}")
        if not lo <= value <= hi:
            span = f"{lo} or {hi}" if hi == lo + 1 else f"{lo}-{hi}"
            raise RulesError(f"{_name(name)} must be {span}, not {value}")
    elif not isinstance(value, bool):
        raise RulesError(f"{_name(name)} takes true or false, not {quoted(value)}")


BASE_RULES = Rules()
