#!/usr/bin/env python3
"""Why do fitted worlds help defenders and hardly the pitcher?  What the calls move.

For deals bid by the odds model at every seat (``bench_hint_view.real_view``), two
decision points: the pitcher's opening lead, and the first defender's reply to it.  In
each, W worlds that fit the calls and W that ignore them (``search.hint.view_worlds``,
the preset path's sampler, with the odds model and with none; hands as dealt: the cards
held in a world plus those each seat played)
are compared by who holds the trumps (the pitcher's planned suit): per seat the mean
number of trumps, and the chance of holding the trump Ace, Jack and Two, fitted minus
plain, averaged over the deals.  Beside each, in brackets, the same between two sets of
plain worlds of different seeds: the sampling noise alone.

    .venv/bin/python scripts/diagnose_fitted.py --players 3,4,5 --deals 60 --worlds 300
"""

from __future__ import annotations

import argparse
import random

import project_python  # noqa: E402  (scripts/ is first on sys.path)

project_python.require(__file__)

import numpy as np  # noqa: E402
from bench_hint_view import real_view  # noqa: E402

from pitchsim.game.rules import Rules  # noqa: E402
from pitchsim.search.hint import view_worlds  # noqa: E402
from pitchsim.table.decide import view_knowledge  # noqa: E402


def holdings(worlds: np.ndarray, trump: int, seats: list[int]) -> np.ndarray:
    """Per seat: mean trumps, P(trump A), P(trump J), P(trump 2)."""
    out = []
    for s in seats:
        t = (worlds[:, s] >> (13 * trump)) & 0x1FFF
        count = np.array([int(x).bit_count() for x in t])
        out.append([count.mean(), (t >> 12 & 1).mean(), (t >> 9 & 1).mean(), (t & 1).mean()])
    return np.array(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    for n in (int(x) for x in a.players.split(",")):
        rng = random.Random(a.seed)
        pitcher_rows, spread, defender_rows, rates = [], [], [], [[], []]
        noise_p, noise_spread, noise_d = [], [], []
        for d in range(a.deals):
            for cards in (0, 1):
                view = real_view(rng, n, Rules(), cards)
                trump = real_view.trump
                if trump < 0:
                    continue
                pby = view_knowledge(view).pby
                fit, tried = view_worlds(view, a.worlds, d, "odds")
                fit, plain, other = (
                    w[:, :n] | pby
                    for w in (
                        fit,
                        view_worlds(view, a.worlds, d)[0],
                        view_worlds(view, a.worlds, d + 10**6)[0],
                    )
                )
                rates[cards].append(len(fit) / max(tried, 1))
                if cards == 0:  # the pitcher: where are the defenders' trumps?
                    seats = [s for s in range(n) if s != view.seat]
                    shift = holdings(fit, trump, seats) - holdings(plain, trump, seats)
                    pitcher_rows.append(np.abs(shift).mean(axis=0))
                    spread.append(shift[:, 0].max() - shift[:, 0].min())
                    noise = holdings(other, trump, seats) - holdings(plain, trump, seats)
                    noise_p.append(np.abs(noise).mean(axis=0))
                    noise_spread.append(noise[:, 0].max() - noise[:, 0].min())
                else:  # a defender: what does the pitcher hold?
                    p = view.pitcher
                    shift = holdings(fit, trump, [p]) - holdings(plain, trump, [p])
                    defender_rows.append(shift[0])
                    noise_d.append(
                        np.abs(holdings(other, trump, [p]) - holdings(plain, trump, [p]))[0]
                    )
        pr, dr = np.mean(pitcher_rows, axis=0), np.mean(defender_rows, axis=0)
        npr, ndr = np.mean(noise_p, axis=0), np.mean(noise_d, axis=0)
        print(
            f"{n} players, {len(pitcher_rows)} + {len(defender_rows)} decisions, "
            f"{a.worlds} worlds each:"
        )
        print(
            f"  pitcher's view (acceptance {100 * np.median(rates[0]):.0f}%): a defender's "
            f"trumps move by |{pr[0]:.3f}| [{npr[0]:.3f}] on average (spread between "
            f"defenders {np.mean(spread):.3f} [{np.mean(noise_spread):.3f}]); P(trump J) "
            f"|{100 * pr[2]:.1f}| [{100 * npr[2]:.1f}], P(2) |{100 * pr[3]:.1f}| "
            f"[{100 * npr[3]:.1f}] points"
        )
        print(
            f"  a defender's view (acceptance {100 * np.median(rates[1]):.0f}%): the "
            f"pitcher's trumps {dr[0]:+.3f} [{ndr[0]:.3f}], P(trump A) {100 * dr[1]:+.1f} "
            f"[{100 * ndr[1]:.1f}], P(J) {100 * dr[2]:+.1f} [{100 * ndr[2]:.1f}], P(2) "
            f"{100 * dr[3]:+.1f} [{100 * ndr[3]:.1f}] points (fitted minus plain)"
        )


if __name__ == "__main__":
    main()
