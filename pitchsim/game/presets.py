"""The presets in words: what each named preset of the generic rule options fixes
(VARIANTS.md 1-4, 6, 8-12), each option's meaning, the point cards, the trump order
and the whole rules in a few lines, for ``pitchsim rules`` and docs/rules.md.

A preset is data, not code: a name, a table of option values and the player counts it
is played with; the table itself lives in :mod:`pitchsim.game.rules` (``FAMILIES``),
so that parsing needs no other module, and its names are re-exported here.  ``--rules
smear`` starts from smear's values and ``--rules smear,target=15`` changes one of them;
the rules' ``describe`` names the complete rules (OpenSpiel style, ANCHORS.md 1) so
that a saved result always carries them.  auction-pitch (RULES.md) is one preset
among the others: its rules of the base game's shape (``Rules.base_game``) describe
themselves by its eight options, so it parses, prints and checksums as it always did.
Every preset is played by the one kernel engine (:mod:`pitchsim.kernels`) and by the
reference engine (:mod:`pitchsim.game.reference`).
"""

from __future__ import annotations

from .rules import (  # noqa: F401  (the families' names, re-exported for their users)
    FAMILIES,
    OPTION_ORDER,
    Family,
    Rules,
    _name,
    _text,
    build_rules,
    family_of,
    label,
    spec,
)
from .variants import BY_KEY as BASE_MEANINGS
from .variants import Variant

# ---- what each option means, for `pitchsim rules` and docs/rules.md ----------------------

