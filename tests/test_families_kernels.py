"""The family kernels (pitchsim/kernels/) play every family exactly as the
reference engine (pitchsim/game/reference/) does, deal by deal.

The kernel plays random deals and logs everything: the deal and the stock in order,
the hands when play starts, each decision's legal cards and the card played, every
trick and its winner, who got each point.  The reference engine then replays the same
deal: the discard and draw (VARIANTS.md 4.8) on the same stock order, each card chosen
by a ``choose`` that checks the reference's legal cards equal the kernel's and plays
the kernel's card; tricks, winners and every award must agree.  Every family, every
allowed player count, and the variants (partnership, jokers 0/1/2, named or first-lead
trump, discard and rob, follow=only/suit/trump, low, game=ten/count, three, five).

``PITCHSIM_FAMILY_DEALS`` sets the deals per rules and player count (default 200, times
6 / the number of player counts the rules allow: a few seconds per family once
compiled); set it higher for a long run.
Two planted bugs (the jick not a trump; a joker counted for Low), made in the
kernel's tables, must be caught.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from logged_hands import logged_arrays

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, mask_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.draw import first_to_burn
from pitchsim.kernels.policies.cards import PLAIN_POLICY_IDS
from pitchsim.kernels.presets import (
    JOKERS,
    T_RANKED,
    T_SUITS,
    T_TRUMPS,
    rules_array,
    rules_table,
)
from pitchsim.kernels.score import AWARD_NAMES, NOT_PLAYED
from pitchsim.kernels.settle import settle_hand, winners
from pitchsim.kernels.simulate import play_logged

DEALS = int(os.environ.get("PITCHSIM_FAMILY_DEALS", "200"))

# Every family and its variants (VARIANTS.md 6.4 and the choices of sections 2-4).
FAMILY_CONFIGS = [
    "auction-pitch",
    "auction-pitch,follow=suit,low=dealt",
    "auction-pitch,partnership=true",
    "setback",
    "setback,low=dealt,follow=suit",
    "setback,partnership=false",
    "smear",
    "smear,partnership=true",
    "smear,low=captured,follow=suit",
    "smear,jokers=2,lead-trump=true",
    "smear,jokers=1,five=true",
    "smear,deal=9,discard=non-trump,rob=true,follow=only",
    "ten-point",
    "ten-point,partnership=false",
    "ten-point,jokers=1,low=captured",
    "ten-point,follow=trump",
    "ten-point,follow=suit,partnership=false,lead-trump=false",
    "ten-point,rob=false,game=count",
    "ten-point,follow=trump,rob=false,partnership=false",
    "jokers=2,trump=first-lead,jick=true",
    "jokers=1,game=ten,three=true",
    "jick=true,five=true,partnership=true",
    # Cinch (docs/rules.md 11) and its values one at a time on other presets: five=pedro
    # (12.6), rob=dealer (12.7), set=to-others (12.11); dealer-free (12.12) is an
    # auction rule, checked by the whole games (test_families_games.py).
    "cinch,discards=hidden",
    "cinch,discards=hidden,set=to-others,min-bid=7",
    "auction-pitch,five=pedro",
    "smear,five=pedro",
    "smear,five=pedro,jokers=2,low=captured",
    "ten-point,rob=dealer",
    "ten-point,rob=dealer,follow=trump,partnership=false",
    # kitty=N (12.2): the kitty the stock's last N cards, the pitcher's come-down
    "auction-pitch,trump=named,kitty=3",
    "five-point,kitty=3",
    "smear,kitty=4",
    # partner=called|announced (12.1): the call, rule X passing over it, the duty to
    # play it to trick 1, two sides a hand
    "auction-pitch,trump=named,partner=called",
    "ten-point,partnership=false,partner=called",
    "ten-point,partnership=false,partner=announced",
    "auction-pitch,trump=named,partner=announced",
    "smear,partner=called,follow=only",
    "auction-pitch,trump=named,kitty=3,partner=called",
    # discard=choice and draw (12.8): in turn from the dealer's left, after any kitty;
    # the stock running out (5 players dealt 9, 7 dealt 6, 10 each) draws from the
    # discards (4.8 step 4), trumps among them under draw
    "auction-pitch,deal=9,discard=choice,trump=named",
    "auction-pitch,deal=9,discard=draw,trump=named",
    "auction-pitch,trump=named,discard=draw",
    "auction-pitch,trump=named,discard=draw,follow=only",
    "smear,kitty=3,discard=draw",
    "smear,kitty=3,deal=9,discard=choice",
    "ten-point,rob=false,discard=draw,partnership=false,follow=trump",
    "auction-pitch,deal=9,discard=draw,trump=named,partner=called",
    "auction-pitch,deal=9,discard=choice,trump=named,kitty=2,partner=called",
    # and with discards=shown (12.9, 12.9.1): every discard and the kitty's put-down
    # face up; the same hands
    "auction-pitch,deal=9,discard=draw,trump=named,discards=shown",
    "smear,kitty=3,discard=choice,discards=shown",
]


def deals_for(rules) -> int:
    """``DEALS``, more where a family has few player counts (setback: 4 only), so that
    every family gets thousands of deals."""
    return DEALS * max(1, 6 // len(player_counts(rules)))


class CrossCheckError(AssertionError):
    pass


def player_counts(rules) -> list[int]:
    out = []
    for n in range(2, 8):
        try:
            rules.check_players(n)
        except Exception:
            continue
        out.append(n)
    return out


class JunkOrder:
    """Stands in for the reference's rng in ``discard_and_draw``: its ``shuffle`` puts
    the discards in the order the kernel drew them (the draw from the discards is
    random in both; this makes the reference draw the kernel's cards and checks that
    they were there to draw)."""

    def __init__(self, drawn):
        self.rank = {c: i for i, c in enumerate(drawn)}

    def shuffle(self, cards):
        cards.sort(key=lambda c: self.rank.get(c, 99))


def crosscheck(
    rules, n, deals, seed=1, policy="random", tab=None, fixed_hand=0, fixed_trump=-1, fr=None
) -> dict:
    """Play ``deals`` deals in the kernel and again in the reference engine; raise
    :class:`CrossCheckError` naming the first difference.  Returns counts.
    ``fixed_hand``/``fixed_trump``: the pitcher's hand and trump (``study_hand_fixed``);
    ``tab``/``fr``: the kernel's tables or rules array instead of the rules' (a planted bug)."""
    fr = rules_array(rules) if fr is None else fr
    tab = rules_table(rules) if tab is None else tab
    policies = np.full(n, PLAIN_POLICY_IDS[policy], np.int64)
    counts = dict(
        deals=0,
        tricks=0,
        decisions=0,
        junk_draws=0,
        robbed=0,
        burnt=0,
        put_down=0,
        burnt_by_rob=0,
        awards=0,
    )
    per_pitcher = -(-deals // n)
    for pitcher in range(n):
        count = min(per_pitcher, deals - pitcher * per_pitcher)
        if count <= 0:
            break
        dealer = (pitcher + 2) % n
        out = logged_arrays(count, n)
        start = pitcher * per_pitcher
        play_logged(
            seed,
            start,
            count,
            n,
            dealer,
            pitcher,
            np.int64(fixed_hand),
            fixed_trump,
            policies,
            fr,
            tab,
            *out.values(),
        )
        for d in range(count):
            row = {k: v[d] for k, v in out.items()}
            if fixed_hand and int(row["dealt"][pitcher]) != fixed_hand:
                _fail("the pitcher's fixed hand", int(row["dealt"][pitcher]), fixed_hand)
            if fixed_trump >= 0 and int(row["trump"][0]) != fixed_trump:
                held = int(row["held"][pitcher]) >> (13 * fixed_trump) & 0x1FFF
                if rules.trump == "named" or held:
                    _fail("the fixed trump", int(row["trump"][0]), fixed_trump)
            _check_deal(rules, n, dealer, pitcher, row, counts, pitched=fixed_trump >= 0)
            counts["deals"] += 1
    return counts


def _fail(what, got, want):
    raise CrossCheckError(f"{what}: kernel {got!r}, reference {want!r}")


def _check_deal(r: Rules, n, dealer, pitcher, k, counts, pitched=False) -> None:
    trump, tricks, size, junk_drawn, called, partner = (int(x) for x in k["trump"])
    each = r.cards_each(n)
    dealt = [int(m) for m in k["dealt"]]
    # The deal: the pack of 4.3/6.1, runs of ``each`` from the dealer's left, the stock
    # (in order only when a draw step uses it; else the kernel never draws it).
    pack = F.pack(r, n)
    if size != len(pack):
        _fail("pack size", size, len(pack))
    takes_stock = F.takes_stock(r)  # 4.8, 12.2.1, 12.8.2
    deck = [int(c) for c in k["deck"][: size if takes_stock else n * each]]
    if len(set(deck)) != len(deck) or not set(deck) <= set(pack):
        _fail("cards drawn from the pack", deck, pack)
    if takes_stock and sorted(deck) != sorted(pack):
        _fail("pack", sorted(deck), pack)
    for i in range(n):
        seat = (dealer + 1 + i) % n
        run = sum(1 << c for c in deck[i * each : (i + 1) * each])
        if dealt[seat] != run or dealt[seat].bit_count() != each:
            _fail(f"seat {seat}'s deal", dealt[seat], run)
    stock = deck[n * each :]
    held = dealt
    named = r.trump == "named"
    # 12.1.2: under called the pitcher calls once trump is named, before any discard
    want_called = F.highest_missing_trump(dealt[pitcher], trump, r) if r.partner == "called" else -1
    if want_called != (called if r.partner == "called" else -1):
        _fail("the card called (12.1.2)", called, want_called)
    if named and r.discard != "none":  # 4.8, 12.8, after any kitty (12.2.2)
        drawn = [int(c) for c in k["junk"][:junk_drawn]]
        held, rec = F.after_naming(
            dealt, stock, pitcher, trump, r, JunkOrder(drawn), dealer, want_called
        )
        got = [int(m) for m in k["held"]]
        if got != held:
            _fail("hands after the discard and draw (4.8, 12.8)", got, held)
        from_junk = [c for seat in range(n) for c in rec.drawn[seat] if c not in stock]
        if sorted(from_junk) != sorted(drawn):
            _fail("cards drawn from the discards", sorted(drawn), sorted(from_junk))
        counts["junk_draws"] += len(drawn)
        counts["robbed"] += r.rob is not False
        counts["burnt"] += sum(b.bit_count() for b in rec.burnt)
        counts["put_down"] += len(rec.put_down)
        counts["burnt_by_rob"] += sum(1 for c in rec.put_down if F.is_trump(c, trump, r))
        counts["discarded"] = counts.get("discarded", 0) + sum(b.bit_count() for b in rec.discarded)
        counts["drawn"] = counts.get("drawn", 0) + sum(map(len, rec.drawn))
        if r.kitty:  # 12.2.2 under choice or draw
            counts["kitty_kept"] = (
                counts.get("kitty_kept", 0) + (held[pitcher] & mask_of(rec.robbed)).bit_count()
            )
    elif named and r.kitty:  # 12.2.2: the stock's last N cards to the pitcher, who comes down
        held, rec = F.take_kitty(dealt, stock, pitcher, trump, r, want_called)
        got = [int(m) for m in k["held"]]
        if got != held:
            _fail("hands after the pitcher takes the kitty (12.2.2)", got, held)
        counts["put_down"] += len(rec.put_down)
        counts["kitty_kept"] = (
            counts.get("kitty_kept", 0) + (held[pitcher] & mask_of(rec.robbed)).bit_count()
        )
    elif [int(m) for m in k["held"]] != dealt:
        _fail("hands in play (no draw)", list(k["held"]), dealt)
    if r.partner == "announced":  # 12.1.4: after the discard and draw
        want_called = F.highest_missing_trump(held[pitcher], trump, r)
        if called != want_called:
            _fail("the card announced (12.1.4)", called, want_called)
    log = [int(x) for x in k["log"]]
    legal = [int(x) for x in k["legal"]]

    def choose(view):
        t, i = view.trick_no, (view.seat - view.leader) % n
        if t >= tricks:
            _fail("tricks", tricks, f"more than {tricks}")
        if legal[t * n + i] != view.legal:
            _fail(f"legal cards, trick {t} seat {view.seat}", legal[t * n + i], view.legal)
        counts["decisions"] += 1
        return log[t * (n + 2) + 1 + i]

    # Under trump=first-lead a fixed trump is the pitcher's first lead, played as a
    # pitched card (the reference's first_lead) when he holds that suit.
    first = log[1] if pitched and not named and held[pitcher] >> (13 * trump) & 0x1FFF else -1
    ref = F.play_hand(
        held, pitcher, choose, r, bid=0, trump=trump if named else -1, first_lead=first,
        called=want_called,
    )  # fmt: skip
    if (-1 if ref.partner is None else ref.partner) != partner:
        _fail("the partner (12.1.5)", partner, ref.partner)
    counts["partnered"] = counts.get("partnered", 0) + (ref.partner is not None)
    if ref.trump != trump:
        _fail("trump", trump, ref.trump)
    if len(ref.tricks) != tricks:
        _fail("number of tricks", tricks, len(ref.tricks))
    for t, (leader, seats, cards, winner) in enumerate(ref.tricks):
        base = t * (n + 2)
        kseats = [(log[base] + i) % n for i in range(n) if log[base + 1 + i] >= 0]
        kcards = [log[base + 1 + i] for i in range(n) if log[base + 1 + i] >= 0]
        got = (log[base], kseats, kcards, log[base + n + 1])
        if got != (leader, seats, cards, winner):
            _fail(f"trick {t}", got, (leader, seats, cards, winner))
    counts["tricks"] += tricks
    award = [int(x) for x in k["award"]]
    for i, name in enumerate(AWARD_NAMES):
        if name not in ref.score.awards:
            if award[i] != NOT_PLAYED:
                _fail(f"{name} (not in these rules)", award[i], None)
            continue
        want = ref.score.awards[name]
        if award[i] != (-1 if want is None else want):
            _fail(name, award[i], want)
        counts["awards"] += want is not None
    if [int(x) for x in k["points"]] != ref.score.points:
        _fail("points", list(k["points"]), ref.score.points)


CASES = [(spec, n) for spec in FAMILY_CONFIGS for n in player_counts(Rules.parse(spec))]


@pytest.mark.parametrize("spec, n", CASES, ids=[f"{s}-{n}p" for s, n in CASES])
def test_kernel_hands_equal_the_reference_deal_by_deal(spec, n):
    rules = Rules.parse(spec)
    deals = deals_for(rules)
    counts = crosscheck(rules, n, deals, seed=zlib_seed(spec, n), policy="random")
    assert counts["deals"] == deals and counts["tricks"] > 0
    assert counts["decisions"] >= counts["tricks"]


@pytest.mark.parametrize(
    "spec, n",
    [
        # auction-pitch solo and its other options (the base game's heuristic, from the
        # deleted base-kernel cross-check tests/test_kernels.py)
        ("auction-pitch", 5),
        ("auction-pitch,low=dealt,follow=suit", 3),
        ("smear", 4),
        ("ten-point", 4),
        ("setback", 4),
        ("ten-point,follow=trump", 5),
        ("cinch,discards=hidden", 4),
        ("smear,five=pedro", 4),
    ],
)
def test_the_heuristic_plays_only_legal_cards_and_the_same_hand(spec, n):
    counts = crosscheck(Rules.parse(spec), n, DEALS, seed=7, policy="heuristic")
    assert counts["deals"] == DEALS


@pytest.mark.parametrize(
    "spec, n",
    [
        ("auction-pitch", 4),
        ("smear", 4),
        ("ten-point", 5),
        # 12.3: a short pack under the base game's trumps: the plain loops' heuristic
        # reasons about the cards of this pack, as ``heuristic_card`` does
        ("auction-pitch,deck=9-A", 4),
        ("setback,deck=5-A", 4),
    ],
)
def test_the_play_loops_heuristic_is_heuristic_card(spec, n):
    """Every card the plain play loop's heuristic seats played (``play_logged``)
    is ``policies.heuristic_card``'s for the same hand, trick and cards played: the one
    heuristic of the search's play-outs and of the plain loops."""
    from logged_hands import cards_of_hand, logged_hands

    from pitchsim.kernels.policies.cards import heuristic_card

    lg = logged_hands(spec, n, 150, seed=5)
    first_lead = lg.r.trump == "first-lead"
    checked = 0
    for d in range(150):
        for c in cards_of_hand(lg, d):
            if c.legal & (c.legal - 1) == 0:
                continue  # forced
            trump = -1 if first_lead and c.t == 0 and not c.trick else c.trump
            tr, ts = c.trick_arrays(n)
            got = heuristic_card(
                np.int64(c.legal), np.int64(c.hands[c.seat]), c.seat, n, lg.pitcher, trump,
                c.t, tr, ts, len(c.trick), np.int64(c.played), lg.fr, lg.tab,
            )  # fmt: skip
            assert got == c.card, (spec, d, c.t, c.seat)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    "spec, n, hand, trump",
    [
        ("smear", 4, "JD AH 2H 9C 7D 3S", 2),
        ("ten-point", 4, "HJ AH 2H 3H 9C 7D 3S JD 5C", 2),
        ("ten-point,partnership=false", 5, "HJ LJ AH 2H 3H 9C 7D 3S JD 5C", 1),
        ("setback", 4, "AS KS 2H 9C 7D 3S", 3),
        ("auction-pitch,low=dealt,follow=suit", 5, "AH 7H 2H 9C 7D 3S", 2),
        ("jokers=2,trump=first-lead", 3, "HJ KS 2H 9C 7D 3S", 0),
        ("smear", 3, "AH KH 2H 9C 7D 3S", -1),
        ("five-point,kitty=3", 4, "AH KH QH 2H 3C 4D", 2),  # 12.2: 6 known, 3 unknown
        # 12.8: the pitcher's 9 known, the others' discards and draws from the dealer's left
        ("auction-pitch,deal=9,discard=draw,trump=named", 4, "AH KH QH 2H 3C 4D 9S 8S 7C", 2),
        ("smear,kitty=3,deal=9,discard=choice", 4, "AH KH QH 2H 3C 4D 9S 8S 7C", 2),
        ("auction-pitch,trump=named,kitty=3", 4, "AS KS 2H 9C 7D 3S", -1),
    ],
)
def test_a_fixed_pitcher_hand_and_trump_equal_the_reference(spec, n, hand, trump):
    from pitchsim.game.cards import mask_of, parse_cards

    fixed = mask_of(parse_cards(hand, jokers=2))
    for policy in ("random", "heuristic"):
        counts = crosscheck(
            Rules.parse(spec),
            n,
            DEALS,
            seed=11,
            policy=policy,
            fixed_hand=fixed,
            fixed_trump=trump,
        )
        assert counts["deals"] == DEALS


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_fixed_trump_leads_as_the_base_game_and_bid_odds(policy):
    """docs/rules.md ("bid-odds and simulate"): with a trump given the opening lead must
    be of that suit, the play policy choosing among those cards (the reference's
    planned lead, ``legal_cards``' ``lead_suit``).  Under auction-pitch the family
    kernels' hand with its trump (``simulate_fixed``, checked against the
    reference engine above) and bid-odds' (``play_fixed``) play the same hands
    point for point, each trump in turn, and so does bid-odds' kernel compiled for the
    base game's shape (``play_base_fixed``); every hand leads the trump given."""
    from pitchsim.game.cards import parse_cards
    from pitchsim.kernels.fixed_hand import PITCHER, play_base_fixed, play_fixed
    from pitchsim.kernels.simulate import policy_row, simulate_fixed

    n, deals = 4, 3000
    # Every suit, so any trump is led; the jack and the ten of trump are not the
    # heuristic's opening lead (it keeps them back, 9S and 5H lead), nor is a random one.
    hand = mask_of(parse_cards("JS 9S TH 5H 7D 4C"))
    r = Rules()
    fr, tab, pol = rules_array(r), rules_table(r), policy_row(policy, n)
    for trump in range(4):
        fixed = [np.empty(deals, np.int64) for _ in range(3)]
        play_fixed(5, 0, deals, n, PITCHER, np.int64(hand), trump, 0, pol, fr, tab, *fixed, None)
        shaped = [np.empty(deals, np.int64) for _ in range(3)]  # what bid-odds runs
        play_base_fixed(5, 0, deals, n, PITCHER, np.int64(hand), trump, 0, pol, fr, tab, *shaped)
        assert all(np.array_equal(a, b) for a, b in zip(fixed, shaped, strict=True))
        sim = [np.empty(deals, np.int64) for _ in range(3)]
        simulate_fixed(5, 0, deals, n, np.int64(hand), trump, pol, fr, tab, *sim)
        assert (fixed[2] == trump).all() and (sim[2] == trump).all()
        assert np.array_equal(fixed[0], sim[0]), f"bid-odds, trump {trump}"


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize("seat", [0, -1])
def test_bid_odds_base_shape_kernel_plays_the_general_kernels_hands(policy, seat):
    """Under auction-pitch with the pitcher's policy choosing trump (no trump given),
    bid-odds' kernel compiled for the base game's shape (``play_base_fixed``, what
    ``fixed_kernel`` picks) plays the general kernel's hands (``play_fixed``)
    point for point and trump for trump, the hand as pitcher (0) and as a defender (-1,
    checked against the reference engine in tests/test_odds_api.py); a preset of another
    shape is refused by it and gets the general kernel."""
    from pitchsim.game.cards import parse_cards
    from pitchsim.kernels.fixed_hand import (
        fixed_kernel,
        play_base_fixed,
        play_fixed,
    )
    from pitchsim.kernels.simulate import policy_row

    n, deals = 4, 4000
    hand = np.int64(mask_of(parse_cards("AS KS 2H 3D 4C 5C")))
    r = Rules()
    fr, tab = rules_array(r), rules_table(r)
    pol = policy_row(policy, n)
    assert fixed_kernel(fr, pol) is play_base_fixed
    general = [np.empty(deals, np.int64) for _ in range(3)]
    play_fixed(7, 0, deals, n, seat, hand, -1, 0, pol, fr, tab, *general, None)
    out = [np.empty(deals, np.int64) for _ in range(3)]
    play_base_fixed(7, 0, deals, n, seat, hand, -1, 0, pol, fr, tab, *out)
    assert all(np.array_equal(a, b) for a, b in zip(general, out, strict=True))
    smear = rules_array(Rules.parse("smear"))
    assert fixed_kernel(smear, pol).kernel is play_fixed
    with pytest.raises(ValueError, match="base game's shape"):
        play_base_fixed(7, 0, 10, n, seat, hand, -1, 0, pol, smear, tab, *out)


