"""Bounds on untrusted input, in one place (the docs and the JSON Schemas quote them).

Every reader of text, JSON, TOML, parameters and files checks these bounds before it builds
anything, and refuses with the library's own error for that input (``NotationError``,
``DataError``, ``RulesetError``) naming the bound, so a hostile input costs at most a bounded
amount of time and memory and never reaches Python's own limits (the integer-string limit of
4,300 digits, the recursion limit) whose errors are not the library's.

Also here: :func:`read_file`, the one way the library reads a file it is given (a regular
file, opened without blocking, read up to a size cap), and :func:`printable`, the test that
names shown on a terminal are printable text.
"""

from __future__ import annotations

import itertools
import os
import re
import stat
import time
import unicodedata
from collections.abc import Callable
from typing import Any

MAX_DIGITS = 80
"""Longest whole number read from text, JSON or TOML, in digits (a 256-bit seed has 78)."""

MAX_DEPTH = 32
"""Deepest nesting of JSON arrays and objects or TOML tables and arrays (the formats
themselves need 5)."""

MAX_JSON_BYTES = 8 * 1024 * 1024
"""Largest JSON document (record, state or view) read, in bytes (8 MiB; a long game's record
is well under 1 MiB).  Reading one at the cap peaks below about 100 MB of memory."""

MAX_TOML_BYTES = 1024 * 1024
"""Largest custom rule-set file read, in bytes (1 MiB)."""

MAX_POSITION_CHARS = 64 * 1024
"""Longest position or view text, in characters (a four-pack position is about 1,000)."""

MAX_MOVE_CHARS = 64
"""Longest move text, in characters (the longest real move, ``S12.D3:10H>B12``, has 14)."""

MAX_NAME_CHARS = 200
"""Longest name, kind or other label read from a record or a rule-set file, in characters."""


# -- the play server (spitemalice.server): every incoming message is bounded ----------------

MAX_MESSAGE_BYTES = 4096
"""Largest protocol message a client may send to the play server, in bytes of UTF-8 (the
largest real one, a ``create`` with eight named seats and every house rule, is under 1,500).
A longer message is answered with an error and dropped; the connection stays open."""

MAX_FRAME_BYTES = 64 * 1024
"""Largest WebSocket message the play server reads at all, in bytes; a longer one closes the
connection (status 1009, "message too big"), so a client cannot make the server buffer
more."""

MESSAGES_PER_SECOND = 20
"""Messages a connection may send per second, on average (a person clicks a few times a
second; a bot answers once per move).  Faster messages are answered with one error each
second and dropped."""

MESSAGE_BURST = 40
"""Messages a connection may send at once before :data:`MESSAGES_PER_SECOND` applies."""

MAX_TABLES_PER_CLIENT = 8
"""Unfinished tables one client (one network address) may have created on a play server at
a time (``spitemalice serve --max-tables-per-client`` changes it)."""

MAX_TABLES = 500
"""Unfinished tables a play server holds at a time (``spitemalice serve --max-tables``)."""

MAX_SEAT_NAME_CHARS = 40
"""Longest name of a seat at a play-server table, in characters (printable text only)."""

MAX_CONNECTIONS_PER_SEAT = 8
"""Connections (browser tabs, programs) that may sit at one seat of a table at a time."""


class Rate:
    """A token bucket: :meth:`allow` is true for at most ``burst`` calls at once and
    ``per_second`` calls per second on average (one per connection of the play server,
    :data:`MESSAGES_PER_SECOND` and :data:`MESSAGE_BURST`).

    ``clock`` gives seconds (default :func:`time.monotonic`; tests pass their own).
    """

    def __init__(self, per_second: float = MESSAGES_PER_SECOND, burst: int = MESSAGE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.tokens, self.last = float(burst), clock()

    def allow(self) -> bool:
        """Whether one more message may pass now (it is counted when it may)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def whole_number(text: str) -> int | None:
    """``text`` as a whole number >= 0 when it is 1 to :data:`MAX_DIGITS` ASCII digits, else
    ``None`` (callers raise their own error, naming the field)."""
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def json_int(text: str) -> int:
    """The ``parse_int`` hook for :func:`json.loads`: a JSON integer of at most
    :data:`MAX_DIGITS` digits.

    Raises:
        ValueError: a longer number (the JSON readers turn it into their own error).
    """
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits; at most {MAX_DIGITS} "
                            "are read")
    return int(text)


_JSON_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets inside strings do
    not count), found without recursion and in time linear in the text's length."""
    brackets = _NOT_BRACKETS.sub("", _JSON_STRINGS.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


def data_depth(data: Any) -> int:
    """The deepest nesting of lists and dicts in parsed data, found without recursion."""
    deepest, stack = 0, [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:  # no need to look deeper than the bound
                values = item.values() if isinstance(item, dict) else item
                stack.extend((value, depth) for value in values)
    return deepest


def printable(text: str) -> bool:
    """Whether ``text`` shows on any terminal as what it is: no control or format characters,
    no lone surrogates, no unassigned or private-use code points, and at most
    :data:`MAX_NAME_CHARS` characters."""
    if len(text) > MAX_NAME_CHARS:
        return False
    if text.isascii():
        return text.isprintable()
    return all(unicodedata.category(char) not in _UNPRINTABLE for char in text)


_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class FileRefused(Exception):
    """Why :func:`read_file` would not read a file (callers re-raise their own error)."""


def read_file(path: str | os.PathLike[str], cap: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``cap`` of them.

    The file is opened without blocking (a FIFO cannot hang the reader), must be a regular file
    (not a device such as ``/dev/zero``, a FIFO or a directory), and is read up to ``cap + 1``
    bytes, so neither time nor memory depends on what the path names.

    Raises:
        FileRefused: the file cannot be opened or read, is not a regular file, or is larger
            than ``cap`` bytes; the message says why, without the path.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileRefused(str(error.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused("it is not a regular file (a device, FIFO or directory is never "
                              "read)")
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise FileRefused(str(error.strerror)) from None
    finally:
        os.close(fd)
    if size > cap:
        raise FileRefused(f"it is larger than {cap:,} bytes, the most read")
    return b"".join(chunks)
