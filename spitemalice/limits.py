"""Bounds on untrusted input, in one place (the docs and the JSON Schemas quote them).

Every reader of text, JSON, TOML, parameters and files checks these bounds before it builds
anything, and refuses with the library's own error for that input (``NotationError``,
``DataError``, ``RulesetError``) naming the bound, so a hostile input costs at most a bounded
amount of time and memory and never reaches Python's own limits (the integer-string limit of
4,300 digits, the recursion limit) whose errors are not the library's.

Whole numbers given to the Python API (a seed, a game count, a seat) are bounded here too:
every public function, constructor and environment method that takes one checks it with
:func:`check_int` (or :func:`check_seed`) and refuses with
:class:`~spitemalice.errors.SpiteMaliceError` naming the bound, so no integer reaches a place
where Python's own limits (printing it, a ``range`` of it) would fail or never end.

Also here: :func:`read_file`, the one way the library reads a file it is given (a regular
file, opened without blocking, read up to a size cap), and :func:`printable`, the test that
names shown on a terminal are printable text.
"""

from __future__ import annotations

import datetime
import itertools
import numbers
import operator
import os
import re
import stat
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from spitemalice.errors import SpiteMaliceError

MAX_DIGITS = 80
"""Longest whole number read from text, JSON or TOML, in digits (a 256-bit seed has 78)."""

MAX_INT = 10**MAX_DIGITS - 1
"""The largest whole number any part of the library takes, from text or from Python: one of
:data:`MAX_DIGITS` digits, so every number a value holds is one its readers read back."""

MAX_SEED = MAX_INT
"""The largest seed, the same everywhere (``deal``, the environments, bots, studies,
sessions, records, the notation and JSON): a game dealt from any seed the library accepts
saves to a record the library reads back.  Unseeded games draw 128 bits
(:func:`spitemalice.engine.deal.new_seed`), far below it."""

MAX_GAMES = 10**9
"""The most games one run plays (``simulate``, ``compare``, ``validate``, a tournament's
deals, a match's games): a billion, days of work on every core."""

MAX_MATCH_GAMES = 1000
"""The most games one match plays (``play_match``'s ``max_games``): a match keeps every game
it played, and one to 50 points takes a handful."""

MAX_VECTOR_ENVS = 4096
"""The most games one vectorised environment steps at once (``num_envs``); its memory is
linear in them."""

MAX_JOBS = 1024
"""The most worker processes one run starts on this machine (``jobs``, ``--jobs``)."""

MAX_DECK_CARDS = 1000
"""The most cards a numbered pack holds (:func:`spitemalice.numbered_pack`); the largest deck
the rule-set parameters allow has 800 (a 400-card draw pack and a 400-card pay-off pack)."""

MAX_OBSERVATION = 1_000_000
"""The most values one observation array of the environments holds (2 MB of ``int16``); the
largest the rule-set parameters allow, eight seats of eight discard piles shown to the depth
of an 800-card deck, holds about 52,000."""

MAX_PLAYOUTS = 1_000_000
"""The most play-outs one Monte Carlo search decision runs (the ``mcts`` bot's trees and
the ``ismcts`` bot's root children grow with them)."""

MAX_BOOTSTRAP = 1_000_000
"""The most bootstrap refits behind one set of ratings' intervals (``ratings``)."""

MAX_SECONDS = 3600.0
"""The longest time budget of one bot decision, in seconds."""

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


def digits_of(value: int) -> int:
    """How many decimal digits ``value`` has, found from its size in bits (printing a huge
    integer is itself refused by Python, past 4,300 digits)."""
    magnitude = abs(value)
    if magnitude < 10**MAX_DIGITS:
        return len(str(magnitude))
    return int(magnitude.bit_length() * 0.30103) + 1


