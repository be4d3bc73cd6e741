"""Text for a terminal: the one escaping function for anything a stranger wrote.

A name in a record, a clause a plugin wrote, a file name, a line a person typed: any of them
can hold control characters (``ESC`` starts sequences that set a terminal's title, clear its
screen, hide text or, on some terminals, write the clipboard).  Everything of that kind passes
:func:`for_terminal` before it is printed.
"""

from __future__ import annotations

import unicodedata

_UNSHOWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories written as escapes: controls, format characters (bidirectional
overrides among them), lone surrogates, private-use and unassigned code points, line and
paragraph separators.  The same set :func:`spitemalice.limits.printable` refuses."""

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def for_terminal(text: str, *, lines: bool = False) -> str:
    r"""``text`` with every character a terminal would act on, or could hide, written as a
    Python-style escape (``"\n"``, ``"\x1b"``, ``"\u202e"``, ``"\U000e0001"``); printable
    text is left as it is.

    Args:
        text: any string (from a file, a record, a plugin or a person).
        lines: keep ``"\n"`` as a line break (for several lines of text, such as a clause);
            otherwise it is escaped too, so one value prints on one line.

    Returns:
        A string that holds no control, format, surrogate, private-use or unassigned
        character (but ``"\n"`` when ``lines`` is true).
    """
    if text.isascii() and text.isprintable():
        return text  # the usual case, decided in C
    return "".join(_shown(char, lines) for char in text)


def _shown(char: str, lines: bool) -> str:
    if char == "\n" and lines:
        return char
    if unicodedata.category(char) not in _UNSHOWN:
        return char
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
