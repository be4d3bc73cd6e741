"""The refusal of an illegal move: an :class:`~spitemalice.errors.IllegalMove` naming its
reason code and the rule-sheet clause that states the rule (:func:`refuse`), for
:func:`~spitemalice.engine.check.check_move`, the rule sets' own checks and the environments.
"""

from __future__ import annotations

from collections.abc import Mapping

from spitemalice.errors import IllegalMove, RulesetError
from spitemalice.rules.reasons import REASONS
from spitemalice.wording import shown

__all__ = ["refuse"]


def refuse(
    reason: object, move: object, clause_for: Mapping[str, str], message: object = "",
    where: object = ""
) -> IllegalMove:
    """The :class:`IllegalMove` for ``reason``, citing the rule sheet's clause for it.

    ``where`` names the pile of a code refused on several kinds of pile
    (:data:`spitemalice.rules.reasons.PILES`): the clause cited is the one for ``reason@where``.
    The rule book's ``clause_for`` has an entry for every code it can be asked for.

    Args:
        reason: the reason code (a ``str``, one of :data:`REASONS` or a plugin's).
        message: the refusal in words (a ``str``; empty for the code's own words).
        where: the kind of pile (a ``str``), or empty.

    Raises:
        RulesetError: no clause covers ``reason`` (only a move filter answering with a code
            its plugin does not declare can cause this).
        TypeError: ``reason``, ``message`` or ``where`` is not a ``str``, naming which (in
            either build: they are typed ``object`` so that the compiled build, setup.py,
            does not refuse them first with its own error).
    """
    if not isinstance(reason, str):
        raise _not_text("reason", reason)
    if not isinstance(message, str):
        raise _not_text("message", message)
    if not isinstance(where, str):
        raise _not_text("where", where)
    key = f"{reason}@{where}" if where else reason
    clause = clause_for.get(key) or clause_for.get(reason)
    if not clause:  # a rule book covers every code it knows: a filter answered another one
        raise RulesetError(f"a move filter refused {move} with the reason code {reason!r}, which "
                           "its plugin does not declare in REASONS, so no clause covers it")
    return IllegalMove(reason, message or REASONS.get(reason, reason), clause=clause,
                       move=str(move))


def _not_text(name: str, given: object) -> TypeError:
    return TypeError(f"refuse's {name} is text (a str), not {shown(given)}")