def count_of(n: int, noun: str, plural: str | None = None, spec: str = "") -> str:
    """``n`` and its noun in the number that agrees with it, for every message that prints
    a count: ``count_of(1, "game")`` -> ``"1 game"``, ``count_of(2, "game")`` -> ``"2 games"``,
    ``count_of(1000, "deal", spec=",")`` -> ``"1,000 deals"``, ``count_of(3, "entry",
    "entries")`` -> ``"3 entries"``.  The singular is for exactly 1 (``0 games``, ``-1
    games``).

    Args:
        n: the count, a whole number (not a ``bool``).
        noun: the singular, one or more words (``"pay-off pile"``).
        plural: the plural where it is not ``noun`` + ``"s"`` (``"matches"``, ``"bodies"``).
        spec: a format spec for ``n``, as after the colon of an f-string field (``","`` for
            thousands separators, ``">8"`` for a column).

    Raises:
        TypeError: ``n`` is not a whole number, or ``noun`` or ``plural`` is not a string.
        ValueError: ``spec`` is not a format spec of a whole number.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"count_of counts a whole number, not {shown(n)}")
    if not isinstance(noun, str) or not isinstance(plural, str | None):
        raise TypeError("count_of takes its noun and plural as strings")
    word = noun if n == 1 else (plural if plural is not None else noun + "s")
    return f"{format(n, spec)} {word}"


def clipped(text: str, longest: int = 40) -> str:
    """``text`` cut to ``longest`` characters for a message, ending in ``...`` when it was
    cut: a cut with no mark would show a different value (a seed of 101 digits cut to 40
    reads as a valid one)."""
    return text if len(text) <= longest else text[:longest - 3] + "..."


def shown(value: object) -> str:
    """``value`` for an error message, in the words TOML and JSON write it (most values come
    from a file, a message or the command line): ``true``/``false``, ``null``, a string in
    double quotes (characters a terminal would act on escaped), a date or time as TOML
    writes it (``2020-01-01``), lists and tables in brackets; another Python object as its
    ``repr``.  Never longer than about 60 characters (a cut ends in ``...``), and never an
    attempt to print a huge integer in full."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        return f"a whole number of about {digits_of(value):,} digits"
    try:
        text = _written(value, 2)
    except Exception:
        return f"a {type(value).__name__}"
    return clipped(text, 60)


