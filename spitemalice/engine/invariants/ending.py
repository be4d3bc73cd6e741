"""A game ends when and as it should: a live game can move and has not reached an end, an ended
one declares an outcome that fits its final position and is scored as the rules score it."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from spitemalice.engine.copiers import with_fields
from spitemalice.engine.invariants.violation import Violations
from spitemalice.model import GameState, require_state
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import count_of


def live_game_can_move(rules: RuleBook, state: GameState) -> Violations:
    """A live game always offers the seat on turn at least one legal move.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "live_game_can_move")
    require_state(state, "live_game_can_move")
    return _live_game_can_move(rules, state)


def _live_game_can_move(rules: RuleBook, state: GameState) -> Violations:
    from spitemalice.engine.legal import legal_moves

    if state.outcome is None and not legal_moves(rules, state):
        return ["a live game offers no legal move"]
    return []


def outcome_declared(rules: RuleBook, state: GameState) -> Violations:
    """An ended game names its kind, a winner only for a win, and one score per seat.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "outcome_declared")
    require_state(state, "outcome_declared")
    return _outcome_declared(rules, state)


def _outcome_declared(rules: RuleBook, state: GameState) -> Violations:
    outcome = state.outcome
    if outcome is None:
        return []
    problems = []
    if (outcome.kind == "win") != (outcome.winner is not None):
        problems.append(f"outcome {outcome.kind} with winner {outcome.winner}")
    if len(outcome.scores) != len(state.seats):
        problems.append(f"{count_of(len(outcome.scores), 'score')} for "
                        f"{count_of(len(state.seats), 'seat')}")
    won = outcome.kind == "win" and outcome.winner is not None
    if won and state.seats[outcome.winner].payoff_count:  # type: ignore[index]
        problems.append("the winner still has pay-off cards")
    return problems


@attrs.frozen
class EndFacts:
    """What decides whether an outcome's kind fits its position: the same facts in a state
    and in any seat's view of it (a view shows every count), so states and views are judged
    alike.

    Attributes:
        payoff_left: cards left in each seat's pay-off piles, per seat.
        hands: cards in each seat's hand, per seat.
        seat: the seat on turn.
        draw: cards in the draw pile.
        completed: completed cards set aside.
        under_tops: cards lying under the build-pile tops (what ``recycle_under_tops``
            takes).
        turn, turn_moves, idle_turns: the counters.
    """

    payoff_left: tuple[int, ...]
    hands: tuple[int, ...]
    seat: int
    draw: int
    completed: int
    under_tops: int
    turn: int
    turn_moves: int
    idle_turns: int

    @classmethod
    def of(cls, state: GameState) -> EndFacts:
        """The facts of a state.

        Raises:
            TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
        """
        require_state(state, "EndFacts.of")
        return cls(tuple(seat.payoff_count for seat in state.seats),
                   tuple(len(seat.hand) for seat in state.seats), state.seat, len(state.draw),
                   len(state.completed), sum(max(len(pile) - 1, 0) for pile in state.builds),
                   state.turn, state.turn_moves, state.idle_turns)


def end_problems(rules: RuleBook, kind: str, winner: int | None,
                 facts: EndFacts) -> Violations:
    """Whether an outcome of ``kind`` fits the position it ends, as the engine ends games
    (:mod:`spitemalice.engine.flow`): a **win** when the winner's team has emptied its pay-off
    piles (a seat alone is its own team; PT-4); **drawn** when a required draw found no card:
    the draw pile, the completed cards and (where they are recycled) the cards under the
    build-pile tops are all gone, and the seat on turn holds less than a full hand (rules
    dossier §13 A21); **blocked** when every seat in a row passed without moving a card;
    **turn-limit** at the rule set's turn limit, in turns or in moves of one turn.  An unknown
    kind or a bad winner is :func:`outcome_declared`'s to report.

    Not asked of a rule book whose plugins decide the end of a game
    (``spitemalice_end_of_game``); the team part of a win not when they decide a team's win
    (``spitemalice_team_won``).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "end_problems")
    return _end_problems(rules, kind, winner, facts)


def _end_problems(rules: RuleBook, kind: str, winner: int | None,
                  facts: EndFacts) -> Violations:
    if rules.end_of_game_hooks:
        return []
    seats = len(facts.hands)
    limit = rules.ruleset.turn_limit
    if kind == "win":
        if not (isinstance(winner, int) and 0 <= winner < seats):
            return []
        team = (winner,) if rules.team_won_hooks or not rules.teams.any else \
            rules.teams.teams[rules.teams.team_of(winner)]
        left = [seat for seat in team if facts.payoff_left[seat]]
        if not left:
            return []
        partner = "" if left[0] == winner else f"its partner seat {left[0]} "
        return [f"seat {winner} won but {partner}still has pay-off cards"]
    if kind == "drawn":
        held = [(facts.draw, "the draw pile"), (facts.completed, "the completed cards")]
        if rules.ruleset.recycle_under_tops:
            held.append((facts.under_tops, "the cards under the build-pile tops"))
        problems = [f"a drawn game (the draw pile ran out), but {where} still hold(s) "
                    f"{count} card(s)" for count, where in held if count]
        if facts.hands[facts.seat] >= rules.deal.hand_size:
            problems.append(f"a drawn game (a required draw found no card), but seat "
                            f"{facts.seat} on turn holds a full hand")
        return problems
    if kind == "blocked" and facts.idle_turns < seats:
        return [f"a blocked game after {facts.idle_turns} idle turn(s) in a row; it takes "
                f"{seats}, one per seat"]
    if kind == "turn-limit" and facts.turn < limit and facts.turn_moves < limit:
        return [f"a game ended at the turn limit {limit}, but at turn {facts.turn} with "
                f"{facts.turn_moves} move(s) this turn"]
    return []


