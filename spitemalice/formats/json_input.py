"""Reading untrusted JSON: the bounded parser and the field readers every JSON reader shares.

:func:`parse_json` checks the text against the bounds of :mod:`spitemalice.limits` before it
parses it; :func:`check_header` checks a document's ``format`` and ``version`` before any other
field; the ``read_*`` functions take one field each and name it by its path
(``record.seats[0].name``) when it is missing, unknown or of the wrong type.  Every problem is
a :class:`~spitemalice.errors.DataError`.  The readers of states and views
(:mod:`spitemalice.formats.serialize`) and of records (:mod:`spitemalice.formats.records`) are
built on them.
"""

from __future__ import annotations

import json
from typing import Any

from spitemalice import guards, limits, wording
from spitemalice.cards import Card, parse_card
from spitemalice.errors import DataError, NotationError
from spitemalice.formats import strict_json
from spitemalice.model import Pile
from spitemalice.rules.ruleset import closest


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
        raise DataError(f"{path}: expected a {expected} object, not {_kind(data)}")
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
                optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """``data`` as a JSON object with every ``required`` key and no key outside
    ``required + optional``.

    Raises:
        DataError: not an object, a missing key, or an unknown key (with the closest name).
    """
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected an object with fields {', '.join(required)}, "
                        f"not {_kind(data)}")
    for key in required:
        if key not in data:
            raise DataError(f"{path}.{key}: missing (expected fields: {', '.join(required)})")
    known = (*required, *optional)
    for key in data:
        if key not in known:
            raise DataError(f"{path}.{key}: unknown field{closest(str(key), known)}; the fields "
                            f"are {', '.join(known)}")
    return data


def read_list(data: Any, path: str) -> list[Any]:
    """``data`` as a JSON array.

    Raises:
        DataError: it is not an array.
    """
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a list, not {_kind(data)}")
    return data


def read_int(data: Any, path: str, minimum: int | None = 0) -> int:
    """``data`` as a whole number (not a bool), at least ``minimum`` unless that is ``None``.

    Raises:
        DataError: not a whole number, or below ``minimum``.
    """
    if not isinstance(data, int) or isinstance(data, bool):
        raise DataError(f"{path}: expected a whole number, not {_kind(data)}")
    if minimum is not None and data < minimum:
        raise DataError(f"{path}: expected a whole number >= {minimum}, not {data}")
    return data


def read_str(data: Any, path: str) -> str:
    """``data`` as a string.

    Raises:
        DataError: not a string.
    """
    if not isinstance(data, str):
        raise DataError(f"{path}: expected a string, not {_kind(data)}")
    return data


def read_card(data: Any, path: str) -> Card:
    """A card from its short text.

    Raises:
        DataError: not a string, or not a card's text.
    """
    try:
        return parse_card(read_str(data, path))
    except NotationError as error:
        raise DataError(f"{path}: {error}") from None


def read_pile(data: Any, path: str) -> Pile:
    """A list of card texts as a pile (bottom to top)."""
    return tuple(read_card(card, f"{path}[{i}]") for i, card in enumerate(read_list(data, path)))


def read_piles(data: Any, path: str) -> tuple[Pile, ...]:
    """A list of piles."""
    return tuple(read_pile(pile, f"{path}[{i}]") for i, pile in enumerate(read_list(data, path)))


def _kind(data: Any) -> str:
    if data is None or isinstance(data, bool):
        return json.dumps(data)  # null, true, false: the value says what it is
    names = {dict: "an object", list: "a list", str: "a string", int: "a number",
             float: "a number"}
    name = names.get(type(data), type(data).__name__)
    if isinstance(data, dict | list):
        return name
    try:
        shown = json.dumps(data)
    except (TypeError, ValueError):
        shown = repr(data)
    return f"{name} {wording.clipped(shown)}"
