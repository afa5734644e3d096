"""Numbers in text, read with care: ASCII digits only, and no conversion of thousands of
digits (CPython refuses those). What every reader of the notation, a record, a
position or a command shares; below them all, it imports nothing.
"""


def is_digits(text):
    """True if ``text`` is one or more ASCII digits (``str.isdigit`` also takes
    ``'²'`` and ``'١٩'``, which ``int`` then refuses or reads)."""
    if not text:
        return False
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return True


def small_int(digits, limit):
    """``int(digits)`` of ASCII ``digits``, or ``limit`` if it is larger
    (without converting thousands of digits: CPython refuses those)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(limit)):
        return limit
    n = int(digits)
    return n if n < limit else limit
