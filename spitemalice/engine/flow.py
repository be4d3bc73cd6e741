"""What happens between decisions: drawing, recycling, ending a turn, ending a game.

These helpers build new states; none of them checks legality (that is
:mod:`spitemalice.engine.legal`'s job).
"""

from __future__ import annotations

from spitemalice.model import (
    NATIVE,
    GameState,
    Outcome,
    OutcomeKind,
    Pile,
    Seat,
    new_seat,
    new_state,
    sort_hand,
)
from spitemalice.rules.book import RuleBook

from .copiers import state_copier, with_fields
from .hands import insert_place
from .shuffle import _shuffled_list


def fire(rules: RuleBook, event: str) -> None:
    """Count ``event`` (:data:`spitemalice.rules.events.EVENTS`) for rule coverage while a
    study records it (:mod:`spitemalice.engine.coverage`); otherwise do nothing.  Called only
    where the event happens, never once per move."""
    fired = rules.engine_cache.fired
    if fired is not None:
        fired[event] += 1


def finish(rules: RuleBook, state: GameState, kind: OutcomeKind, winner: int | None) -> GameState:
    """``state`` ended with ``kind``, scored by the rule set's scoring hook."""
    outcome = Outcome(kind, winner, rules.score(state, kind, winner))
    fire(rules, kind)  # the outcome kinds are events of the same names
    return with_fields(state, outcome=outcome)


def refill(rules: RuleBook, state: GameState, seat_index: int) -> GameState:
    """Fill ``seat_index``'s hand to the hand size from the draw pile.

    When a required draw finds the draw pile empty, set-aside completed cards are shuffled
    into a new draw pile.  A short draw (fewer cards left than the hand needs) takes what is
    there and the seat plays on; only a required draw that finds no card at all ends the game
    as a drawn hand ("drawn").  Rules dossier §13 A21 and §11 scenarios 5 and 20.
    """
    seat = state.seats[seat_index]
    short = rules.deal.hand_size - len(seat.hand)
    if short <= 0:
        return state
    draw, completed, shuffles = state.draw, state.completed, state.shuffles
    builds, removed = state.builds, state.build_removed
    taken: list = []
    while short:
        if not draw:
            if not completed and rules.ruleset.recycle_under_tops:
                builds, removed, completed = under_tops(builds, removed)
                if completed:
                    fire(rules, "recycled-under-tops")
            elif completed:
                fire(rules, "recycled")
            if not completed:
                if taken:
                    fire(rules, "short-draw")
                    break  # a short draw: the seat plays on with the cards it found
                return finish(rules, state, "drawn", None)
            draw, completed = tuple(_shuffled_list(completed, state.seed, shuffles)), ()
            shuffles += 1
        count = min(short, len(draw))
        taken.extend(reversed(draw[len(draw) - count :]))
        draw = draw[: len(draw) - count]
        short -= count
    drawn = _replace_seat(state, seat_index, _hand_plus(seat, taken))
    return with_fields(drawn, draw=draw, completed=completed, shuffles=shuffles, builds=builds,
                       build_removed=removed)


def under_tops(builds: tuple[Pile, ...], removed: tuple[int, ...],
               ) -> tuple[tuple[Pile, ...], tuple[int, ...], Pile]:
    """The electronic Skip-Bo recycle (rules dossier §6 K8, ``recycle_under_tops``): every
    build pile keeps only its top card and counts the cards taken from under it, so it stands
    at the same rank.  Returns the new build piles, their counts (``()`` when none was taken)
    and the cards taken, pile 1 first, each pile bottom to top."""
    taken = tuple(card for pile in builds for card in pile[:-1])
    if not taken:
        return builds, removed, ()
    counts = tuple((removed[n] if removed else 0) + len(pile) - 1
                   for n, pile in enumerate(builds))
    return tuple(pile[-1:] for pile in builds), counts, taken


