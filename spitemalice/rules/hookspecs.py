"""The extension points: every hook a rule-set or house-rule plugin may implement.

A plugin is any object or module with functions marked ``@hookimpl`` (names must match the
specs below; an implementation may take fewer arguments than its spec).  Every hook is asked
in pluggy's own order: ``tryfirst`` implementations (the latest registered first), then
unmarked ones (the latest registered first), then ``trylast`` ones (the earliest registered
first); :func:`spitemalice.rules.resolve.call_order` gives that list.  A hook marked
``firstresult`` stops at the first non-``None`` answer, as pluggy's own call would.  The base
rules (:mod:`spitemalice.rules.defaults`) answer from the
:class:`~spitemalice.rules.ruleset.Ruleset` only when no plugin answers, whatever markers the
plugins use, so a plugin only implements what a value cannot say.  Answers to the build-time
hooks a Ruleset value states are folded into the Ruleset (docs/hooks.md).

The specs are grouped by when they are asked: once per rule book, on every move, when a build
pile is completed, when a seat's pay-off piles are emptied, and once per game.  A hook asked
during play costs nothing when no plugin implements it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

KINDS = ("ruleset", "house-rule")
"""What a plugin's ``KIND`` may be: a rule set, or a house rule stacked on one (the registry
and :mod:`spitemalice.rules.plugin_checks` refuse any other)."""

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
    from spitemalice.rules.simultaneous import SimultaneousGame

PROJECT = "spitemalice"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- Asked once, when a RuleBook is built: the parameters and the rule sheet -----------------


@hookspec(firstresult=True)
def spitemalice_ruleset() -> Ruleset | None:
    """Return the rule set's parameters.

    A rule-set plugin returns its :class:`Ruleset`.  A house rule wraps this hook instead
    (``@hookimpl(wrapper=True)``): it receives the rule set with ``ruleset = yield`` and returns
    a changed copy (``attrs.evolve``), so house rules stack in the order they are given.  A
    wrapper that cannot apply to the rule set raises :class:`~spitemalice.errors.RulesetError`
    naming both itself and the rule set.

    Stops at the first non-None answer; wrappers then change it, innermost first.

    :returns: The rule set's :class:`Ruleset` (a wrapper: the changed copy), or ``None`` from
        a plugin that does not state one.
    """


@hookspec
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause] | None:
    """Return the numbered clauses this plugin adds to the rule sheet.

    Every plugin is asked, and all their clauses are collected in registration order.  A
    clause's ``reasons`` make it the clause that illegal-move errors with those reason codes
    cite (:mod:`spitemalice.rules.reasons`; ``code@pile`` for one kind of pile); a later
    plugin's clause overrides an earlier one's.  Clause texts may hold placeholders rendered
    from the resolved values (:mod:`spitemalice.rules.sheet`).  The whole sheet must cover
    every reason code the engine can raise, or the rule set is refused; a rule set built on a
    built-in one inherits its sheet with :func:`spitemalice.rules.registry.base_sheet`.

    :param ruleset: The resolved parameters.
    :returns: The plugin's clauses, in order; an empty list or ``None`` for none.
    """


@hookspec
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Return a sentence naming why this plugin cannot play here, or ``None``.

    Every plugin is asked; the first sentence refuses the whole configuration with a
    :class:`~spitemalice.errors.RulesetError` that names the plugin.

    :param ruleset: The resolved parameters.
    :param plugins: The names of every plugin of the configuration, rule set first.
    :returns: The conflict in one sentence, or ``None`` when there is none.
    """


# -- Asked once, when a RuleBook is built: the deck and what a Ruleset value states ----------


