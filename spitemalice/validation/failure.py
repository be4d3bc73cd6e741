"""The first problem a checked game met: what the games report, the tally keeps and the
shrinker makes smaller (:mod:`~spitemalice.validation.dynamic`,
:mod:`~spitemalice.validation.tally`, :mod:`~spitemalice.validation.shrink`)."""

from __future__ import annotations

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
    """

    seed: int
    moves: list[Move]
    problem: str
    invariant: str = ""
