"""Refusing a move: the :class:`~spitemalice.errors.IllegalMove` for a reason code.

The codes themselves are published in :mod:`spitemalice.rules.reasons` (re-exported here as
:data:`REASONS`).
"""

from __future__ import annotations

from spitemalice.errors import IllegalMove, RulesetError
from spitemalice.rules.reasons import REASONS

__all__ = ["REASONS", "refuse"]


def refuse(
    reason: str, move: object, clause_for: dict[str, str], message: str = "", where: str = ""
) -> IllegalMove:
    """The :class:`IllegalMove` for ``reason``, citing the rule sheet's clause for it.

    ``where`` names the pile of a code refused on several kinds of pile
    (:data:`spitemalice.rules.reasons.PILES`): the clause cited is the one for ``reason@where``.
    The rule book's ``clause_for`` has an entry for every code it can be asked for.

    Raises:
        RulesetError: no clause covers ``reason`` (only a move filter answering with a code
            its plugin does not declare can cause this).
    """
    key = f"{reason}@{where}" if where else reason
    clause = clause_for.get(key) or clause_for.get(reason)
    if not clause:  # a rule book covers every code it knows: a filter answered another one
        raise RulesetError(f"a move filter refused {move} with the reason code {reason!r}, which "
                           "its plugin does not declare in REASONS, so no clause covers it")
    return IllegalMove(reason, message or REASONS.get(reason, reason), clause=clause,
                       move=str(move))