@hookspec(firstresult=True)
def spitemalice_deck(ruleset: Ruleset) -> Deck | None:
    """Return every card of the game, and a separate pay-off pack if there is one.

    Stops at the first non-None answer; the default rules answer when no plugin does.  The
    answer must hold the cards the Ruleset's deck values state (a joker's face is the
    plugin's to choose), or the rule set is refused; the rule-set plugin's own answer may
    hold another number of jokers, its value of ``jokers``, which a ``jokers`` given
    overrides.

    :param ruleset: The resolved parameters.
    :returns: The :class:`Deck`, or ``None`` to leave it to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_wild(ruleset: Ruleset) -> WildRule | None:
    """Return which ranks are wild and which build ranks a wild card may not stand for.

    Stops at the first non-None answer; the default rules answer when no plugin does.  The
    answer is folded into the Ruleset (``wild_ranks``, ``wild_excluded``).

    :param ruleset: The resolved parameters.
    :returns: The :class:`WildRule`, or ``None`` to leave it to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_build_ceiling(ruleset: Ruleset) -> CeilingRule | None:
    """Return the rank that completes a build pile, and what becomes of its cards.

    Stops at the first non-None answer; the default rules answer when no plugin does.  The
    answer is folded into the Ruleset (``build_ceiling``, ``completed_piles``).

    :param ruleset: The resolved parameters.
    :returns: The :class:`CeilingRule`, or ``None`` to leave it to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_build_pile_limit(ruleset: Ruleset) -> int | None:
    """Return how many build piles may be open at once.

    Stops at the first non-None answer; the default rules answer when no plugin does.  The
    answer is folded into the Ruleset (``max_build_piles``).

    :param ruleset: The resolved parameters.
    :returns: The most build piles open at once, ``0`` for no limit, or ``None`` to leave it
        to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_discard_limits(ruleset: Ruleset) -> DiscardRule | None:
    """Return the discard piles per seat, the ranks that may not be discarded and the cards
    per discard.

    Stops at the first non-None answer; the default rules answer when no plugin does.  The
    answer is folded into the Ruleset (``discard_piles``, ``discard_forbidden``,
    ``max_discard_cards``).

    :param ruleset: The resolved parameters.
    :returns: The :class:`DiscardRule`, or ``None`` to leave it to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_deal(ruleset: Ruleset) -> DealRule | None:
    """Return the pay-off piles and their size, the hand size and how the first seat is found.

    Stops at the first non-None answer; the default rules answer when no plugin does.  The
    answer is folded into the Ruleset (``payoff_piles``, ``payoff_size``, ``hand_size``,
    ``first_seat``).

    :param ruleset: The resolved parameters.
    :returns: The :class:`DealRule`, or ``None`` to leave it to the default rules.
    """


# -- Asked once, when a RuleBook is built: teams ---------------------------------------------


@hookspec(firstresult=True)
def spitemalice_teams(ruleset: Ruleset) -> tuple[tuple[int, ...], ...] | None:
    """Return which seats play together.

    Stops at the first non-None answer; the default rules answer when no plugin does: they
    group ``team_size`` seats sitting opposite each other, team ``k`` holding seats ``k``,
    ``k + players / team_size``, ... (with four seats 0+2 and 1+3; with six, 0+3, 1+4, 2+5).

    :param ruleset: The resolved parameters.
    :returns: One tuple of seats per team, each seat ``0 .. players - 1`` in exactly one team,
        or ``None`` to leave it to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_partner_piles(
    ruleset: Ruleset, teams: tuple[tuple[int, ...], ...]
) -> PileAccess | None:
    """Return which other seats' piles each seat may play from and discard onto.

    Stops at the first non-None answer; the default rules answer when no plugin does, from
    ``partner_piles``: ``own`` nothing, ``play`` the partners' pay-off and discard-pile tops
    to play from, ``share`` those and the partners' discard piles to discard onto.

    :param ruleset: The resolved parameters.
    :param teams: The resolved teams (every seat alone: ``((0,), (1,), ...)``).
    :returns: The :class:`PileAccess`, or ``None`` to leave it to the default rules.
    """


@hookspec(firstresult=True)
def spitemalice_simultaneous(ruleset: Ruleset) -> SimultaneousGame | None:
    """Return the rules of a game whose seats move at once, or ``None`` for a turn-based one.

    Stops at the first non-None answer; no answer (every built-in Spite and Malice rule set)
    leaves the game turn-based and the engine's turn-based path untouched.  With an answer the
    engine hands the rule set's states to it (:mod:`spitemalice.rules.simultaneous`), and the
    rule sheet must cover its ``REASONS`` instead of the turn-based engine's.

    :param ruleset: The resolved parameters.
    :returns: A :class:`~spitemalice.rules.simultaneous.SimultaneousGame`, or ``None``.
    """


