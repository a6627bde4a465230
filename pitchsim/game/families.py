"""Rule families: named presets of the generic rule options (VARIANTS.md sections 1-4, 6).

A family is data, not code: a name, a table of option values and the player counts it
is played with.  ``--rules smear`` starts from smear's values and ``--rules
smear,target=15`` changes one of them; the result is a :class:`FamilyRules`, whose
:meth:`~FamilyRules.describe` names the complete rules (OpenSpiel style, ANCHORS.md 1)
so that a saved result always carries them.

The base game (``auction-pitch``, RULES.md) stays the plain :class:`Rules` with exactly
its eight options, so it parses, prints and checksums as it always did; rules that add
nothing to it normalise back to a plain :class:`Rules`.  Only the plain :class:`Rules`
are played by the numba kernels so far: :meth:`Rules.require_kernels` is the one check
every command that runs them passes through (the CLI names the command).  The reference
engine (:mod:`pitchsim.game.reference.families`) plays every family.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .rules import (
    FAMILY_FIELDS,
    Rules,
    RulesError,
    _check_item,
    _name,
)
from .variants import BY_KEY as BASE_MEANINGS
from .variants import Variant

MAX_PLAYERS = 7


class FamilyNotPlayed(RulesError):
    """Rules of a family that a command (or the kernels) cannot play yet."""

    def __init__(self, rules: Rules, who: str) -> None:
        self.rules = rules
        super().__init__(
            f"{label(rules)} is not played by {who} yet: so far only `pitchsim rules` and "
            "the reference engine know the rule families (the kernels play auction-pitch)"
        )


@dataclass(frozen=True)
class Family:
    name: str
    title: str  # one line: what it is and where it comes from
    preset: dict  # option -> value, for every option it sets differently from the base
    players: tuple[int, int]  # lowest and highest player count (VARIANTS.md 6.4)
    # options whose value makes the family what it is: option -> allowed values
    fixed: dict = dataclasses.field(default_factory=dict)
    clause: str = ""  # the VARIANTS.md section


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family("auction-pitch", "four-point Auction Pitch, pitchsim's base game (RULES.md)", {},
               (2, 7), clause="1"),
        Family("setback", "partnership four-point Setback with bids 2-4, as brianberns/Setback "
               "plays it", {"partnership": True, "min_bid": 2, "dealer_steal": "max",
                            "all_pass": "next-dealer", "target": 11, "win": "highest"},
               (4, 4), clause="2"),
        Family("smear", "five-point Smear with the jick, as mkokotovich/pysmear plays it",
               {"jick": True, "trump": "named", "min_bid": 2, "dealer_steal": False,
                "all_pass": "dealer-set", "low": "dealt", "target": 11,
                "win": "pitcher-first"}, (2, 7), {"jick": (True,)}, clause="3"),
        Family("ten-point", "ten-point Pitch with two jokers, as TricksterCards plays it",
               {"partnership": True, "jokers": 2, "jick": True, "game": "ten", "three": True,
                "deal": 9, "discard": "non-trump", "rob": True, "trump": "named",
                "lead_trump": True, "min_bid": 5, "dealer_steal": False, "all_pass": "redeal",
                "low": "dealt", "follow": "only", "target": 32, "win": "pitcher-first"},
               (4, 6), {"jokers": (2, 1), "jick": (True,), "three": (True,)}, clause="4"),
    )
}  # fmt: skip

# The order of VARIANTS.md 6.1, in which the complete rules are printed.
OPTION_ORDER = ("partnership", "jokers", "jick", "game", "three", "five", "deal", "discard",
                "rob", "trump", "lead_trump", "min_bid", "dealer_steal", "all_pass", "low",
                "follow", "shoot", "target", "win", "set_pitcher_wins")  # fmt: skip


@dataclass(frozen=True)
class FamilyRules(Rules):
    """The rules of one game of any family: the base options plus the generic ones of
    VARIANTS.md 6.1.  Build them with :meth:`Rules.parse` (``"smear,target=15"``)."""

    family: str = "auction-pitch"
    jokers: int = 0  # 0, 1 (the high joker) or 2
    jick: bool = False  # the other jack of trump's colour is a trump worth 1
    game: str = "count"  # "count": the Game point | "ten": the 10 of trump is worth 1
    three: bool = False  # the 3 of trump is worth 3
    five: bool = False  # the 5 of trump is worth 5
    deal: int = 6  # cards dealt to each player: 6 or 9 (10 with 5 players, see cards_each)
    discard: str = "none"  # "non-trump": discard non-trumps and draw to 6 after trump
    rob: bool = False  # the pitcher takes the rest of the stock and comes down to 6
    trump: str = "first-lead"  # "first-lead" | "named" (before any discard)
    lead_trump: bool = False  # the first lead must be a trump if the pitcher holds one
    shoot: bool = False  # a "shoot" call above the maximum bid
    win: str = "pitcher"  # "pitcher" | "pitcher-first" | "highest"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_item(f.name, getattr(self, f.name))
        family = FAMILIES[self.family]
        for key, allowed in family.fixed.items():
            if getattr(self, key) not in allowed:
                raise RulesError(_conflict(family, key, getattr(self, key)))
        if not 1 <= self.min_bid <= self.max_bid:  # 6.1 (the base game keeps 1 or 2, 1.2)
            raise RulesError(
                f"min-bid must be 1-{self.max_bid} with a maximum bid of {self.max_bid}, "
                f"not {self.min_bid}"
            )
        # VARIANTS.md 6.3: options that need one another.
        needs = [("deal", self.deal == 9, "discard=non-trump", self.discard == "non-trump"),
                 ("discard", self.discard == "non-trump", "trump=named", self.trump == "named"),
                 ("rob", self.rob, "trump=named", self.trump == "named"),
                 ("rob", self.rob, "discard=non-trump", self.discard == "non-trump"),
                 ("follow", self.follow == "only", "trump=named", self.trump == "named"),
                 ("lead-trump", self.lead_trump, "trump=named", self.trump == "named"),
                 ("set-pitcher-wins", self.set_pitcher_wins, "win=pitcher",
                  self.win == "pitcher")]  # fmt: skip
        for key, given, need, met in needs:
            if given and not met:
                value = _text(getattr(self, key.replace("-", "_")))
                raise RulesError(f"{key}={value} needs {need} (VARIANTS.md 6.3)")

    # ---- what the options add up to ---------------------------------------------------

    @property
    def max_bid(self) -> int:
        """The points the options can award (VARIANTS.md 6.2): High, Low, Jack, Game or
        the ten, the jick, each joker, the 3 (3) and the 5 (5)."""
        return 4 + self.jick + self.jokers + 3 * self.three + 5 * self.five

    def cards_each(self, players: int) -> int:
        """Cards dealt to each player: ``deal``, but 10 with 5 players, 9 to deal and
        two jokers, from a pack without the four 4s (VARIANTS.md 4.3)."""
        return 10 if self.no_fours(players) else self.deal

    def no_fours(self, players: int) -> bool:
        return self.deal == 9 and self.jokers == 2 and players == 5

    def pack_size(self, players: int) -> int:
        return 52 + self.jokers - 4 * self.no_fours(players)

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
            raise RulesError(f"players must be 2-7, not {players}")
        lo, hi = FAMILIES[self.family].players
        if not lo <= players <= hi:
            span = str(lo) if lo == hi else f"{lo}-{hi}"
            raise RulesError(f"{self.family} is played by {span} players, not {players}")
        if self.partnership and players != 4:
            raise RulesError(f"partnership needs exactly 4 players, not {players}")
        if players * self.cards_each(players) > self.pack_size(players):
            raise RulesError(
                f"{players} players x {self.cards_each(players)} cards is more than the "
                f"{self.pack_size(players)}-card pack"
            )

    def describe(self) -> dict:
        """The complete rules: the family and every option, in VARIANTS.md 6.1 order."""
        return {"family": self.family} | {_name(k): getattr(self, k) for k in OPTION_ORDER}

    def to_array(self):
        raise FamilyNotPlayed(self, "the numba kernels")

    def require_kernels(self, who: str) -> None:
        raise FamilyNotPlayed(self, who)


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
    stand for: a plain :class:`Rules` when they stay inside the base game's options,
    else a :class:`FamilyRules` starting from the family's preset (auction-pitch when
    none is named) with the given options on top."""
    family = values.get("family")
    extended = (
        family is not None
        or any(k in FAMILY_FIELDS for k in values)
        or values.get("dealer_steal") == "max"
        or values.get("all_pass") in ("next-dealer", "dealer-set")
        or values.get("follow") == "only"
    )
    if not extended:
        return Rules(**values)
    fam = FAMILIES[family or "auction-pitch"]
    for key, allowed in fam.fixed.items():
        if key in values and values[key] not in allowed:
            raise RulesError(_conflict(fam, key, values[key]))
    return normalised(FamilyRules(**(fam.preset | values | {"family": fam.name})))


