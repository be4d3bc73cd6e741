"""Applying a move: a new state, the old one untouched."""

from __future__ import annotations

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, not_a_move
from spitemalice.model import (
    NATIVE,
    AnyState,
    GameState,
    Pile,
    Seat,
    StateT,
    new_seat,
    new_state,
    require_state,
)
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book

from .check import check_move
from .configuration import check_configuration
from .copiers import state_copier, with_fields
from .flow import complete_pile, end_turn, finish, fire, refill, turn_over
from .hands import place_of, without
from .legal import foreign, not_a_state
from .simultaneous import game_of


def apply_move(rules: RuleBook, state: StateT, move: Move, seat: object = None) -> StateT:
    """The state after the seat on turn makes ``move``: a :class:`GameState` for a
    :class:`GameState` (a simultaneous rule set's state of its own kind for one of those).

    A play that completes a build pile (its card reaches the build ceiling) removes the pile
    at once; the last pay-off card wins at once with no discard; a hand emptied by plays is
    filled again at once; a discard or a pass ends the turn and fills the next seat's hand.

    Args:
        seat: the seat that claims to move (an ``int``); ``None`` means the seat on turn.

    Raises:
        IllegalMove: the move is not legal here (see :func:`check_move`), or ``seat`` is not
            on turn; ``state`` is untouched, as it always is.
        TypeError: as :func:`check_move` raises it: ``state`` not a :class:`GameState`, a
            move of the wrong type (move text, say: the message names ``apply_move`` and
            :func:`spitemalice.parse_move`), a seat that is not an ``int`` (a bool, a float,
            text),
            or ``rules`` not a
            :class:`~spitemalice.rules.book.RuleBook` (a rule set's name, say: the message
            names :func:`spitemalice.load`).
        PositionError: ``state`` is a state of another configuration, as :func:`check_move`
            refuses it (a move listed or drawn for this very state object was listed by
            :func:`~spitemalice.engine.legal.legal_moves` or drawn by
            :func:`~spitemalice.engine.sample.random_move`, which refused such a state).
    """
    try:
        cache = rules.engine_cache
    except AttributeError:  # checked only here: a call with a rule book pays nothing for it
        check_book(rules, "apply_move")
        raise
    cached, drawn = cache.last_legal, cache.last_drawn
    try:
        if seat is None and cached is not None and cached[0] is state:
            for listed in cached[1]:  # the usual loop: a move just listed for this very state
                if listed is move:
                    break
            else:
                check_move(rules, state, move, seat)
        elif not (seat is None and drawn is not None and drawn[0] is state
                  and drawn[1] is move):  # else a move random_move drew for this very state
            check_move(rules, state, move, seat)
    except TypeError:  # only on failure: the message names apply_move for a non-move
        if type(state) is GameState and not isinstance(move, Play | Discard | Pass):
            raise not_a_move(move, "apply_move") from None
        raise
    return apply_listed(rules, state, move)


def apply_listed(rules: RuleBook, state: StateT, move: Move) -> StateT:
    """:func:`apply_move` without the check, for a move that ``legal_moves(rules, state)``
    listed: the same code after the check, so the same state.

    For callers that list the moves of many states before making one move in each (the
    vectorised environment), where :func:`apply_move` no longer finds the move in its
    listed-move cache and would check it again.  A move the engine did not list for
    ``state`` is not refused: the result is then undefined.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view,
            say: the message says what takes one), ``rules`` is not a
            :class:`~spitemalice.rules.book.RuleBook`, or ``move`` is not a move (move
            text, say: the message names :func:`spitemalice.parse_move`).
        PositionError: ``state`` has another seat count than the rules, or reading it
            failed, and it is a state of another configuration (the message says what
            differs).  A state of another deck with the same seats and piles, given with a
            move of its own, is the unlisted move above: not refused.
    """
    try:
        end_hooks = rules.end_of_game_hooks
    except AttributeError:  # checked only here: a call with a rule book pays nothing for it
        check_book(rules, "apply_listed")
        raise
    if type(state) is not GameState:
        game = game_of(rules, state)
        if game is None:
            raise not_a_state(state, "apply_listed")
        return game.apply(state, move)  # type: ignore[arg-type, return-value]  # checked first
    # StateT: mypyc checks it neither way (a simultaneous state passes); from here it is a
    # GameState, read natively as ``now`` (no cast() calls: a call per move in pure Python).
    now: GameState = state  # type: ignore[assignment]  # checked just above
    if len(now.seats) != rules.ruleset.players:  # fewer seats would play on silently
        raise foreign(rules, now, "apply_listed")
    try:
        if isinstance(move, Play):
            now = _play(rules, now, move)
        elif isinstance(move, Discard):
            now = _discard(rules, now, move)
        elif isinstance(move, Pass):
            fire(rules, "passed")
            now = end_turn(rules, now, passed=True)
        else:
            raise not_a_move(move, "apply_listed")
    except (IndexError, KeyError, ValueError) as error:  # an unlisted move, or a foreign state
        if isinstance(error, SpiteMaliceError):
            raise
        raise foreign(rules, now, "apply_listed") from None
    if end_hooks and now.outcome is None:
        ruleset = rules.ruleset
        for hook in end_hooks:
            outcome = hook(ruleset, now)
            if outcome is not None:
                fire(rules, "ended-by-rule")
                now = with_fields(now, outcome=outcome)
                break
    if now.outcome is None and now.turn_moves >= rules.ruleset.turn_limit:
        # Rules where completed piles come straight back can let one turn go on for ever.
        now = finish(rules, now, "turn-limit", None)
    return now  # type: ignore[return-value]  # a GameState for a GameState


