"""Rule options: RULES.md's base rules and every named variant, in one object.

The reference engine reads the dataclass; the kernels read the same options packed
into a small int64 array (``Rules.to_array``), so both always play the same game.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import InputError

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


@dataclass(frozen=True)
class Rules:
    """The rules of one game.  Defaults are RULES.md's base rules.

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
        if self.low not in ("captured", "dealt"):
            raise RulesError(f"low must be 'captured' or 'dealt', not {self.low!r}")
        if self.min_bid not in (1, 2):
            raise RulesError(f"min-bid must be 1 or 2, not {self.min_bid!r}")
        if self.all_pass not in ("forced", "redeal"):
            raise RulesError(f"all-pass must be 'forced' or 'redeal', not {self.all_pass!r}")
        if self.follow not in ("trump", "suit"):
            raise RulesError(f"follow must be 'trump' or 'suit', not {self.follow!r}")
        if not isinstance(self.target, int) or self.target <= 0:
            raise RulesError(f"target must be a positive whole number, not {self.target!r}")

    def check_players(self, players: int) -> None:
        if not 2 <= players <= 7:
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
        return {f.name.replace("_", "-"): getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def parse(cls, spec: str | None, partnership: bool | None = None) -> Rules:
        """Rules from ``"low=dealt,min-bid=2"``, or from a TOML file path.

        Names use dashes or underscores; booleans accept true/false/yes/no/on/off/1/0.
        """
        values: dict[str, object] = {}
        if spec:
            path = Path(spec)
            if spec.endswith(".toml") or path.is_file():
                try:
                    raw = tomllib.loads(path.read_text())
                except (OSError, tomllib.TOMLDecodeError) as e:
                    raise RulesError(f"cannot read rules file {spec}: {e}") from None
                values = {k.replace("-", "_"): v for k, v in raw.get("rules", raw).items()}
            else:
                for item in spec.split(","):
                    if not item.strip():
                        continue
                    if "=" not in item:
                        raise RulesError(f"rule option {item.strip()!r} needs name=value")
                    k, v = (s.strip() for s in item.split("=", 1))
                    values[k.replace("-", "_")] = v
        if partnership is not None and partnership:
            values["partnership"] = True
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs = {}
        for k, v in values.items():
            if k not in fields:
                names = ", ".join(n.replace("_", "-") for n in fields)
                raise RulesError(f"unknown rule option {k.replace('_', '-')!r} (known: {names})")
            kwargs[k] = _coerce(k, v, fields[k].type)
        return cls(**kwargs)


def _coerce(name: str, value: object, typ: str) -> object:
    if not isinstance(value, str):  # from TOML: the type must be right already
        if typ == "bool" and not isinstance(value, bool):
            raise RulesError(f"{name.replace('_', '-')} takes true or false, not {value!r}")
        if typ == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(f"{name.replace('_', '-')} takes a whole number, not {value!r}")
        return value
    if typ == "bool":
        low = value.lower()
        if low in ("1", "true", "yes", "on", "win"):
            return True
        if low in ("0", "false", "no", "off", "never", "no-win"):
            return False
        raise RulesError(f"{name.replace('_', '-')} takes true or false, not {value!r}")
    if typ == "int":
        try:
            return int(value)
        except ValueError:
            raise RulesError(
                f"{name.replace('_', '-')} takes a whole number, not {value!r}"
            ) from None
    return value


BASE_RULES = Rules()
