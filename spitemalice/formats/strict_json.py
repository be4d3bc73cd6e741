"""JSON text parsed strictly: the one :func:`json.loads` of text from outside the library; and
JSON text written strictly (:func:`dumps`), for what the library writes with floats in it.

Python's :func:`json.loads` keeps the last of two values given under one key
(``{"type": "catalog", "type": "create"}`` reads as a ``create``), so a document could mean
one thing to this library and another to a reader that keeps the first.  :func:`loads` refuses
such a document and says which key and which object (:class:`DuplicateKey`).  It also reads
integers through :func:`spitemalice.guards.json_int` (at most
:data:`~spitemalice.limits.MAX_DIGITS` digits) and takes a leading UTF-8 byte-order mark
(a file saved by Notepad), which RFC 8259 section 8.1 lets a reader ignore.

Readers built on it: :func:`spitemalice.formats.json_input.parse_json` (records, states,
views, the server's table files), the server's protocol messages
(:func:`spitemalice.server.protocol.read_message`), the remote bot's reading of the
server's messages and the atlas's data file.
"""

from __future__ import annotations

import json
import math
from typing import Any

from spitemalice import guards, wording

BOM = "\ufeff"
"""The byte-order mark, as the first character of decoded text."""


class DuplicateKey(ValueError):
    """A JSON object names one key twice.

    Attributes:
        key: the repeated key.
        steps: where the object is, from the document's top: object keys (``str``) and list
            indices (``int``); ``()`` for the top object.
    """

    def __init__(self, key: str, steps: tuple[str | int, ...] = ()) -> None:
        self.key = key
        self.steps = steps
        super().__init__(self.at("the JSON text"))

    def at(self, root: str) -> str:
        """The message, with the object's path starting from ``root`` (``record.seats[0]: the
        key "name" appears twice; ...``)."""
        return (f"{path_of(root, self.steps)}: the key {wording.shown(self.key)} appears more "
                "than once in one object; a JSON object names each key once")


def path_of(root: str, steps: tuple[str | int, ...]) -> str:
    """``root`` followed by ``steps`` as a field path: ``.key`` for a key that is a plain
    name, ``["a key"]`` for another, ``[i]`` for a list index.  Every key is outside text:
    each is cut to about 40 characters (:func:`spitemalice.wording.clipped`) and a key that is
    not a plain name is shown as :func:`spitemalice.wording.shown` writes a string."""
    parts = [root]
    for step in steps:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif step.isidentifier():
            parts.append(f".{wording.clipped(step)}")
        else:
            parts.append(f"[{wording.shown(step)}]")
    return "".join(parts)


class _Twice(Exception):
    """Raised by :func:`_refuse_repeats` to stop the parse at the first repeated key."""


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise _Twice
    return data


class _Repeated(dict[str, Any]):
    """An object that named a key twice (the second, slower parse marks it to find where)."""

    key = ""


def _mark_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    marked = _Repeated(data)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            marked.key = key
            break
        seen.add(key)
    return marked


def _where(data: Any) -> DuplicateKey:
    """The first object marked :class:`_Repeated` in ``data``, depth first, as an error."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, steps = stack.pop()
        if isinstance(value, _Repeated):
            return DuplicateKey(value.key, steps)
        items = (value.items() if isinstance(value, dict)
                 else enumerate(value) if isinstance(value, list) else ())
        stack.extend(reversed([(item, (*steps, key)) for key, item in items]))
    raise AssertionError("no repeated key found")  # pragma: no cover: _Twice said there is one


def loads(text: str) -> Any:
    """``text`` parsed as JSON, strictly (see the module's docstring).

    Raises:
        json.JSONDecodeError: the text is not JSON.
        DuplicateKey: an object names a key twice (a :class:`ValueError`).
        ValueError: a number of more than :data:`~spitemalice.limits.MAX_DIGITS` digits.
    """
    if text.startswith(BOM):
        text = text[1:]
    try:
        return json.loads(text, parse_int=guards.json_int, object_pairs_hook=_refuse_repeats)
    except _Twice:
        pass
    raise _where(json.loads(text, parse_int=guards.json_int, object_pairs_hook=_mark_repeats))


def dumps(data: Any, *, indent: int | None = None, sort_keys: bool = False) -> str:
    """``data`` as JSON text that every reader takes: a float that is not finite (an infinite
    log-likelihood ratio, an interval end with no bound) is written as ``null``, where
    :func:`json.dumps` writes ``Infinity`` or ``NaN``, which RFC 8259 does not allow and strict
    readers (JavaScript's ``JSON.parse``, jq) refuse.  The writers of the study outputs use
    it: every ``--json``, ``--games-out``'s JSON lines and sidecar, the atlas's data file."""
    return json.dumps(_finite(data), indent=indent, sort_keys=sort_keys, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value
