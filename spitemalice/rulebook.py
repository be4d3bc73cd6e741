"""A RuleBook: one game configuration, its plugins asked once, ready for the engine.

Building a RuleBook registers the base rules, one rule-set plugin and any house-rule plugins
in a fresh pluggy ``PluginManager`` (never a global one), checks them against the hook specs,
resolves the :class:`Ruleset` (house rules wrap the rule set's answer, then parameter
overrides apply), asks every build-time hook once and derives the tables the engine's hot loop
reads.  Any fault refuses the whole configuration with a :class:`RulesetError`.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Generator, Mapping, Sequence
from typing import Any, cast

import attrs
import pluggy

from spitemalice import base, hookspecs
from spitemalice.errors import RulesetError
from spitemalice.policies import (
    CeilingRule,
    Clause,
    DealRule,
    Deck,
    DiscardRule,
    PileAccess,
    TeamRule,
    WildRule,
)
from spitemalice.ruleset import IDENTITY_FIELDS, Ruleset, override


class RuleBook:
    """The resolved rules of one game configuration.

    Attributes:
        ruleset: the final :class:`Ruleset` (house rules and overrides applied).
        plugins: names of the rule-set plugin and house rules, in the order applied.
        deck, wild, ceiling, discard, deal: the resolved hook answers.
        build_limit: build piles open at once, ``0`` for no limit.
        clauses: the rule sheet, every plugin's clauses in order.
        accepts: ``accepts[rank]`` is the set of build ranks a card of that rank may stand for.
        wild: which cards are wild.

    Raises:
        RulesetError: a plugin that breaks the hook specs, a conflict between plugins, bad
            parameters, or a deck that cannot deal the seats.
    """

    def __init__(
        self,
        variant: object,
        house_rules: Sequence[object] = (),
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.plugins = [plugin_name(variant), *(plugin_name(rule) for rule in house_rules)]
        self.pm = _plugin_manager(variant, house_rules)
        self.ruleset = _resolve_ruleset(self.pm, params or {})
        self._check_conflicts()
        hook = self.pm.hook
        kw = {"ruleset": self.ruleset}
        self.deck: Deck = hook.spitemalice_deck(**kw)
        self.wild: WildRule = hook.spitemalice_wild(**kw)
        self.ceiling: CeilingRule = hook.spitemalice_build_ceiling(**kw)
        self.build_limit: int = hook.spitemalice_build_pile_limit(**kw)
        self.discard: DiscardRule = hook.spitemalice_discard_limits(**kw)
        self.deal: DealRule = hook.spitemalice_deal(**kw)
        self.teams: TeamRule = _resolve_teams(self.pm, self.ruleset)
        self.clauses: tuple[Clause, ...] = tuple(
            clause for sheet in reversed(hook.spitemalice_rule_sheet(**kw)) for clause in sheet
        )
        self.accepts = _accept_table(self.deck, self.wild, self.ceiling.ceiling)
        self.filters = _extra_impls(self.pm, "spitemalice_filter_moves")
        self.end_hook = _extra_impls(self.pm, "spitemalice_end_of_game")
        self.completion_hook = _extra_impls(self.pm, "spitemalice_completed_pile")
        self.team_won_hook = _extra_impls(self.pm, "spitemalice_team_won")
        self.last_legal: tuple[Any, tuple[Any, ...]] | None = None  # see engine.legal_moves
        self.move_cache: dict[Any, Any] = {}  # moves made once and reused, see engine.legal
        self.clause_for = {reason: c.id for c in self.clauses for reason in c.reasons}
        _check_deal(self)
        _check_ranks(self)
        _check_overrides_keep_house_rules(self.pm, self.ruleset, params or {})

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def players(self) -> int:
        return self.ruleset.players

    def clause(self, clause_id: str) -> Clause:
        """The clause with id ``clause_id``.

        Raises:
            KeyError: no clause of this rule sheet has that id.
        """
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        raise KeyError(f"{self.name} has no clause {clause_id!r}")

    def parameters(self) -> dict[str, Any]:
        """Every resolved parameter except the identity fields (name, title, version)."""
        values = attrs.asdict(self.ruleset, recurse=False)
        return {k: v for k, v in values.items() if k not in IDENTITY_FIELDS}

    def rebuild(self, **overrides: Any) -> RuleBook:
        """The same plugins with these parameter overrides on top of the resolved ones.

        Raises:
            RulesetError: as for building any RuleBook.
        """
        plugins = [self.pm.get_plugin(name) for name in self.plugins]
        return RuleBook(plugins[0], plugins[1:], self.parameters() | overrides)

    def score(self, state: Any, kind: str, winner: int | None) -> tuple[int, ...]:
        """Points per seat for a game ending with ``kind`` (the scoring hook)."""
        return tuple(
            self.pm.hook.spitemalice_score(
                ruleset=self.ruleset, state=state, kind=kind, winner=winner,
                teams=self.teams.teams,
            )
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the recipe (plugins and resolved parameters), not the plugin manager:
        a Dask worker rebuilds the same rules.  Plugin modules travel by name."""
        plugins = tuple(_plugin_ref(self.pm.get_plugin(name)) for name in self.plugins)
        return _unpickle, (plugins, self.parameters())

    def _check_conflicts(self) -> None:
        for impl in self.pm.hook.spitemalice_conflicts.get_hookimpls():
            problem = impl.function(ruleset=self.ruleset, plugins=list(self.plugins))
            if problem:
                raise RulesetError(f"{impl.plugin_name} cannot stack here: {problem}")

    def __repr__(self) -> str:
        return f"RuleBook({' + '.join(self.plugins)}, players={self.players})"