def _hand_plus(seat: Seat, cards: list) -> Seat:
    return new_seat(seat.payoff, sort_hand(seat.hand + tuple(cards)), seat.discards)


def _replace_seat(state: GameState, index: int, seat: Seat) -> GameState:
    seats = state.seats[:index] + (seat,) + state.seats[index + 1 :]
    return with_fields(state, seats=seats)


def end_turn(rules: RuleBook, state: GameState, passed: bool) -> GameState:
    """Pass the turn to the next seat and fill its hand.

    A turn that ended with a pass and moved no card is idle; when every seat's turn in a row
    was idle the game ends "blocked".  At the rule set's turn limit it ends "turn-limit".
    """
    return turn_over(rules, state, state.seats, state.turn_moves, passed)


_copy_next_turn = state_copier("seats", "draw", "seat", "turn", "turn_moves", "idle_turns")


def _next_turn(state: GameState, seats: tuple[Seat, ...], draw: Pile, seat: int, turn: int,
               turn_moves: int, idle_turns: int) -> GameState:
    """``state`` with these fields changed: the end of a turn's new state."""
    if NATIVE:  # the native constructor, called directly (a copier is a Python-level call)
        return new_state(seats, state.builds, draw, state.completed, seat, turn, turn_moves,
                         idle_turns, state.seed, state.shuffles, state.outcome,
                         state.build_removed)
    return _copy_next_turn(state, seats, draw, seat, turn, turn_moves, idle_turns)


def turn_over(rules: RuleBook, state: GameState, seats: tuple[Seat, ...], turn_moves: int,
              passed: bool) -> GameState:
    """:func:`end_turn` of ``state`` with its ``seats`` and ``turn_moves`` replaced: the
    usual end of a turn (a discard, then the next seat's hand filled) makes one new state
    instead of one per step."""
    idle = state.idle_turns + 1 if passed and turn_moves == 0 else 0
    nxt = (state.seat + 1) % len(seats)
    turn = state.turn + 1
    if idle >= len(seats) or turn >= rules.ruleset.turn_limit:
        ended = with_fields(state, seats=seats, seat=nxt, turn=turn, turn_moves=0,
                            idle_turns=idle)
        return finish(rules, ended, "blocked" if idle >= len(seats) else "turn-limit", None)
    seat = seats[nxt]
    short = rules.deal.hand_size - len(seat.hand)
    draw = state.draw
    if short <= 0 or len(draw) < short:  # nothing to draw, or a recycle or short draw
        turned = with_fields(state, seats=seats, seat=nxt, turn=turn, turn_moves=0,
                             idle_turns=idle)
        return refill(rules, turned, nxt)
    # The common case: the draw pile holds enough; the top `short` cards join the hand.
    hand = seat.hand
    if short == 1:  # one card (after a discard): put in its place, as sorting would
        card = draw[-1]
        at = insert_place(hand, card)
        hand = (*hand[:at], card, *hand[at:])
    else:
        hand = sort_hand(hand + draw[len(draw) - short :])
    seats = seats[:nxt] + (new_seat(seat.payoff, hand, seat.discards),) + seats[nxt + 1 :]
    return _next_turn(state, seats, draw[: len(draw) - short], nxt, turn, 0, idle)


def complete_pile(rules: RuleBook, state: GameState, pile: Pile) -> GameState:
    """A completed build pile leaves the table: a plugin's ``spitemalice_completed_pile``
    decides where its cards go, else they are set aside or shuffled into the draw pile."""
    fire(rules, "pile-completed")
    for hook in rules.completed_pile_hooks:
        placed = hook(rules.ruleset, state, pile)
        if placed is not None:
            return placed
    if rules.ceiling.completed == "shuffle-in":
        draw = tuple(_shuffled_list(state.draw + pile, state.seed, state.shuffles))
        return with_fields(state, draw=draw, shuffles=state.shuffles + 1)
    return with_fields(state, completed=state.completed + pile)

