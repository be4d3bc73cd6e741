"""Spit's rules: the deal, who may move, the moves each seat has, refusals, and what a move
does (the clauses of :mod:`spitemalice_variants.spit` cite each step)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

import attrs

import spitemalice as sm
from spitemalice import Card, Outcome, Ruleset, SimultaneousGame

from ._spit_game import (
    STOCK_PILES,
    Fill,
    Lay,
    Pile,
    Slap,
    Spit,
    SpitMove,
    SpitSeat,
    SpitState,
    parse_spit_move,
)

REASONS: dict[str, str] = {
    "game-over": "the game has ended; no move can be made",
    "wrong-seat": "the move names another seat than the one that makes it",
    "no-such-seat": "the move names a seat the game does not have",
    "not-now": "that kind of move does not fit what the game waits for (free play, the "
               "spit barrier or the slap)",
    "already-answered": "the seat has answered the barrier pending already",
    "no-spit-card": "a seat without spit cards does not spit",
    "no-such-pile": "there is no such pile",
    "empty-pile": "that stock pile is empty",
    "not-on-pile": "that card is not the face-up top of that stock pile",
    "not-adjacent": "a card goes on a spit pile only one rank above or below its top",
    "slot-not-empty": "only an empty stock pile may be filled",
    "fill-single": "a stock pile of one card may not be moved into an empty one",
    "pile-taken": "the other seat slapped first; the seat takes the other spit pile",
}


PACK = tuple(Card(rank, suit) for suit in "SHDC" for rank in range(1, 14))
"""One 52-card pack, aces to kings in four suits (SEED-SPIT: « Jeu de 52 cartes standard »)."""


def adjacent(card: Card, top: Card) -> bool:
    """Whether ``card`` may go on ``top``: one rank above or below, round the corner (an ace
    on a king or a two, SEED-SPIT « un Roi ou un 2 »); suits do not matter."""
    return (card.rank - top.rank) % 13 in (1, 12)


def lay_out(cards: Sequence[Card]) -> SpitSeat:
    """Five stock piles of 1 to 5 cards from the top of ``cards``, the rest spit cards; with
    fewer than 15 cards the piles are filled in order as far as the cards go."""
    cards = list(cards)
    piles: list[Pile] = []
    for size in range(1, STOCK_PILES + 1):
        taken = cards[len(cards) - min(size, len(cards)):]
        del cards[len(cards) - len(taken):]
        piles.append(tuple(taken))
    return SpitSeat(piles, cards)


@attrs.frozen
class SpitGame(SimultaneousGame):
    """The rules of Spit for a resolved :class:`~spitemalice.Ruleset`: ``points_per_card``
    0 plays the standard game, more plays the points game to ``match_target``;
    ``turn_limit`` bounds the moves of a game."""

    ruleset: Ruleset
    REASONS = REASONS
    PARAMETERS: ClassVar[dict[str, str]] = {
        "players": "seats in the game (Spit is for two)",
        "points_per_card": "0: the standard game (SP-16); 1 or more: the points game, "
                           "points per card a seat holds at each round's end",
        "match_target": "points that end the points game (the lowest score wins)",
        "turn_limit": "moves after which a game ends with no winner",
    }

    # -- who may move ------------------------------------------------------------------

    def deal(self, seed: int) -> SpitState:
        cards = sm.shuffled(PACK, seed, 0)  # the engine is loaded only when a game is dealt
        half = len(cards) // 2
        seats = (lay_out(cards[:half]), lay_out(cards[half:]))
        return SpitState(seats, seed=seed, shuffles=1, scores=(0,) * len(seats))

    def to_move(self, state: SpitState) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(seat for seat in range(len(state.seats))
                     if self.legal_moves(state, seat))

    def barrier(self, state: SpitState) -> str:  # type: ignore[override]
        return "" if state.outcome is not None or state.phase == "play" else state.phase

    def legal_moves(self, state: SpitState, seat: int) -> tuple[SpitMove, ...]:  # type: ignore[override]
        if state.outcome is not None:
            return ()
        if state.phase == "spit":
            owes = seat not in state.ready and state.seats[seat].spit
            return (Spit(seat),) if owes else ()
        if state.phase == "slap":
            if any(at == seat for at, _ in state.slaps):
                return ()
            if state.slaps:
                return (Slap(seat, 1 - state.slaps[0][1]),)
            return tuple(Slap(seat, pile) for pile in range(len(state.centre)))
        return card_moves(state, seat)

    def refusal(self, state: SpitState, move: SpitMove) -> tuple[str, str] | None:  # type: ignore[override]
        if state.outcome is not None:
            return "game-over", REASONS["game-over"]
        if not 0 <= move.seat < len(state.seats):
            return "no-such-seat", f"Spit has seats 0 and 1, not {move.seat}"
        if move in self.legal_moves(state, move.seat):
            return None
        return why_not(state, move)

    def apply(self, state: SpitState, move: SpitMove) -> SpitState:  # type: ignore[override]
        from ._spit_flow import after_move  # the flow imports this module's helpers

        return after_move(self.ruleset, state, move)

    def events(self, before: SpitState, move: SpitMove,  # type: ignore[override]
               after: SpitState) -> tuple[str, ...]:
        from ._spit_flow import events_of  # the flow imports this module's helpers

        return events_of(before, move, after)

    def probes(self, state: SpitState, seat: int) -> list[tuple[SpitMove, int | None]]:
        """Moves for validate to try as ``seat``, each with the seat claiming it: every
        face-up top and the card under it onto each spit pile and one past them, into each
        stock pile, the calls, a seat that is none, and another seat's move."""
        moves: list[tuple[SpitMove, int | None]] = []
        for index, pile in enumerate(state.seats[seat].stock):
            for card in {*pile[-2:], *(PACK[:1] if not pile else ())}:
                moves += [(Lay(seat, card, index, at), seat)
                          for at in range(len(state.centre) + 1)]
                moves += [(Fill(seat, card, index, to), seat) for to in range(STOCK_PILES + 1)]
        moves += [(Spit(seat), seat), (Spit(2), None), (Spit(1 - seat), seat)]
        moves += [(Slap(seat, at), seat) for at in range(3)]
        return moves

    def hidden_twin(self, state: SpitState, rng: random.Random) -> SpitState:  # type: ignore[override]
        """``state`` with every face-down card (under the stock tops, the spit cards) of
        both seats shuffled among the face-down places."""
        hidden = [card for seat in state.seats for pile in seat.stock for card in pile[:-1]]
        hidden += [card for seat in state.seats for card in seat.spit]
        rng.shuffle(hidden)
        seats = []
        for seat in state.seats:
            stock = []
            for pile in seat.stock:
                under = [hidden.pop() for _ in pile[:-1]]
                stock.append((*under, *pile[-1:]))
            seats.append(SpitSeat(stock, [hidden.pop() for _ in seat.spit]))
        return attrs.evolve(state, seats=seats)

    def parse_move(self, text: str) -> SpitMove:
        return parse_spit_move(text)

    @property
    def BOTS(self) -> dict[str, object]:
        """Spit's own bots by name (``greedy``)."""
        from ._spit_bots import BOTS  # the bots import these rules

        return dict(BOTS)


