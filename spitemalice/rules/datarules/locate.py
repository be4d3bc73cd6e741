"""Where a key of a ``[[rule]]`` table stands in its file, so that a fault is reported at its
line and column (TOML readers give values, not places).

The file is scanned as text: the ``[[rule]]`` headers in order, then the key inside the
table's lines (its own ``[rule.values]`` table included).  A value in quotes on one line maps
each character of the expression to its column; anything else is reported at the key.
"""

from __future__ import annotations

import re

import attrs

_HEADER = re.compile(r"\s*\[\[\s*rule\s*\]\]")
_TABLE = re.compile(r"\s*\[")
_SUBTABLE = re.compile(r"\s*\[\s*rule\s*\.")


@attrs.frozen
class Place:
    """A place in the file: 1-based ``line`` and ``column`` of a value; ``quoted``: the value
    is a one-line string in single quotes or double quotes without escapes, so an offset
    into it is a column further on."""

    line: int
    column: int
    quoted: bool = False

    def at(self, offset: int) -> tuple[int, int]:
        """The line and column of the expression's character ``offset``."""
        if not self.quoted:
            return self.line, self.column
        return self.line, self.column + 1 + offset


def locate(text: str, index: int, key: str, inner: str = "") -> Place:
    """The place of ``key`` (of its entry ``inner`` when ``key`` names a table) in the
    ``index``-th ``[[rule]]`` table of ``text`` (0-based); the table's header when the key is
    not found, line 1 when the table is not."""
    lines = text.split("\n")
    headers = [n for n, line in enumerate(lines) if _HEADER.match(line)]
    if index >= len(headers):
        return Place(1, 1)
    start = headers[index]
    end = start + 1
    while end < len(lines) and not (_TABLE.match(lines[end]) and
                                     not _SUBTABLE.match(lines[end])):
        end += 1
    found = _find(lines, start, end, key, Place(start + 1, 1))
    if inner:
        found = _find(lines, found.line - 1, end, inner, found)
    return found


def _find(lines: list[str], start: int, end: int, key: str, default: Place) -> Place:
    pattern = re.compile(rf"(?:^|[\s{{,.\[])[\"']?{re.escape(key)}[\"']?\s*[=\]]\s*")
    for number in range(start, end):
        match = pattern.search(lines[number])
        if match:
            column = match.end()
            rest = lines[number][column:]
            quoted = bool(rest[:1] in ("'", '"') and rest[:3] not in ('"""', "'''")
                          and "\\" not in rest.split(rest[0], 2)[1])
            return Place(number + 1, column + 1, quoted)
    return default


_PARAMS_TABLE = re.compile(r"\s*\[\s*params\s*\]")
_PARAMS_INLINE = re.compile(r"\s*params\s*=")


def locate_param(text: str, key: str) -> Place:
    """The place of ``key``'s value in the ``[params]`` table of ``text`` (a table of its own,
    or ``params = { ... }`` on one line); the table's first line when the key is not found
    there, line 1 when there is no table."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if _PARAMS_TABLE.match(line):
            end = number + 1
            while end < len(lines) and not _TABLE.match(lines[end]):
                end += 1
            return _find(lines, number + 1, end, key, Place(number + 1, 1))
        if _PARAMS_INLINE.match(line):
            return _find(lines, number, number + 1, key, _find(lines, number, number + 1,
                                                               "params", Place(number + 1, 1)))
    return Place(1, 1)