_copy_after_play = state_copier("seats", "builds", "turn_moves", "idle_turns", "build_removed")


def _after_play(state: GameState, seats: tuple[Seat, ...], builds: tuple[Pile, ...],
                turn_moves: int, idle_turns: int, removed: tuple[int, ...]) -> GameState:
    """``state`` with these fields changed: a play's new state."""
    if NATIVE:  # the native constructor, called directly (a copier is a Python-level call)
        return new_state(seats, builds, state.draw, state.completed, state.seat, state.turn,
                         turn_moves, idle_turns, state.seed, state.shuffles, state.outcome,
                         removed)
    return _copy_after_play(state, seats, builds, turn_moves, idle_turns, removed)


def _play(rules: RuleBook, state: GameState, move: Play) -> GameState:
    # The card leaves the source seat's piles: the mover's, or a partner's under team rules.
    at_seat = state.seat if move.owner is None else move.owner
    mover = state.seats[at_seat]
    payoff, hand, discards = mover.payoff, mover.hand, mover.discards
    zone = move.zone
    if zone is Zone.HAND:
        at = place_of(hand, move.card)
        if at < 0:  # an unlisted move (apply_listed's diagnosis)
            raise ValueError(f"{move.card} is not in the hand")
        hand = hand[:at] + hand[at + 1 :]
    elif zone is Zone.PAYOFF:
        index = move.index
        payoff = (*payoff[:index], payoff[index][:-1], *payoff[index + 1 :])
    else:
        index = move.index
        discards = (*discards[:index], discards[index][:-1], *discards[index + 1 :])
    seats = state.seats
    seats = seats[:at_seat] + (new_seat(payoff, hand, discards),) + seats[at_seat + 1 :]
    builds, removed = state.builds, state.build_removed
    target = move.pile
    if target == NEW_PILE:
        pile: tuple = (move.card,)
        target = len(builds)
        builds = (*builds, pile)
        if removed:
            removed = (*removed, 0)
    else:
        pile = builds[target] + (move.card,)
        builds = builds[:target] + (pile,) + builds[target + 1 :]
    # The rank the pile now stands at: its cards, and any recycled from under its top.
    done = len(pile) + (removed[target] if removed else 0) >= rules.ceiling.ceiling
    if done:
        builds = builds[:target] + builds[target + 1 :]
        if removed:
            removed = removed[:target] + removed[target + 1 :]
            removed = removed if any(removed) else ()
    state = _after_play(state, seats, builds, state.turn_moves + 1, 0, removed)
    if done:
        state = complete_pile(rules, state, pile)
    if zone is Zone.PAYOFF and not any(payoff) and _team_won(rules, state, at_seat):
        return finish(rules, state, "win", at_seat)
    if not seats[state.seat].hand:
        fire(rules, "hand-emptied")
        return refill(rules, state, state.seat)
    return state


def team_won(rules: RuleBook, state: AnyState, seat: object) -> bool:
    """Whether emptying ``seat``'s pay-off piles wins: a seat alone wins at once; a team wins
    when every seat of it has emptied its pay-off piles, unless a plugin's
    ``spitemalice_team_won`` says otherwise.

    Args:
        seat: a seat of the rules, from 0 to ``rules.players - 1``.

    Raises:
        SpiteMaliceError: ``seat`` is not a whole number from 0 to ``rules.players - 1`` (a
            bool, a float, text...); the message names the bound.
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState`, or ``rules`` not
            a :class:`~spitemalice.rules.book.RuleBook` (the message names ``team_won``).
        PositionError: ``state`` is a state of another configuration
            (:func:`~spitemalice.engine.configuration.check_configuration`).
    """
    check_book(rules, "team_won")
    state = require_state(state, "team_won")
    check_configuration(rules, state, "team_won")
    return _team_won(rules, state, check_int(seat, "seat", 0, rules.players - 1))


def _team_won(rules: RuleBook, state: GameState, seat: int) -> bool:
    """:func:`team_won` unchecked, for the seat that just played."""
    teams = rules.teams
    if not teams.any and not rules.team_won_hooks:
        return True
    team = teams.teams[teams.team_of(seat)]
    for hook in rules.team_won_hooks:
        answer = hook(rules.ruleset, state, team)
        if answer is not None:
            return bool(answer)
    return all(not any(state.seats[member].payoff) for member in team)


def _discard(rules: RuleBook, state: GameState, move: Discard) -> GameState:
    at_seat = state.seat
    mover = state.seats[at_seat]
    rest = without(mover.hand, move.cards)
    if rest is None:  # an unlisted move (apply_listed's diagnosis)
        raise ValueError("a discarded card is not in the hand")
    hand = rest
    seats = state.seats
    owner = at_seat if move.owner is None else move.owner  # a partner's pile, if shared
    if owner != at_seat:
        seats = seats[:at_seat] + (new_seat(mover.payoff, hand, mover.discards),) + seats[
            at_seat + 1 :]
        mover = seats[owner]
        hand = mover.hand
    discards = mover.discards
    pile = move.pile
    discards = discards[:pile] + (discards[pile] + move.cards,) + discards[pile + 1 :]
    seats = seats[:owner] + (new_seat(mover.payoff, hand, discards),) + seats[owner + 1 :]
    return turn_over(rules, state, seats, state.turn_moves + 1, passed=False)
