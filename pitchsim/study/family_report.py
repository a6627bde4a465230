"""The rule families in the report: exact checks, P(make k) by key holding and a
bidding chart per family, from hands played by the family kernels
(``kernels.families.sample``).  ``scripts/make_reports.py --families`` writes them.

**Exact checks.**  The values come from plain counting (``fractions``, ``math.comb``),
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
  (no draw step): ``1 - (n-1) each / (pack - each)``;
- rules that admit no chance: Low held is Low won under low=dealt (the 2 of trump
  held by the pitcher); under rob=true every trump reaches a hand, so the ace of
  trump is always in play (VARIANTS.md 4.10).

Each estimate carries its own standard error (a proportion's sqrt(p(1-p)/m) or a
mean's), and the 95% interval is the estimate +/- 1.96 of it; ``z`` as in
:func:`pitchsim.study.analysis.exact_checks`, whose columns the rows share (the
family is the prefix of ``check``: ``smear: unseen jick dealt``).
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pandas as pd

from ..game.cards import ACE, JACK, KING, TEN
from ..game.rules import Rules, as_family, label
from ..game.trumps import jick_card
from ..util.stats import Z95, wilson
from .analysis import _mean_row, _row

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
)
REPORT_TABLES = (("setback", 4), ("smear", 4), ("ten-point", 4))
DEUCE, THREE, FIVE = 0, 1, 3
HJ, LJ = 52, 53
GAME_VALUES = {TEN: 10, ACE: 4, KING: 3, KING - 1: 2, JACK: 1}  # 0.8, by rank


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
    the trump masks of each deal and the seconds taken (wall and CPU)."""
    from ..kernels.families.sample import record_family_hands
    from ..kernels.families.simulate import family_policies
    from ..kernels.families.tables import T_TRUMPS, family_array, family_tables
    from ..util.runtime import CHUNK, chunked, use_threads

    r = as_family(Rules.parse(rules))
    r.check_players(players)
    fr, tab = family_array(r), family_tables(r)
    out = {
        "dealt": np.empty((deals, players), np.int64),
        "held": np.empty((deals, players), np.int64),
        "trump": np.empty(deals, np.int64),
        "points": np.empty(deals, np.int64),
        "award": np.empty((deals, 10), np.int64),
    }
    pols = family_policies(policy, players)
    w0, c0 = time.perf_counter(), time.process_time()
    with use_threads(threads):
        for a, b in chunked(deals, CHUNK):
            record_family_hands(
                seed,
                a,
                b - a,
                players,
                pols,
                fr,
                tab,
                out["dealt"][a:b],
                out["held"][a:b],
                out["trump"][a:b],
                out["points"][a:b],
                out["award"][a:b],
            )
    out["wall_s"] = time.perf_counter() - w0
    out["cpu_s"] = time.process_time() - c0
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