def normalised(rules: FamilyRules) -> Rules:
    """``rules`` as a plain :class:`Rules` when they are the base game's, else as given."""
    base = {f.name for f in dataclasses.fields(Rules)}
    if rules.family == "auction-pitch" and all(
        getattr(rules, f) == getattr(FamilyRules(), f) for f in FAMILY_FIELDS
    ):
        plain = {k: getattr(rules, k) for k in base}
        try:
            return Rules(**plain)
        except RulesError:
            return rules  # base options with a family-only value (dealer-steal=max, ...)
    return rules


def as_family(rules: Rules) -> FamilyRules:
    """Any rules as a :class:`FamilyRules` (the base game as auction-pitch), for the
    reference engine, which reads every generic option."""
    if isinstance(rules, FamilyRules):
        return rules
    base = {f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)}
    return FamilyRules(**base)


def family_of(rules: Rules) -> str:
    return rules.family if isinstance(rules, FamilyRules) else "auction-pitch"


def label(rules: Rules) -> str:
    """The family and what differs from its preset: ``smear,target=15``."""
    fam = FAMILIES[family_of(rules)]
    preset = as_family(rules)
    start = FamilyRules(**(fam.preset | {"family": fam.name}))
    changed = [f"{_name(k)}={_text(getattr(preset, k))}" for k in OPTION_ORDER
               if getattr(preset, k) != getattr(start, k)]  # fmt: skip
    return ",".join([fam.name, *changed])


