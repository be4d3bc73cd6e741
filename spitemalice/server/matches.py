"""Matches at a table: games played until a seat's total reaches the rule set's target
(blackwood-frey BF-19: ``match_target``, 50 by default)."""

from __future__ import annotations

from typing import Any

from spitemalice.server.seating import Table


def standing(table: Table) -> dict[str, Any] | None:
    """The ``match`` field of ``welcome``, ``watching`` and ``state``: ``None`` at a table
    that plays single games."""
    return None
