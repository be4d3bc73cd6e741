"""The extension points: every hook a rule-set or house-rule plugin may implement.

A plugin is any object or module with functions marked ``@hookimpl`` (names must match the
specs below).  Every hook is asked in pluggy's own order: ``tryfirst`` implementations (the
latest registered first), then unmarked ones (the latest registered first), then ``trylast``
ones (the earliest registered first); :func:`spitemalice.rules.resolve.call_order` gives that list.
Hooks marked *firstresult* take the first non-``None`` answer.  The base rules
(:mod:`spitemalice.rules.defaults`) answer from the
:class:`~spitemalice.rules.ruleset.Ruleset` only when no plugin answers, whatever markers the
plugins use, so a plugin only implements what a value cannot say. Answers to the build-time
hooks a Ruleset value states are folded into the Ruleset (docs/hooks.md).

Hooks are asked once, when a :class:`~spitemalice.rules.book.RuleBook` is built, except those
marked *per move*, *per completion*, *per emptied pay-off* or *per game*, which are called
during play; the per-move, per-completion and per-emptied-pay-off ones only if some plugin
other than the base rules implements them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from spitemalice.cards import Card
    from spitemalice.model import GameState, Outcome, OutcomeKind
    from spitemalice.moves import Move
    from spitemalice.rules.policies import (
        CeilingRule,
        Clause,
        DealRule,
        Deck,
        DiscardRule,
        MoveFilter,
        PileAccess,
        WildRule,
    )
    from spitemalice.rules.ruleset import Ruleset

PROJECT = "spitemalice"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(firstresult=True)
def spitemalice_ruleset() -> Ruleset | None:
    """The rule set's parameters.

    A rule-set plugin returns its :class:`Ruleset`.  A house rule implements this hook with
    ``@hookimpl(wrapper=True)``: it receives the rule set with ``ruleset = yield`` and returns
    a changed copy (``attrs.evolve``), so house rules stack in the order they are given.  A
    wrapper that cannot apply to the rule set raises :class:`~spitemalice.errors.RulesetError`
    naming both itself and the rule set.
    """


@hookspec
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    """The numbered clauses this plugin contributes to the rule sheet (every plugin's are
    collected, in registration order).  A clause's ``reasons`` make it the authority cited by
    illegal-move errors with those reason codes (:mod:`spitemalice.rules.reasons`; ``code@pile`` for
    one kind of pile); later plugins override earlier ones.  Clause texts may hold placeholders
    rendered from the resolved values (:mod:`spitemalice.rules.sheet`).  The whole sheet must cover
    every reason code the engine can raise, or the rule set is refused at load; a rule set built
    on a built-in one inherits its sheet with :func:`spitemalice.rules.registry.base_sheet`."""
    raise NotImplementedError


@hookspec
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """A sentence naming a conflict between this plugin and the resolved rule set or the other
    plugins (by name, in ``plugins``), or ``None``.  Any answer refuses the whole rule set."""


@hookspec(firstresult=True)
def spitemalice_deck(ruleset: Ruleset) -> Deck | None:
    """Deck composition: every card of the game (and a separate pay-off pack, if any)."""


@hookspec(firstresult=True)
def spitemalice_wild(ruleset: Ruleset) -> WildRule | None:
    """Wildcard behaviour: which ranks are wild and which ranks a wild may not stand for."""


@hookspec(firstresult=True)
def spitemalice_build_ceiling(ruleset: Ruleset) -> CeilingRule | None:
    """Build ceiling: the rank that completes a build pile, and what becomes of its cards."""


@hookspec(firstresult=True)
def spitemalice_completed_pile(ruleset: Ruleset, state: GameState, pile: tuple[Card, ...]) -> (
    GameState | None
):
    """*Per completion.* What becomes of a completed build pile: return the state with the
    pile's cards placed somewhere (``pile`` has already left ``state.builds``), or ``None`` to
    leave it to ``CeilingRule.completed``.  Every card of ``pile`` must stay in the game: the
    card-conservation invariant checks it."""


@hookspec(firstresult=True)
def spitemalice_build_pile_limit(ruleset: Ruleset) -> int | None:
    """How many build piles may be open at once; ``0`` means no limit."""


@hookspec(firstresult=True)
def spitemalice_discard_limits(ruleset: Ruleset) -> DiscardRule | None:
    """Discard limits: piles per seat, ranks that may not be discarded, cards per discard."""


@hookspec(firstresult=True)
def spitemalice_deal(ruleset: Ruleset) -> DealRule | None:
    """Deal and hands: pay-off piles and their size, hand size, how the first seat is found."""


@hookspec
def spitemalice_filter_moves(
    ruleset: Ruleset, state: GameState, moves: tuple[Move, ...]
) -> MoveFilter | None:
    """*Per move.* A forced-play rule: given the moves the other rules allow, return the
    subset this rule allows (with the reason code for the rest), or ``None`` for no opinion.
    A move must be allowed by every filter; when no move is left, the seat must pass.  The
    plugin declares the codes it answers with in ``REASONS`` (:mod:`spitemalice.rules.reasons`), and
    the rule sheet must cover them.  ``moves`` lists every play before any discard (no
    pass); an answer made of its objects in its order is taken fastest (docs/hooks.md)."""


@hookspec(firstresult=True)
def spitemalice_end_of_game(ruleset: Ruleset, state: GameState) -> Outcome | None:
    """*Per move.* End the game early by a rule of this plugin's own (an outcome), or
    ``None``.  The engine itself ends a game on a win (a seat's pay-off piles empty), on
    draw-pile exhaustion, when every seat passes in turn, and at the turn limit."""


@hookspec(firstresult=True)
def spitemalice_score(
    ruleset: Ruleset,
    state: GameState,
    kind: OutcomeKind,
    winner: int | None,
    teams: tuple[tuple[int, ...], ...],
) -> tuple[int, ...] | None:
    """*Per game.* Scoring, and how a team scores: points per seat for a game that ended with
    ``kind`` (``winner`` is the winning seat or ``None``).  ``state`` is the final position;
    ``teams`` are the resolved teams (every seat alone: ``((0,), (1,), ...)``).  With teams the
    base rules score each team as one player and show the team's points at every seat of the
    team."""


@hookspec(firstresult=True)
def spitemalice_teams(ruleset: Ruleset) -> tuple[tuple[int, ...], ...] | None:
    """Teams: which seats play together, as a tuple of teams, each a tuple of seats; every
    seat 0 to ``players - 1`` in exactly one team.  The base rules group ``team_size`` seats
    sitting opposite each other: team ``k`` holds seats ``k``, ``k + players / team_size``, ...
    (with four seats 0+2 and 1+3; with six, pairs 0+3, 1+4, 2+5)."""


@hookspec(firstresult=True)
def spitemalice_partner_piles(
    ruleset: Ruleset, teams: tuple[tuple[int, ...], ...]
) -> PileAccess | None:
    """Which other seats' piles each seat may use: the seats from whose pay-off tops and
    discard-pile tops it may play, and the seats onto whose discard piles it may discard.  The
    base rules answer from ``partner_piles``: ``own`` nothing, ``play`` the partners' piles to
    play from, ``share`` those and the partners' discard piles to discard onto."""


@hookspec(firstresult=True)
def spitemalice_team_won(
    ruleset: Ruleset, state: GameState, team: tuple[int, ...]
) -> bool | None:
    """*Per emptied pay-off.* Whether ``team`` (its seats) has won, asked when a play empties
    the pay-off piles of one of its seats; ``None`` leaves it to the base rule: a team wins
    when every seat of it has emptied its pay-off piles (a seat alone wins at once)."""
