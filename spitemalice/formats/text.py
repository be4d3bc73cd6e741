"""Text for a terminal: the one escaping function for anything a stranger wrote.

A name in a record, a clause a plugin wrote, a file name, a line a person typed: any of them
can hold control characters (``ESC`` starts sequences that set a terminal's title, clear its
screen, hide text or, on some terminals, write the clipboard).  Everything of that kind passes
:func:`for_terminal` before it is printed.

The function lives in :mod:`spitemalice.limits` (beside :func:`~spitemalice.limits.printable`,
which refuses the same characters in names), so the command line can escape its output
without loading this package; this module is where an embedder imports it from.
"""

from __future__ import annotations

from spitemalice.limits import for_terminal

__all__ = ["for_terminal"]
