"""The position an environment's ``reset(options={"state": ...})`` starts from.

A given state comes from outside the engine, so it gets the checks the loaders
(:func:`spitemalice.formats.serialize.loads_state`, the position notation) run:
:func:`spitemalice.formats.position_check.check_position`.  Messages never print the state, whose
hidden cards no seat may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spitemalice.engine.configuration import ANOTHER, seat_count_problem
from spitemalice.errors import PositionError, SpiteMaliceError
from spitemalice.formats.position_check import check_position
from spitemalice.model import GameState
from spitemalice.rules.book import RuleBook


def given_state(rules: RuleBook, options: Mapping[str, Any] | None) -> GameState | None:
    """Return ``options["state"]`` checked against ``rules``, or ``None`` when no state is
    given (``options`` is ``None`` or has no ``"state"``).

    Raises:
        SpiteMaliceError: the value is not a :class:`~spitemalice.model.GameState`.
        PositionError: the state has another seat count than ``rules.players`` (a state
            from another configuration), or is a position the rule set cannot hold (a
            recycled build pile where the rules do not recycle, too many cards of a rank,
            ...), named as the loaders name it.
    """
    start = (options or {}).get("state")
    if start is None:
        return None
    if not isinstance(start, GameState):
        raise SpiteMaliceError(f"options['state'] is a GameState, not a "
                               f"{type(start).__name__}")
    problem = seat_count_problem(rules, len(start.seats), "options['state']")
    if problem is not None:  # before check_position, which would read the seats
        raise PositionError(f"{problem}: {ANOTHER}")
    check_position(rules, start)
    return start