def _written(value: object, depth: int) -> str:
    """``value`` as a data file writes it, lists and tables ``depth`` levels deep at most
    and only their first few entries (the text is cut to about 60 characters anyway)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # Double quotes as JSON and TOML write a string; the characters a terminal would act
        # on escaped by the library's one escaping function, in its one style.
        inner = clipped(value, 56).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{for_terminal(inner)}"'
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()  # a datetime is a date too
    if isinstance(value, int) and abs(value) > MAX_INT:
        return "..."
    if isinstance(value, list | tuple | dict) and depth <= 0:
        return "[...]" if not isinstance(value, dict) else "{...}"
    if isinstance(value, list | tuple):
        items = [_written(item, depth - 1) for item in value[:8]]
        return "[" + ", ".join(items + ["..."] * (len(value) > 8)) + "]"
    if isinstance(value, dict):
        pairs = [f"{_written(str(key), 0)}: {_written(item, depth - 1)}"
                 for key, item in list(value.items())[:8]]
        return "{" + ", ".join(pairs + ["..."] * (len(value) > 8)) + "}"
    return repr(value)


def _bound_text(high: int, constant: str) -> str:
    shown_high = f"10**{digits_of(high)} - 1" if high == 10**digits_of(high) - 1 and \
        high > 10**6 else f"{high:,}"
    return f"{shown_high} ({constant})" if constant else shown_high


def _integer_type(kind: type) -> bool:
    """Whether values of ``kind`` are whole numbers: ``int`` and numpy's integers (every
    ``numbers.Integral``), never ``bool``; not an array, which may look like one."""
    return issubclass(kind, numbers.Integral) and not issubclass(kind, bool)


def check_int(value: Any, name: str, low: int = 0, high: int = MAX_INT, *,
              error: Callable[[str], Exception] = SpiteMaliceError,
              constant: str = "spitemalice.limits.MAX_INT") -> int:
    """``value`` as an ``int`` when it is a whole number from ``low`` to ``high`` (a Python
    ``int`` or a numpy integer; never a bool or a float), else raise.

    Args:
        name: the argument's name, as the message says it.
        low: the least value allowed.
        high: the greatest value allowed.
        error: the error class raised (default :class:`SpiteMaliceError`).
        constant: the name of the bound ``high`` when it is one of this module's (``""``
            when it comes from elsewhere, say the rules' last seat).

    Raises:
        SpiteMaliceError: (or ``error``) naming the argument, the bounds and what was given.
    """
    if _integer_type(type(value)):
        number = operator.index(value)
        if low <= number <= high:
            return number
    if high != MAX_INT and constant == "spitemalice.limits.MAX_INT":
        constant = ""
    lowest = f"-({_bound_text(-low, '')})" if low < -10**6 else f"{low:,}"
    raise error(f"{name} is a whole number from {lowest} to {_bound_text(high, constant)}, "
                f"not {shown(value)}")


def check_delay(value: Any, name: str) -> float:
    """``value`` as a ``float`` when it is a number of seconds to wait, 0 to
    :data:`MAX_SECONDS` (an ``int`` or a ``float``; never a bool, NaN or text): the pause
    before a bot's move, which a sleep would refuse only at that move, mid-game.

    Raises:
        SpiteMaliceError: naming ``name``, the bounds and what was given.
    """
    if isinstance(value, int | float) and not isinstance(value, bool) \
            and 0 <= value <= MAX_SECONDS:  # NaN fails the comparison
        return float(value)
    raise SpiteMaliceError(f"{name} is a number of seconds from 0 to {MAX_SECONDS:g} "
                           f"(spitemalice.limits.MAX_SECONDS), not {shown(value)}")


def check_moves(moves: Sequence[object]) -> None:
    """Refuse an empty list of moves: a player is asked only for the legal moves of a live
    position (:func:`~spitemalice.engine.legal_moves`), which are never empty.

    Raises:
        SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
    """
    if not moves:
        raise SpiteMaliceError("there is no move to choose from: a player is given the legal "
                               "moves of a live position (spitemalice.legal_moves), never "
                               "none")


def not_a_book(given: object, function: str,
               error: Callable[[str], Exception] = TypeError) -> Exception:
    """The error for ``function`` given something other than a rule book (a
    :class:`~spitemalice.rules.book.RuleBook`, what :func:`spitemalice.load` returns): it says
    what was given and what would be right; for a rule set's name, the call that loads it.
    A ``TypeError`` unless ``error`` says otherwise (the environments refuse every bad
    argument with :class:`SpiteMaliceError`: :mod:`spitemalice.env.arguments`).

    The check itself is :func:`spitemalice.rules.book.check_book` (it needs the class, which
    lives on a layer above this module).  :mod:`spitemalice.rules.checks`, which the book's
    module imports and so cannot import back, raises this error itself when a field every
    rule book has is missing.
    """
    kind = for_terminal(clipped(type(given).__name__, 60))
    if isinstance(given, str):
        name = shown(given)
        load = f"spitemalice.load({name})" if printable(given) else "spitemalice.load(name)"
        what = f"the str {name}: load the rule set first, {load}"
    elif isinstance(given, os.PathLike):
        what = f"a path ({kind}): load the rule-set file first, spitemalice.load(path)"
    elif given is None:
        what = "None"
    # Named, not imported: the rules layer and the model are above this module.
    elif kind == "Ruleset":
        what = "a Ruleset (a rule book's values): pass the RuleBook whose .ruleset it is"
    elif kind in ("GameState", "SeatView"):
        what = f"a {kind} (are the arguments in order? the rule book comes first)"
    else:
        what = kind
    return error(f"{function} takes a RuleBook (what spitemalice.load(name) returns), "
                 f"not {what}")


def given_text(given: object) -> str:
    """What was given, for an error that says what would have been right: ``None``, ``the
    str "..."`` (shown as :func:`shown` shows it), ``a path (PosixPath)``, or the type's name.
    """
    if given is None:
        return "None"
    if isinstance(given, str):
        return f"the str {shown(given)}"
    kind = for_terminal(clipped(type(given).__name__, 60))
    return f"a path ({kind})" if isinstance(given, os.PathLike) else kind


def check_path(path: object, function: str, what: str = "a file's path") -> None:
    """Refuse ``path`` unless it is a str or an ``os.PathLike``.

    Raises:
        TypeError: naming ``function``, ``what`` it takes and what was given.
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"{function} takes {what} (a str or os.PathLike), "
                        f"not {given_text(path)}")


