"""The sets of invariants and the functions that run them all on a state or a move."""

from __future__ import annotations

from collections.abc import Callable

from spitemalice.engine.invariants import cards, ending, piles
from spitemalice.engine.invariants.cards import card_conservation
from spitemalice.engine.invariants.ending import (
    counters_in_range,
    emptied_payoff_ends_the_game,
    live_game_can_move,
    outcome_declared,
    outcome_fits_the_end,
    outcome_scored,
)
from spitemalice.engine.invariants.piles import (
    build_piles_well_formed,
    dealt_as_the_sheet_says,
    discard_piles_hold_allowed_ranks,
    limits_kept,
)
from spitemalice.engine.invariants.transitions import discard_ends_the_turn, payoff_only_shrinks
from spitemalice.engine.invariants.violation import Violation, Violations
from spitemalice.model import GameState, require_state
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book

STATE_CHECKS: tuple[Callable[[RuleBook, GameState], Violations], ...] = (
    card_conservation, build_piles_well_formed, limits_kept, live_game_can_move,
    outcome_declared, counters_in_range, outcome_scored, outcome_fits_the_end,
    discard_piles_hold_allowed_ranks,
)


PLAY_CHECKS: tuple[Callable[[RuleBook, GameState], Violations], ...] = (
    *STATE_CHECKS, emptied_payoff_ends_the_game,
)
"""The state checks plus those that hold only along a game played from a deal (a scenario
position may leave a seat's pay-off piles empty)."""

_Step = Callable[[RuleBook, GameState], Violations]

# The same checks unchecked, each with its public name (the violation's invariant): the
# runners check their arguments once and then call these, not the public checks that would
# check them again, once per invariant and move.
_UNCHECKED: dict[str, _Step] = {**cards.UNCHECKED, **ending.UNCHECKED, **piles.UNCHECKED}
_PLAY_STEPS = tuple((check.__name__, _UNCHECKED[check.__name__]) for check in PLAY_CHECKS)
_FRESH_STEPS = (*_PLAY_STEPS, (dealt_as_the_sheet_says.__name__,
                               _UNCHECKED[dealt_as_the_sheet_says.__name__]))


def state_violations(rules: RuleBook, state: GameState, *, fresh: bool = False) -> list[Violation]:
    """Every state invariant, as named violations; ``fresh`` adds the checks of a new deal.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "state_violations")
    require_state(state, "state_violations",
                  "check a view with spitemalice.formats.position_check.check_view(rules, view)")
    return unchecked_state_violations(rules, state, fresh=fresh)


def unchecked_state_violations(rules: RuleBook, state: GameState, *,
                               fresh: bool = False) -> list[Violation]:
    """:func:`state_violations` for arguments the caller has checked (a step of a checked
    game: the validator checks its rule book once, not on every move)."""
    steps = _FRESH_STEPS if fresh else _PLAY_STEPS
    return [Violation(name, problem) for name, step in steps for problem in step(rules, state)]


def transition_violations(
    rules: RuleBook, before: GameState, move: Move, after: GameState
) -> list[Violation]:
    """State invariants of ``after`` plus those that relate it to ``before``; each message
    starts with the move (``"after 9H>B1: ..."``).

    Raises:
        TypeError: ``after`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "transition_violations")
    require_state(before, "transition_violations")
    require_state(after, "transition_violations")
    return unchecked_transition_violations(rules, before, move, after)


def unchecked_transition_violations(
    rules: RuleBook, before: GameState, move: Move, after: GameState
) -> list[Violation]:
    """:func:`transition_violations` for arguments the caller has checked (a step of a
    checked game)."""
    found = unchecked_state_violations(rules, after)
    found += [Violation("payoff_only_shrinks", p) for p in payoff_only_shrinks(before, after)]
    found += [Violation("discard_ends_the_turn", p)
              for p in discard_ends_the_turn(before, move, after)]
    return [Violation(v.invariant, f"after {move}: {v.message}") for v in found]


def check_state(rules: RuleBook, state: GameState) -> Violations:
    """Every state invariant; the violations of all of them together.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "check_state")
    require_state(state, "check_state",
                  "check a view with spitemalice.formats.position_check.check_view(rules, view)")
    return [v.message for v in unchecked_state_violations(rules, state)]


def check_transition(
    rules: RuleBook, before: GameState, move: Move, after: GameState
) -> Violations:
    """State invariants of ``after`` plus those that relate it to ``before``.

    Raises:
        TypeError: ``after`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "check_transition")
    require_state(before, "check_transition")
    require_state(after, "check_transition")
    return [v.message for v in unchecked_transition_violations(rules, before, move, after)]
