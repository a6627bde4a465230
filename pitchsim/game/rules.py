"""Rule options: RULES.md's base rules, every named preset and every generic option of
VARIANTS.md 6.1, in one frozen dataclass (:class:`Rules`).

The reference engine reads the dataclass; the kernels read the same options packed
into a small int64 array (``kernels.presets.rules_array``), so both always play the
same game.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..util.errors import InputError, quoted
from ..util.limits import MAX_TARGET

BIDS = (1, 2, 3, 4)  # a bid is 1 to 4 points: High, Low, Jack and Game


class RulesError(InputError):
    """Rule options that cannot be played; the message names the problem."""


# The base game's options (RULES.md), in the order its rules are written (``describe``),
# and the values it allows them: rules within these are the base game (``base_game``).
BASE_FIELDS = (
    "low",
    "min_bid",
    "all_pass",
    "dealer_steal",
    "follow",
    "target",
    "set_pitcher_wins",
    "partnership",
)
CHOICES = {
    "low": ("captured", "dealt"),
    "all_pass": ("forced", "redeal"),
    "follow": ("trump", "suit"),
}
INT_RANGES = {"min_bid": (1, 2), "target": (1, MAX_TARGET)}
BOOLEANS = ("dealer_steal", "set_pitcher_wins", "partnership")
# How a boolean may be written in a rule string (TOML and dicts take real booleans only).
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")

# The rule families (VARIANTS.md 6.1; pitchsim.game.presets) add options and values:
# every option below at auction-pitch's value and the base ones within the sets above
# are the base game.
FAMILY_FIELDS = (
    "family",
    "jokers",
    "jick",
    "game",
    "three",
    "five",
    "deal",
    "discard",
    "rob",
    "trump",
    "lead_trump",
    "shoot",
    "joker_game",
    "discards",
    "set",
    "win",
    "deck",
    "hands",
    "kitty",
    "partner",
)
FAMILY_CHOICES = CHOICES | {
    "all_pass": ("forced", "redeal", "next-dealer", "dealer-set", "dealer-free"),
    "follow": ("trump", "suit", "only"),
    "game": ("count", "ten"),
    "discard": ("none", "non-trump", "choice", "draw"),
    "trump": ("first-lead", "named"),
    "win": ("pitcher", "pitcher-first", "highest"),
    "joker_game": ("0", "half"),
    "discards": ("hidden", "shown"),
    "set": ("minus", "to-others"),
    "deck": ("2-A", "5-A", "9-A", "2,9-A"),
    "partner": ("none", "called", "announced"),
}
# VARIANTS.md 12.3: the ranks (0 the deuce ... 12 the ace) of each pack before jokers.
DECK_RANKS = {
    "2-A": tuple(range(13)),
    "5-A": tuple(range(3, 13)),
    "9-A": tuple(range(7, 13)),
    "2,9-A": (0, *range(7, 13)),
}
MAX_HANDS = 100  # VARIANTS.md 12.4: hands=N, 1 to 100
# Options that take true, false or one word more (VARIANTS.md 6.1): dealer-steal=max,
# five=pedro (12.6), rob=dealer (12.7).
WORD_VALUES = {"dealer_steal": "max", "five": "pedro", "rob": "dealer"}
# VARIANTS.md 12.5: play_smear's go-out is read as a win value, never kept as an option.
GO_OUT = {"bid": "pitcher", "any": "pitcher-first"}
FAMILY_INTS = {
    "min_bid": INT_RANGES["min_bid"],
    "target": INT_RANGES["target"],
    "jokers": (0, 2),
    "deal": (6, 9),
    "kitty": (0, 54),  # VARIANTS.md 12.2.3: the pack bounds it (``check_players``)
}
FAMILY_BOOLEANS = BOOLEANS + ("jick", "three", "five", "rob", "lead_trump", "shoot")


def _name(field: str) -> str:
    return field.replace("_", "-")


@functools.cache  # (a few packs in all; asked at every view a table replays)
def _pack(deck: str, no_fours: bool, jokers: int) -> tuple[int, ...]:
    """``Rules.pack``'s cards, low to high."""
    ranks = [k for k in DECK_RANKS[deck] if not (k == 2 and no_fours)]
    return tuple(sorted(s * 13 + k for s in range(4) for k in ranks) + [52, 53][:jokers])


