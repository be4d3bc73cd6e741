"""A table opened from a rule-set file's text: the ``ruleset_file`` field of a ``create``
message (pasted into the lobby's form, or a file uploaded there and sent as its text).

The text is data only: it is read by :func:`spitemalice.rules.loader.load_text`, so no file
is opened, its ``base`` names an installed rule set and never a path (files are never
allowed), and it is bounded (:data:`~spitemalice.limits.MAX_RULESET_FILE_BYTES`).  Its house
rules written as data (``[[rule]]`` tables) are named ``table.toml:CLAUSE``; the table's
records carry them by content, so a record replays and a restarted server resumes the table
without the text.  A text the reader refuses is answered ``bad-rules`` with the reader's
message (the line and column, what is wrong and what would be right) and opens no table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spitemalice import limits
from spitemalice.errors import ProtocolError, RulesetError
from spitemalice.formats.json_input import wrong
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load_text

FILE_NAME = "table.toml"
"""The name a rule-set file sent as text goes by: in the reader's messages
(``table.toml:9:8: ...``), the plugin list and the records (``table.toml:DD-1``)."""

ALLOWANCE = 2 * limits.MAX_RULESET_FILE_BYTES
"""How much longer than :data:`~spitemalice.limits.MAX_MESSAGE_BYTES` a ``create`` message
carrying a rule-set file may be (JSON escapes its quotes and line breaks)."""


def may_be_long(parsed: Any) -> bool:
    """Whether a message over :data:`~spitemalice.limits.MAX_MESSAGE_BYTES` may be read on:
    only a ``create`` message with a ``ruleset_file`` text."""
    return isinstance(parsed, dict) and parsed.get("type") == "create" \
        and isinstance(parsed.get("ruleset_file"), str)


def read_file_text(value: Any, path: str) -> str:
    """The ``ruleset_file`` field: a rule-set file's text, not empty, at most
    :data:`~spitemalice.limits.MAX_RULESET_FILE_BYTES` bytes.

    Raises:
        ProtocolError: ``wrong-type`` for anything else, ``too-large`` for a longer text.
    """
    if not isinstance(value, str) or not value.strip():
        raise wrong(path, "a rule-set file's text (TOML, as docs/variants.md writes it)",
                    value, ProtocolError)
    size = len(value.encode("utf-8", "surrogatepass"))
    if size > limits.MAX_RULESET_FILE_BYTES:
        raise ProtocolError("too-large", f"{path}: the file is {size:,} bytes; the server "
                            f"takes a rule-set file of at most "
                            f"{limits.MAX_RULESET_FILE_BYTES:,} bytes")
    return value


def file_rules(text: str, house_rules: Sequence[str], params: Mapping[str, Any]) -> RuleBook:
    """The rule book of a table opened from a rule-set file's ``text``, with the installed
    ``house_rules`` and ``params`` (the seat count among them) the message adds.

    Raises:
        ProtocolError: ``bad-rules``: the reader's message, which starts with
            ``table.toml`` and gives the line and column of the fault and what would be
            right; or rules the library refuses.
    """
    try:
        return load_text(text, house_rules, params, name=FILE_NAME)
    except RulesetError as problem:
        raise ProtocolError("bad-rules", f"create.ruleset_file: {problem}") from None


__all__ = ["ALLOWANCE", "FILE_NAME", "file_rules", "may_be_long", "read_file_text"]