def test_the_draw_step_is_exercised_with_and_without_a_stock():
    """Discards drawn from (6 players of ten-point,follow=trump have no stock) and the
    rob: the cross-check counts them, so a config list that stopped reaching them fails."""
    c6 = crosscheck(Rules.parse("ten-point,follow=trump,partnership=false"), 6, 40, seed=3)
    assert c6["junk_draws"] > 0
    c4 = crosscheck(Rules.parse("ten-point"), 4, 40, seed=3)
    assert c4["robbed"] == 40 and c4["burnt_by_rob"] > 0


@pytest.mark.parametrize(
    "spec",
    [
        "ten-point",
        "ten-point,jokers=1,game=count",
        "smear,deal=9,discard=non-trump,rob=true,five=true,jokers=2",
    ],
)
def test_rule_x_burns_the_trumps_the_reference_burns(spec):
    """4.8 rule X on random sets of 7-16 trumps: the kernel's burn order (tables.T_BURN,
    written by arithmetic) gives up the same cards as the reference's excess_trumps."""
    r = Rules.parse(spec)
    tab = rules_table(r)
    rng = random.Random(spec)
    for _ in range(2000):
        trump = rng.randrange(4)
        pool = cards_of(int(tab[trump, T_TRUMPS]) & mask_of(F.pack(r, 4)))
        trumps = rng.sample(pool, rng.randint(7, len(pool)))
        keep = rng.randint(0, 6)
        want = F.excess_trumps(trumps, keep, trump, r)
        hand = np.int64(mask_of(trumps))
        got = []
        while int(hand).bit_count() > keep:
            c = first_to_burn(hand, trump, tab)
            got.append(c)
            hand &= ~(np.int64(1) << c)
        assert got == want, (trump, trumps, keep)