@dataclass(frozen=True)
class Rules:
    """The rules of one game, under any preset: the base options of RULES.md plus the
    generic ones of VARIANTS.md 6.1.  ``Rules()`` is the base game (auction-pitch at its
    defaults); :meth:`parse` builds any preset's from a rule string (``"smear,target=15"``),
    a TOML file or a dict, strictly; the constructor itself refuses values of the wrong
    type or out of range and the combinations VARIANTS.md 6.3 rules out.  Equal rules are
    equal values, whichever way they were written.

    Example
    -------
    >>> Rules.parse("low=dealt,min-bid=2").low
    'dealt'
    >>> Rules.parse("smear").target
    11
    """

    low: str = "captured"  # "captured" | "dealt"
    min_bid: int = 1  # 1 | 2 in the base game; up to the maximum bid (6.1)
    all_pass: str = "forced"  # "forced" (dealer bids 2+) | "redeal" | ... (6.1)
    dealer_steal: bool | str = True  # or "max" under a preset (VARIANTS.md 6.1)
    follow: str = "trump"  # "trump": follow suit or trump | "suit" | "only" (4.9)
    target: int = 7
    set_pitcher_wins: bool = False
    partnership: bool = False

    family: str = "auction-pitch"
    jokers: int = 0  # 0, 1 (the high joker) or 2
    jick: bool = False  # the other jack of trump's colour is a trump worth 1
    game: str = "count"  # "count": the Game point | "ten": the 10 of trump is worth 1
    three: bool = False  # the 3 of trump is worth 3
    five: bool | str = False  # the 5 of trump is worth 5; "pedro": both 5s of its colour
    deal: int = 6  # cards dealt to each player: 6 or 9 (10 with 5 players, see cards_each)
    # "non-trump": discard non-trumps and draw to 6 after trump (4.8); "choice": discard
    # down to 6, no draw; "draw": discard, keeping 3, and draw to 6 (12.8)
    discard: str = "none"
    discards: str = "hidden"  # "shown": every discard face up, in every view (12.9)
    rob: bool | str = False  # the pitcher (or with "dealer" the dealer) robs the stock
    trump: str = "first-lead"  # "first-lead" | "named" (before any discard)
    lead_trump: bool = False  # the first lead must be a trump if the pitcher holds one
    shoot: bool = False  # a "shoot" call above the maximum bid
    joker_game: str = "0"  # "half": each joker counts 1/2 toward Game (doubled counts, 12.10)
    set: str = "minus"  # "to-others": a set side scores 0, the others their points + the bid
    win: str = "pitcher"  # "pitcher" | "pitcher-first" | "highest"
    deck: str = "2-A"  # the pack before jokers: "2-A", "5-A", "9-A" or "2,9-A" (12.3)
    hands: str | int = "off"  # N: the game lasts N hands, the highest total wins (12.4)
    kitty: int = 0  # N cards dealt aside; the pitcher takes them after naming trump (12.2)
    # "called" | "announced": the pitcher calls a card, its holder is his partner (12.1)
    partner: str = "none"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_item(f.name, getattr(self, f.name))
        family = FAMILIES[self.family]
        for key, allowed in family.fixed.items():
            if getattr(self, key) not in allowed:
                raise RulesError(_conflict(family, key, getattr(self, key)))
        base = self.family == "auction-pitch" and all(
            getattr(self, k) == _PRESET_DEFAULTS[k] for k in FAMILY_FIELDS
        )
        if base:  # and the base options at the base game's values (dealer-steal=max is not)
            try:
                for k in BASE_FIELDS:
                    _check_value(k, 1 if k == "min_bid" else getattr(self, k))
            except RulesError:
                base = False
        if base and self.min_bid not in (1, 2):  # the base game keeps 1 or 2 (1.2, 6.1)
            raise RulesError(f"min-bid must be 1 or 2, not {self.min_bid}")
        object.__setattr__(self, "_base_game", base)
        if not 1 <= self.min_bid <= self.max_bid:  # 6.1 (the base game keeps 1 or 2, 1.2)
            raise RulesError(
                f"min-bid must be 1-{self.max_bid} with a maximum bid of {self.max_bid}, "
                f"not {self.min_bid}"
            )
        # VARIANTS.md 6.3: options that need one another.
        needs = [
            ("deal", self.deal == 9, "discard=non-trump, choice or draw", self.discard != "none"),
            ("discard", self.discard != "none", "trump=named", self.trump == "named"),
            ("rob", self.rob is not False, "trump=named", self.trump == "named"),
            ("rob", self.rob is not False, "discard=non-trump", self.discard == "non-trump"),
            ("follow", self.follow == "only", "trump=named", self.trump == "named"),
            ("lead-trump", self.lead_trump, "trump=named", self.trump == "named"),
            ("set-pitcher-wins", self.set_pitcher_wins, "win=pitcher", self.win == "pitcher"),
            # 6.3.8: how a kitty meets the automatic discard is not on record
            ("kitty", self.kitty > 0, "trump=named", self.trump == "named"),
            ("kitty", self.kitty > 0, "rob=false", self.rob is False),
            ("kitty", self.kitty > 0, "discard=none, choice or draw", self.discard != "non-trump"),
        ]
        for key, given, need, met in needs:
            if given and not met:
                value = _text(getattr(self, key.replace("-", "_")))
                raise RulesError(f"{key}={value} needs {need} (VARIANTS.md 6.3)")
        # VARIANTS.md 6.3.7: a called partner is for 5 or 6 players alone, with trump named;
        # under called the called trump can always be played to the first trick (12.1.3).
        if self.partner != "none":
            lo, hi = FAMILIES[self.family].players
            span = str(lo) if lo == hi else f"{lo}-{hi}"
            partner = [
                ("partnership=false", not self.partnership),
                ("trump=named", self.trump == "named"),
                ("follow=trump or only", self.partner != "called" or self.follow != "suit"),
                (f"5 or 6 players, and {self.family} is played by {span}", hi >= 5 and lo <= 6),
            ]
            for need, met in partner:
                if not met:
                    raise RulesError(f"partner={self.partner} needs {need} (VARIANTS.md 6.3.7)")
        # VARIANTS.md 6.3.9: a short pack, 6 cards each, at most one joker; the 3 and the
        # 5 worth points only in a pack that has them.
        short = self.deck != "2-A"
        pack = [
            ("deck", short, "deal=6", self.deal == 6),
            ("deck", short, "at most one joker", self.jokers <= 1),
            ("three", self.three, "deck=2-A (a pack with 3s)", not short),
            ("five", self.five is not False, "deck=2-A or 5-A (a pack with 5s)", 3 in self.ranks),
        ]
        for key, given, need, met in pack:
            if given and not met:
                value = _text(getattr(self, key))
                raise RulesError(f"{key}={value} needs {need} (VARIANTS.md 6.3.9)")

    # ---- what the options add up to ---------------------------------------------------

    @property
    def max_bid(self) -> int:
        """The points the options can award (VARIANTS.md 6.2): High, Low, Jack, Game or
        the ten, the jick, each joker, the 3 (3) and the 5 (5), or both pedros (10)."""
        five = {False: 0, True: 5, "pedro": 10}[self.five]
        return 4 + self.jick + self.jokers + 3 * self.three + five

    def cards_each(self, players: int) -> int:
        """Cards dealt to each player: ``deal``, but 10 with 5 players, 9 to deal and
        two jokers, from a pack without the four 4s (VARIANTS.md 4.3)."""
        return 10 if self.no_fours(players) else self.deal

    def no_fours(self, players: int) -> bool:
        return self.deal == 9 and self.jokers == 2 and players == 5

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks in the pack (0 the deuce ... 12 the ace), VARIANTS.md 12.3."""
        return DECK_RANKS[self.deck]

    def pack(self, players: int) -> list[int]:
        """The cards used, low to high: the ``deck`` pack (12.3) plus the jokers (6.1),
        less the four 4s with 5 players, 9 to deal and two jokers (4.3)."""
        return list(_pack(self.deck, self.no_fours(players), self.jokers))

    def pack_size(self, players: int) -> int:
        return len(_pack(self.deck, self.no_fours(players), self.jokers))

    def robber(self, pitcher: int | None, dealer: int) -> int | None:
        """The seat that robs the stock (4.8 step 5): the pitcher under rob=true, the
        dealer under rob=dealer (12.7); None without a rob (or a pitcher, rob=true)."""
        if self.rob == "dealer":
            return dealer
        return pitcher if self.rob else None

    @property
    def hands_limit(self) -> int:
        """N under hands=N (12.4), else 0: the game ends at its target."""
        return 0 if self.hands == "off" else int(self.hands)

    def check_hands_played(self, played: int, what: str = "hands played") -> None:
        """``played``, the hands counted before this one, is 0 to N - 1 under hands=N
        (12.4); a :class:`RulesError` naming ``what`` otherwise."""
        limit = self.hands_limit
        if not 0 <= played < limit:
            raise RulesError(
                f"{what} must be 0-{limit - 1} under hands={limit}: the game is over after "
                f"its {limit} hands (VARIANTS.md 12.4), not {played}"
            )

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
            raise RulesError(f"players must be 2-7, not {players}")
        lo, hi = FAMILIES[self.family].players
        if not lo <= players <= hi:
            span = str(lo) if lo == hi else f"{lo}-{hi}"
            raise RulesError(f"{self.family} is played by {span} players, not {players}")
        if self.partnership and players != 4:
            alone = ""  # a preset in teams that other counts play alone (4.1): say how
            if FAMILIES[self.family].preset.get("partnership"):
                alone = f" ({self.family},partnership=false: each for himself)"
            raise RulesError(f"partnership needs exactly 4 players, not {players}{alone}")
        if self.partner != "none" and players not in (5, 6):
            raise RulesError(
                f"partner={self.partner} needs 5 or 6 players, not {players} (VARIANTS.md 6.3.7)"
            )
        if players * self.cards_each(players) + self.kitty > self.pack_size(players):
            kitty = f" and a kitty of {self.kitty}" if self.kitty else ""
            raise RulesError(
                f"{players} players x {self.cards_each(players)} cards{kitty} is more than the "
                f"{self.pack_size(players)}-card pack"
                + (f" of deck={self.deck}" if self.deck != "2-A" else "")
                + " (VARIANTS.md 6.3.3)"
            )

    def team(self, seat: int) -> int:
        """Seat -> side that pools points: seat 0+2 / 1+3 in partnership, else the seat."""
        return seat % 2 if self.partnership else seat

    def describe(self) -> dict:
        """The complete rules: the family and every option, in VARIANTS.md 6.1 order; the
        base game's as it was always written, its own eight options alone (RULES.md), so
        records, views and checksums of older versions read back to equal rules."""
        if self._base_game:
            return {_name(k): getattr(self, k) for k in BASE_FIELDS}
        return self.describe_in_full()

    def describe_in_full(self) -> dict:
        """The family and every option, in VARIANTS.md 6.1 order, the base game's too."""
        return {"family": self.family} | {
            _name(k): getattr(self, k)
            for k in OPTION_ORDER
            # written only when there is one (12.2) or one is called (12.1)
            if (k != "kitty" or self.kitty) and (k != "partner" or self.partner != "none")
        }

    @property
    def base_game(self) -> bool:
        """The base game (RULES.md): auction-pitch with its own options only, every
        option a preset adds at auction-pitch's value (and dealer-steal true or false,
        min-bid 1 or 2).  A value, not a type: what the base game's wire format (its
        eight options, ``describe``) is written for."""
        return self._base_game

    @classmethod
    def parse(
        cls, spec: Rules | str | Path | Mapping | None = None, partnership: bool | None = None
    ) -> Rules:
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
        rules = spec if isinstance(spec, Rules) else build_rules(given)
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
        # a document's rules are never a file (document_rule_values): offer none there
        raise RulesError(
            "the rules are empty: give a preset (smear) or name=value,..."
            + (" or a TOML file" if files else "")
        )
    first = spec.split(",")[0].strip()
    if (
        files
        and first not in FAMILIES
        and "=" not in spec
        and (spec.endswith(".toml") or Path(spec).is_file())
    ):
        return _read_toml(Path(spec))
    items = []
    for i, item in enumerate(_rule_words(spec)):
        if "=" not in item:
            word = item.strip()
            if word in FAMILIES:
                if i:
                    raise RulesError(f"the rule family {word} comes first: {word},name=value,...")
                items.append(("family", word))
                continue
            if i or word.replace("-", "_") in _known_fields():
                raise RulesError(f"rule option {quoted(word)} needs name=value")
            raise RulesError(
                f"unknown rule family {quoted(word)} (families: {', '.join(FAMILIES)}; "
                "options are name=value)"
            )
        k, v = (s.strip() for s in item.split("=", 1))
        items.append((k, v))
    return _checked_items(items, "rules", from_text=True)