def check_list(value: object, function: str, what: str, example: str,
               error: Callable[[str], Exception] = TypeError, none: bool = False) -> None:
    """Refuse a bare str (or bytes) where a list belongs: iterated, it would be taken as a
    list of its letters (``"greedy"`` as six bots); refuse ``None`` (unless ``none``, for a
    parameter documented to take it) and anything else that is not a collection.

    Args:
        what: the parameter and what it holds (``"bots, a list of bot names,"``).
        example: a right value (``'["greedy"]'``).
        none: ``None`` is allowed (the parameter's default, say).

    Raises:
        TypeError: (or ``error``) naming ``function``, ``what`` and ``example``.
    """
    if isinstance(value, str | bytes):
        raise error(f"{function} takes {what} e.g. {example}, not the {type(value).__name__} "
                    f"{shown(value)}")
    if value is None and none:
        return
    if value is None or not hasattr(value, "__iter__"):
        given = "None" if value is None else for_terminal(clipped(type(value).__name__, 60))
        raise error(f"{function} takes {what} e.g. {example}, not {given}")
    if not hasattr(value, "__len__"):  # a generator: checking it would use it up
        name = for_terminal(clipped(type(value).__name__, 60))
        raise error(f"{function} takes {what} e.g. {example}, not a {name} (it has no length "
                    f"and is used up once read: make it a list with list(...))")



def check_teams(teams: object, function: str) -> None:
    """:func:`check_list` for the ``teams`` a writer of positions takes (each team a list of
    seats), so every writer words it alike.

    Raises:
        TypeError: ``teams`` is a str, ``None`` or another non-collection.
    """
    check_list(teams, function, "teams, a list of teams (each a list of seats),",
               "[[0, 2], [1, 3]]")

def not_a_move(given: object, function: str) -> TypeError:
    """The error for ``function`` given something other than a move: for a str (a move's
    text, as the README writes moves) it says to parse it first with
    :func:`spitemalice.parse_move`.  Built only on a failure path (the functions taking a
    move are called once per move)."""
    start = f"{function} takes a move (a Play, Discard or Pass), not"
    if isinstance(given, str):
        return TypeError(f"{start} the str {shown(given)}: parse it first with "
                         f"spitemalice.parse_move({shown(given)})")
    return TypeError(f"{start} {for_terminal(clipped(type(given).__name__, 60))}")


POSITION_MAKERS = {"GameState": "what spitemalice.deal(rules, seed) returns",
                   "SeatView": "what spitemalice.view_of(state, seat) returns"}
"""What makes each kind of position, as the error for a wrong one names it."""


def not_a_position(given: object, function: str, wants: str, other: str = "",
                   error: Callable[[str], Exception] = TypeError) -> Exception:
    """The error for ``function`` given something other than the position it takes:
    ``wants`` is ``"GameState"`` (a whole state) or ``"SeatView"`` (a seat's view).  For the
    other kind of position the message says what to do instead: ``other``, the function that
    takes that kind (``"format a view with spitemalice.formats.format_view(view)"``), or else, for a
    view, that only the whole state will do, and for a state, how to take a seat's view of it.
    For anything else it says what was given and what makes the right kind.  A ``TypeError``
    unless ``error`` says otherwise (the environments raise ``SpiteMaliceError``).

    The checks are :func:`spitemalice.model.check_state` and
    :func:`spitemalice.engine.views.check_view` (the classes live above this module).
    """
    kind = for_terminal(clipped(type(given).__name__, 60))
    if wants == "GameState" and kind == "SeatView":
        hint = other or "a view hides cards, so only the whole state will do"
        return error(f"{function} takes a GameState, not a seat's view (SeatView): {hint}")
    if wants == "SeatView" and kind == "GameState":
        hint = (f"{other}, or " if other else "") + "take a seat's view of it with " \
            "spitemalice.view_of(state, seat)"
        return error(f"{function} takes a seat's view (SeatView), not a whole GameState: "
                     f"{hint}")
    what = given_text(given)
    if kind in ("Play", "Discard", "Pass"):  # named, not imported: the moves live above
        what += " (a move where the position belongs: are the arguments in order?)"
    shown_kind = "a GameState" if wants == "GameState" else "a seat's view (SeatView)"
    return error(f"{function} takes {shown_kind} ({POSITION_MAKERS[wants]}), not {what}")