def test_a_planted_bug_the_jick_not_trump_is_caught():
    rules = Rules.parse("smear")
    tab = rules_table(rules)
    for t in range(4):
        jick = np.int64(1) << ((3 - t) * 13 + 9)
        tab[t, T_TRUMPS] &= ~jick
        tab[t, T_SUITS + t] &= ~jick
        tab[t, T_SUITS + (3 - t)] |= jick
    with pytest.raises(CrossCheckError):
        crosscheck(rules, 4, 200, seed=1, tab=tab)


def test_a_planted_bug_a_joker_counted_as_low_is_caught():
    """Under ten-point's rob nearly every trump is in play, so a joker is seldom the
    lowest: the bug shows with few cards in play (3 players of 6, two jokers)."""
    rules = Rules.parse("jokers=2,trump=named,low=dealt")
    tab = rules_table(rules)
    for t in range(4):
        tab[t, T_RANKED] |= JOKERS
    with pytest.raises(CrossCheckError, match="^(low|high)"):
        crosscheck(rules, 3, 300, seed=1, tab=tab)


def test_12_6_a_planted_bug_the_left_pedro_not_trump_is_caught():
    """docs/rules.md 12.6, 11.3: the left pedro a plain card of its printed suit in the
    kernel's tables (the right pedro's 5 points kept) is caught deal by deal."""
    rules = Rules.parse("cinch,discards=hidden")
    tab = rules_table(rules)
    for t in range(4):
        lp = np.int64(1) << ((3 - t) * 13 + 3)
        tab[t, T_TRUMPS] &= ~lp
        tab[t, T_RANKED] &= ~lp
        tab[t, T_SUITS + t] &= ~lp
        tab[t, T_SUITS + (3 - t)] |= lp
    with pytest.raises(CrossCheckError):
        crosscheck(rules, 4, 200, seed=1, tab=tab)


