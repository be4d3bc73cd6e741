"""What a Spit move does, and what follows on its own: the flip after the spit barrier, the
next barrier when nobody can move, the end of a round, the slap and the new layout."""

from __future__ import annotations

import attrs

import spitemalice as sm
from spitemalice import Ruleset

from ._spit_game import Fill, Lay, Pile, Slap, Spit, SpitMove, SpitSeat, SpitState
from ._spit_rules import card_moves, lay_out, outcome_of


def after_move(ruleset: Ruleset, state: SpitState, move: SpitMove) -> SpitState:
    """The state after the legal ``move``, then the move limit (``turn_limit``)."""
    state = attrs.evolve(state, moves=state.moves + 1)
    if isinstance(move, Spit):
        state = _said_spit(ruleset, state, move.seat)
    elif isinstance(move, Slap):
        state = _slapped(ruleset, state, move)
    else:
        state = _card_moved(ruleset, state, move)
    if state.outcome is None and state.moves >= ruleset.turn_limit:
        state = attrs.evolve(state, outcome=outcome_of(ruleset, state, None, "turn-limit"))
    return state


def _with_seat(state: SpitState, seat: int, changed: SpitSeat) -> SpitState:
    seats = state.seats[:seat] + (changed,) + state.seats[seat + 1:]
    return attrs.evolve(state, seats=seats)


def _said_spit(ruleset: Ruleset, state: SpitState, seat: int) -> SpitState:
    """A seat is ready; once every seat holding a spit card is, each turns its top spit card
    onto the centre: a new pile each at a round's start, else onto its own pile."""
    ready = (*state.ready, seat)
    owing = [at for at, s in enumerate(state.seats) if s.spit and at not in ready]
    if owing:
        return attrs.evolve(state, ready=ready)
    centre, spitters, seats = list(state.centre), state.spitters, list(state.seats)
    for at in sorted(ready):
        card, rest = seats[at].spit[-1], seats[at].spit[:-1]
        seats[at] = SpitSeat(seats[at].stock, rest)
        if not state.spitters:  # a round's first spit: one pile per seat that spits
            centre.append((card,))
        else:
            pile = spitters.index(at) if at in spitters else 0
            centre[pile] = (*centre[pile], card)
    if not state.spitters:
        spitters = tuple(sorted(ready))
    flipped = attrs.evolve(state, seats=seats, centre=centre, spitters=spitters,
                           phase="play", ready=())
    return _settle(ruleset, flipped)


def _card_moved(ruleset: Ruleset, state: SpitState, move: Lay | Fill) -> SpitState:
    seat = state.seats[move.seat]
    stock = list(seat.stock)
    stock[move.stock] = stock[move.stock][:-1]  # the card below is turned up at once
    if isinstance(move, Fill):
        stock[move.to] = (move.card,)
        return _settle(ruleset, _with_seat(state, move.seat, SpitSeat(stock, seat.spit)))
    centre = list(state.centre)
    centre[move.pile] = (*centre[move.pile], move.card)
    state = attrs.evolve(_with_seat(state, move.seat, SpitSeat(stock, seat.spit)),
                         centre=centre)
    if not any(stock):
        return _round_over(ruleset, state, move.seat)
    return _settle(ruleset, state)


def _settle(ruleset: Ruleset, state: SpitState) -> SpitState:
    """Free play goes on while a seat can move; else every seat holding a spit card must
    spit again, and when none holds one the round is over with nobody out."""
    if any(card_moves(state, seat) for seat in range(len(state.seats))):
        return state
    if any(seat.spit for seat in state.seats):
        return attrs.evolve(state, phase="spit", ready=())
    return _round_over(ruleset, state, None)


def _round_over(ruleset: Ruleset, state: SpitState, out: int | None) -> SpitState:
    """The round ends (``out``: the seat that played out its stock, or ``None``)."""
    if ruleset.points_per_card:
        points = tuple(score + ruleset.points_per_card * seat.held
                       for score, seat in zip(state.scores, state.seats, strict=True))
        state = attrs.evolve(state, scores=points)
        if max(points) >= ruleset.match_target or any(not s.held for s in state.seats):
            low = min(points)
            winners = [at for at, score in enumerate(points) if score == low]
            winner = winners[0] if len(winners) == 1 else None
            kind = "win" if winner is not None else "drawn"
            return attrs.evolve(state, outcome=outcome_of(ruleset, state, winner, kind))
    elif out is not None and not state.seats[out].spit:
        return attrs.evolve(state, outcome=outcome_of(ruleset, state, out, "win"))
    if len(state.centre) == 2:
        return attrs.evolve(state, phase="slap", ready=(), slaps=(), out=out)
    # One spit pile: the seat out first takes nothing, the other takes the pile; a blocked
    # round leaves it to the seat that spat on it (ASSUMPTION, clause SP-15).
    taker = state.spitters[0] if out is None else 1 - out
    return _new_round(state, {taker: state.centre[0]})


def _slapped(ruleset: Ruleset, state: SpitState, move: Slap) -> SpitState:
    slaps = (*state.slaps, (move.seat, move.pile))
    if len(slaps) < len(state.seats):
        return attrs.evolve(state, slaps=slaps)
    return _new_round(state, {seat: state.centre[pile] for seat, pile in slaps})


def _new_round(state: SpitState, taken: dict[int, Pile]) -> SpitState:
    """Each seat gathers its stock, its spit cards and the pile it took, shuffles them and
    lays out again; the next round starts at the spit barrier."""
    seats, shuffles = [], state.shuffles
    for at, seat in enumerate(state.seats):
        cards = [card for pile in seat.stock for card in pile] + list(seat.spit)
        cards += taken.get(at, ())
        seats.append(lay_out(sm.shuffled(cards, state.seed, shuffles)))
        shuffles += 1
    # 52 cards between two seats: one holds more than 15, so some seat can always spit.
    return attrs.evolve(state, seats=seats, centre=(), spitters=(), phase="spit", ready=(),
                        slaps=(), out=None, round=state.round + 1, shuffles=shuffles)


def events_of(before: SpitState, move: SpitMove, after: SpitState) -> tuple[str, ...]:
    """The events ``move`` caused, for rule coverage: ``turned-up`` (SP-7: a card left a
    stock pile of two or more, so the one under it turned up), ``barrier-again`` (SP-10:
    nobody could move and both must spit again within the round), ``round-over`` (SP-11),
    ``laid-out-again`` (SP-13), ``short-layout`` (SP-14: a seat laid out with no spit card)
    and ``one-pile`` (SP-15: a one-pile round ended and its pile was taken without a slap)."""
    found = []
    if isinstance(move, Lay | Fill) and len(before.seats[move.seat].stock[move.stock]) >= 2:
        found.append("turned-up")
    new_round = after.round > before.round
    if (after.outcome is None and after.phase == "spit" and not after.ready and after.centre
            and not new_round):
        found.append("barrier-again")
    ended = after.outcome is not None and after.outcome.kind != "turn-limit"
    if before.phase != "slap" and (ended or new_round or after.phase == "slap"):
        found.append("round-over")
    if new_round:
        found.append("laid-out-again")
        if any(not seat.spit for seat in after.seats):
            found.append("short-layout")
        if len(before.centre) == 1:
            found.append("one-pile")
    return tuple(found)
