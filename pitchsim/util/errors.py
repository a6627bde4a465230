"""Exceptions the CLI turns into one line on stderr: bad input (exit 2), interruption (130)."""


class InputError(ValueError):
    """Input a user can fix (a card, a hand, an option); the message names the problem."""


class Interrupted(Exception):
    """The user stopped a long run (Ctrl-C); the message says what was kept and how to go
    on."""


QUOTE_LIMIT = 60  # characters of a user's input an error line echoes at most


def printable(text: str) -> str:
    """``text`` with every character that is not printable written as its escape
    (``\\x1b``, ``\\x00``): another program's words, shown, never drive the terminal.

    >>> printable("boom\\x1b[2J\\x07")
    'boom\\\\x1b[2J\\\\x07'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def quoted(value: object, limit: int = QUOTE_LIMIT, tail: bool = False) -> str:
    """``value`` as an error line echoes it: its repr, cut to about ``limit`` characters
    (a 1 MB token must not become a 1 MB error line); ``tail``: keep its end instead
    (a file name's end says most).

    >>> quoted("ZZ")
    "'ZZ'"
    >>> quoted("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1,000 characters)"
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        if tail:
            return f"...{value[5 - limit :]!r}"
        return f"{value[: limit - 5]!r}... ({len(value):,} characters)"
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr of 4,300+ digits fails
        return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 5]}... ({len(text):,} characters)"