def test_12_7_a_planted_bug_the_pitcher_robbing_under_rob_dealer_is_caught():
    """docs/rules.md 12.7, 11.8: the kernel told rob=true (the pitcher robs, the draw
    from the pitcher's left) where the rules say rob=dealer."""
    from pitchsim.kernels.presets import F_ROB, ROB_PITCHER

    rules = Rules.parse("cinch,discards=hidden")
    fr = rules_array(rules)
    fr[F_ROB] = ROB_PITCHER
    with pytest.raises(CrossCheckError, match="discard and draw"):
        crosscheck(rules, 4, 100, seed=1, fr=fr)


@pytest.mark.parametrize(
    "spec, n, planted",
    [
        ("auction-pitch,deal=9,discard=draw,trump=named", 4, "choice"),
        ("auction-pitch,deal=9,discard=choice,trump=named", 4, "draw"),
        ("auction-pitch,deal=9,discard=draw,trump=named", 5, "non-trump"),  # pitcher's left
        ("smear,kitty=3,discard=draw", 4, "none"),
    ],
)
def test_12_8_a_planted_bug_the_kernel_playing_another_discard_is_caught(spec, n, planted):
    """docs/rules.md 12.8.1, 12.8.2: the kernel told another discard value than the
    rules' (choice for draw, draw for choice, 4.8's order and discard for draw, no
    draw after the kitty) is caught deal by deal; the true rules pass."""
    from pitchsim.kernels.presets import _DISCARD, F_DISCARD

    rules = Rules.parse(spec)
    fr = rules_array(rules)
    fr[F_DISCARD] = _DISCARD[planted]
    with pytest.raises(CrossCheckError):
        crosscheck(rules, n, 100, seed=1, fr=fr)
    counts = crosscheck(rules, n, 100, seed=1)
    assert counts["discarded"] > 0