def spec(rules: Rules) -> str:
    """The complete rules as one rule string that :meth:`Rules.parse` reads back."""
    doc = rules.describe()
    items = [doc.pop("family")] if "family" in doc else []
    return ",".join(items + [f"{k}={_text(v)}" for k, v in doc.items()])


# ---- what each option means, for `pitchsim rules` and docs/rules.md ----------------------

OPTIONS = (
    Variant("jokers", ("0", "1", "2"), {
        "0": "no jokers: a 52-card pack",
        "1": "one joker (HJ), a trump worth 1 just below the jick (or the jack)",
        "2": "two jokers, HJ above LJ, trumps worth 1 each just below the jick (or jack)"}),
    Variant("jick", ("false", "true"), {
        "false": "no jick",
        "true": "the other jack of trump's colour is a trump below the jack, worth 1"}),
    Variant("game", ("count", "ten"), {
        "count": "Game: 1 to the single highest count of 10s, aces, kings, queens, jacks won",
        "ten": "no Game point: the 10 of trump is worth 1 to its captor"}),
    Variant("three", ("false", "true"), {
        "false": "the 3 of trump carries no point",
        "true": "the 3 of trump is worth 3 to its captor"}),
    Variant("five", ("false", "true"), {
        "false": "the 5 of trump carries no point",
        "true": "the 5 of trump is worth 5 to its captor"}),
    Variant("deal", ("6", "9"), {
        "6": "6 cards each",
        "9": "9 cards each (10 each from 50 with 5 players and two jokers), then down to 6"}),
    Variant("discard", ("none", "non-trump"), {
        "none": "no discard: the cards dealt are the cards played",
        "non-trump": "after trump is named each player discards non-trumps and draws to 6"}),
    Variant("rob", ("false", "true"), {
        "false": "the rest of the stock stays out of play",
        "true": "the pitcher takes the rest of the stock and comes down to 6"}),
    Variant("trump", ("first-lead", "named"), {
        "first-lead": "the suit of the pitcher's first card is trump",
        "named": "the pitcher names trump after the auction"}),
    Variant("lead-trump", ("false", "true"), {
        "false": "the pitcher may lead any card first",
        "true": "the first lead must be a trump if the pitcher holds one"}),
    Variant("shoot", ("false", "true"), {
        "false": "no shoot-the-moon",
        "true": "a player not below zero may shoot: made, the side wins; set, it loses the "
                "maximum bid"}),
    Variant("win", ("pitcher", "pitcher-first", "highest"), {
        "pitcher": "only a pitcher who made the bid and is at or past the target wins",
        "pitcher-first": "any side at the target ends the game: the pitcher's side first, "
                         "else the highest total (ties share)",
        "highest": "the single highest total at or past the target wins; a tie plays on"}),
)  # fmt: skip
EXTRA_VALUES = {
    "min-bid": {"N": "the lowest bid is N"},
    "dealer-steal": {"max": "the dealer may match only a bid of the maximum"},
    "all-pass": {"next-dealer": "the dealer may pass; then nobody scores and the deal passes",
                 "dealer-set": "the dealer may pass; then the dealer's side scores -2"},
    "follow": {"only": "only trumps are played; a player without trump is out of the hand"},
}  # fmt: skip
OPTION_MEANINGS = {v.key: v for v in OPTIONS}


