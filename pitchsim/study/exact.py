"""Exact values a run must reproduce, for every preset: ``pitchsim table --checks``
(:func:`exact_checks`, from a run's columns) and the families' checks of the report
(:func:`exact_check_table`, from hands played by ``kernels.sample``;
``scripts/make_reports.py --families`` writes them).

Every check is a row: ``players``, ``check``, ``deals``, the ``estimate``, its standard
error ``se``, the 95% interval ``lo``..``hi``, the ``exact`` value, ``z`` = (estimate -
exact) / se and ``inside`` (exact within the interval; 1 in 20 correct checks falls
outside by chance).

**The report's checks.**  The values come from plain counting (``fractions``,
``math.comb``),
written here apart from the kernels; tests/test_families_odds.py recounts them by
enumerating every deal of a tiny pack.  With the pitcher's own cards known, each card
he lacks is one of the ``pack - each`` others, of which ``(n - 1) * each`` are dealt,
whatever trump his policy picks from his hand (trump is a function of his cards):

- an unseen card (the jack, the jick, the low joker of trump) is dealt with
  probability ``(n-1) each / (pack - each)``, and so is the average unseen trump and
  the average unseen point card (ace, jack, jick, jokers, ten, three, five, deuce);
- the Game count of the cards dealt averages ``80 * n each / pack`` (jokers and 4s
  count 0, so the 5-player pack without 4s still holds 80);
- a joker (of two) is dealt with probability ``1 - C(pack-2, D) / C(pack, D)``,
  ``D = n * each`` (in play, where no draw step follows), and the high joker with
  ``D / pack``; with 5 players ten-point deals no 4 at all;
- a king of trump without the ace wins High exactly when the ace is not dealt
  (no draw step): ``1 - (n-1) each / (pack - each)``; under a called partner (12.1)
  always, for the pitcher's side: he calls the ace he lacks (12.1.2, 12.1.4), so its
  holder is his partner (12.1.5, 12.1.6), and with the ace out of play the king is top;
- rules that admit no chance: the ace of trump dealt to the pitcher wins High for
  his side under every preset (the top trump of every trump order; a trump is put
  down only beyond six, lowest first by rule X, and only one who robbed or drew can
  hold seven), so a hand whose only point is that sure High makes 1 with
  probability 1 (issue 32, item 4); Low held is Low won under low=dealt (the 2 of trump
  held by the pitcher); under rob=true every trump reaches a hand, so the ace of
  trump is always in play (VARIANTS.md 4.10).

Each estimate carries its own standard error (a proportion's sqrt(p(1-p)/m) or a
mean's), and the 95% interval is the estimate +/- 1.96 of it (the family is the prefix of
``check``: ``smear: unseen jick dealt``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from ..game.cards import ACE, JACK, KING, TEN
from ..game.rules import Rules, label
from ..game.trumps import jick_card
from ..util.stats import Z95, wilson
from .analysis import Run, open_run
from .manifest import KEY_NAMES

# (rules, players) of the checks and the report: every family at its usual table
# sizes; ten-point beyond 4 players plays solo (VARIANTS.md 4.1).
CHECK_TABLES = (
    ("setback", 4),
    ("smear", 3),
    ("smear", 4),
    ("smear", 5),
    ("ten-point", 4),
    ("ten-point,partnership=false", 5),
    ("ten-point,partnership=false", 6),
    ("jokers=2,trump=named", 4),  # two jokers and no draw: a joker dealt is in play
    ("five-point", 4),  # the presets of VARIANTS.md 8-11 at Trickster's 4 (2v2)
    ("six-point", 4),
    ("seven-point", 4),
    ("cinch", 4),
    ("smear,partner=called", 5),  # the called partner (12.1) at 5
)
DEUCE, THREE, FIVE = 0, 1, 3
HJ, LJ = 52, 53
GAME_VALUES = {TEN: 10, ACE: 4, KING: 3, KING - 1: 2, JACK: 1}  # 0.8, by rank


def exact_checks(run: str | Path | Run, players: int | Iterable[int] | None = None) -> pd.DataFrame:
    """Quantities with known exact values, estimated from the run (any preset):
    :func:`preset_checks`."""
    return preset_checks(open_run(run), players)


def _row(n, check, deals, estimate, se, exact, lo, hi):
    z = (estimate - exact) / se if se > 0 else (0.0 if estimate == exact else math.inf)
    inside = bool(lo <= exact <= hi) if se > 0 else estimate == exact
    return {
        "players": n,
        "check": check,
        "deals": int(deals),
        "estimate": estimate,
        "se": se,
        "lo": float(lo),
        "hi": float(hi),
        "exact": exact,
        "z": z,
        "inside": inside,
    }


def _mean_row(n, check, count, total, squares, exact):
    mean = total / count
    se = math.sqrt(max(squares / count - mean * mean, 0.0) / count)
    return _row(n, check, count, mean, se, exact, mean - Z95 * se, mean + Z95 * se)


def preset_checks(run: Run, players: int | Iterable[int] | None = None) -> pd.DataFrame:
    """Quantities with known exact values, estimated from a run under a preset (the
    module's columns).

    Seat 0 pitches every deal of a run whatever it holds (``batch.simulate_part``), so its
    hand as dealt is a uniform draw of ``each`` cards from the preset's pack:

    - a given card (the ace of spades; each joker the pack has) is in it with
      probability ``each / pack``;
    - the ace of trump held when play starts always wins High for the pitcher's side
      (nothing ranks above it, and its holder always plays it: VARIANTS 0.7);
    - without a discard and a rob the cards in play are the cards dealt (0.6), so a king
      of trump dealt without the ace wins High for the pitcher's side exactly when the
      ace is not dealt to an opponent: ``1 - opponents * each / (pack - each)`` (under
      kitty=N too: a kitty goes to the pitcher, who never puts the ace of trump down,
      12.2.2 and rule X); under a called partner (12.1) always: the pitcher calls the
      ace he lacks (12.1.2, 12.1.4), so whoever holds it is his partner (12.1.6);
    - under ``low=dealt`` the 2 of trump held when play starts wins Low for its holder;
    - without a discard, a rob or a kitty, the jack of trump the pitcher lacks is in play
      (Jack's column is not "nobody") with probability ``(n-1) each / (pack - each)``.
    """
    from ..game.cards import HIGH_JOKER, LOW_JOKER, N_RANKS

    r = run.rules
    wanted = None if players is None else ([players] if isinstance(players, int) else players)
    key = {name: 1 << i for i, name in enumerate(KEY_NAMES)}
    spade_ace = 3 * N_RANKS + ACE
    jokers = [("high joker", HIGH_JOKER), ("low joker", LOW_JOKER)][: r.jokers]
    cols = ["hand", "keys", "keys_held", "high", "low", "jack"]
    sums: dict[int, dict[str, list[int]]] = {}
    for n, c in run.scan(cols, wanted):
        hand = c["hand"].astype(np.int64)
        keys = c["keys"].astype(np.int64)
        held = c["keys_held"].astype(np.int64)
        mine = c["high"] == 0  # 0: the pitcher's side took it
        tally = {
            "ace of spades": (hand.size, int(((hand >> spade_ace) & 1).sum())),
            **{f"{name} in": (hand.size, int(((hand >> card) & 1).sum())) for name, card in jokers},
            "ace": (int((held & key["A"] > 0).sum()), int(((held & key["A"] > 0) & mine).sum())),
        }
        king = (keys & key["K"] > 0) & (keys & key["A"] == 0)
        tally["king"] = (int(king.sum()), int((king & mine).sum()))
        lacks_jack = keys & key["J"] == 0  # Jack goes to nobody only when not dealt (0.7)
        tally["jack dealt"] = (int(lacks_jack.sum()), int((lacks_jack & (c["jack"] != 2)).sum()))
        deuce = held & key["2"] > 0
        tally["deuce"] = (int(deuce.sum()), int((deuce & (c["low"] == 0)).sum()))
        have = sums.setdefault(n, {})
        for name, (m, k) in tally.items():
            old = have.get(name, [0, 0])
            have[name] = [old[0] + m, old[1] + k]
    rows = []
    for n in sorted(sums):
        each, pack = r.cards_each(n), r.pack_size(n)
        s = sums[n]

        def share(check: str, name: str, exact: float, s=s, n=n) -> None:
            m, k = s[name]
            if m == 0:
                return
            p = k / m
            se = math.sqrt(exact * (1 - exact) / m)
            lo, hi = wilson(k, m)
            rows.append(_row(n, check, m, p, se, exact, lo, hi))

        share("the ace of spades in the pitcher's hand as dealt", "ace of spades", each / pack)
        for name, _ in jokers:
            share(f"the {name} in the pitcher's hand as dealt", f"{name} in", each / pack)
        share("the ace of trump held wins High", "ace", 1.0)
        if r.discard == "none" and not r.rob and not r.kitty:  # the cards dealt are in play
            share("unseen jack of trump dealt", "jack dealt", float(p_unseen_dealt(pack, each, n)))
        if r.discard == "none" and not r.rob:
            opponents = sum(1 for seat in range(1, n) if r.team(seat) != r.team(0))
            if r.partner != "none":  # the ace's holder is the partner (12.1.2, 12.1.6)
                opponents = 0
            share(
                "king of trump dealt without the ace wins High",
                "king",
                1 - opponents * each / (pack - each),
            )
        if r.low == "dealt":
            share("the 2 of trump held wins Low", "deuce", 1.0)
    return pd.DataFrame(rows)


# ---- exact values, by counting ---------------------------------------------------------------


def p_unseen_dealt(pack: int, each: int, n: int) -> Fraction:
    """A given card not in the pitcher's ``each`` cards is dealt to one of the other
    ``n - 1`` players: ``(n-1) each / (pack - each)``."""
    return Fraction((n - 1) * each, pack - each)


def p_card_dealt(pack: int, each: int, n: int) -> Fraction:
    """A given card of the pack is dealt to someone: ``n each / pack``."""
    return Fraction(n * each, pack)


def p_one_of_dealt(pack: int, dealt: int, cards: int) -> Fraction:
    """At least one of ``cards`` given cards is among ``dealt`` cards drawn from
    ``pack``: one minus the chance all of them stay undealt."""
    return 1 - Fraction(math.comb(pack - cards, dealt), math.comb(pack, dealt))


def mean_count_dealt(pack: int, dealt: int, total: int = 80) -> Fraction:
    """The Game count of ``dealt`` cards drawn from a pack whose counts add to
    ``total``: each card is dealt with probability dealt / pack."""
    return Fraction(total * dealt, pack)


# ---- hands played and recorded ------------------------------------------------------------


def sample_hands(
    rules: Rules | str,
    players: int,
    deals: int,
    seed: int = 1,
    policy: str = "heuristic",
    threads: int | None = None,
) -> dict:
    """Play ``deals`` family hands (seat 0 pitches, every seat ``policy``) and keep
    every seat's cards dealt and held, trump, the pitcher's side's points, the awards,
    the pitcher's partner under a called partner (12.1.5; -1: none), the trump masks of
    each deal and the seconds taken (wall and CPU)."""
    from ..kernels.partner import call_and_partner
    from ..kernels.presets import T_TRUMPS, rules_array, rules_table
    from ..kernels.simulate import policy_row
    from .batch import play_deals

    r = Rules.parse(rules)
    r.check_players(players)
    fr, tab = rules_array(r), rules_table(r)
    w0, c0 = time.perf_counter(), time.process_time()
    # the kernel ``pitchsim simulate`` runs, every seat's cards and awards kept
    c = play_deals(r, players, seed, 0, deals, policy_row(policy, players), threads, seats=True)
    out = {
        "dealt": c["all_dealt"],
        "held": c["all_held"],
        "trump": c["trump"].astype(np.int64),
        "points": c["points"].astype(np.int64),
        "award": c["all_award"],
    }
    out["wall_s"] = time.perf_counter() - w0
    out["cpu_s"] = time.process_time() - c0
    # pitchsim's call read back as the hand kernel made it (the record keeps no call)
    out["partner"] = np.full(deals, -1, np.int64)
    if r.partner != "none":
        for d in range(deals):
            out["partner"][d] = call_and_partner(
                out["dealt"][d], out["held"][d], players, 0, out["trump"][d], fr, tab
            )[1]
    out["rules"], out["players"], out["deals"] = r, players, deals
    out["trump_mask"] = tab[:, T_TRUMPS][out["trump"]]
    return out


def _count(m: np.ndarray) -> np.ndarray:
    return np.bitwise_count(m.view(np.uint64)).astype(np.int64)


def _bit(m: np.ndarray, cards: np.ndarray) -> np.ndarray:
    return ((m >> cards) & 1).astype(bool)


def point_cards(r, trump: np.ndarray) -> np.ndarray:
    """Per deal, the mask of the cards that carry a point of their own or are High or
    Low when in play at the top and bottom: ace, deuce, jack, jick, jokers, the ten
    (game=ten), the three, the five."""
    base = trump * 13
    one = np.int64(1)
    m = (one << (base + ACE)) | (one << (base + DEUCE)) | (one << (base + JACK))
    if r.jick:
        m |= one << np.array([jick_card(int(t)) for t in range(4)], np.int64)[trump]
    for j in range(r.jokers):
        m |= one << (52 + j)
    if r.game == "ten":
        m |= one << (base + TEN)
    if r.three:
        m |= one << (base + THREE)
    if r.five:
        m |= one << (base + FIVE)
    return m


def _prop_row(n, check, hits: np.ndarray, exact: Fraction):
    m = hits.size
    p = float(hits.mean())
    se = math.sqrt(p * (1 - p) / m)
    return _row(n, check, m, p, se, float(exact), p - Z95 * se, p + Z95 * se)


def _share_row(n, check, values: np.ndarray, exact: Fraction):
    v = values.astype(np.float64)
    return _mean_row(n, check, v.size, v.sum(), (v * v).sum(), float(exact))


def summary_checks(s: dict) -> list[dict]:
    """The exact checks of one sample (see the module docstring), one row each."""
    r, n = s["rules"], s["players"]
    fam = label(r)
    each, pack = r.cards_each(n), r.pack_size(n)
    dealt, held, trump, tm = s["dealt"], s["held"], s["trump"], s["trump_mask"]
    mine = dealt[:, 0]
    others = np.bitwise_or.reduce(dealt[:, 1:], axis=1)
    in_play = np.bitwise_or.reduce(held, axis=1)
    p = p_unseen_dealt(pack, each, n)
    rows = []

    def unseen_card(name: str, cards: np.ndarray):
        lacks = ~_bit(mine, cards)
        rows.append(_prop_row(n, f"{fam}: unseen {name} dealt", _bit(others, cards)[lacks], p))

    if not r.jick and r.jokers == 0:
        unseen_card("jack of trump", trump * 13 + JACK)
    if r.jick:
        jicks = np.array([jick_card(t) for t in range(4)], np.int64)[trump]
        unseen_card("jick", jicks)
    if r.jokers == 2:
        unseen_card("low joker", np.full(trump.size, LJ, np.int64))
    in_pack = np.int64(sum(1 << c for c in r.pack(n)))  # the short packs, no 4s (12.3, 4.3)
    pack_trumps = _count(tm & in_pack)
    unseen = pack_trumps - _count(mine & tm)
    ok = unseen > 0
    share = _count(others & tm)[ok] / unseen[ok]
    rows.append(_share_row(n, f"{fam}: share of unseen trumps dealt", share, p))
    pc = point_cards(r, trump) & in_pack
    unseen_pc = _count(pc) - _count(mine & pc)
    ok = unseen_pc > 0
    share = _count(others & pc)[ok] / unseen_pc[ok]
    rows.append(_share_row(n, f"{fam}: share of unseen point cards dealt", share, p))
    count = _game_count(np.bitwise_or.reduce(dealt, axis=1))
    rows.append(
        _share_row(
            n, f"{fam}: Game count of the cards dealt", count, mean_count_dealt(pack, n * each)
        )
    )
    if r.jokers == 2:
        # without a draw step the cards in play are the cards dealt (0.6)
        where, cards = ("in play", in_play) if r.discard == "none" else ("dealt", mine | others)
        either = _bit(cards, np.full(trump.size, HJ)) | _bit(cards, np.full(trump.size, LJ))
        exact = p_one_of_dealt(pack, n * each, 2)
        rows.append(_prop_row(n, f"{fam}: a joker {where}", either, exact))
        hj = _bit(np.bitwise_or.reduce(dealt, axis=1), np.full(trump.size, HJ))
        rows.append(_prop_row(n, f"{fam}: high joker dealt", hj, p_card_dealt(pack, each, n)))
    if r.no_fours(n):
        four = _bit(mine | others, np.full(trump.size, 2))  # the 4 of clubs
        rows.append(_prop_row(n, f"{fam}: the 4 of clubs dealt (no 4s)", four, Fraction(0)))
    ace = trump * 13 + ACE
    high = s["award"][:, 0]  # the seat that won High (the holder of the top trump)
    rows.append(
        _prop_row(
            n, f"{fam}: the ace of trump dealt wins High", (high == 0)[_bit(mine, ace)], Fraction(1)
        )
    )
    if r.discard == "none":
        king_top = _bit(mine, trump * 13 + KING) & ~_bit(mine, ace)
        won = (high == 0) | ((high == s["partner"]) & (high >= 0))  # the side's (12.1.6)
        exact = Fraction(1) if r.partner != "none" else 1 - p  # the ace is called (12.1.2)
        rows.append(
            _prop_row(n, f"{fam}: king of trump without the ace wins High", won[king_top], exact)
        )
    if r.rob:
        ace_in = _bit(in_play, trump * 13 + ACE)
        rows.append(
            _prop_row(n, f"{fam}: the ace of trump in play (rob=true)", ace_in, Fraction(1))
        )
    if r.low == "dealt":
        deuce = _bit(held[:, 0], trump * 13 + DEUCE)
        low = s["award"][:, 1] == 0
        rows.append(_prop_row(n, f"{fam}: the 2 of trump held wins Low", low[deuce], Fraction(1)))
    return rows


def merge_checks(old: str, checks: pd.DataFrame) -> str:
    """The text of ``exact_checks.csv`` with the base game's rows of ``old`` kept as they
    are and the families' rows replaced by ``checks`` (a family row's check starts with
    its family and a colon; the family may hold a comma, so the CSV is read as CSV)."""
    import csv

    lines = old.splitlines()
    kept = [line for line, row in zip(lines, csv.reader(lines), strict=True) if ":" not in row[1]]
    body = checks.to_csv(index=False, header=not kept, float_format="%.5g")
    return ("\n".join(kept) + "\n" if kept else "") + body


def _fours() -> np.int64:
    return np.int64(sum(1 << (s * 13 + 2) for s in range(4)))


def _game_count(m: np.ndarray) -> np.ndarray:
    total = np.zeros(m.size, np.int64)
    for rank, value in GAME_VALUES.items():
        for suit in range(4):
            total += value * ((m >> (suit * 13 + rank)) & 1)
    return total


def exact_check_table(
    deals: int, seed: int = 2026, tables=CHECK_TABLES, threads: int | None = None
) -> tuple[pd.DataFrame, list[dict]]:
    """Every family's checks as rows in the columns of ``reports/exact_checks.csv``,
    and per table the run's size and seconds."""
    rows, runs = [], []
    for i, (spec, n) in enumerate(tables):
        # a seed of its own per table: the deal does not depend on the family or n much
        # (seat 0's cards come first), so one seed would repeat the same deals
        s = sample_hands(spec, n, deals, seed=seed + i, threads=threads)
        rows += summary_checks(s)
        runs.append(sample_run(spec, s))
    return pd.DataFrame(rows), runs


def sample_run(spec: str, s: dict) -> dict:
    """What a report says of one sample of :func:`sample_hands`: its rules as asked,
    size and seconds."""
    return {
        "rules": spec,
        "players": s["players"],
        "deals": s["deals"],
        "wall_s": s["wall_s"],
        "cpu_s": s["cpu_s"],
    }