def test_12_8_2_the_draw_is_exercised_from_the_stock_and_from_the_discards():
    """The 12.8 configurations draw from the stock and, when it runs out (5 players
    dealt 9: a stock of 7), from the face-down discards (4.8 step 4)."""
    counts = crosscheck(Rules.parse("auction-pitch,deal=9,discard=draw,trump=named"), 5, 200)
    assert counts["drawn"] > 200 and counts["junk_draws"] > 50
    counts = crosscheck(Rules.parse("smear,kitty=3,discard=draw"), 4, 200)
    assert counts["drawn"] > 200 and counts["put_down"] == 3 * 200 and counts["kitty_kept"] > 50


def test_11_15_5_the_dealer_robs_even_when_another_seat_pitches():
    """docs/rules.md 11.8, 11.15.5: under rob=dealer the dealer ends the draw holding
    every trump the stock held (and never more than 6 cards), whoever pitched; the
    cross-check's deals have the dealer two seats past the pitcher."""
    counts = crosscheck(Rules.parse("cinch,discards=hidden"), 4, 200, seed=4)
    assert counts["robbed"] == 200 and counts["put_down"] > 0


@pytest.mark.parametrize(
    "spec",
    [
        "auction-pitch",
        "setback",
        "smear",
        "ten-point,shoot=true",
        "cinch,discards=hidden",
        "cinch,discards=hidden,set=to-others",
        "smear,set=to-others",
    ],
)
def test_settling_and_winners_equal_the_reference(spec):
    rules = Rules.parse(spec)
    fr = rules_array(rules)
    rng = random.Random(spec)
    players = player_counts(rules)
    change = np.empty(7, np.int64)
    for _ in range(3000):
        n = rng.choice(players)
        points = [rng.randrange(rules.max_bid + 1) for _ in range(n)]
        if rules.partnership:
            points = [points[s % 2] for s in range(n)]
        pitcher = rng.randrange(n)
        bid = rng.randint(0 if rules.all_pass == "dealer-free" else 1, rules.max_bid)
        made = settle_hand(np.array(points, np.int64), n, pitcher, bid, fr, change[:n], -1)
        assert list(change[:n]) == F.settle_hand(points, pitcher, bid, rules)
        assert made == (points[pitcher] >= bid)
        scores = [rng.randint(-5, rules.target + 3) for _ in range(n)]
        if rules.partnership:
            scores = [scores[s % 2] for s in range(n)]
        who = rng.choice([None, *range(n)])
        shoot = rules.shoot and rng.random() < 0.3
        want = F.winners(scores, who, made, rules, shoot)
        got = winners(
            np.array(scores, np.int64), n, -1 if who is None else who, made, shoot, fr, -1
        )
        assert sorted(s for s in range(n) if got >> s & 1) == sorted(want), (scores, who)