def meaning(key: str, value: str) -> str:
    """What option ``key`` set to ``value`` does, in a player's words."""
    if key in OPTION_MEANINGS:
        return OPTION_MEANINGS[key].meaning.get(value, "")
    extra = EXTRA_VALUES.get(key, {})
    if value in extra:
        return extra[value]
    m = BASE_MEANINGS[key].meaning
    if value in m:
        return m[value]
    template = m.get("N") or extra.get("N", "")
    return template.replace("N", value, 1) if template else ""


# ---- the whole family in words (``pitchsim rules --rules smear``, docs/rules.md) ------------


def trump_order_text(rules: Rules, trump: int = 2) -> str:
    """The trump suit high to low for ``trump`` (hearts by default), as cards."""
    from .cards import format_card
    from .reference.families import trump_order

    return " ".join(format_card(c) for c in reversed(trump_order(as_family(rules), trump)))


def point_cards(rules: Rules) -> list[tuple[str, int, str]]:
    """(point, value, who gets it) for every point the rules award (VARIANTS.md 0.7, 0.8,
    4.10); the values add up to the maximum bid."""
    r = as_family(rules)
    out = [("High, the highest trump in play (never a joker)", 1, "its captor"),
           ("Low, the lowest trump in play (never a joker)", 1,
            "its holder when play starts" if r.low == "dealt" else "its captor"),
           ("Jack, the jack of trump", 1, "its captor")]  # fmt: skip
    if r.jick:
        out.append(("Jick, the other jack of trump's colour", 1, "its captor"))
    out += [(f"{name} joker", 1, "its captor") for name in ("High", "Low")[: r.jokers]]
    if r.game == "ten":
        out.append(("the 10 of trump", 1, "its captor"))
    else:
        out.append(("Game, the single highest count of cards won (ties: nobody)", 1,
                    "the side with that count"))  # fmt: skip
    if r.three:
        out.append(("the 3 of trump", 3, "its captor"))
    if r.five:
        out.append(("the 5 of trump", 5, "its captor"))
    return out


