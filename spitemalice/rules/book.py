"""A RuleBook: one game configuration, resolved, checked and rendered in one place.

:meth:`RuleBook.from_plugins` builds one (:func:`~spitemalice.load` calls it); the whole story
of a configuration, in the order it happens there:

1. **Plugins.**  The rule-set plugin, its house rules in order and, for a custom rule set
   file, the file's own plugin are registered in a fresh pluggy ``PluginManager`` (never a
   global one) and checked against the hook specs.  The base rules
   (:mod:`spitemalice.rules.defaults`) are not registered: they are the fallback asked only
   when no plugin answers.
2. **Parameters.**  The :class:`Ruleset` is the rule set's own answer, then each house rule's
   ``spitemalice_ruleset`` wrapper in turn (innermost first, as pluggy nests them), then the
   file's parameters, then the overrides given to :func:`~spitemalice.load`.  Every parameter
   remembers who last changed it (:attr:`RuleBook.origin`).
3. **Decisions.**  Every hook is asked in one order, pluggy's own
   (:func:`~spitemalice.rules.resolve.call_order`).  A plugin's answer to a build-time hook is
   folded into the :class:`Ruleset`, so the values the engine uses are the values every output
   shows; an answer the Ruleset cannot state is refused naming the plugin and the parameter
   (:mod:`spitemalice.rules.resolve`, :mod:`spitemalice.rules.decisions`); a parameter
   given in a file or an override beats the rule set's answer, a house rule's is refused.
4. **Checks.**  Plugin conflicts, the deal, rank sets, parameters only a plugin enforces,
   overrides that undo a house rule, cards no build pile takes, the rule sheet: each reason
   code the engine raises has a clause, none an unknown one (:mod:`spitemalice.rules.checks`).
5. **The sheet.**  Clause texts are templates rendered from the resolved values
   (:mod:`spitemalice.rules.sheet`).

Any fault refuses the whole configuration with a :class:`RulesetError`; nothing is built.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.guards import check_int, int_field, not_a_book
from spitemalice.model import GameState, Outcome, OutcomeKind, Pile, require_state
from spitemalice.moves import Move
from spitemalice.rules import checks, decisions, resolve, sheet
from spitemalice.rules import defaults as base
from spitemalice.rules.engine_cache import EngineCache
from spitemalice.rules.plugin_checks import check_house_rules, check_plugin
from spitemalice.rules.policies import (
    CeilingRule,
    Clause,
    DealRule,
    Deck,
    DiscardRule,
    MoveFilter,
    TeamRule,
    WildRule,
)
from spitemalice.rules.ruleset import IDENTITY_FIELDS, Ruleset
from spitemalice.rules.simultaneous import SimultaneousGame, simultaneous_needs
from spitemalice.wording import given_text


@attrs.frozen
class FileLayer:
    """What a custom rule set file adds on top of its plugins.

    Attributes:
        name: the file's name as the plugin list shows it (``"short-three.toml"``).
        ruleset_name, title, version: the identity the file gives the rule set.
        params: the file's parameter overrides (already converted).
        description: one line for ``spitemalice variants``.
        param_files: which file of a chain of ``base`` files set each parameter (by name);
            a parameter not listed is credited to ``name``.

    It is registered as a plugin without hooks, so the plugin list names the file.
    """

    name: str
    ruleset_name: str
    title: str
    version: str
    params: Mapping[str, Any]
    description: str = ""
    param_files: Mapping[str, str] = attrs.field(factory=dict)
    KIND = "ruleset"

    @property
    def NAME(self) -> str:
        return self.name

    @property
    def DESCRIPTION(self) -> str:
        return self.description


FilterMovesHook = Callable[[Ruleset, GameState, tuple[Move, ...]], MoveFilter | None]
EndOfGameHook = Callable[[Ruleset, GameState], Outcome | None]
CompletedPileHook = Callable[[Ruleset, GameState, Pile], GameState | None]
TeamWonHook = Callable[[Ruleset, GameState, tuple[int, ...]], bool | None]
ScoreHook = Callable[[Ruleset, GameState, OutcomeKind, int | None, tuple[tuple[int, ...], ...]],
                     tuple[int, ...] | None]


@attrs.frozen
class _Recipe:
    """What a rule book was built from: enough to build it again (:meth:`RuleBook.rebuild`,
    pickling)."""

    variant: object
    house_rules: tuple[object, ...]
    params: Mapping[str, Any]
    file: FileLayer | None


@attrs.frozen(eq=False, repr=False)
class RuleBook:
    """The resolved rules of one game configuration: a frozen value.

    Build one with :meth:`from_plugins` (or :func:`~spitemalice.load`, which finds plugins by
    name); the attributes are what every part of the library reads.  Two rule books compare
    equal only when they are the same object: each has its own plugin manager and caches.
    Every public function that takes a rule book refuses anything else (a rule set's name,
    say) with a ``TypeError`` naming itself and :func:`~spitemalice.load`
    (:func:`check_book`).

    Attributes:
        ruleset: the final :class:`Ruleset`: every value the engine uses.
        own: the rule set's own :class:`Ruleset`, before anything changed it.
        origin: for each parameter that differs from the rule set's own value, who changed it
            last (``"house rule mandatory-aces"``, ``"file x.toml"``, ``"override"``, or
            ``"plugin p (spitemalice_build_pile_limit)"``).
        plugins: names of the rule-set plugin, the house rules and the file, in order.
        deck, wild, ceiling, discard, deal: the resolved hook answers.
        build_limit: build piles open at once, ``0`` for no limit.
        teams: the resolved teams and which partners' piles each seat may use
            (:class:`~spitemalice.rules.policies.TeamRule`; every seat alone without teams).
        accepts: ``accepts[rank]`` is the set of build ranks a card of that rank may stand for.
        clauses: the rule sheet (rendered), every plugin's clauses in registration order.
        clause_for: the clause id cited for each reason key (``"buried-card@payoff"``).
        filter_moves_hooks: the implementations of ``spitemalice_filter_moves``, in the order
            they are asked (:func:`~spitemalice.rules.resolve.call_order`), each called with
            the spec's arguments by position; empty when no plugin implements the hook.  The
            other hooks asked during play likewise: ``end_of_game_hooks``,
            ``completed_pile_hooks``, ``team_won_hooks``, ``score_hooks``.
        simultaneous: the rules of a game whose seats move at once (the
            ``spitemalice_simultaneous`` hook's answer), ``None`` for a turn-based rule set.
        engine_cache: what the engine remembers between calls for this book
            (:class:`~spitemalice.rules.engine_cache.EngineCache`), used by
            :mod:`spitemalice.engine` alone (and emptied by :meth:`forget_last_legal`); never
            part of the book's value.  Its name is public because the engine is another
            package (the tier rule, ``docs/contributing.md``).
    """

    ruleset: Ruleset
    own: Ruleset
    origin: Mapping[str, str]
    plugins: tuple[str, ...]
    deck: Deck
    wild: WildRule
    ceiling: CeilingRule
    build_limit: int = attrs.field(validator=int_field())
    discard: DiscardRule
    deal: DealRule
    teams: TeamRule
    accepts: tuple[frozenset[int], ...]
    clauses: tuple[Clause, ...]
    clause_for: Mapping[str, str]
    filter_moves_hooks: tuple[FilterMovesHook, ...]
    end_of_game_hooks: tuple[EndOfGameHook, ...]
    completed_pile_hooks: tuple[CompletedPileHook, ...]
    team_won_hooks: tuple[TeamWonHook, ...]
    score_hooks: tuple[ScoreHook, ...]
    _recipe: _Recipe
    _pm: pluggy.PluginManager
    simultaneous: SimultaneousGame | None = None
    engine_cache: EngineCache = attrs.field(factory=EngineCache)

    @classmethod
    def from_plugins(
        cls,
        variant: object,
        house_rules: Sequence[object] = (),
        params: Mapping[str, Any] | None = None,
        *,
        file: FileLayer | None = None,
        enforcers: Callable[[str], Sequence[tuple[str, str]]] | None = None,
    ) -> RuleBook:
        """The rule book of a rule-set plugin, its house rules and parameter overrides.

        Args:
            variant: the rule-set plugin (a module or an object with hook implementations).
            house_rules: house-rule plugins, applied in this order.
            params: parameter overrides (``{"players": 3}``); text values are converted.
            file: the layer of a custom rule set file, if the configuration comes from one.
            enforcers: gives, for a parameter only a plugin enforces, the installed plugins
                that do, as ``(name, kind)`` pairs (asked only for the refusal's hint).

        Raises:
            TypeError: ``variant`` or a member of ``house_rules`` is not a plugin (a name, a
                number, ``None``, a plugin class...), ``house_rules`` is not a list, or
                ``file`` not a :class:`FileLayer`; the message names the right form.
            RulesetError: a plugin's ``KIND`` is not its place's (``"ruleset"``,
                ``"house-rule"``), a plugin that breaks the hook specs, a conflict between
                plugins, bad parameters, a hook answer the Ruleset cannot state, a rule sheet
                that leaves a reason code uncovered or gives a clause id twice, or a deck
                that cannot deal the seats.
        """
        _check_plugins(variant, house_rules, file)
        recipe = _Recipe(variant, tuple(house_rules), dict(params or {}), file)
        layers = [variant, *house_rules, *([file] if file else [])]
        plugins = tuple(resolve.plugin_name(p) for p in layers)
        pm = resolve.plugin_manager(layers)
        own, ruleset, origin = resolve.resolve_ruleset(pm, file, recipe.params)
        given = {**(file.params if file else {}), **recipe.params}
        ruleset = decisions.fold_answers(pm, ruleset, origin, given, plugins[0])
        checks.check_conflicts(pm, ruleset, plugins)
        decided = decisions.engine_values(pm, ruleset, given, plugins[0])
        teams = resolve.resolve_teams(pm, ruleset)
        clauses = resolve.rule_sheet(pm, ruleset, teams.teams)
        game, needs = simultaneous_needs(pm, ruleset, plugins, given)
        book = cls(
            ruleset=ruleset, own=own, origin=origin, plugins=plugins, **decided, teams=teams,
            accepts=resolve.accept_table(decided["deck"], decided["wild"],
                                         decided["ceiling"].ceiling),
            clauses=clauses,
            clause_for=checks.clause_table(clauses, needs, plugins),
            filter_moves_hooks=resolve.per_move(pm, "spitemalice_filter_moves"),
            end_of_game_hooks=resolve.per_move(pm, "spitemalice_end_of_game"),
            completed_pile_hooks=resolve.per_move(pm, "spitemalice_completed_pile"),
            team_won_hooks=resolve.per_move(pm, "spitemalice_team_won"),
            score_hooks=resolve.per_move(pm, "spitemalice_score"), recipe=recipe, pm=pm,
            simultaneous=game)
        checks.check_values(book, layers[:1 + len(recipe.house_rules)], enforcers, pm, given)
        return book

    # -- what the rest of the library reads ---------------------------------------------

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

    def plugin(self, name: str) -> object:
        """The plugin object registered under ``name`` (one of :attr:`plugins`).

        Raises:
            KeyError: no plugin of this rule book has that name.
        """
        plugin = self._pm.get_plugin(name)
        if plugin is None:
            raise KeyError(f"{self.name} has no plugin {name!r}; it has {', '.join(self.plugins)}")
        return plugin

    def plugins_ruleset(self) -> Ruleset:
        """The Ruleset the plugins give by themselves: the rule set's own answer with every
        house rule's wrapper applied, before any file or override (what a record need not
        repeat)."""
        answer = self._pm.hook.spitemalice_ruleset()
        assert isinstance(answer, Ruleset)  # from_plugins refused a rule set without one
        return answer

    def forget_last_legal(self) -> None:
        """Forget the legal moves remembered for the last state asked, so that the next
        :func:`~spitemalice.engine.check_move` on that state runs every rule instead of
        accepting a move it listed (for audits and tests of the checker itself)."""
        self.engine_cache.last_legal = None

    def rebuild(self, **overrides: Any) -> RuleBook:
        """The same plugins and file with these parameter overrides on top of those given.

        Raises:
            RulesetError: as for building any RuleBook.
        """
        recipe = self._recipe
        return RuleBook.from_plugins(recipe.variant, recipe.house_rules,
                                     {**recipe.params, **overrides}, file=recipe.file)

    def score(self, state: GameState, kind: OutcomeKind, winner: int | None) -> tuple[int, ...]:
        """Points per seat for a game ending with ``kind`` (the scoring hook; the base rules
        when no plugin answers).

        Raises:
            SpiteMaliceError: ``winner`` is neither ``None`` nor a seat of ``state``.
        """
        require_state(state, "RuleBook.score")
        if winner is not None:
            check_int(winner, "winner", 0, len(state.seats) - 1)
        teams = self.teams.teams
        for hook in self.score_hooks:
            points = hook(self.ruleset, state, kind, winner, teams)
            if points is not None:
                return tuple(points)
        return base.spitemalice_score(self.ruleset, state, kind, winner, teams)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the recipe (plugins, parameters given, file), not the plugin manager: a
        worker process or a Dask worker rebuilds the same rules from it.  Plugin modules
        travel by name (imported there), plugin objects by value; a rule-set file by its
        contents (:class:`FileLayer`), never its path.

        Raises:
            RulesetError: a plugin module that cannot be imported by name in another process
                (made at run time, or loaded from a file path), named.
        """
        recipe = self._recipe
        plugins = tuple(_plugin_ref(p) for p in (recipe.variant, *recipe.house_rules))
        return _unpickle, (plugins, dict(recipe.params), recipe.file)

    def sheet_text(self, width: int = 88) -> str:
        """The rule sheet as text (:func:`spitemalice.rules.sheet.render_sheet`), wrapped at
        ``width`` columns.

        Raises:
            SpiteMaliceError: ``width`` is not a whole number from 20 to 1,000.
        """
        return sheet.render_sheet(self, check_int(width, "width", 20, 1000))

    def __repr__(self) -> str:
        return f"RuleBook({' + '.join(self.plugins)}, players={self.players})"


def _check_plugins(variant: object, house_rules: object, file: object) -> None:
    """Refuse, before anything is registered, what is not a plugin (pluggy registers any
    object: :mod:`spitemalice.rules.plugin_checks`), and a ``file`` not a :class:`FileLayer`.

    Raises:
        TypeError: a value that is not a plugin, ``house_rules`` not a list, or ``file``
            not a :class:`FileLayer`.
        RulesetError: a plugin's ``KIND`` is not the one its place takes.
    """
    function = "RuleBook.from_plugins"
    check_plugin(variant, "variant", "ruleset", function)
    check_house_rules(house_rules, function)
    if file is not None and not isinstance(file, FileLayer):
        raise TypeError(f"{function} takes file, a FileLayer (a rule-set file's layer, made "
                        f"by spitemalice.load(path)) or None, not {given_text(file)}")


def _plugin_ref(plugin: object) -> object:
    if not isinstance(plugin, types.ModuleType):
        return plugin
    spec = getattr(plugin, "__spec__", None)
    main = plugin.__name__ == "__main__" and getattr(plugin, "__file__", None)
    if not main and (spec is None or spec.name != plugin.__name__ or spec.origin is None):
        raise RulesetError(
            f"the plugin {resolve.plugin_name(plugin)!r} cannot be rebuilt in a worker "
            f"process: its module {plugin.__name__!r} cannot be imported by that name there "
            "(it was made at run time or loaded from a file path); install it or put its "
            "folder on sys.path, or play its games in this process (jobs=1, --jobs 1)")
    return _ModuleRef(plugin.__name__)


@attrs.frozen
class _ModuleRef:
    name: str


def _unpickle(
    plugins: tuple[object, ...], params: dict[str, Any], file: FileLayer | None
) -> RuleBook:
    """Rebuild a pickled rule book (in a worker process, usually).

    Raises:
        RulesetError: a plugin module cannot be imported here, named.
    """
    found = [_imported(p) if isinstance(p, _ModuleRef) else p for p in plugins]
    return RuleBook.from_plugins(found[0], found[1:], params, file=file)


def _imported(ref: _ModuleRef) -> object:
    try:
        return importlib.import_module(ref.name)
    except Exception as error:
        raise RulesetError(f"the plugin module {ref.name!r} cannot be imported in this "
                           f"process ({type(error).__name__}: {error}), so its rule book "
                           "cannot be rebuilt here") from None


def check_book(rules: object, function: str,
               error: Callable[[str], Exception] = TypeError) -> None:
    """Refuse ``rules`` unless it is a :class:`RuleBook`: every door that takes a rule book
    from outside (a public function, a constructor) calls this at its start, or, on the
    engine's and the bots' per-move paths, only once reading the book has failed (so that a
    call with a rule book pays nothing for it).  A helper the library calls with a book it
    checked does not check again (docs/api/index.md, "Arguments of the wrong type").

    Args:
        function: the public name called (``"legal_moves"``, ``"GreedyPlayer.choose"``), as
            the message names it.
        error: the error class raised (the environments raise
            :class:`~spitemalice.errors.SpiteMaliceError` for every bad argument).

    Raises:
        TypeError: (or ``error``) ``rules`` is not a RuleBook; the message names
            ``function``, what was given and what would be right
            (:func:`~spitemalice.guards.not_a_book`).
    """
    if not isinstance(rules, RuleBook):
        raise not_a_book(rules, function, error) from None


def require_turn_based(rules: RuleBook, function: str,
                       error: Callable[[str], Exception] = SpiteMaliceError) -> None:
    """Refuse a rule book whose seats move at once (Spit) at a door that plays turns only
    (the turn-based runner, records, the environments, the play server).

    Raises:
        SpiteMaliceError: (or ``error``) ``rules`` is simultaneous; the message names
            ``function`` and what plays such a rule set.
    """
    if rules.simultaneous is not None:
        raise error(f"{function} plays turn-based rule sets; {rules.name}'s seats move at once "
                    f"(play it with the engine's functions, spitemalice simulate and "
                    f"spitemalice validate)")


def book_field(*, optional: bool = False) -> Callable[[Any, Any, Any], None]:
    """An attrs validator for a field that holds a rule book (a study's
    :class:`~spitemalice.runs.runner.Configuration`, a game of a run): anything else is
    refused as :func:`check_book` refuses it, the message naming the class; ``None`` too
    unless ``optional``."""

    def validate(instance: Any, attribute: Any, value: Any) -> None:
        if value is not None or not optional:
            check_book(value, type(instance).__name__)

    return validate