def outcome_fits_the_end(rules: RuleBook, state: GameState) -> Violations:
    """An ended game's kind is one its final position shows (:func:`end_problems`).

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "outcome_fits_the_end")
    require_state(state, "outcome_fits_the_end")
    return _outcome_fits_the_end(rules, state)


def _outcome_fits_the_end(rules: RuleBook, state: GameState) -> Violations:
    outcome = state.outcome
    if outcome is None or len(outcome.scores) != len(state.seats):
        return []  # live, or outcome_declared reports the scores
    return _end_problems(rules, outcome.kind, outcome.winner, EndFacts.of(state))


def counters_in_range(rules: RuleBook, state: GameState) -> Violations:
    """A live game has fewer idle turns in a row than seats (that many end it blocked) and
    has not reached the turn limit, in turns or in moves this turn (that ends it).

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "counters_in_range")
    require_state(state, "counters_in_range")
    return _counters_in_range(rules, state)


def _counters_in_range(rules: RuleBook, state: GameState) -> Violations:
    if state.outcome is not None:
        return []
    return _live_counter_problems(rules, len(state.seats), state.turn, state.turn_moves,
                                  state.idle_turns)


def live_counter_problems(rules: RuleBook, seats: int, turn: int, turn_moves: int,
                          idle_turns: int) -> Violations:
    """:func:`counters_in_range` for a live game given by its counters (a view has them too).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "live_counter_problems")
    return _live_counter_problems(rules, seats, turn, turn_moves, idle_turns)


def _live_counter_problems(rules: RuleBook, seats: int, turn: int, turn_moves: int,
                           idle_turns: int) -> Violations:
    problems = []
    if idle_turns >= seats:
        problems.append(f"a live game with {idle_turns} idle turns in a row; {seats} end it "
                        "blocked")
    limit = rules.ruleset.turn_limit
    if turn >= limit or turn_moves >= limit:
        problems.append(f"a live game at turn {turn}, {turn_moves} move(s) this turn; the turn "
                        f"limit {limit} ends it")
    return problems


def outcome_scored(rules: RuleBook, state: GameState) -> Violations:
    """An ended game's scores are those the scoring hook gives for its final position.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "outcome_scored")
    require_state(state, "outcome_scored")
    return _outcome_scored(rules, state)


def _outcome_scored(rules: RuleBook, state: GameState) -> Violations:
    outcome = state.outcome
    if outcome is None or len(outcome.scores) != len(state.seats):
        return []  # outcome_declared reports a wrong number of scores
    if outcome.kind == "win" and not (
            isinstance(outcome.winner, int) and 0 <= outcome.winner < len(state.seats)):
        return []  # outcome_declared reports the winner
    live = with_fields(state, outcome=None)
    expected = rules.score(live, outcome.kind, outcome.winner)
    if tuple(outcome.scores) != tuple(expected):
        return [f"scores {list(outcome.scores)}; the rules give {list(expected)} for this "
                "final position"]
    return []


def emptied_payoff_ends_the_game(rules: RuleBook, state: GameState) -> Violations:
    """A team (a seat, without partnerships) whose pay-off piles are all empty has won: the
    game is over.  Not checked when a plugin decides the end of the game or a team's win.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "emptied_payoff_ends_the_game")
    require_state(state, "emptied_payoff_ends_the_game")
    return _emptied_payoff_ends_the_game(rules, state)


def _emptied_payoff_ends_the_game(rules: RuleBook, state: GameState) -> Violations:
    if state.outcome is not None or rules.end_of_game_hooks or rules.team_won_hooks:
        return []
    return [f"seat(s) {', '.join(map(str, team))} emptied their pay-off piles but the game "
            "goes on" for team in rules.teams.teams
            if all(not state.seats[seat].payoff_count for seat in team)]


UNCHECKED: dict[str, Callable[[RuleBook, GameState], Violations]] = {
    "live_game_can_move": _live_game_can_move,
    "outcome_declared": _outcome_declared,
    "outcome_fits_the_end": _outcome_fits_the_end,
    "counters_in_range": _counters_in_range,
    "outcome_scored": _outcome_scored,
    "emptied_payoff_ends_the_game": _emptied_payoff_ends_the_game,
}
"""This module's invariant checks for arguments the caller has checked, by public name
(:mod:`~spitemalice.engine.invariants.run` calls them on every move of a checked game)."""