OPTIONS = (
    Variant(
        "partner",
        ("none", "called", "announced"),
        {
            "none": "no called partner",
            "called": "5 or 6 alone: once trump is named the pitcher calls a trump; its holder "
            "is his partner for the hand, secret until he plays it to the first trick",
            "announced": "5 or 6 alone: after the draw the pitcher calls any card; its holder "
            "is his partner for the hand and says so at once",
        },
    ),
    Variant(
        "jokers",
        ("0", "1", "2"),
        {
            "0": "no jokers: the deck= pack alone (52 cards unless deck says otherwise)",
            "1": "one joker (HJ), a trump worth 1 just below the jick (or the jack)",
            "2": "two jokers, HJ above LJ, trumps worth 1 each just below the jick (or jack)",
        },
    ),
    Variant(
        "jick",
        ("false", "true"),
        {
            "false": "no jick",
            "true": "the other jack of trump's colour is a trump below the jack, worth 1",
        },
    ),
    Variant(
        "game",
        ("count", "ten"),
        {
            "count": "Game: 1 to the single highest count of 10s, aces, kings, queens, jacks won",
            "ten": "no Game point: the 10 of trump is worth 1 to its captor",
        },
    ),
    Variant(
        "three",
        ("false", "true"),
        {
            "false": "the 3 of trump carries no point",
            "true": "the 3 of trump is worth 3 to its captor",
        },
    ),
    Variant(
        "five",
        ("false", "true", "pedro"),
        {
            "false": "the 5 of trump carries no point",
            "true": "the 5 of trump is worth 5 to its captor",
            "pedro": "both 5s of trump's colour are worth 5 to their captor; the other 5 (left "
            "pedro) is a trump just below the 5 of trump",
        },
    ),
    Variant(
        "deck",
        ("2-A", "5-A", "9-A", "2,9-A"),
        {
            "2-A": "the 52-card pack (before any jokers)",
            "5-A": "a 40-card pack without the 2s, 3s and 4s; Low is its lowest trump in play",
            "9-A": "a 24-card pack, 9 to ace; Low is its lowest trump in play",
            "2,9-A": "a 28-card pack, the 2s and 9 to ace; Low is its lowest trump in play",
        },
    ),
    Variant(
        "deal",
        ("6", "9"),
        {
            "6": "6 cards each",
            "9": "9 cards each (10 each from 50 with 5 players and two jokers), then down to 6",
        },
    ),
    Variant(
        "discard",
        ("none", "non-trump", "choice", "draw"),
        {
            "none": "no discard: the cards dealt are the cards played",
            "non-trump": "after trump is named each player discards non-trumps and draws to 6",
            "choice": "after trump (and any kitty) each player from the dealer's left discards "
            "to 6, lowest non-trumps first (pitchsim's choice for him); no draw",
            "draw": "after trump (and any kitty) each player from the dealer's left discards "
            "his non-trumps, keeping 3 cards, and draws back to 6",
        },
    ),
    Variant(
        "discards",
        ("hidden", "shown"),
        {
            "hidden": "discards are face down (only burnt trumps are shown)",
            "shown": "every discard is face up and seen by every player, a kitty's too",
        },
    ),
    Variant(
        "rob",
        ("false", "true", "dealer"),
        {
            "false": "the rest of the stock stays out of play",
            "true": "the pitcher takes the rest of the stock and comes down to 6",
            "dealer": "the dealer draws last and takes the rest of the stock: every trump in "
            "it, non-trumps of his choice to reach 6",
        },
    ),
    Variant(
        "trump",
        ("first-lead", "named"),
        {
            "first-lead": "the suit of the pitcher's first card is trump",
            "named": "the pitcher names trump after the auction",
        },
    ),
    Variant(
        "lead-trump",
        ("false", "true"),
        {
            "false": "the pitcher may lead any card first",
            "true": "the first lead must be a trump if the pitcher holds one",
        },
    ),
    Variant(
        "shoot",
        ("false", "true"),
        {
            "false": "no shoot-the-moon",
            "true": "a player not below zero may shoot: made, the side wins; set, it loses the "
            "maximum bid",
        },
    ),
    Variant(
        "joker-game",
        ("0", "half"),
        {
            "0": "a joker counts 0 toward Game",
            "half": "each joker counts 1/2 toward Game (a tie of the counts: nobody); only "
            "with game=count and jokers",
        },
    ),
    Variant(
        "set",
        ("minus", "to-others"),
        {
            "minus": "a set side loses its bid",
            "to-others": "a set side scores 0, and every other side its points plus the bid",
        },
    ),
    Variant(
        "hands",
        ("off",),
        {
            "off": "the game ends at the target",
            "N": "the game lasts N hands (a redealt all-pass hand does not count); then the "
            "highest total wins, a tie shared; target and win have no effect",
        },
    ),
    Variant(
        "kitty",
        ("0",),
        {
            "0": "no kitty",
            "N": "N cards are dealt aside; once trump is named the pitcher takes them unseen "
            "and discards back to 6 (under discard=choice or draw in his turn)",
        },
    ),
    Variant(
        "win",
        ("pitcher", "pitcher-first", "highest"),
        {
            "pitcher": "only a pitcher who made the bid and is at or past the target wins",
            "pitcher-first": "any side at the target ends the game: the pitcher's side first, "
            "else the highest total (ties share)",
            "highest": "the single highest total at or past the target wins; a tie plays on",
        },
    ),
)
EXTRA_VALUES = {
    "min-bid": {"N": "the lowest bid is N"},
    "dealer-steal": {"max": "the dealer may match only a bid of the maximum"},
    "all-pass": {
        "next-dealer": "the dealer may pass; then nobody scores and the deal passes",
        "dealer-set": "the dealer may pass; then the dealer's side scores -2",
        "dealer-free": "the dealer may pass; then he names trump with a bid of 0, always made",
    },
    "follow": {"only": "only trumps are played; a player without trump is out of the hand"},
}
OPTION_MEANINGS = {v.key: v for v in OPTIONS}


def meaning(key: str, value: str) -> str:
    """What option ``key`` set to ``value`` does, in a player's words."""
    if key in OPTION_MEANINGS:
        m = OPTION_MEANINGS[key].meaning
        if value not in m and "N" in m:
            return m["N"].replace("N", value, 1)
        return m.get(value, "")
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
    from .reference import trump_order

    order = [c for c in trump_order(rules, trump) if c >= 52 or c % 13 in rules.ranks]  # 12.3
    return " ".join(format_card(c) for c in reversed(order))