def test_12_11_a_planted_bug_set_read_as_minus_is_caught():
    """docs/rules.md 12.11, 11.15.6: a side bids 8 and takes 7: 0 for it and 7 + 8 for
    the others under set=to-others; the kernel told set=minus scores -8 and 7."""
    from pitchsim.kernels.presets import F_SET_TO_OTHERS

    rules = Rules.parse("cinch,discards=hidden,set=to-others")
    fr = rules_array(rules)
    change = np.empty(4, np.int64)
    points = np.array([7, 7, 7, 7], np.int64)
    assert not settle_hand(points, 4, 1, 8, fr, change, -1)
    assert list(change) == F.settle_hand([7] * 4, 1, 8, rules) == [15, 0, 15, 0]
    fr[F_SET_TO_OTHERS] = 0
    settle_hand(points, 4, 1, 8, fr, change, -1)
    assert list(change) == [7, -8, 7, -8] != F.settle_hand([7] * 4, 1, 8, rules)


def zlib_seed(spec: str, n: int) -> int:
    import zlib

    return zlib.crc32(f"{spec}/{n}".encode())


# ---- the family heuristic knows the new points (hand-worked positions) -----------------------


def _decide(spec, n, seat, pitcher, trump, hand, trick, trick_seats, played="", trick_no=1):
    """The heuristic's card for ``seat`` holding ``hand`` with ``trick`` on the table."""
    from pitchsim.game.cards import format_card, mask_of, parse_cards
    from pitchsim.kernels.play import legal_cards
    from pitchsim.kernels.policies.cards import heuristic_card

    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    h = mask_of(parse_cards(hand, jokers=2))
    cards = np.array(parse_cards(trick, jokers=2) + [0] * n, np.int64)
    seats = np.array(trick_seats + [0] * n, np.int64)
    count = len(trick_seats)
    legal = legal_cards(h, cards, count, trump, False, fr, tab)
    c = heuristic_card(
        legal,
        h,
        seat,
        n,
        pitcher,
        trump,
        trick_no,
        cards,
        seats,
        count,
        mask_of(parse_cards(played, jokers=2)),
        fr,
        tab,
    )
    return format_card(int(c), symbols=False)


