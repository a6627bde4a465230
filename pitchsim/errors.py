"""The one exception type for bad input: the CLI prints its message and exits 2."""


class InputError(ValueError):
    """Input a user can fix (a card, a hand, an option); the message names the problem."""
