"""pitchsim: a strategy analyzer for the card game Pitch (Auction Pitch / Setback).

Everything the command line does is one call here, returning plain data:

>>> import pitchsim
>>> r = pitchsim.bid_odds("AH KH 2H 9C 7D 3S", players=5, samples=2000, seed=42)
>>> r.recommendation.bid, r.recommendation.trump
(3, Suit.HEARTS)

- :func:`bid_odds`: how often a six-card hand makes each bid, per trump suit
- :func:`simulate`, :func:`make_table`, :func:`chart`: study runs kept as Parquet,
  tables and charts from them
- :func:`tournament`: whole games between bidding + play strategies, duplicate style
- :class:`Rules`: the base rules and every variant (``Rules.parse("low=dealt")``)
- :class:`View`: what one seat knows at the table (docs/view.md); :func:`views_of` cuts
  them from a game record (docs/record.md)
"""

__version__ = "0.1.0"

# Imported lazily: importing pitchsim should not load numba, pandas or matplotlib, nor
# compile kernels, until something is used.
_WHERE = {
    "bid_odds": "advice.odds",
    "BidOdds": "advice.odds",
    "TrumpOdds": "advice.odds",
    "Recommendation": "advice.odds",
    "advise": "advice.advise",
    "Advice": "advice.advise",
    "tournament": "table.tournament",
    "TournamentResult": "table.tournament",
    "simulate": "study.batch",
    "resume": "study.batch",
    "make_table": "study.analysis",
    "exact_checks": "study.exact",
    "chart": "study.charts",
    "Rules": "game.rules",
    "Suit": "game.cards",
    "parse_hand": "game.cards",
    "format_cards": "game.cards",
    "InputError": "util.errors",
    "View": "game.view",
    "views_of": "table.record",
}
__all__ = [*_WHERE, "__version__"]


def __getattr__(name):
    if name in _WHERE:
        from importlib import import_module

        value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pitchsim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
