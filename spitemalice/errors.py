"""The library's error types.

Every error the library raises on purpose is a :class:`SpiteMaliceError`, and each is also a
``ValueError`` (bad input) so that callers who only know the standard library can catch it.
"""

from __future__ import annotations


class SpiteMaliceError(ValueError):
    """Base class of every error this library raises on purpose."""


class IllegalMove(SpiteMaliceError):
    """A move the rules do not allow in the given state.

    Attributes:
        reason: a stable, machine-readable reason code such as ``"buried-card"``; the list of
            codes is :data:`spitemalice.engine.refusal.REASONS`.
        clause: the id of the rule-sheet clause that forbids the move (``"BF-8"``), or ``""``
            when no clause of the active rule sheet covers the reason.
        move: the text form of the refused move.
    """

    def __init__(self, reason: str, message: str, clause: str = "", move: str = "") -> None:
        self.reason = reason
        self.clause = clause
        self.move = move
        where = f" [{reason}" + (f", clause {clause}]" if clause else "]")
        super().__init__(f"{move}: {message}{where}" if move else message + where)


class RulesetError(SpiteMaliceError):
    """A rule set, house rule, parameter or plugin that cannot be used; nothing was loaded."""


class NotationError(SpiteMaliceError):
    """Text (a card, a move, a position) that does not parse; the message names the part."""