def _rule_words(spec: str) -> list[str]:
    """The items of a rule string: separated by commas or spaces (``smear target=15``),
    spaces around ``=`` allowed, and ``deck=2,9-A`` (12.3) one item despite its comma."""
    words: list[str] = []
    for piece in spec.split(","):
        if not piece.strip():
            raise RulesError(f"empty rule option in {quoted(spec)}")
        tokens = re.sub(r"\s*=\s*", "=", piece.strip()).split()
        if words and tokens[0].upper() == "9-A" and words[-1].lower().replace(" ", "") == "deck=2":
            words[-1] += "," + tokens.pop(0)
        words += tokens
    return words


def document_rule_values(spec: object) -> dict[str, object]:
    """The rule options a JSON document sets in its ``"rules"`` (a view, a position, a
    record, a saved game, an engine request): a rule string or an object, never a file.
    A document may come from another program, so it never makes pitchsim open a file
    (docs/limits.md); TOML files come only from the command line's ``--rules``.  This
    is the one reader of a document's rules; nothing here touches the file system."""
    if isinstance(spec, Mapping):
        return rule_values(spec, files=False)
    if not isinstance(spec, str):
        raise RulesError(
            f'give a rule string like "low=dealt,follow=suit" or an object, not {quoted(spec)}'
        )
    word = spec.strip()
    if "=" not in word and ("/" in word or "\\" in word or word.lower().endswith(".toml")):
        # Told apart by its spelling alone: whether such a file exists is never looked up.
        raise RulesError(
            f"{quoted(word)} names a file: a document's rules are a rule string or an "
            "object, never a file (TOML files only with --rules on the command line)"
        )
    return rule_values(spec, files=False)