H, S = 2, 3


def test_the_heuristic_gives_the_three_to_its_partners_sure_trick():
    # ten-point, hearts: the pitcher's A♥ is safe; the partner gives it the 3 (3 points).
    assert _decide("ten-point", 4, 2, 0, H, "2H 3H HJ", "AH 4H", [0, 1]) == "3H"


def test_the_heuristic_takes_a_trick_holding_the_jick():
    # A defender leads the jick (J♦); the pitcher's partner takes it with the K♥, safe
    # now that the A♥ has gone, rather than throwing the 4♥.
    got = _decide("ten-point", 4, 2, 0, H, "KH 4H", "JD", [1], played="AH 7H 8H 9H")
    assert got == "KH"


@pytest.mark.parametrize("low, card", [("captured", "7S"), ("dealt", "2S")])
def test_the_heuristic_keeps_low_home_when_low_goes_to_its_captor(low, card):
    # smear, spades: the pitcher's A♠ wins; a defender forced to trump throws the 7♠
    # and keeps the 2♠ when Low goes to its captor; when Low goes to its holder the 2♠
    # is worth nothing in the trick and goes first.
    assert _decide(f"smear,low={low}", 3, 1, 0, S, "2S 7S 4D", "AS", [0]) == card


def test_with_a_discard_only_the_trumps_count_when_naming():
    """9 cards dealt and every non-trump thrown away after naming (4.8): side aces add
    nothing to a suit's value; with 6 cards and no discard they do."""
    from pitchsim.game.cards import mask_of, parse_cards
    from pitchsim.kernels.policies.cards import suit_value

    for spec, differs in (("ten-point", False), ("smear", True)):
        r = Rules.parse(spec)
        fr, tab = rules_array(r), rules_table(r)
        bare = mask_of(parse_cards("AH KH 5H 4C 3D"))
        aces = bare | mask_of(parse_cards("AC AD"))
        assert (suit_value(aces, H, 4, fr, tab) != suit_value(bare, H, 4, fr, tab)) == differs