def card_moves(state: SpitState, seat: int) -> tuple[SpitMove, ...]:
    """A seat's lays (each stock top onto each spit pile it fits) and fills (a top from a
    pile of two or more into each empty stock pile), in pile order."""
    stock = state.seats[seat].stock
    moves: list[SpitMove] = []
    for index, pile in enumerate(stock):
        if pile:
            moves += [Lay(seat, pile[-1], index, at) for at, centre in enumerate(state.centre)
                      if adjacent(pile[-1], centre[-1])]
    empty = [index for index, pile in enumerate(stock) if not pile]
    for index, pile in enumerate(stock):
        if len(pile) >= 2:
            moves += [Fill(seat, pile[-1], index, to) for to in empty]
    return tuple(moves)


def why_not(state: SpitState, move: SpitMove) -> tuple[str, str]:
    """The reason code and sentence that refuse ``move``, which is not legal now."""
    seat = state.seats[move.seat]
    if isinstance(move, Spit | Slap):
        if state.phase != ("spit" if isinstance(move, Spit) else "slap"):
            return "not-now", f"the game waits for {_waits(state)}, not this"
        if isinstance(move, Spit):
            if move.seat in state.ready:
                return "already-answered", "the seat said spit already"
            return "no-spit-card", "the seat holds no spit card"
        if any(at == move.seat for at, _ in state.slaps):
            return "already-answered", "the seat slapped already"
        if not 0 <= move.pile < len(state.centre):
            return "no-such-pile", f"there are {len(state.centre)} spit piles"
        return "pile-taken", "the other seat slapped that pile first; slap the other one"
    if state.phase != "play":
        return "not-now", f"the game waits for {_waits(state)}; no card moves now"
    if not 0 <= move.stock < STOCK_PILES:
        return "no-such-pile", f"stock piles are 1 to {STOCK_PILES}"
    source = seat.stock[move.stock]
    if not source:
        return "empty-pile", f"stock pile {move.stock + 1} is empty"
    if source[-1] != move.card:
        return "not-on-pile", f"{move.card} is not the face-up top of stock pile {move.stock + 1}"
    if isinstance(move, Lay):
        if not 0 <= move.pile < len(state.centre):
            return "no-such-pile", f"there are {len(state.centre)} spit piles"
        top = state.centre[move.pile][-1]
        return "not-adjacent", f"{move.card} is not one rank above or below {top}"
    if not 0 <= move.to < STOCK_PILES or move.to == move.stock:
        return "no-such-pile", f"fill one of the other stock piles 1 to {STOCK_PILES}"
    if seat.stock[move.to]:
        return "slot-not-empty", f"stock pile {move.to + 1} is not empty"
    return "fill-single", f"stock pile {move.stock + 1} holds one card only"


def _waits(state: SpitState) -> str:
    return {"spit": "both seats to say spit", "slap": "both seats to slap"}.get(
        state.phase, "free play")


def outcome_of(ruleset: Ruleset, state: SpitState, winner: int | None, kind: str) -> Outcome:
    """The outcome: the standard game scores the winner the cards the loser still holds; the
    points game shows every seat's points."""
    if ruleset.points_per_card:
        return Outcome(kind, winner, state.scores)  # type: ignore[arg-type]
    scores = [0] * len(state.seats)
    if winner is not None:
        scores[winner] = sum(s.held for s in state.seats)
    return Outcome(kind, winner, tuple(scores))  # type: ignore[arg-type]