def document_rules(spec: object) -> Rules:
    """The rules a JSON document states (:func:`document_rule_values`), checked, and
    played by the commands."""
    return stated_rules(spec)[1]


def stated_rules(spec: object) -> tuple[dict[str, object], Rules]:
    """The options a JSON document's ``"rules"`` sets (:func:`document_rule_values`) and
    the rules they make.  A rule string is read once a process: a table reads its rules
    back from every view it hands a seat."""
    if isinstance(spec, str):
        given, rules = _stated_text(spec)
        return dict(given), rules
    given = document_rule_values(spec)
    return given, Rules.parse(given)


@functools.lru_cache(maxsize=256)
def _stated_text(spec: str) -> tuple[tuple, Rules]:
    given = document_rule_values(spec)
    return tuple(given.items()), Rules.parse(given)


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
        value = doc["rules"]
        if not isinstance(value, dict):  # ("rules = 'house.toml'": never another file)
            what = quoted(value) if isinstance(value, str) else quoted(str(value))
            raise RulesError(f"rules file {path}: rules is a [rules] table of options, not {what}")
        if len(doc) != 1:
            raise RulesError(
                f"rules file {path}: put every option at the top level or all of them "
                "under one [rules] table, not both"
            )
        doc = doc["rules"]
    return _checked_items(doc.items(), f"rules file {path}", from_text=False)


