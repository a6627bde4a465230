"""Exceptions the CLI turns into one line on stderr: bad input (exit 2), interruption (130)."""


class InputError(ValueError):
    """Input a user can fix (a card, a hand, an option); the message names the problem."""


class Interrupted(Exception):
    """The user stopped a long run (Ctrl-C); the message says what was kept and how to go
    on."""
