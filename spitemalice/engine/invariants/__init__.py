"""Named invariants that every state of every sound rule set keeps (design notes §6).

Each check takes the rule book and one state (or a state and its successor) and returns a list
of violations, empty when the invariant holds.  They are public so that third-party variant
authors run the same checks on their own plugins; :func:`check_state` and
:func:`check_transition` run them all.

This package is their face: import the names from here.  Its modules hold one family each:
the cards (:mod:`~spitemalice.engine.invariants.cards`), the piles and limits
(:mod:`~spitemalice.engine.invariants.piles`), the end of a game
(:mod:`~spitemalice.engine.invariants.ending`), a state and its successor
(:mod:`~spitemalice.engine.invariants.transitions`), the violations they return
(:mod:`~spitemalice.engine.invariants.violation`) and the sets that run them all
(:mod:`~spitemalice.engine.invariants.run`).
"""

from spitemalice.engine.invariants.cards import card_conservation
from spitemalice.engine.invariants.ending import (
    EndFacts,
    counters_in_range,
    emptied_payoff_ends_the_game,
    end_problems,
    live_counter_problems,
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
from spitemalice.engine.invariants.run import (
    PLAY_CHECKS,
    STATE_CHECKS,
    check_state,
    check_transition,
    state_violations,
    transition_violations,
)
from spitemalice.engine.invariants.transitions import discard_ends_the_turn, payoff_only_shrinks
from spitemalice.engine.invariants.violation import Violation, Violations

__all__ = [
    "PLAY_CHECKS", "STATE_CHECKS", "EndFacts", "Violation", "Violations",
    "build_piles_well_formed", "card_conservation", "check_state", "check_transition",
    "counters_in_range", "dealt_as_the_sheet_says", "discard_ends_the_turn",
    "discard_piles_hold_allowed_ranks", "emptied_payoff_ends_the_game", "end_problems",
    "limits_kept", "live_counter_problems", "live_game_can_move", "outcome_declared",
    "outcome_fits_the_end", "outcome_scored", "payoff_only_shrinks", "state_violations",
    "transition_violations",
]
