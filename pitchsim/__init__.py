"""pitchsim: a strategy analyzer for the card game Pitch (Auction Pitch / Setback)."""

__version__ = "0.1.0"


def __getattr__(name):
    # Lazy: importing pitchsim should not compile or load kernels until they are used.
    if name == "bid_odds":
        from .odds import bid_odds

        return bid_odds
    if name == "advise":
        from .advice import advise

        return advise
    if name == "Rules":
        from .options import Rules

        return Rules
    raise AttributeError(name)