def _known_fields() -> list[str]:
    return [*BASE_FIELDS, *FAMILY_FIELDS]


def _checked_items(items, where: str, from_text: bool) -> dict[str, object]:
    fields = _known_fields()
    out: dict[str, object] = {}
    go_out = None
    for key, value in items:
        if not isinstance(key, str):
            raise RulesError(f"{where}: rule option names are strings, not {quoted(key)}")
        k = key.strip().replace("-", "_")
        if k == "go_out":  # VARIANTS.md 12.5: an alias of win, read after the rest
            if go_out is not None:
                raise RulesError(f"{where}: rule option go-out is given twice")
            go_out = value.strip() if isinstance(value, str) else value
            if go_out not in GO_OUT:
                raise RulesError(f"go-out must be 'bid' or 'any', not {quoted(value)}")
            continue
        if k not in fields:
            known = ", ".join(map(_name, [*fields, "go_out"]))
            raise RulesError(f"unknown rule option {quoted(key)} (known: {known})")
        if k in out:
            raise RulesError(f"{where}: rule option {_name(k)} is given twice")
        out[k] = _from_text(k, value) if from_text else value
        _check_item(k, out[k])
    if go_out is not None:
        win = out.setdefault("win", GO_OUT[go_out])
        if win != GO_OUT[go_out]:
            raise RulesError(
                f"go-out={go_out} means win={GO_OUT[go_out]}, not win={win} "
                "(VARIANTS.md 6.3.14): give one"
            )
    return out