def family_checks(s: dict) -> list[dict]:
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
    pack_trumps = _count(tm) if not r.no_fours(n) else _count(tm & ~_fours())
    unseen = pack_trumps - _count(mine & tm)
    ok = unseen > 0
    share = _count(others & tm)[ok] / unseen[ok]
    rows.append(_share_row(n, f"{fam}: share of unseen trumps dealt", share, p))
    pc = point_cards(r, trump)
    if r.no_fours(n):
        pc &= ~_fours()
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
    if r.discard == "none":
        ace = trump * 13 + ACE
        king_top = _bit(mine, trump * 13 + KING) & ~_bit(mine, ace)
        won = s["award"][:, 0] == 0
        rows.append(
            _prop_row(n, f"{fam}: king of trump without the ace wins High", won[king_top], 1 - p)
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
        rows += family_checks(s)
        runs.append(
            {
                "rules": spec,
                "players": n,
                "deals": deals,
                "wall_s": s["wall_s"],
                "cpu_s": s["cpu_s"],
            }
        )
    return pd.DataFrame(rows), runs


# ---- P(make k) by key holding, and the bidding chart --------------------------------------------

SHORT = {
    ACE: "A",
    KING: "K",
    KING - 1: "Q",
    JACK: "J",
    TEN: "10",
    THREE: "3",
    FIVE: "5",
    DEUCE: "2",
}


def key_cards(r, trump: int) -> list[tuple[int, str]]:
    """The trumps that name a holding, in trump order: the point cards of the family
    (the ace and the king as the top trumps)."""
    base = trump * 13
    out = [(base + ACE, "A"), (base + KING, "K"), (base + JACK, "J")]
    if r.jick:
        out.append((jick_card(trump), "Jk"))
    if r.jokers >= 1:
        out.append((HJ, "HJ"))
    if r.jokers == 2:
        out.append((LJ, "LJ"))
    if r.game == "ten":
        out.append((base + TEN, "10"))
    if r.five:
        out.append((base + FIVE, "5"))
    if r.three:
        out.append((base + THREE, "3"))
    out.append((base + DEUCE, "2"))
    return out


def holdings(s: dict) -> pd.DataFrame:
    """Per deal the pitcher's key trumps dealt (``holding``, e.g. ``A J Jk 2``), his
    trump length dealt and the points his side won."""
    r = s["rules"]
    mine = s["dealt"][:, 0]
    trump = s["trump"]
    labels = np.empty(trump.size, dtype=object)
    for t in range(4):
        at = trump == t
        names = np.full(at.sum(), "", dtype=object)
        for c, name in key_cards(r, t):
            has = ((mine[at] >> c) & 1).astype(bool)
            names = np.where(has, names + " " + name, names)
        labels[at] = names
    labels = np.array([x.strip() or "none" for x in labels], dtype=object)
    return pd.DataFrame(
        {
            "holding": labels,
            "length": _count(mine & s["trump_mask"]),
            "points": s["points"],
        }
    )


def make_by_holding(s: dict, by=("holding",), min_count: int = 2000) -> pd.DataFrame:
    """P(make k) for every level k with Wilson 95% bounds, the expected score of every
    legal bid and the bid to go up to (the highest with a positive expected score; 0:
    pass), by ``by`` (``holding`` and/or ``length``), groups of at least
    ``min_count`` deals, the most frequent first."""
    r = s["rules"]
    h = holdings(s)
    rows = []
    for key, g in h.groupby(list(by), sort=False):
        m = len(g)
        if m < min_count:
            continue
        pts = g.points.to_numpy()
        row = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
        row["deals"] = m
        for k in range(1, r.max_bid + 1):
            hits = int((pts >= k).sum())
            lo, hi = wilson(hits, m)
            row[f"p{k}"], row[f"p{k}_lo"], row[f"p{k}_hi"] = hits / m, float(lo), float(hi)
        best = 0
        for k in range(r.min_bid, r.max_bid + 1):
            score = np.where(pts >= k, pts, -k)
            row[f"score{k}"] = float(score.mean())
            row[f"score{k}_se"] = float(score.std() / math.sqrt(m))
            if score.mean() > 0:
                best = k
        row["bid"] = best
        rows.append(row)
    out = pd.DataFrame(rows)
    return out.sort_values("deals", ascending=False, ignore_index=True) if len(out) else out


def bidding_chart(s: dict, min_count: int = 500, top: int = 20):
    """The bid to go up to by key holding (rows, the ``top`` most frequent) and trump
    length (columns): the highest legal bid whose expected score is positive, ``P`` to
    pass (rows by average points, strongest first), grey where fewer than ``min_count`` deals; a ``?`` where that bid's expected
    score or the next one's is within 1.96 standard errors of zero."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    r, n = s["rules"], s["players"]
    table = make_by_holding(s, ("holding", "length"), min_count=1)
    h = holdings(s)
    freq = h.holding.value_counts()
    strength = h.groupby("holding").points.mean()
    # the most frequent holdings, the strongest (most points on average) at the top
    rows = sorted(freq.index[:top], key=lambda x: -strength[x])
    shown = table[table.holding.isin(rows) & (table.deals >= min_count)]
    rows = [x for x in rows if x in set(shown.holding)]  # rows and columns with a cell shown
    lengths = sorted(int(x) for x in shown.length.unique())
    grid = np.full((len(rows), len(lengths)), np.nan)
    text = [["" for _ in lengths] for _ in rows]
    for t in table.itertuples():
        if t.holding not in rows or t.deals < min_count:
            continue
        i, j = rows.index(t.holding), lengths.index(int(t.length))
        grid[i, j] = t.bid
        doubt = any(
            abs(getattr(t, f"score{k}")) < Z95 * getattr(t, f"score{k}_se")
            for k in (t.bid, t.bid + 1)
            if r.min_bid <= k <= r.max_bid
        )
        text[i][j] = ("P" if t.bid == 0 else str(t.bid)) + ("?" if doubt else "")
    levels = list(range(0, r.max_bid + 1))
    cmap = ListedColormap(plt.get_cmap("viridis", len(levels))(np.arange(len(levels))))
    cmap.set_bad("#dddddd")
    fig, ax = plt.subplots(figsize=(1.0 + 0.62 * len(lengths) + 2.2, 0.9 + 0.36 * len(rows)))
    ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=-0.5, vmax=r.max_bid + 0.5, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(lengths)):
            if text[i][j]:
                v = grid[i, j]
                colour = "white" if v < 0.55 * r.max_bid else "black"
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=9, color=colour)
    ax.set_xticks(range(len(lengths)), [str(x) for x in lengths])
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("trumps dealt to the pitcher")
    ax.set_ylabel("key trumps dealt")
    table_kind = "partnership" if r.partnership else "solo"
    ax.set_title(
        f"{label(r)}, {n} players {table_kind}: bid up to (P = pass)\n"
        f"{s['deals']:,} deals, heuristic play; grey: < {min_count:,} deals; ?: close call",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def holding_table_markdown(t: pd.DataFrame, r, levels: list[int], top: int = 14) -> list[str]:
    """The most frequent holdings as a markdown table: P(make k) at ``levels``."""
    head = (
        "| key trumps dealt | deals | "
        + " | ".join(f"P(make {k})" for k in levels)
        + " | bid up to |"
    )
    out = [head, "| --- | ---: |" + " ---: |" * len(levels) + " ---: |"]
    for row in t.head(top).itertuples():
        cells = []
        for k in levels:
            p, lo, hi = getattr(row, f"p{k}"), getattr(row, f"p{k}_lo"), getattr(row, f"p{k}_hi")
            half = 100 * max(hi - p, p - lo)
            cells.append(f"{100 * p:.1f}% ±{half:.1f}" if half >= 0.05 else f"{100 * p:.1f}% ±<0.1")
        bid = "pass" if row.bid == 0 else str(row.bid)
        out.append(f"| {row.holding} | {row.deals:,} | " + " | ".join(cells) + f" | {bid} |")
    return out
