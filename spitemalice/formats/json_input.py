"""Reading untrusted JSON: the bounded parser and the one field reader of the library.

:func:`parse_json` checks the text against the bounds of :mod:`spitemalice.limits` before it
parses it; :func:`check_header` checks a document's ``format`` and ``version`` before any other
field; the ``read_*`` functions take one field each and name it by its path
(``record.seats[0].name``) when it is missing, unknown or of the wrong type, in one wording
(a wrong value is :func:`describe`'d the same way everywhere).

The ``read_*`` functions take the error to raise: ``error``, an :data:`ErrorMaker` called
with the kind of fault (:data:`MISSING`, :data:`UNKNOWN`, :data:`WRONG`) and the message.
The default makes a :class:`~spitemalice.errors.DataError` (the readers of states and views,
:mod:`spitemalice.formats.serialize`, and of records, :mod:`spitemalice.formats.records`);
the play server passes :class:`~spitemalice.errors.ProtocolError`, whose codes for these
faults are the kinds' names (:mod:`spitemalice.server.protocol`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from spitemalice import guards, limits, wording
from spitemalice.cards import Card, parse_card
from spitemalice.errors import DataError, NotationError
from spitemalice.formats import strict_json
from spitemalice.model import Pile
from spitemalice.rules.ruleset import closest

MISSING = "missing-field"
"""The kind of fault of a required field that is absent (the play server's error code)."""
UNKNOWN = "unknown-field"
"""The kind of fault of a field the object does not have."""
WRONG = "wrong-type"
"""The kind of fault of a value of the wrong JSON type, or out of its range."""

ErrorMaker = Callable[[str, str], Exception]
"""What a reader raises, made from the kind of fault (:data:`MISSING`, :data:`UNKNOWN` or
:data:`WRONG`) and the message (which names the field by its path)."""


def data_error(fault: str, message: str) -> DataError:
    """The readers' default :data:`ErrorMaker`: a :class:`~spitemalice.errors.DataError` with
    the message (the kind of fault is in the message's words)."""
    return DataError(message)


def describe(value: Any) -> str:
    """A JSON value as a message says what was found instead: ``null``, ``true``, ``a string
    "5"``, ``a number 2.5``, ``a list of 3 items``, ``an empty object`` (a list's or an
    object's length, which a bound on it may be what refused it)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)  # null, true, false: the value says what it is
    if isinstance(value, list):
        return f"a list of {wording.count_of(len(value), 'item')}" if value else "an empty list"
    if isinstance(value, dict):
        return (f"an object of {wording.count_of(len(value), 'field')}" if value
                else "an empty object")
    names = {str: "a string", int: "a number", float: "a number"}
    name = names.get(type(value), type(value).__name__)
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # not JSON (data built in Python), or a huge integer
        text = wording.shown(value)
    return f"{name} {wording.clipped(text)}"


def wrong(path: str, expected: str, value: Any, error: ErrorMaker = data_error) -> Exception:
    """The error (not raised) for ``value`` at ``path`` that is not ``expected``:
    ``"{path}: expected {expected}, not {describe(value)}"``, of kind :data:`WRONG`."""
    return error(WRONG, f"{path}: expected {expected}, not {describe(value)}")


def parse_json(text: str | bytes, what: str) -> Any:
    """JSON text parsed, or a :class:`~spitemalice.errors.DataError` saying where it breaks.

    The text is checked against the bounds of :mod:`spitemalice.limits` before it is parsed:
    at most :data:`~spitemalice.limits.MAX_JSON_BYTES` long, nested at most
    :data:`~spitemalice.limits.MAX_DEPTH` deep, numbers of at most
    :data:`~spitemalice.limits.MAX_DIGITS` digits.

    An object that names a key twice is refused, and a leading byte-order mark is taken
    (:func:`spitemalice.formats.strict_json.loads`).

    Raises:
        DataError: the text is not JSON (a truncated file is named as a likely cause), an
            object names a key twice (the message names the key and the object's path), or
            it breaks a bound (the message names the bound).
    """
    if not isinstance(text, str | bytes | bytearray):
        raise DataError(f"{what} is not JSON text: it is {type(text).__name__}")
    if len(text) > limits.MAX_JSON_BYTES:
        raise DataError(f"{what} is {len(text):,} characters long; at most "
                        f"{limits.MAX_JSON_BYTES:,} are read")
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise DataError(f"{what} is not JSON text: it is not UTF-8") from None
    depth = guards.json_depth(text)
    if depth > limits.MAX_DEPTH:
        raise DataError(f"{what} is nested {depth} deep; at most {limits.MAX_DEPTH} levels "
                        "of lists and objects are read")
    try:
        return strict_json.loads(text)
    except strict_json.DuplicateKey as error:
        raise DataError(error.at(what)) from None
    except json.JSONDecodeError as error:
        doc = error.doc.strip()
        ends_early = error.pos >= len(error.doc.rstrip()) or (
            doc[:1] in ("{", "[") and doc[-1:] not in ("}", "]"))
        hint = "; the text ends early: is it truncated?" if ends_early else ""
        raise DataError(f"{what} is not valid JSON: {error.msg} (line {error.lineno}, column "
                        f"{error.colno}){hint}") from None
    except ValueError as error:  # a number over the digit bound (guards.json_int)
        raise DataError(f"{what}: {error}") from None
    except RecursionError:  # a fallback only: json_depth refuses deep nesting first
        raise DataError(f"{what} is nested too deep to read") from None


def check_header(data: Any, path: str, expected: str, newest: int) -> None:
    """Return if ``data`` is an object whose ``format`` is ``expected`` and whose ``version``
    this library reads (1 to ``newest``, the version it writes of that format).

    Checked before any other field, so a newer version is refused as newer even when its
    fields have changed.

    Raises:
        DataError: not an object, another format, or a version that is newer or unknown.
    """
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected {wording.a_or_an(expected)} object, "
                        f"not {describe(data)}")
    if data.get("format") != expected:
        found = wording.shown(data["format"]) if "format" in data else "missing"
        raise DataError(f"{path}.format: expected {wording.shown(expected)}, found {found}")
    if "version" not in data:
        raise DataError(f"{path}.version: missing; this library reads {expected} versions 1 "
                        f"to {newest}")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise DataError(f"{path}.version: {wording.shown(version)} is not a known {expected} "
                        f"version; this library reads versions 1 to {newest}")
    if version > newest:
        raise DataError(f"{path}.version: {expected} version {version} is newer than this "
                        f"library reads (1 to {newest}); upgrade spitemalice to read it")


def read_object(data: Any, path: str, required: tuple[str, ...],
                optional: tuple[str, ...] = (), *, error: ErrorMaker = data_error,
                owner: str | None = None, strict: bool = True) -> dict[str, Any]:
    """``data`` as a JSON object with every ``required`` key and no key outside
    ``required + optional``.

    Args:
        owner: what the object is, for the messages (``"a move message"``); default ``path``.
        strict: ``False`` lets keys outside ``required + optional`` be (a client reading a
            newer server's messages).

    Raises:
        Exception: made by ``error`` (a :class:`~spitemalice.errors.DataError` by default):
            not an object (:data:`WRONG`), a missing key (:data:`MISSING`) or an unknown key,
            with the closest name (:data:`UNKNOWN`).
    """
    if not isinstance(data, dict):
        raise wrong(path, f"an object with {_field_list(required, optional)}"
                    if required or optional else "an object", data, error)
    for key in required:
        if key not in data:
            raise error(MISSING, f"{path}.{key}: missing; {owner or path} "
                        f"{'has' if strict else 'needs'} {_field_list(required, optional)}")
    known = (*required, *optional)
    for key in data if strict else ():
        if key not in known:
            raise error(UNKNOWN, f"{strict_json.path_of(path, (str(key),))}: unknown field"
                        f"{closest(str(key), known)}; {owner or path} has "
                        f"{_field_list(required, optional)}")
    return data


def _field_list(required: tuple[str, ...], optional: tuple[str, ...]) -> str:
    words = [*required, *(f"{name} (optional)" for name in optional)]
    if not words:
        return "no field"
    return ("the field " if len(words) == 1 else "the fields ") + ", ".join(words)


def read_list(data: Any, path: str, *, least: int = 0, most: int | None = None,
              noun: str = "item", error: ErrorMaker = data_error) -> list[Any]:
    """``data`` as a JSON array of ``least`` to ``most`` items (any number by default).

    Args:
        noun: what an item is, for the message when a bound is set (``"seat"``).

    Raises:
        Exception: made by ``error`` (a DataError by default), of kind :data:`WRONG`: not an
            array, or of a length outside the bounds.
    """
    if isinstance(data, list) and least <= len(data) and (most is None or len(data) <= most):
        return data
    if most is None:
        expected = (f"a list of at least {wording.count_of(least, noun)}" if least
                    else "a list")
    elif least:
        expected = f"a list of {least} to {wording.count_of(most, noun)}"
    else:
        expected = f"a list of at most {wording.count_of(most, noun)}"
    raise wrong(path, expected, data, error)


def read_int(data: Any, path: str, minimum: int | None = 0, *, maximum: int | None = None,
             error: ErrorMaker = data_error) -> int:
    """``data`` as a whole number (not a bool) from ``minimum`` to ``maximum`` (either bound
    ``None``: none on that side).

    Raises:
        Exception: made by ``error`` (a DataError by default), of kind :data:`WRONG`: not a
            whole number, or outside the bounds (the message gives them).
    """
    if not isinstance(data, int) or isinstance(data, bool):
        raise wrong(path, "a whole number", data, error)
    low = minimum is not None and data < minimum
    if low or (maximum is not None and data > maximum):
        if minimum is None or maximum is None:
            bound = f">= {minimum}" if maximum is None else f"<= {maximum}"
        else:
            bound = f"from {minimum} to {maximum}"
        raise error(WRONG, f"{path}: expected a whole number {bound}, not {data}")
    return data


def read_str(data: Any, path: str, *, longest: int | None = None,
             error: ErrorMaker = data_error) -> str:
    """``data`` as a string; with ``longest``, a name: 1 to ``longest`` printable
    characters (:func:`spitemalice.wording.printable`).

    Raises:
        Exception: made by ``error`` (a DataError by default), of kind :data:`WRONG`: not a
            string, or (with ``longest``) empty, too long or with a character a terminal
            would act on.
    """
    if not isinstance(data, str):
        raise wrong(path, "a string", data, error)
    if longest is not None and (not data or len(data) > longest
                                or not wording.printable(data)):
        raise error(WRONG, f"{path}: expected 1 to {longest} printable characters, not "
                    f"{json.dumps(wording.clipped(data))}")
    return data


def read_bool(data: Any, path: str, *, error: ErrorMaker = data_error) -> bool:
    """``data`` as ``true`` or ``false``.

    Raises:
        Exception: made by ``error`` (a DataError by default), of kind :data:`WRONG`.
    """
    if not isinstance(data, bool):
        raise wrong(path, "true or false", data, error)
    return data


def read_card(data: Any, path: str, *, error: ErrorMaker = data_error) -> Card:
    """A card from its short text.

    Raises:
        Exception: made by ``error`` (a DataError by default), of kind :data:`WRONG`: not a
            string, or not a card's text.
    """
    try:
        return parse_card(read_str(data, path, error=error))
    except NotationError as problem:
        raise error(WRONG, f"{path}: {problem}") from None


def read_pile(data: Any, path: str, *, error: ErrorMaker = data_error) -> Pile:
    """A list of card texts as a pile (bottom to top)."""
    return tuple(read_card(card, f"{path}[{i}]", error=error)
                 for i, card in enumerate(read_list(data, path, error=error)))


def read_piles(data: Any, path: str, *, error: ErrorMaker = data_error) -> tuple[Pile, ...]:
    """A list of piles."""
    return tuple(read_pile(pile, f"{path}[{i}]", error=error)
                 for i, pile in enumerate(read_list(data, path, error=error)))