def _from_text(name: str, text: str) -> object:
    if name == "deck":  # 12.3: the ace's letter in either case
        return text.upper()
    if name == "hands":  # 12.4: off or a number of hands
        if text.lower() == "off":
            return "off"
        if not text.isascii() or not text.isdigit() or len(text) > 20:
            raise RulesError(
                f"hands takes off or a number of hands 1-{MAX_HANDS}, not {quoted(text)}"
            )
        return int(text)
    if name in WORD_VALUES and text.lower() not in _TRUE + _FALSE:
        if text.lower() == WORD_VALUES[name]:
            return WORD_VALUES[name]
        word = WORD_VALUES[name]
        raise RulesError(f"{_name(name)} takes true or false (or {word}), not {text!r}")
    if name in FAMILY_BOOLEANS:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise RulesError(f"{_name(name)} takes true or false, not {quoted(text)}")
    if name in FAMILY_INTS:
        if not text.isascii() or not text.lstrip("+-").isdigit():
            raise RulesError(f"{_name(name)} takes a whole number, not {quoted(text)}")
        if len(text) > 20:  # int() of thousands of digits is slow, then refused anyway
            lo, hi = FAMILY_INTS[name]
            raise RulesError(f"{_name(name)} must be {lo}-{hi}, not {text[:20]}...")
        return int(text)
    return text


def _check_value(name: str, value: object) -> None:
    """``value`` of the type and in the set or range the base game allows its option
    ``name`` (RULES.md): a :class:`RulesError` naming it otherwise."""
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


def _check_item(name: str, value: object) -> None:
    """One option as read, before the rules are put together: of the right type and in
    the set or range any family allows.  What depends on the other options (min-bid's
    range, the combinations of VARIANTS.md 6.3) is checked when the rules are built."""
    if isinstance(value, (list, tuple, dict, set)):
        kind = "table" if isinstance(value, dict) else "list"
        raise RulesError(f"{_name(name)} takes a single value, not a {kind}")
    if name == "family":
        if not isinstance(value, str) or value not in FAMILIES:
            raise RulesError(f"unknown rule family {value!r} (families: {', '.join(FAMILIES)})")
    elif name in WORD_VALUES:
        if value != WORD_VALUES[name] and not isinstance(value, bool):
            word = WORD_VALUES[name]
            raise RulesError(f"{_name(name)} takes true or false (or {word}), not {value!r}")
    elif name in FAMILY_CHOICES:
        allowed = FAMILY_CHOICES[name]
        if not isinstance(value, str) or value not in allowed:
            raise RulesError(
                f"{_name(name)} must be {' or '.join(map(repr, allowed))}, not {value!r}"
            )
    elif name == "min_bid":  # its range depends on the maximum bid: checked when built
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"min-bid takes a whole number, not {value!r}")
    elif name == "deal":
        if isinstance(value, bool) or value not in (6, 9):
            raise RulesError(f"deal must be 6 or 9, not {value!r}")
    elif name == "hands":
        if value != "off" and (
            isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HANDS
        ):
            raise RulesError(f"hands takes off or a number of hands 1-{MAX_HANDS}, not {value!r}")
    elif name in FAMILY_INTS:
        _check_value_in(name, value, *FAMILY_INTS[name])
    elif not isinstance(value, bool):
        raise RulesError(f"{_name(name)} takes true or false, not {value!r}")