def _members(r: FamilyRules) -> str:
    extra = (["the jick"] if r.jick else []) + {0: [], 1: ["the joker"], 2: ["both jokers"]}[
        r.jokers
    ]
    verb = "is a trump" if len(extra) == 1 and r.jokers < 2 else "are trumps"
    return " and ".join(extra).capitalize() + " " + verb


def family_text(rules: Rules) -> str:
    """The rules of a family in full, generated from its options, for ``pitchsim rules``."""
    r = as_family(rules)
    fam = FAMILIES[r.family]
    lo, hi = fam.players
    players = str(lo) if lo == hi else f"{lo}-{hi}"
    side = "team" if r.partnership else "player"
    deck = (
        "a 52-card pack"
        + {0: "", 1: " and one joker (HJ)", 2: " and two jokers (HJ, LJ)"}[r.jokers]
    )
    title = fam.title
    if r.family == "auction-pitch":  # only a game of its own reaches here: say so
        title = "a game built from auction-pitch (RULES.md) with the generic options of 6.1"
    lines = [f"{label(r)}: {title} (VARIANTS.md {fam.clause}); docs/rules.md has the "
             "full text.",
             ("- Players: 4, two teams of two, partners opposite"
              + (f" ({players} each for himself under partnership=false)." if lo != hi else ".")
              if r.partnership else f"- Players: {players}, each for himself."),
             f"- Cards: {deck}; {r.deal} cards each"
             + (" (10 each from the pack without the 4s with 5 players)." if r.jokers == 2 and
                r.deal == 9 else ".")]  # fmt: skip
    if r.discard == "non-trump":
        lines.append("- After trump is named each player from the pitcher's left (pitcher last) "
                     "discards every non-trump, burns trumps beyond 6 (non-point trumps, lowest "
                     "first) and draws back to 6" + (
                         "; the pitcher instead takes the rest of the stock and comes down to 6."
                         if r.rob else "."))  # fmt: skip
    bids = f"pass or bid {r.min_bid}-{r.max_bid}, each higher than the last"
    steal = {
        True: "; the dealer may steal by matching a bid below the maximum",
        False: "; the dealer must outbid too",
        "max": "; the dealer may match only a bid of the maximum",
    }[r.dealer_steal]
    lines.append(
        f"- Auction: one round, left of the dealer first, dealer last: {bids}{steal}."
        + (" A player not below zero may shoot instead." if r.shoot else "")
    )
    lines.append("- All pass: " + meaning("all-pass", r.all_pass) + ".")
    lines.append("- Trump: " + ("the pitcher names a suit after the auction." if r.trump ==
                                "named" else "the suit of the pitcher's first card"
                                + (" (never a joker)" if r.jokers else "")
                                + ("; a jack led first makes its own suit trump" if r.jick
                                   else "") + ".")
                 + (" The first lead must be a trump if the pitcher holds one."
                    if r.lead_trump and r.follow != "only" else ""))  # fmt: skip
    order = trump_order_text(r)
    lines.append(f"- Trump order with hearts trump, high to low: {order} "
                 f"({len(order.split())} cards)."
                 + (f" {_members(r)} for leading, following and winning."
                    if r.jick or r.jokers else ""))  # fmt: skip
    lines.append("- Play: " + meaning("follow", r.follow) + ".")
    pts = point_cards(r)
    lines.append(f"- Points ({r.max_bid} in all when every point card is in play):")
    lines += [f"    {name}: {value} to {who}" for name, value, who in pts]
    lines.append(
        f"- A {side} that made the bid (won at least that many points) scores all "
        "it won; a set one loses the bid. The others score what they won."
    )
    lines.append(f"- Target {r.target}: " + meaning("win", r.win) + ".")
    return "\n".join(lines) + "\n"
