"""What the engine remembers between calls for one rule book (:class:`EngineCache`, the
book's :attr:`~spitemalice.rules.book.RuleBook.engine_cache`), and the types of its play tables'
keys.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from spitemalice.cards import Card
from spitemalice.model import GameState, Pile
from spitemalice.moves import Discard, Move, Play

Targets = tuple[int, ...]
"""Build piles a card may go on, in order, then ``NEW_PILE`` where a new pile may open."""
PlayKey = tuple[int | None, int, Card, Targets]
"""A key of the engine's play tables: (owner seat or ``None`` for the mover's own piles, pile
index, card, target piles)."""


@attrs.define(eq=False, repr=False)
class EngineCache:
    """What the engine (:mod:`spitemalice.engine.legal`) remembers between calls for one rule
    book (:attr:`~spitemalice.rules.book.RuleBook.engine_cache`): never part of the book's
    value, and read by nothing but the engine.

    Every table is bounded by the engine, which empties it when it grows past its limit.

    Attributes:
        last_legal: the last state asked for its legal moves and the answer, so that
            ``apply_move`` and ``check_move`` accept a move listed for that very state object
            without checking it again (keyed on identity: never confuses two states).
        last_drawn: the last state :func:`~spitemalice.engine.legal.random_move` drew a move
            for without listing them, and that move, which ``apply_move`` accepts for that
            very state object without checking it again (identity again).
        last_view: the last build piles and ``build_removed`` seen, and ``targets_by_rank``
            for them; successive states share these until a card is played on a build pile.
        targets_by_shape: ``{ranks the piles stand at: {rank: Targets}}``.
        targets: one tuple per value of target piles, shared by the shapes (memory).
        rank_kinds: the accept table sorted for the engine (made on first use).
        hand_plays, payoff_plays, discard_plays: the plays of a card from the hand, a pay-off
            top or a discard-pile top, by :data:`PlayKey` (the hand's pile index is 0).
        single_discards: card -> its discards alone onto each discard pile.
        pair_discards: (card, card) -> the pair's discards onto each discard pile.
        partner_discards: (id of an own discard, partner seat) -> (that discard, the same
            onto the partner's pile); the entry keeps the discard alive, so ids stay unique.
        configuration: what a state of the book's configuration holds, made on first use
            (:func:`~spitemalice.engine.configuration.configuration_of`): every card of the
            deck, the pay-off and the discard piles per seat.  A card or pile the engine
            meets for the first time is refused when the configuration has none such (a
            state of another configuration): the check costs nothing on the usual path.
        fired: while a study records rule coverage (:mod:`spitemalice.engine.coverage`),
            how many times each event (:data:`spitemalice.rules.events.EVENTS`) happened;
            ``None`` otherwise, and then the engine counts nothing.
    """

    last_legal: tuple[GameState, tuple[Move, ...]] | None = None
    last_drawn: tuple[GameState, Move] | None = None
    last_view: tuple[tuple[Pile, ...], tuple[int, ...], dict[int, Targets]] | None = None
    targets_by_shape: dict[tuple[int, ...], dict[int, Targets]] = attrs.Factory(dict)
    targets: dict[Targets, Targets] = attrs.Factory(dict)
    rank_kinds: Any = None
    hand_plays: dict[PlayKey, tuple[Play, ...]] = attrs.Factory(dict)
    payoff_plays: dict[PlayKey, tuple[Play, ...]] = attrs.Factory(dict)
    discard_plays: dict[PlayKey, tuple[Play, ...]] = attrs.Factory(dict)
    single_discards: dict[Card, tuple[Discard, ...]] | None = None
    pair_discards: dict[tuple[Card, Card], tuple[Discard, ...]] = attrs.Factory(dict)
    partner_discards: dict[tuple[int, int], tuple[Discard, Discard]] = attrs.Factory(dict)
    configuration: tuple[frozenset[Card], int, int] | None = None
    fired: Counter[str] | None = None