def _check_value_in(name: str, value: object, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{_name(name)} takes a whole number, not {value!r}")
    if not lo <= value <= hi:
        span = f"{lo} or {hi}" if hi == lo + 1 else f"{lo}-{hi}"
        raise RulesError(f"{_name(name)} must be {span}, not {value}")


# ---- the rule families (VARIANTS.md 6.1): presets of generic options ------------------

MAX_PLAYERS = 7


@dataclass(frozen=True)
class Family:
    name: str
    title: str  # one line: what it is and where it comes from
    preset: dict  # option -> value, for every option it sets differently from the base
    players: tuple[int, int]  # lowest and highest player count (VARIANTS.md 6.4)
    # options whose value makes the family what it is: option -> allowed values
    fixed: dict = dataclasses.field(default_factory=dict)
    clause: str = ""  # the VARIANTS.md section


# VARIANTS.md 8.13, Trickster's five-point game: also the ground of six-point (9.1).
FIVE_POINT = {
    "partnership": True,
    "jick": True,
    "trump": "named",
    "lead_trump": True,
    "min_bid": 2,
    "dealer_steal": False,
    "all_pass": "redeal",
    "low": "dealt",
    "target": 11,
    "win": "pitcher-first",
}

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "auction-pitch",
            "four-point Auction Pitch, pitchsim's base game (RULES.md)",
            {},
            (2, 7),
            clause="1",
        ),
        Family(
            "setback",
            "partnership four-point Setback with bids 2-4, as brianberns/Setback plays it",
            {
                "partnership": True,
                "min_bid": 2,
                "dealer_steal": "max",
                "all_pass": "next-dealer",
                "target": 11,
                "win": "highest",
            },
            (4, 4),
            clause="2",
        ),
        Family(
            "smear",
            "five-point Smear with the jick, as mkokotovich/pysmear plays it",
            {
                "jick": True,
                "trump": "named",
                "min_bid": 2,
                "dealer_steal": False,
                "all_pass": "dealer-set",
                "low": "dealt",
                "target": 11,
                "win": "pitcher-first",
            },
            (2, 7),
            {"jick": (True,)},
            clause="3",
        ),
        Family(
            "ten-point",
            "ten-point Pitch with two jokers, as TricksterCards plays it",
            {
                "partnership": True,
                "jokers": 2,
                "jick": True,
                "game": "ten",
                "three": True,
                "deal": 9,
                "discard": "non-trump",
                "rob": True,
                "trump": "named",
                "lead_trump": True,
                "min_bid": 5,
                "dealer_steal": False,
                "all_pass": "redeal",
                "low": "dealt",
                "follow": "only",
                "target": 32,
                "win": "pitcher-first",
            },
            (4, 6),
            {"jokers": (2, 1), "jick": (True,), "three": (True,)},
            clause="4",
        ),
        Family(
            "five-point",
            "five-point Pitch with the jick, partners and trump named, as TricksterCards plays it",
            FIVE_POINT,
            (2, 4),
            {"jick": (True,)},
            clause="8",
        ),
        Family(
            "six-point",
            "six-point Pitch with the jick and one joker, partners and trump named, as "
            "TricksterCards plays it",
            FIVE_POINT | {"jokers": 1, "joker_game": "half"},  # 9.1, 9.6: five-point's and these
            (2, 4),
            {"jokers": (1,), "jick": (True,)},
            clause="9",
        ),
        Family(
            "seven-point",
            "seven-point Pitch with two jokers, the jick and the ten, as TricksterCards plays it",
            {
                "partnership": True,
                "jokers": 2,
                "jick": True,
                "game": "ten",
                "deal": 9,
                "discard": "non-trump",
                "rob": True,
                "trump": "named",
                "lead_trump": True,
                "min_bid": 3,
                "dealer_steal": False,
                "all_pass": "redeal",
                "low": "dealt",
                "target": 21,
                "win": "pitcher-first",
            },
            (4, 4),
            {"jokers": (2,), "jick": (True,), "game": ("ten",)},
            clause="10",
        ),
        Family(
            "cinch",
            "Cinch (Double Pedro): the two pedros worth 5 each, 9 dealt, the dealer robs "
            "the pack, partners, to 51",
            {
                "partnership": True,
                "game": "ten",
                "five": "pedro",
                "deal": 9,
                "discard": "non-trump",
                "discards": "shown",
                "rob": "dealer",
                "trump": "named",
                "min_bid": 1,
                "dealer_steal": False,
                "all_pass": "dealer-free",
                "target": 51,
                "win": "pitcher-first",
            },
            (4, 4),
            {"five": ("pedro",), "game": ("ten",), "jick": (False,), "jokers": (0,)},
            clause="11",
        ),
    )
}