def point_cards(rules: Rules) -> list[tuple[str, int, str]]:
    """(point, value, who gets it) for every point the rules award (VARIANTS.md 0.7, 0.8,
    4.10); the values add up to the maximum bid."""
    out = [
        ("High, the highest trump in play (never a joker)", 1, "its captor"),
        (
            "Low, the lowest trump in play (never a joker)",
            1,
            "its holder when play starts" if rules.low == "dealt" else "its captor",
        ),
        ("Jack, the jack of trump", 1, "its captor"),
    ]
    if rules.jick:
        out.append(("Jick, the other jack of trump's colour", 1, "its captor"))
    out += [(f"{name} joker", 1, "its captor") for name in ("High", "Low")[: rules.jokers]]
    if rules.game == "ten":
        out.append(("the 10 of trump", 1, "its captor"))
    else:
        halves = rules.joker_game == "half" and rules.jokers
        out.append(
            (
                "Game, the single highest count of cards won (ties: nobody)"
                + (
                    "; each joker counts 1/2 (the counts compared doubled, plus 1 a joker)"
                    if halves
                    else ""
                ),
                1,
                "the side with that count",
            )
        )
    if rules.three:
        out.append(("the 3 of trump", 3, "its captor"))
    if rules.five == "pedro":
        out.append(("the right pedro, the 5 of trump", 5, "its captor"))
        out.append(("the left pedro, the other 5 of trump's colour", 5, "its captor"))
    elif rules.five:
        out.append(("the 5 of trump", 5, "its captor"))
    return out


def _members(r: Rules) -> str:
    extra = (
        (["the jick"] if r.jick else [])
        + (["the left pedro"] if r.five == "pedro" else [])
        + {0: [], 1: ["the joker"], 2: ["both jokers"]}[r.jokers]
    )
    verb = "is a trump" if len(extra) == 1 and r.jokers < 2 else "are trumps"
    return " and ".join(extra).capitalize() + " " + verb


def _partner_lines(r: Rules) -> list[str]:
    """What partner=called|announced adds to a hand (VARIANTS.md 12.1), in words."""
    if r.partner == "none":
        return []
    if r.partner == "called":
        call = (
            "- Called partner: once trump is named, before any discard, the pitcher calls one "
            "trump (pitchsim's players call the highest trump they lack); everybody hears it, "
            "and only its holder knows he is the pitcher's partner for the hand. He must play "
            "it to the first trick, which shows him to all. It is never discarded."
        )
    else:
        call = (
            "- Announced partner: after the discard and draw, the pitcher calls any card "
            "(pitchsim's players call the highest trump they lack); its holder says so at once "
            "and is the pitcher's partner for the hand, known to all."
        )
    return [
        call,
        "- If nobody else holds the called card when play starts (the pitcher's own, or out "
        "of play), the pitcher plays alone against all the others.",
        "- For the hand the pitcher and partner are one side and all the others another: each "
        "side pools its points and its count for Game, and the pitcher's side makes or is set "
        "as one. Scores stay each player's own: the pitcher and partner each score their "
        "side's points (or lose the bid), each other player the others' pooled points.",
        "- Winning: the win rule's sides are the players, each at his own score, and the "
        "pitcher's side is the pitcher and partner: both may win together.",
    ]


