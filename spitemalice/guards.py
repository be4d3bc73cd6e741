"""Guards where a value crosses in from outside: the public functions, constructors and
readers check their arguments here and refuse with an error that names what was wrong and
what would be right.

Whole numbers given to the Python API (a seed, a game count, a seat) are bounded by
:mod:`spitemalice.limits`: every public function, constructor and environment method that
takes one checks it with :func:`check_int` (or :func:`check_seed`) and refuses with
:class:`~spitemalice.errors.SpiteMaliceError` naming the bound, so no integer reaches a place
where Python's own limits (printing it, a ``range`` of it) would fail or never end.  Numbers
and nesting read from text (:func:`whole_number`, :func:`json_int`, :func:`json_depth`,
:func:`data_depth`) are bounded here too, before anything is built from them.

Inside the library, functions trust their typed arguments: the guard stands at the door.
"""

from __future__ import annotations

import itertools
import math
import numbers
import operator
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

from spitemalice.errors import SpiteMaliceError
from spitemalice.limits import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_GAMES,
    MAX_INDENT,
    MAX_INT,
    MAX_JOBS,
    MAX_REAL,
    MAX_SECONDS,
    MAX_SEED,
)
from spitemalice.wording import (
    a_or_an,
    clipped,
    digits_of,
    for_terminal,
    given_text,
    printable,
    shown,
)


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


def check_real(value: Any, name: str, low: float = -MAX_REAL, high: float = MAX_REAL, *,
               what: str = "a number",
               error: Callable[[str], Exception] = SpiteMaliceError) -> float:
    """``value`` as a ``float`` when it is a real number from ``low`` to ``high`` (an ``int``,
    a ``float`` or a numpy number; never a bool, NaN or an infinity): a number that is not
    whole but scales, bounds or counts something (a margin, a level, a share, a rating).  An
    integer is compared before it is converted, so one too large for a float is refused here
    rather than raising Python's ``OverflowError`` where it is used.

    Args:
        name: the argument's name, as the message says it.
        low: the least value allowed (default ``-MAX_REAL``).
        high: the greatest value allowed (default :data:`~spitemalice.limits.MAX_REAL`).
        what: what the number is (``"a margin"``), as the message says it.
        error: the error class raised (default :class:`SpiteMaliceError`).

    Raises:
        SpiteMaliceError: (or ``error``) naming the argument, the bounds and what was given.
    """
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        number: float
        if isinstance(value, numbers.Integral):
            whole = operator.index(value)
            if low <= whole <= high:  # exact: a huge int is never converted
                return float(whole)
        else:
            number = float(value)
            if low <= number <= high:  # NaN fails the comparison
                return number
    ends = "from " + " to ".join(f"{end:g}" + (" (spitemalice.limits.MAX_REAL)"
                                               if abs(end) == MAX_REAL else "")
                                 for end in (low, high))
    raise error(f"{name} is {what} {ends}, not {shown(value)}")


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
        raise error(f"{function} takes {what} e.g. {example}, not {a_or_an(name)} (it has no "
                    f"length and is used up once read: make it a list with list(...))")


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

    The checks that raise it are :func:`spitemalice.model.require_state` and
    :func:`spitemalice.engine.views.require_view` (the classes live above this module).
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


def json_indent(indent: int | None) -> int | None:
    """``indent`` for :func:`json.dumps` when it is ``None`` or a whole number from 0 to
    :data:`MAX_INDENT`.

    Raises:
        SpiteMaliceError: naming the bound.
    """
    if indent is None:
        return None
    return check_int(indent, "indent", 0, MAX_INDENT, constant="spitemalice.limits.MAX_INDENT")


def int_field(low: int = -MAX_INT, high: int = MAX_INT, *,
              constant: str = "spitemalice.limits.MAX_INT") -> Callable[[Any, Any, Any], None]:
    """An attrs validator for an ``int`` field of a public value (a state's counters, a
    move's pile): an integer outside ``low .. high`` (by default one of more than
    :data:`MAX_DIGITS` digits) is refused with :class:`SpiteMaliceError` naming the field and
    the bound (``constant``, the name of ``high`` when it is one of :mod:`spitemalice.limits`).
    What a field means (a seat that exists, a count >= 0) and values of other types (``None``
    among them) are left to the readers and the engine, which refuse them with their own
    messages."""

    def validate(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, int) and not low <= value <= high:
            check_int(value, f"{type(instance).__name__}.{attribute.name}", low, high,
                      constant=constant)

    return validate


def games_field() -> Callable[[Any, Any, Any], None]:
    """:func:`int_field` for a number of games: 0 to :data:`MAX_GAMES`."""
    return int_field(0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")


def seed_field() -> Callable[[Any, Any, Any], None]:
    """An attrs validator for a seed field: :func:`check_seed`, naming the field."""

    def validate(instance: Any, attribute: Any, value: Any) -> None:
        check_seed(value, f"{type(instance).__name__}.{attribute.name}")

    return validate


def ints_field(low: int = -MAX_INT, high: int = MAX_INT) -> Callable[[Any, Any, Any], None]:
    """:func:`int_field` for a tuple of integers (scores, recycled counts)."""

    def validate(instance: Any, attribute: Any, values: Any) -> None:
        for value in values:
            if isinstance(value, int) and not low <= value <= high:
                check_int(value, f"each of {type(instance).__name__}.{attribute.name}", low,
                          high)

    return validate


def real_field(low: float | None = None,
               high: float | None = None) -> Callable[[Any, Any, Any], None]:
    """An attrs validator for a ``float`` field of a public value (an interval's ends, a
    share, a margin): a whole number past :data:`MAX_REAL` in size (which would not convert
    to a float) is refused with :class:`SpiteMaliceError` naming the field and the bound, and
    so is a finite number outside ``low .. high`` when they are given (a share's 0 to 1).
    Without them a finite float is let be: a value a study computes (a log-likelihood ratio
    near certainty, say) may pass any bound and is still a float.  An infinity or NaN is
    left to the value's meaning (an interval of the whole range has infinite ends), and
    values of other types to the code that reads them."""
    bounded = low is not None or high is not None
    least = -MAX_REAL if low is None else low
    most = MAX_REAL if high is None else high

    def validate(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return
        checked = isinstance(value, int) or (bounded and math.isfinite(value))
        if checked and not least <= value <= most:
            check_real(value, f"{type(instance).__name__}.{attribute.name}", least, most)

    return validate


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