# The order of VARIANTS.md 6.1, in which the complete rules are printed.
OPTION_ORDER = (
    "partnership",
    "partner",
    "jokers",
    "jick",
    "game",
    "three",
    "five",
    "deck",
    "deal",
    "kitty",
    "discard",
    "discards",
    "rob",
    "trump",
    "lead_trump",
    "min_bid",
    "dealer_steal",
    "all_pass",
    "low",
    "follow",
    "shoot",
    "joker_game",
    "set",
    "target",
    "hands",
    "win",
    "set_pitcher_wins",
)


_PRESET_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _conflict(family: Family, key: str, value: object) -> str:
    allowed = family.fixed[key]
    usual = family.preset.get(key, allowed[0])
    others = [a for a in allowed if a != usual]
    alt = f" (or {', '.join(map(_text, others))})" if others else ""
    return (
        f"{family.name},{_name(key)}={_text(value)}: {family.name} is played with "
        f"{_name(key)}={_text(usual)}{alt}; start from auction-pitch to build another game"
    )


def build_rules(values: dict) -> Rules:
    """The rules that checked option ``values`` (field names; ``family`` a family name)
    stand for: the family's preset (auction-pitch when none is named, the base game)
    with the given options on top.  One rules type serves every preset;
    ``Rules.base_game`` says when they are the base game's."""
    family = values.get("family")
    fam = FAMILIES[family or "auction-pitch"]
    for key, allowed in fam.fixed.items():
        if key in values and values[key] not in allowed:
            raise RulesError(_conflict(fam, key, values[key]))
    return Rules(**(fam.preset | values | {"family": fam.name}))


# The base game (RULES.md) in the one rules type: every library default.
BASE_RULES = Rules.parse("auction-pitch")


def family_of(rules: Rules) -> str:
    return rules.family


def label(rules: Rules) -> str:
    """The family and what differs from its preset: ``smear,target=15``."""
    fam = FAMILIES[family_of(rules)]
    start = Rules(**(fam.preset | {"family": fam.name}))
    changed = [
        f"{_name(k)}={_text(getattr(rules, k))}"
        for k in OPTION_ORDER
        if getattr(rules, k) != getattr(start, k)
    ]
    return ",".join([fam.name, *changed])


@functools.lru_cache(maxsize=256)  # (every view a table writes carries it)
def spec(rules: Rules) -> str:
    """The complete rules as one rule string that :meth:`Rules.parse` reads back."""
    doc = rules.describe()
    items = [doc.pop("family")] if "family" in doc else []
    return ",".join(items + [f"{k}={_text(v)}" for k, v in doc.items()])