def _plugin_ref(plugin: object) -> object:
    if isinstance(plugin, types.ModuleType):
        return _ModuleRef(plugin.__name__)
    return plugin


@attrs.frozen
class _ModuleRef:
    name: str


def _unpickle(plugins: tuple[object, ...], params: dict[str, Any]) -> RuleBook:
    found = [importlib.import_module(p.name) if isinstance(p, _ModuleRef) else p
             for p in plugins]
    return RuleBook(found[0], found[1:], params)


def plugin_name(plugin: object) -> str:
    """A plugin's ``NAME`` attribute, or its module/class name when it has none."""
    return str(getattr(plugin, "NAME", getattr(plugin, "__name__", type(plugin).__name__)))


def _plugin_manager(variant: object, house_rules: Sequence[object]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    names = [plugin_name(p) for p in (variant, *house_rules)]
    if len(set(names)) != len(names):
        raise RulesetError(f"a plugin is given twice: {', '.join(names)}")
    for plugin in (base, variant, *house_rules):
        try:
            pm.register(plugin, name=plugin_name(plugin))
        except (pluggy.PluginValidationError, ValueError) as error:
            raise RulesetError(f"plugin {plugin_name(plugin)!r} is not valid: {error}") from error
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as error:
        raise RulesetError(
            f"plugin {pm.get_name(error.plugin)!r} implements a hook that does not exist: {error}"
        ) from error
    return pm


def _resolve_ruleset(pm: pluggy.PluginManager, params: Mapping[str, Any]) -> Ruleset:
    ruleset = pm.hook.spitemalice_ruleset()
    if not isinstance(ruleset, Ruleset):
        raise RulesetError("no plugin answered spitemalice_ruleset with a Ruleset")
    return override(ruleset, params)


def _check_overrides_keep_house_rules(
    pm: pluggy.PluginManager, ruleset: Ruleset, params: Mapping[str, Any]
) -> None:
    """Refuse parameter overrides that undo a house rule (``--set max_build_piles=2`` with
    unlimited-build-piles): each house rule's ruleset wrapper is applied once more to the
    final rule set, and a parameter given here that it would change again is a conflict."""
    if not params:
        return
    for impl in pm.hook.spitemalice_ruleset.get_hookimpls():
        if not impl.wrapper:
            continue
        wrapper = cast(Generator[None, Ruleset, Ruleset], impl.function())
        next(wrapper)
        try:
            wrapper.send(ruleset)
        except StopIteration as done:
            again = done.value
        except RulesetError:
            continue  # the house rule sees nothing left to change: it is in effect
        else:
            continue
        undone = sorted(name for name in params
                        if getattr(again, name, None) != getattr(ruleset, name, None))
        if undone:
            raise RulesetError(
                f"{', '.join(undone)} as given undo{'es' if len(undone) == 1 else ''} the "
                f"house rule {impl.plugin_name}; drop the setting or the house rule")


def _extra_impls(pm: pluggy.PluginManager, hook_name: str) -> list[Any]:
    """The implementations of a per-move hook other than the base rules' (usually none)."""
    impls = getattr(pm.hook, hook_name).get_hookimpls()
    return [impl.function for impl in impls if impl.plugin_name != base.NAME]


def _resolve_teams(pm: pluggy.PluginManager, ruleset: Ruleset) -> TeamRule:
    """The teams and partner-pile access, checked: every seat in exactly one team, and a seat
    may use only other seats' piles.

    Raises:
        RulesetError: a hook answer that breaks this, naming what is wrong.
    """
    seats = ruleset.players
    teams = tuple(tuple(team) for team in pm.hook.spitemalice_teams(ruleset=ruleset))
    placed = sorted(seat for team in teams for seat in team)
    if placed != list(range(seats)) or not all(teams):
        raise RulesetError(f"{ruleset.name}: the teams {teams} must hold every seat 0 to "
                           f"{seats - 1} exactly once")
    access = pm.hook.spitemalice_partner_piles(ruleset=ruleset, teams=teams)
    if not isinstance(access, PileAccess):
        raise RulesetError("no plugin answered spitemalice_partner_piles with a PileAccess")
    for name, groups in (("play_from", access.play_from), ("discard_to", access.discard_to)):
        if len(groups) != seats or any(other == seat or not 0 <= other < seats
                                       for seat, group in enumerate(groups) for other in group):
            raise RulesetError(f"{ruleset.name}: partner piles {name} {groups} must name, for "
                               f"each of the {seats} seats, other seats 0 to {seats - 1}")
    return TeamRule(teams, access)


def _accept_table(deck: Deck, wild: WildRule, ceiling: int) -> list[frozenset[int]]:
    """``table[rank]``: the build ranks (1..ceiling) a card of ``rank`` may stand for."""
    ranks = {card.rank for card in (*deck.cards, *(deck.payoff_cards or ()))}
    table = [frozenset[int]()] * (max(ranks | {ceiling}) + 1)
    for rank in ranks:
        if rank in wild.wild_ranks:
            table[rank] = frozenset(r for r in range(1, ceiling + 1) if r not in wild.excluded)
        elif 1 <= rank <= ceiling:
            table[rank] = frozenset({rank})
    return table


def _check_deal(book: RuleBook) -> None:
    """Refuse a seat count the deck cannot deal pay-off piles and hands for."""
    rules, deal = book.ruleset, book.deal
    if deal.payoff_size is None and book.deck.payoff_cards is None:
        raise RulesetError("payoff_size None needs a deck with a separate pay-off pack")
    payoffs = rules.players * deal.payoff_piles * (deal.payoff_size or 1)
    need = rules.players * deal.hand_size
    if book.deck.payoff_cards is None:  # pay-off piles come from the same cards as the hands
        payoff_need = payoff_have = 0
        need += payoffs
    else:
        payoff_need, payoff_have = payoffs, len(book.deck.payoff_cards)
    have = len(book.deck.cards)
    if need > have or payoff_need > payoff_have:
        raise RulesetError(
            f"{rules.name}: the deck of {book.deck.size} cards cannot deal {rules.players} "
            f"seats ({deal.payoff_piles} pay-off pile(s) of {deal.payoff_size} and a hand of "
            f"{deal.hand_size} each); use fewer players, smaller piles or more packs"
        )


RANK_SETS = ("wild_ranks", "wild_excluded", "discard_forbidden", "mandatory_ranks")


def _check_ranks(book: RuleBook) -> None:
    """Refuse rank sets naming ranks no card or build pile has, and a build ceiling that no
    card can reach (some rank from 1 to the ceiling that no card may stand for)."""
    cards = (*book.deck.cards, *(book.deck.payoff_cards or ()))
    highest = max([book.ceiling.ceiling, *(card.rank for card in cards)])
    for name in RANK_SETS:
        bad = sorted(r for r in getattr(book.ruleset, name) if r > highest)
        if bad:
            raise RulesetError(f"{name} names rank(s) {bad} that no card has; ranks here run "
                               f"from 0 (joker) to {highest}")
    reachable = set().union(*(book.accepts[card.rank] for card in cards))
    missing = [r for r in range(1, book.ceiling.ceiling + 1) if r not in reachable]
    if missing:
        raise RulesetError(f"{book.ruleset.name}: no card may stand for build rank(s) {missing}, "
                           f"so no build pile can reach the ceiling {book.ceiling.ceiling}; "
                           "lower build_ceiling or add wild cards")

