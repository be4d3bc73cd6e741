"""The first problem a checked game met: what the games report, the tally keeps and the
shrinker makes smaller (:mod:`~spitemalice.validation.dynamic`,
:mod:`~spitemalice.validation.tally`, :mod:`~spitemalice.validation.shrink`)."""

from __future__ import annotations

from typing import Any

import attrs

from spitemalice.moves import Move


@attrs.define
class Failure:
    """The first problem met in a game: which game, the moves up to it, and what broke.

    Attributes:
        invariant: the name of the broken invariant (a function of
            :mod:`spitemalice.engine.invariants`), or the kind of fault: ``"crash"``,
            ``"non-termination"``, ``"listed-and-checked-moves-agree"``,
            ``"moves-round-trip"``, ``"stuck-seat"``.
        book: the rule book the game was played under where it is not the configuration
            validated (another seat count, a stacking order: a
            :class:`~spitemalice.rules.book.RuleBook`), else ``None``.
        where: what that configuration is (``"at 3 players"``, ``"stacked as
            mandatory-aces + pair-discards"``), else ``""``.
    """

    seed: int
    moves: list[Move]
    problem: str
    invariant: str = ""
    book: Any = attrs.field(default=None, eq=False, repr=False)
    where: str = ""