def family_text(rules: Rules) -> str:
    """The rules of a family in full, generated from its options, for ``pitchsim rules``."""
    r = rules
    fam = FAMILIES[r.family]
    lo, hi = fam.players
    if r.partner != "none":  # 5 or 6 players (6.3.7)
        lo, hi = max(lo, 5), min(hi, 6)
    while hi > lo and hi * r.cards_each(hi) > r.pack_size(hi):  # a short pack (6.3.3)
        hi -= 1
    players = str(lo) if lo == hi else f"{lo}-{hi}"
    side = "team" if r.partnership else "side" if r.partner != "none" else "player"
    deck = {
        "2-A": "a 52-card pack",
        "5-A": "a 40-card pack, 5 to ace in each suit (deck=5-A)",
        "9-A": "a 24-card pack, 9 to ace in each suit (deck=9-A)",
        "2,9-A": "a 28-card pack, the 2 and 9 to ace in each suit (deck=2,9-A)",
    }[r.deck] + {0: "", 1: " and one joker (HJ)", 2: " and two jokers (HJ, LJ)"}[r.jokers]
    title = fam.title
    if r.family == "auction-pitch":  # only a game of its own reaches here: say so
        title = "a game built from auction-pitch (RULES.md) with the generic options of 6.1"
    lines = [
        f"{label(r)}: {title} (VARIANTS.md {fam.clause}); docs/rules.md has the full text.",
        (
            "- Players: 4, two teams of two, partners opposite"
            + (f" ({players} each for himself under partnership=false)." if lo != hi else ".")
            if r.partnership
            else f"- Players: {players}, each for himself"
            + (", but with a called partner for each hand (below)." if r.partner != "none" else ".")
        ),
        f"- Cards: {deck}; {r.deal} cards each"
        + (
            " (10 each from the pack without the 4s with 5 players)."
            if r.jokers == 2 and r.deal == 9 and lo <= 5 <= hi
            else "."
        ),
    ]
    if r.discard == "non-trump":
        robber = "dealer" if r.rob == "dealer" else "pitcher"  # 12.7
        lines.append(
            f"- After trump is named each player from the {robber}'s left ({robber} last) "
            "discards every non-trump"
            + (" face up (seen by all)" if r.discards == "shown" else "")
            + ", burns trumps beyond 6 (non-point trumps, lowest first) and draws back to 6"
            + (
                f"; the {robber} instead takes the rest of the stock"
                + (", keeps every trump in it" if r.rob == "dealer" else "")
                + " and comes down to 6."
                if r.rob
                else "."
            )
        )
    if r.kitty:  # 12.2.2
        lines.append(
            f"- Kitty: {r.kitty} cards dealt aside; once trump is named the pitcher takes them "
            "unseen and comes down to 6 "
            + ("face up (seen by all)" if r.discards == "shown" else "face down")
            + ", lowest non-trumps first"
            + (", in his turn below" if r.discard in ("choice", "draw") else "")
            + "; he draws nothing."
        )
    face = "face up (seen by all)" if r.discards == "shown" else "face down"  # 12.9
    if r.discard == "choice":  # 12.8.1, 12.8.3
        lines.append(
            "- After trump is named each player from the dealer's left (dealer last) holding "
            f"more than 6 discards {face} to 6: his choice, which pitchsim makes for him, "
            "non-trumps lowest first, then trumps beyond 6 (non-point trumps, lowest first). "
            "Nobody draws."
        )
    if r.discard == "draw":  # 12.8.2, 12.8.3
        lines.append(
            "- After trump is named each player from the dealer's left (dealer last) discards "
            f"{face} every non-trump, keeping his highest until he holds 3 cards, and trumps "
            "beyond 6 (non-point trumps, lowest first), then draws back to 6"
            + (" (a pitcher who took the kitty draws nothing)" if r.kitty else "")
            + "; when the stock runs out "
            + ("he plays short." if r.follow == "only" else "he draws from the discards, shuffled.")
        )
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
    lines.append(
        "- Trump: "
        + (
            "the pitcher names a suit after the auction."
            if r.trump == "named"
            else "the suit of the pitcher's first card"
            + (" (never a joker)" if r.jokers else "")
            + ("; a jack led first makes its own suit trump" if r.jick else "")
            + "."
        )
        + (
            " The first lead must be a trump if the pitcher holds one."
            if r.lead_trump and r.follow != "only"
            else ""
        )
    )
    lines += _partner_lines(r)
    order = trump_order_text(r)
    lines.append(
        f"- Trump order with hearts trump, high to low: {order} "
        f"({len(order.split())} cards)."
        + (
            f" {_members(r)} for leading, following and winning."
            if r.jick or r.jokers or r.five == "pedro"
            else ""
        )
    )
    lines.append("- Play: " + meaning("follow", r.follow) + ".")
    pts = point_cards(r)
    lines.append(f"- Points ({r.max_bid} in all when every point card is in play):")
    lines += [f"    {name}: {value} to {who}" for name, value, who in pts]
    lines.append(
        f"- A {side} that made the bid (won at least that many points) scores all it won; "
        + (
            "a set one scores 0, and the others score what they won plus the bid."
            if r.set == "to-others"
            else "a set one loses the bid. The others score what they won."
        )
    )
    if r.hands_limit:
        lines.append(
            f"- The game lasts {r.hands_limit} hands (a hand all pass and redealt does not "
            "count); after the last the highest total wins, a tie shared (target and win "
            "have no effect)."
        )
    else:
        lines.append(f"- Target {r.target}: " + meaning("win", r.win) + ".")
    return "\n".join(lines) + "\n"