# -- Asked on every move, when some plugin implements them -----------------------------------


@hookspec
def spitemalice_filter_moves(
    ruleset: Ruleset, state: GameState, moves: tuple[Move, ...]
) -> MoveFilter | None:
    """Return the subset of ``moves`` this forced-play rule allows, or ``None`` for no opinion.

    Every plugin is asked, and a move must be allowed by every one; when no move is left, the
    seat must pass.  The plugin declares the reason codes it answers with in ``REASONS``
    (:mod:`spitemalice.rules.reasons`), and the rule sheet must cover them.  An answer made of
    objects of ``moves`` in their order is taken fastest (docs/hooks.md).

    :param ruleset: The resolved parameters.
    :param state: The position; the seat on turn is ``state.seat``.
    :param moves: The moves the other rules allow: every play before any discard, no pass.
    :returns: A :class:`MoveFilter` (the moves allowed and the reason code for the rest), or
        ``None`` to allow them all.
    """


@hookspec(firstresult=True)
def spitemalice_end_of_game(ruleset: Ruleset, state: GameState) -> Outcome | None:
    """Return an outcome to end the game early by a rule of this plugin's own, or ``None``.

    Stops at the first non-None answer.  Asked after every move of a game still going on; the
    engine itself ends a game on a win (a seat's pay-off piles empty), on draw-pile
    exhaustion, when every seat passes in turn, and at the turn limit.

    :param ruleset: The resolved parameters.
    :param state: The position after the move.
    :returns: The :class:`Outcome` that ends the game, or ``None`` to play on.
    """


# -- Asked when a build pile is completed, when some plugin implements it --------------------


@hookspec(firstresult=True)
def spitemalice_completed_pile(ruleset: Ruleset, state: GameState, pile: tuple[Card, ...]) -> (
    GameState | None
):
    """Return the state with a completed build pile's cards placed somewhere, or ``None``.

    Stops at the first non-None answer; without one, ``CeilingRule.completed`` decides (set
    aside or shuffled into the draw pile).  Every card of ``pile`` must stay in the game: the
    card-conservation invariant checks it.

    :param ruleset: The resolved parameters.
    :param state: The position after the completing play; ``pile`` has already left
        ``state.builds``.
    :param pile: The completed pile's cards, bottom to top.
    :returns: The new :class:`GameState`, or ``None`` to leave it to the default rules.
    """


# -- Asked when a play empties a seat's pay-off piles, when some plugin implements it --------


@hookspec(firstresult=True)
def spitemalice_team_won(
    ruleset: Ruleset, state: GameState, team: tuple[int, ...]
) -> bool | None:
    """Return whether ``team`` has won, now that a play emptied one of its seats' pay-off piles.

    Stops at the first non-None answer; the default rule: a team wins when every seat of it
    has emptied its pay-off piles (a seat alone wins at once).

    :param ruleset: The resolved parameters.
    :param state: The position after the play.
    :param team: The seats of the team whose seat emptied its pay-off piles.
    :returns: ``True`` (the game ends in a win), ``False`` (play on), or ``None`` to leave it
        to the default rule.
    """


# -- Asked once per game, when it ends ---------------------------------------------------------


@hookspec(firstresult=True)
def spitemalice_score(
    ruleset: Ruleset,
    state: GameState,
    kind: OutcomeKind,
    winner: int | None,
    teams: tuple[tuple[int, ...], ...],
) -> tuple[int, ...] | None:
    """Return the points of each seat for a game that ended with ``kind``.

    Stops at the first non-None answer; the default rules answer when no plugin does: each
    team scores as one player, and every seat of a team shows the team's points.

    :param ruleset: The resolved parameters.
    :param state: The final position.
    :param kind: How the game ended: ``"win"``, ``"drawn"``, ``"blocked"`` or ``"turn-limit"``.
    :param winner: The seat whose play won, or ``None``.
    :param teams: The resolved teams (every seat alone: ``((0,), (1,), ...)``).
    :returns: One score per seat, or ``None`` to leave it to the default rules.
    """