@pytest.mark.parametrize(
    "jokers, jick, pedro",
    [
        (0, False, False),
        (0, True, False),
        (1, True, False),
        (2, False, False),
        (2, True, False),
        (0, False, True),
        (2, True, True),
    ],
)
def test_trump_order_bits_follow_the_order_keys(jokers, jick, pedro):
    """``kernels.trump_order`` puts each trump on one bit, in the order of
    ``game.trumps``' order keys (VARIANTS.md 4.7; docs/rules.md 11.3 and 12.6: the left
    pedro between the 4 and the 5 of trump), so a bit scan finds the highest and lowest
    trump (the trick's winner, the heuristic's safe cards, High and Low) for every
    preset; ``order_cards`` takes the bits back to the cards."""
    from pitchsim.game.trumps import trump_tables
    from pitchsim.kernels.trump_order import order_cards, trump_order

    t = trump_tables(jokers, jick, pedro)
    for trump in range(4):
        tm = int(t.trump_mask[trump])
        trumps = [c for c in range(54) if tm >> c & 1]
        bits = {}
        for c in trumps:
            ob = int(trump_order(np.int64(1 << c), trump))
            assert ob.bit_count() == 1, (trump, c)
            assert order_cards(np.int64(ob), trump) == 1 << c, (trump, c)
            bits[c] = ob
        assert sorted(trumps, key=lambda c: t.key[trump, c]) == sorted(trumps, key=bits.get)
        rng = random.Random(trump)
        for _ in range(50):  # whole masks: the highest bit is the highest key
            m = sum(1 << c for c in trumps if rng.random() < 0.4)
            if m:
                top = max((c for c in range(54) if m >> c & 1), key=lambda c: t.key[trump, c])
                ob = int(trump_order(np.int64(m), trump))
                assert 1 << top == order_cards(np.int64(1 << (ob.bit_length() - 1)), trump)
                assert order_cards(np.int64(ob), trump) == m


# ---- Cinch's exact checks (docs/rules.md 11.10, 12.6) --------------------------------


def test_11_10_every_cinch_hand_awards_exactly_14_points():
    """docs/rules.md 11.10 and 12.6: the dealer robs every trump of the stock and only
    trumps beyond six are burnt, non-point ones first, and no hand holds seven point
    cards: all six point cards are in play, so High, Low, Jack, the 10 and both pedros
    (1 + 1 + 1 + 1 + 5 + 5) go to someone on every deal, with probability 1."""
    from pitchsim.kernels.score import AWARD_VALUES

    r = Rules.parse("cinch")
    fr, tab = rules_array(r), rules_table(r)
    n, d = 4, 2000
    out = logged_arrays(d, n)
    for policy in ("random", "heuristic"):
        pol = np.full(n, PLAIN_POLICY_IDS[policy], np.int64)
        play_logged(3, 0, d, n, 3, 1, np.int64(0), -1, pol, fr, tab, *out.values())
        award, points = out["award"], out["points"]
        present = [
            AWARD_NAMES.index(a) for a in ("high", "low", "jack", "ten", "five", "left-pedro")
        ]
        assert (award[:, present] >= 0).all()  # every point card in play and won
        assert int(AWARD_VALUES[present].sum()) == 14
        assert ((points[:, 0] + points[:, 1]) == 14).all()


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_11_10_the_ace_of_trump_makes_1_with_probability_1(policy):
    """docs/rules.md 11.10: the ace of trump is always in play (a point card is never
    burnt while a non-point trump is held) and the highest trump wins its trick, so a
    pitcher holding it takes High: bid-odds' kernel (``play_fixed``) makes 1 on
    every deal, P(make 1) = 1 exactly."""
    from pitchsim.game.cards import parse_cards
    from pitchsim.kernels.fixed_hand import PITCHER, play_fixed
    from pitchsim.kernels.simulate import policy_row

    r = Rules.parse("cinch")
    fr, tab = rules_array(r), rules_table(r)
    hand = mask_of(parse_cards("AH 3H 9C 8C 7C 6D 4D 3S 2S"))
    deals = 3000
    out = [np.empty(deals, np.int64) for _ in range(3)]
    play_fixed(
        5,
        0,
        deals,
        4,
        PITCHER,
        np.int64(hand),
        2,
        0,
        policy_row(policy, 4),
        fr,
        tab,
        *out,
        None,
    )
    assert (out[2] == 2).all() and (out[0] >= 1).all()
    assert (out[1] == 14).all()  # and every point of the hand awarded (12.6)
