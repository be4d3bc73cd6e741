"""Positions and views of a rule set whose seats move at once, as text: read off the values
themselves, so every such rule set has them with nothing to write.

A state or view of such a rule set (:class:`~spitemalice.rules.simultaneous.SimultaneousState`,
and the frozen value its ``view`` returns) is an attrs value of cards, numbers, texts and
tuples of them.  :func:`describe_plain` lays one out for people, a field a line (a field that
holds one entry per seat or per pile, a line per entry); :func:`plain_line` writes it as one
line of JSON, for programs.  Both show exactly the value's fields: a view gives only what its
seat may see, so its text does too.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from spitemalice.cards import Card


def plain_data(value: Any) -> Any:
    """``value`` as JSON-ready data: a card as its text, an attrs value as an object of its
    fields, a tuple or list as a list, a number, text, ``true``/``false`` or ``null`` as
    itself.

    Raises:
        TypeError: ``value`` holds something else (a set, a function), naming its type.
    """
    if isinstance(value, Card):
        return str(value)
    if attrs.has(type(value)):
        return {field.name: plain_data(getattr(value, field.name))
                for field in attrs.fields(type(value))}
    if isinstance(value, tuple | list):
        return [plain_data(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"plain_data writes cards, attrs values, tuples, numbers and text, not "
                    f"{type(value).__name__}")


def plain_line(value: Any) -> str:
    """``value`` (a state or a view) as one line of JSON (:func:`plain_data`).

    Raises:
        TypeError: as :func:`plain_data`.
    """
    return json.dumps(plain_data(value), separators=(",", ":"), ensure_ascii=False)


def describe_plain(value: Any) -> str:
    """``value`` (a state or a view, an attrs value) laid out for people: ``field: text`` a
    line; a field that holds a tuple of tuples or of attrs values takes a line per entry,
    ``field[0]: ...``.  Cards are their texts, ``-`` is nothing, ``[...]`` a pile or list.

    Raises:
        TypeError: ``value`` is not an attrs value, or holds what :func:`plain_data` refuses.
    """
    if not attrs.has(type(value)):
        raise TypeError(f"describe_plain lays out a state or a view (an attrs value), not "
                        f"{type(value).__name__}")
    lines = []
    for field in attrs.fields(type(value)):
        item = getattr(value, field.name)
        if isinstance(item, tuple) and item and all(
                isinstance(entry, tuple) or attrs.has(type(entry)) for entry in item):
            lines += [f"{field.name}[{index}]: {_text(entry, top=True)}"
                      for index, entry in enumerate(item)]
        else:
            lines.append(f"{field.name}: {_text(item, top=True)}")
    return "\n".join(lines)


def _text(value: Any, top: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, Card):
        return str(value)
    if attrs.has(type(value)):
        return "  ".join(f"{field.name}={_text(getattr(value, field.name))}"
                         for field in attrs.fields(type(value)))
    if isinstance(value, tuple | list):
        inner = " ".join(_text(item) for item in value)
        return inner if top and value and all(isinstance(v, tuple) for v in value) else (
            f"[{inner}]")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
