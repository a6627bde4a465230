"""The rule families (VARIANTS.md) in numba kernels, hand level, beside the base game's.

Every preset's hands, auction-pitch's too, run through these modules (the base game's
shape compiled in where it pays: ``simulate.hands_kernel``), one per part of the hand:

- ``tables``: the rules as an int64 array (``family_array``) and the per-trump tables
  as one int64 array ``tab[trump, ...]`` (``family_tables``), built from
  ``pitchsim.game.trumps``: trump masks, effective suits, order keys, capture values,
  the rule-X burn order.  Both are passed to every kernel as arguments, never globals.
- ``deal``: the pack (0-2 jokers; no fours with 5 players, 9 to deal, two jokers) and
  6, 9 or 10 cards each, with the stock in order.
- ``draw``: discard non-trumps, burn excess trumps (rule X), draw to 6, rob (4.8).
- ``partner``: the called partner (12.1): the call, its holder, who owes it to the
  first trick; ``after_naming``, what follows the naming of trump (the call, the
  draw or the kitty).
- ``play``: a hand of tricks (legality by effective-suit masks, the winner by order
  key, first-lead or named trump, lead-trump, follow=only).
- ``score``: every point and who gets it; ``settle``: the set rule and the winners.
- ``trick``: one trick's rules (legality, the winner, who leads under follow=only).
- ``plain``: the hand played by the plain policies (``play`` hands over to it when no
  seat searches): masks per trick, the policy called directly; ``borrow``: borrowed
  array views, so that no atomic reference counting runs per card.
- ``policies``: ``random`` and ``heuristic`` play and trump naming for families.
- ``worlds`` and ``rollout``: the ``rollout`` search policy: worlds consistent with a
  seat's knowledge, each legal card played out in the same worlds by ``heuristic``.
- ``simulate``: many hands at once (P(make k) for the pitcher's side) and logged
  hands for the cross-check against ``pitchsim.game.reference``.

The kernel API is positional, like the base game's.  The entry point for one hand is
``simulate.family_hand`` (deal, name trump, draw, play, score), or
``simulate.family_hand_fixed`` with the pitcher's hand and trump given; many hands in
parallel: ``simulate.simulate_family_hands`` / ``simulate_family_fixed``; the library
call ``simulate.family_make_odds``.  See the module docstrings.  Not here yet: the
auction and whole games of a family.
"""