def check_seed(value: Any, name: str = "seed") -> int:
    """``value`` when it is a seed: a whole number from 0 to :data:`MAX_SEED`.

    Raises:
        SpiteMaliceError: naming ``name`` and the bound.
    """
    return check_int(value, name, 0, MAX_SEED, constant="spitemalice.limits.MAX_SEED")


def check_games(value: Any, name: str = "games") -> int:
    """``value`` when it is a number of games: a whole number from 1 to :data:`MAX_GAMES`.

    Raises:
        SpiteMaliceError: naming ``name`` and the bound.
    """
    return check_int(value, name, 1, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")


def check_jobs(value: Any) -> int | None:
    """``value`` when it is ``None`` (every core) or a number of worker processes: a whole
    number from 1 to :data:`MAX_JOBS`.

    Raises:
        SpiteMaliceError: naming the bound.
    """
    if value is None:
        return None
    return check_int(value, "jobs (a number of processes)", 1, MAX_JOBS,
                     constant="spitemalice.limits.MAX_JOBS")


MAX_INDENT = 8
"""The widest indent of JSON text the library writes (``dumps_record``, ``dumps_state``,
``dumps_view``): each line's indent grows with the nesting, so the text grows with it."""


def json_indent(indent: int | None) -> int | None:
    """``indent`` for :func:`json.dumps` when it is ``None`` or a whole number from 0 to
    :data:`MAX_INDENT`.

    Raises:
        SpiteMaliceError: naming the bound.
    """
    if indent is None:
        return None
    return check_int(indent, "indent", 0, MAX_INDENT, constant="spitemalice.limits.MAX_INDENT")


def int_field(low: int = -MAX_INT, high: int = MAX_INT) -> Callable[[Any, Any, Any], None]:
    """An attrs validator for an ``int`` field of a public value (a state's counters, a
    move's pile): an integer outside ``low .. high`` (by default one of more than
    :data:`MAX_DIGITS` digits) is refused with :class:`SpiteMaliceError` naming the field and
    the bound.  What a field means (a seat that exists, a count >= 0) and values of other
    types are left to the readers and the engine, which refuse them with their own
    messages."""

    def validate(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, int) and not low <= value <= high:
            check_int(value, f"{type(instance).__name__}.{attribute.name}", low, high)

    return validate


def ints_field(low: int = -MAX_INT, high: int = MAX_INT) -> Callable[[Any, Any, Any], None]:
    """:func:`int_field` for a tuple of integers (scores, recycled counts)."""

    def validate(instance: Any, attribute: Any, values: Any) -> None:
        for value in values:
            if isinstance(value, int) and not low <= value <= high:
                check_int(value, f"{type(instance).__name__}.{attribute.name}", low, high)

    return validate


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


_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def for_terminal(text: str, *, lines: bool = False) -> str:
    r"""``text`` with every character a terminal would act on, or could hide, written as a
    Python-style escape (``"\n"``, ``"\x1b"``, ``"\u202e"``, ``"\U000e0001"``); printable
    text is left as it is.  The one escaping function of the library for anything a stranger
    wrote (re-exported as :func:`spitemalice.formats.text.for_terminal`).

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
    return "".join(_escaped(char, lines) for char in text)


def _escaped(char: str, lines: bool) -> str:
    if char == "\n" and lines:
        return char
    if unicodedata.category(char) not in _UNPRINTABLE:
        return char
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


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
