"""A RuleBook: one game configuration, resolved, checked and rendered in one place.

The whole story of a configuration, in the order it happens here:

1. **Plugins.**  The rule-set plugin, its house rules in order and, for a custom rule set
   file, the file's own plugin are registered in a fresh pluggy ``PluginManager`` (never a
   global one) and checked against the hook specs.  The base rules
   (:mod:`spitemalice.rules.defaults`) are not registered: they are the fallback asked only
   when no plugin answers.
2. **Parameters.**  The :class:`Ruleset` is the rule set's own answer, then each house rule's
   ``spitemalice_ruleset`` wrapper in turn (innermost first, as pluggy nests them), then the
   file's parameters, then the overrides given to :func:`~spitemalice.load`.  Every parameter
   remembers who last changed it (:attr:`RuleBook.origin`).
3. **Decisions.**  Every hook is asked in one order, pluggy's own (:func:`call_order`).  A
   plugin's answer to a build-time hook is folded into the :class:`Ruleset`, so the values the
   engine uses are the values every output shows; an answer the Ruleset cannot state is
   refused naming the plugin and the parameter.
4. **Checks.**  Conflicts between plugins, the deal, rank sets, parameters that only a plugin
   enforces, overrides that undo a house rule, and the rule sheet: every reason code the engine
   can raise is covered by a clause and no clause names an unknown code.
5. **The sheet.**  Clause texts are templates rendered from the resolved values
   (:mod:`spitemalice.rules.sheet`).

Any fault refuses the whole configuration with a :class:`RulesetError`; nothing is built.
"""

from __future__ import annotations

import importlib
import types
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.model import OutcomeKind
from spitemalice.rules import defaults as base
from spitemalice.rules import hookspecs, reasons, sheet
from spitemalice.rules.policies import (
    CeilingRule,
    Clause,
    DealRule,
    Deck,
    DiscardRule,
    PileAccess,
    TeamRule,
    WildRule,
)
from spitemalice.rules.ruleset import (
    ENFORCED_FIELDS,
    IDENTITY_FIELDS,
    TEAM_FIELDS,
    Ruleset,
    override,
)

PER_MOVE = ("spitemalice_filter_moves", "spitemalice_end_of_game", "spitemalice_completed_pile")
OVERRIDE = "override"


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


class RuleBook:
    """The resolved rules of one game configuration.

    Args:
        variant: the rule-set plugin (a module or an object with hook implementations).
        house_rules: house-rule plugins, applied in this order.
        params: parameter overrides (``{"players": 3}``); text values are converted.
        file: the layer of a custom rule set file, if the configuration comes from one.
        enforcers: gives, for a parameter only a plugin enforces, the installed plugins
            that do, as ``(name, kind)`` pairs (asked only for the refusal's hint).

    Attributes:
        ruleset: the final :class:`Ruleset`: every value the engine uses.
        plugins: names of the rule-set plugin, the house rules and the file, in order.
        origin: for each parameter that differs from the rule set's own value, who changed it
            last (``"house rule mandatory-aces"``, ``"file x.toml"``, ``"override"``, or
            ``"plugin p (spitemalice_build_pile_limit)"``).
        own: the rule set's own :class:`Ruleset`, before anything changed it.
        deck, wild, ceiling, discard, deal: the resolved hook answers.
        build_limit: build piles open at once, ``0`` for no limit.
        clauses: the rule sheet (rendered), every plugin's clauses in registration order.
        clause_for: the clause id cited for each reason key (``"buried-card@payoff"``).
        accepts: ``accepts[rank]`` is the set of build ranks a card of that rank may stand for.
        filters, end_hook, completion_hook: the per-move hook implementations, in the order
            they are asked (:func:`call_order`); empty when no plugin implements them.
        teams: the resolved teams and which partners' piles each seat may use
            (:class:`~spitemalice.rules.policies.TeamRule`; every seat alone without teams).

    Raises:
        RulesetError: a plugin that breaks the hook specs, a conflict between plugins, bad
            parameters, a hook answer the Ruleset cannot state, a rule sheet that leaves a
            reason code uncovered, or a deck that cannot deal the seats.
    """

    def __init__(
        self,
        variant: object,
        house_rules: Sequence[object] = (),
        params: Mapping[str, Any] | None = None,
        *,
        file: FileLayer | None = None,
        enforcers: Callable[[str], Sequence[tuple[str, str]]] | None = None,
    ) -> None:
        self._variant, self._house_rules, self._file = variant, tuple(house_rules), file
        self._params = dict(params or {})
        layers = [variant, *house_rules]
        self.plugins = [plugin_name(p) for p in (*layers, *([file] if file else []))]
        self.pm = _plugin_manager([*layers, *([file] if file else [])])
        self.own, self.ruleset, self.origin = _resolve_ruleset(self.pm, file, self._params)
        self._fold_decisions(file)
        self._check_conflicts()
        self._ask_decisions()
        self.teams: TeamRule = _resolve_teams(self.pm, self.ruleset)
        self.accepts = _accept_table(self.deck, self.wild, self.ceiling.ceiling)
        self.filters = _per_move(self.pm, "spitemalice_filter_moves")
        self.end_hook = _per_move(self.pm, "spitemalice_end_of_game")
        # The same two, called with the spec's arguments in order (the engine's hot path:
        # a keyword call costs more, and these are asked on every move).
        self.filter_calls = _per_move(self.pm, "spitemalice_filter_moves", positional=True)
        self.end_calls = _per_move(self.pm, "spitemalice_end_of_game", positional=True)
        self.completion_hook = _per_move(self.pm, "spitemalice_completed_pile")
        self.team_won_hook = _per_move(self.pm, "spitemalice_team_won")
        self._score = _per_move(self.pm, "spitemalice_score")
        self.last_legal: tuple[Any, tuple[Any, ...]] | None = None  # see engine.legal_moves
        self.move_cache: dict[Any, Any] = {}  # moves made once and reused, see engine.legal
        self.last_view: tuple[Any, Any, Any] | None = None  # builds -> what they take, ditto
        self.clauses = self._sheet()
        self.clause_for = _clause_table(self.clauses, self._required_reasons(), self.plugins)
        _check_deal(self)
        _check_ranks(self)
        _check_enforced(self, layers, enforcers)
        _check_overrides_keep_house_rules(self.pm, self.ruleset, self._given())

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

    def rebuild(self, **overrides: Any) -> RuleBook:
        """The same plugins and file with these parameter overrides on top of those given.

        Raises:
            RulesetError: as for building any RuleBook.
        """
        return RuleBook(self._variant, self._house_rules, {**self._params, **overrides},
                        file=self._file)

    def score(self, state: Any, kind: OutcomeKind, winner: int | None) -> tuple[int, ...]:
        """Points per seat for a game ending with ``kind`` (the scoring hook; the base rules
        when no plugin answers)."""
        teams = self.teams.teams
        for hook in self._score:
            points = hook(ruleset=self.ruleset, state=state, kind=kind, winner=winner,
                          teams=teams)
            if points is not None:
                return tuple(points)
        return base.spitemalice_score(self.ruleset, state, kind, winner, teams)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the recipe (plugins, parameters given, file), not the plugin manager: a
        Dask worker rebuilds the same rules.  Plugin modules travel by name."""
        plugins = tuple(_plugin_ref(p) for p in (self._variant, *self._house_rules))
        return _unpickle, (plugins, self._params, self._file)

    def sheet_text(self, width: int = 88) -> str:
        """The rule sheet as text (:func:`spitemalice.rules.sheet.render_sheet`)."""
        return sheet.render_sheet(self, width)

    def __repr__(self) -> str:
        return f"RuleBook({' + '.join(self.plugins)}, players={self.players})"

    # -- building -----------------------------------------------------------------------

    def _given(self) -> dict[str, Any]:
        return {**(self._file.params if self._file else {}), **self._params}

    def _fold_decisions(self, file: FileLayer | None) -> None:
        """Fold plugins' answers to the build-time hooks that a Ruleset value states into
        the Ruleset, so that what the engine uses is what every output shows."""
        given = self._given()
        for hook, fold in _FOLDS.items():
            answer, who = _first_answer(self.pm, hook, self.ruleset)
            if who is None:
                continue
            try:
                changes = fold(answer)
                folded = attrs.evolve(self.ruleset, **changes)
            except (TypeError, ValueError, AttributeError) as error:
                raise RulesetError(
                    f"plugin {who!r} answers {hook} with {answer!r}, which the rule set "
                    f"{self.ruleset.name} cannot state: {error}") from None
            for field, value in changes.items():
                if value == getattr(self.ruleset, field):
                    continue
                if field in given:
                    raise RulesetError(
                        f"{field} = {sheet.format_value(getattr(self.ruleset, field))} as "
                        f"given, but plugin {who!r} answers {hook} with "
                        f"{sheet.format_value(value)}; drop the setting or the plugin")
                self.origin[field] = f"plugin {who} ({hook})"
            self.ruleset = folded

    def _ask_decisions(self) -> None:
        """The build-time answers the engine uses: from the final Ruleset, after checking
        that every plugin that answers agrees with it."""
        rules = self.ruleset
        deck = base.spitemalice_deck(rules)
        for hook, expected in (
            ("spitemalice_deck", base.spitemalice_deck(rules)),
            ("spitemalice_wild", base.spitemalice_wild(rules)),
            ("spitemalice_build_ceiling", base.spitemalice_build_ceiling(rules)),
            ("spitemalice_build_pile_limit", base.spitemalice_build_pile_limit(rules)),
            ("spitemalice_discard_limits", base.spitemalice_discard_limits(rules)),
            ("spitemalice_deal", base.spitemalice_deal(rules)),
        ):
            answer, who = _first_answer(self.pm, hook, rules)
            if hook == "spitemalice_deck" and who is not None and _same(answer, expected):
                deck = answer  # the same cards as stated, with the plugin's faces
            if who is not None and not _same(answer, expected):
                raise RulesetError(
                    f"plugin {who!r} answers {hook} with {_short(answer)}, but the resolved "
                    f"rule set {rules.name} gives {_short(expected)}"
                    f"{_DECK_HINT if hook == 'spitemalice_deck' else ''}")
        self.deck: Deck = deck
        self.wild: WildRule = base.spitemalice_wild(rules)
        self.ceiling: CeilingRule = base.spitemalice_build_ceiling(rules)
        self.build_limit: int = base.spitemalice_build_pile_limit(rules)
        self.discard: DiscardRule = base.spitemalice_discard_limits(rules)
        self.deal: DealRule = base.spitemalice_deal(rules)

    def _check_conflicts(self) -> None:
        for impl in call_order(self.pm, "spitemalice_conflicts"):
            problem = _call(impl, ruleset=self.ruleset, plugins=list(self.plugins))
            if problem:
                raise RulesetError(f"{impl.plugin_name} cannot stack here: {problem}")

    def _sheet(self) -> tuple[Clause, ...]:
        """Every plugin's clauses in registration order, rendered from the resolved values."""
        clauses: list[Clause] = []
        for impl in reversed(call_order(self.pm, "spitemalice_rule_sheet")):
            answer = _call(impl, ruleset=self.ruleset)
            for clause in answer or ():
                if not isinstance(clause, Clause):
                    raise RulesetError(f"plugin {impl.plugin_name!r}: spitemalice_rule_sheet "
                                       f"must return Clause objects, not {clause!r}")
                clauses.append(sheet.render_clause(clause, self.ruleset, impl.plugin_name,
                                                   self.teams.teams))
        return tuple(clauses)

    def _required_reasons(self) -> tuple[list[str], set[str]]:
        """The reason keys the sheet must cover, and every code a clause may name."""
        declared: set[str] = set()
        required = reasons.keys(reasons.ENGINE)
        for impl in call_order(self.pm, "spitemalice_filter_moves"):
            codes = list(getattr(self.pm.get_plugin(impl.plugin_name), "REASONS", None) or ())
            declared.update(codes)
            required += [code for code in codes if code not in required]
        for plugin in (self.pm.get_plugin(name) for name in self.plugins):
            declared.update(getattr(plugin, "REASONS", None) or ())
        return required, declared


def _plugin_ref(plugin: object) -> object:
    if isinstance(plugin, types.ModuleType):
        return _ModuleRef(plugin.__name__)
    return plugin


@attrs.frozen
class _ModuleRef:
    name: str


def _unpickle(
    plugins: tuple[object, ...], params: dict[str, Any], file: FileLayer | None
) -> RuleBook:
    found = [importlib.import_module(p.name) if isinstance(p, _ModuleRef) else p
             for p in plugins]
    return RuleBook(found[0], found[1:], params, file=file)


# -- hook order and calls -------------------------------------------------------------------


def call_order(pm: pluggy.PluginManager, hook_name: str) -> list[Any]:
    """The implementations of ``hook_name`` in the order they are asked: pluggy's own order.

    ``tryfirst`` implementations come first (the latest registered first), then unmarked ones
    (the latest registered first), then ``trylast`` ones (the earliest registered first, as
    pluggy orders them).  House rules are registered after their rule set, in the order
    given.  The base rules are not among them: they answer only when none of these does.
    """
    impls = getattr(pm.hook, hook_name).get_hookimpls()
    return [impl for impl in reversed(impls) if not (impl.wrapper or impl.hookwrapper)]


def _call(impl: Any, **kwargs: Any) -> Any:
    """Call one implementation with the arguments it asks for; a fault in a plugin's code
    becomes a :class:`RulesetError` naming the plugin and the hook."""
    try:
        return impl.function(*(kwargs[name] for name in impl.argnames))
    except SpiteMaliceError:
        raise
    except Exception as error:
        raise RulesetError(f"plugin {impl.plugin_name!r} failed in {impl.function.__name__}: "
                           f"{type(error).__name__}: {error}") from error


def _first_answer(pm: pluggy.PluginManager, hook: str, ruleset: Ruleset) -> tuple[Any, str | None]:
    """The first non-``None`` answer of a plugin to a build-time hook, and who gave it."""
    for impl in call_order(pm, hook):
        answer = _call(impl, ruleset=ruleset)
        if answer is not None:
            return answer, impl.plugin_name
    return None, None


def _per_move(pm: pluggy.PluginManager, hook: str,
              positional: bool = False) -> list[Callable[..., Any]]:
    """The functions of a per-move hook in the order they are asked, each called by keyword
    with every argument of the spec, or with ``positional`` by position in the spec's order
    (an adapter when the plugin takes other arguments or another order)."""
    spec_args = tuple(getattr(pm.hook, hook).spec.argnames)
    functions = []
    for impl in call_order(pm, hook):
        function = impl.function
        if tuple(impl.argnames) != spec_args:
            function = (_positional_adapter(function, spec_args, tuple(impl.argnames))
                        if positional else _adapter(function, tuple(impl.argnames)))
        functions.append(function)
    return functions


def _adapter(function: Callable[..., Any], names: tuple[str, ...]) -> Callable[..., Any]:
    def call(**kwargs: Any) -> Any:
        return function(*(kwargs[name] for name in names))

    return call


def _positional_adapter(function: Callable[..., Any], spec: tuple[str, ...],
                        names: tuple[str, ...]) -> Callable[..., Any]:
    where = tuple(spec.index(name) for name in names)

    def call(*args: Any) -> Any:
        return function(*(args[at] for at in where))

    return call


# -- plugins and parameters ----------------------------------------------------------------


def plugin_name(plugin: object) -> str:
    """A plugin's ``NAME`` attribute, or its module/class name when it has none."""
    return str(getattr(plugin, "NAME", getattr(plugin, "__name__", type(plugin).__name__)))


def _plugin_manager(plugins: Sequence[object]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    names = [plugin_name(p) for p in plugins]
    if len(set(names)) != len(names):
        raise RulesetError(f"a plugin is given twice: {', '.join(names)}")
    for plugin, name in zip(plugins, names, strict=True):
        if name == base.NAME:
            raise RulesetError(f"{name!r} is the name of the base rules; give the plugin "
                               "another NAME")
        try:
            pm.register(plugin, name=name)
        except (pluggy.PluginValidationError, ValueError) as error:
            raise RulesetError(f"plugin {name!r} is not valid: {error}") from error
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as error:
        raise RulesetError(
            f"plugin {pm.get_name(error.plugin)!r} implements a hook that does not exist: {error}"
        ) from error
    for hook in dir(hookspecs):
        if hook.startswith("spitemalice_") and hook != "spitemalice_ruleset":
            for impl in getattr(pm.hook, hook).get_hookimpls():
                if impl.wrapper or impl.hookwrapper:
                    raise RulesetError(
                        f"plugin {impl.plugin_name!r} wraps {hook}; only spitemalice_ruleset "
                        "may be wrapped: answer the hook (tryfirst=True to be asked first)")
    for impl in pm.hook.spitemalice_ruleset.get_hookimpls():
        if impl.hookwrapper:
            raise RulesetError(f"plugin {impl.plugin_name!r}: wrap spitemalice_ruleset with "
                               "@hookimpl(wrapper=True) (ruleset = yield), not hookwrapper")
    return pm


def _resolve_ruleset(
    pm: pluggy.PluginManager, file: FileLayer | None, params: Mapping[str, Any]
) -> tuple[Ruleset, Ruleset, dict[str, str]]:
    """The rule set's own Ruleset, the final one and who changed each parameter."""
    own = None
    for impl in call_order(pm, "spitemalice_ruleset"):
        own = _call(impl)
        if own is not None:
            break
    if not isinstance(own, Ruleset):
        raise RulesetError("no plugin answered spitemalice_ruleset with a Ruleset")
    origin: dict[str, str] = {}
    ruleset = own
    given = {*params, *(file.params if file is not None else ())}
    later = []  # house rules that compose with a parameter given: applied after it
    for impl in pm.hook.spitemalice_ruleset.get_hookimpls():  # innermost wrapper first
        if impl.wrapper and given & set(getattr(impl.plugin, "COMPOSES_WITH", ())):
            later.append(impl)
        elif impl.wrapper:
            ruleset = _note(origin, ruleset, _wrap(impl, ruleset), f"house rule {impl.plugin_name}")
    if file is not None:
        ruleset = attrs.evolve(ruleset, name=file.ruleset_name, title=file.title,
                               version=file.version)
        ruleset = _note(origin, ruleset, override(ruleset, file.params), f"file {file.name}")
        # All at once (parameters may only be valid together); then credit each to its file.
        origin.update({name: f"file {source}" for name, source in file.param_files.items()
                       if name in origin and origin[name] == f"file {file.name}"})
    ruleset = _note(origin, ruleset, override(ruleset, params), OVERRIDE)
    # A house rule whose plugin lists a given parameter in COMPOSES_WITH adds to it rather than
    # being undone: no-wild-ceiling adds the build ceiling in force to a wild_excluded given.
    for impl in later:
        ruleset = _note(origin, ruleset, _wrap(impl, ruleset), f"house rule {impl.plugin_name}")
    return own, ruleset, origin


def _wrap(impl: Any, ruleset: Ruleset) -> Ruleset:
    """One ``spitemalice_ruleset`` wrapper applied to ``ruleset``."""
    wrapper = impl.function()
    try:
        next(wrapper)
        wrapper.send(ruleset)
    except StopIteration as done:
        result = done.value
    except SpiteMaliceError:
        raise
    except Exception as error:
        raise RulesetError(f"house rule {impl.plugin_name!r} failed in spitemalice_ruleset: "
                           f"{type(error).__name__}: {error}") from error
    else:
        raise RulesetError(f"house rule {impl.plugin_name!r}: its spitemalice_ruleset wrapper "
                           "must yield once and return the changed Ruleset")
    if not isinstance(result, Ruleset):
        raise RulesetError(f"house rule {impl.plugin_name!r}: its spitemalice_ruleset wrapper "
                           f"returned {result!r}, not a Ruleset")
    return result


def _note(origin: dict[str, str], before: Ruleset, after: Ruleset, who: str) -> Ruleset:
    for field in attrs.fields(Ruleset):
        if field.name not in IDENTITY_FIELDS and (
                getattr(before, field.name) != getattr(after, field.name)):
            origin[field.name] = who
    return after


def _check_overrides_keep_house_rules(
    pm: pluggy.PluginManager, ruleset: Ruleset, given: Mapping[str, Any]
) -> None:
    """Refuse parameter settings that undo a house rule (``--set max_build_piles=2`` with
    unlimited-build-piles): each house rule's ruleset wrapper is applied once more to the
    final rule set, and a parameter given that it would change again is a conflict."""
    if not given:
        return
    for impl in pm.hook.spitemalice_ruleset.get_hookimpls():
        if not impl.wrapper:
            continue
        try:
            again = _wrap(impl, ruleset)
        except RulesetError:
            continue  # the house rule sees nothing left to change: it is in effect
        undone = sorted(name for name in given
                        if getattr(again, name, None) != getattr(ruleset, name, None))
        if undone:
            raise RulesetError(
                f"{', '.join(undone)} as given undo{'es' if len(undone) == 1 else ''} the "
                f"house rule {impl.plugin_name}; drop the setting or the house rule")


_UNSTATED = {"team_size": "forms teams that no clause of the sheet states",
             "partner_piles": "sets partners' piles that no clause of the sheet states"}


def _check_enforced(
    book: RuleBook, plugins: Iterable[object],
    enforcers: Callable[[str], Sequence[tuple[str, str]]] | None,
) -> None:
    """Refuse a parameter that only a plugin's move filter gives effect to
    (:data:`~spitemalice.rules.ruleset.ENFORCED_FIELDS`, against the default) or that forms teams
    (:data:`~spitemalice.rules.ruleset.TEAM_FIELDS`, against the rule set's own value) when no
    loaded plugin enforces it."""
    default = Ruleset()
    loaded = [getattr(plugin, "ENFORCES", ()) for plugin in plugins]
    for field, baseline in ([(f, default) for f in ENFORCED_FIELDS]
                            + [(f, book.own) for f in TEAM_FIELDS]):
        value = getattr(book.ruleset, field)
        if value == getattr(baseline, field) or any(field in enforces for enforces in loaded):
            continue
        found = sorted(enforcers(field)) if enforcers else []
        house = [name for name, kind in found if kind == "house-rule"]
        sets = [name for name, kind in found if kind == "ruleset"]
        fix = (f"; add --house-rule {' or '.join(house)}" if house
               else f"; it is an option of the rule set {' or '.join(sets)}" if sets
               else "; no installed plugin enforces it")
        effect = _UNSTATED.get(field, "has no effect")
        raise RulesetError(f"{field} = {sheet.format_value(value)} {effect} on "
                           f"{book.ruleset.name} unless a plugin that enforces it is loaded{fix}")


# -- build-time decisions -------------------------------------------------------------------


def _fold_wild(answer: WildRule) -> dict[str, Any]:
    return {"wild_ranks": frozenset(answer.wild_ranks), "wild_excluded": frozenset(answer.excluded)}


def _fold_ceiling(answer: CeilingRule) -> dict[str, Any]:
    return {"build_ceiling": answer.ceiling, "completed_piles": answer.completed}


def _fold_limit(answer: int) -> dict[str, Any]:
    if not isinstance(answer, int) or isinstance(answer, bool) or answer < 0:
        raise TypeError("a build pile limit is a whole number, 0 for no limit")
    return {"max_build_piles": answer or None}


def _fold_discard(answer: DiscardRule) -> dict[str, Any]:
    return {"discard_piles": answer.piles, "discard_forbidden": frozenset(answer.forbidden),
            "max_discard_cards": answer.max_cards}


def _fold_deal(answer: DealRule) -> dict[str, Any]:
    return {"payoff_piles": answer.payoff_piles, "payoff_size": answer.payoff_size or 0,
            "hand_size": answer.hand_size, "first_seat": answer.first_seat}


_FOLDS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "spitemalice_wild": _fold_wild,
    "spitemalice_build_ceiling": _fold_ceiling,
    "spitemalice_build_pile_limit": _fold_limit,
    "spitemalice_discard_limits": _fold_discard,
    "spitemalice_deal": _fold_deal,
}
_DECK_HINT = ("; a deck is stated by Ruleset values (packs, packs_per_seat, jokers, "
              "jokers_per_pack, draw_pack, payoff_pack): set them in spitemalice_ruleset")


def _same(answer: Any, expected: Any) -> bool:
    """Whether a plugin's answer is the one the Ruleset states.  Decks compare by what the
    Ruleset says of them: how many cards of each rank, suited or suitless; a joker's face
    (Skip-Bo's ``SB``) is the plugin's to choose."""
    if isinstance(expected, Deck):
        return isinstance(answer, Deck) and _kinds(answer.cards) == _kinds(expected.cards) \
            and _kinds(answer.payoff_cards or ()) == _kinds(expected.payoff_cards or ()) \
            and (answer.payoff_cards is None) == (expected.payoff_cards is None)
    return bool(answer == expected)


def _kinds(cards: Iterable[Any]) -> Counter[tuple[int, bool]]:
    return Counter((card.rank, bool(card.suit) and card.rank != 0) for card in cards)


def _short(value: Any) -> str:
    if isinstance(value, Deck):
        extra = (f" and a pay-off pack of {_cards(value.payoff_cards)}"
                 if value.payoff_cards else "")
        return f"a deck of {_cards(value.cards)}{extra}"
    return repr(value)


def _cards(cards: Sequence[Any]) -> str:
    """``"156 cards: 104 suited, 52 suitless, ranks 0-13"`` (enough to tell two decks apart)."""
    ranks = sorted({card.rank for card in cards})
    suitless = sum(1 for card in cards if not card.suit)
    span = f"ranks {ranks[0]}-{ranks[-1]}" if ranks else "no ranks"
    return f"{len(cards)} cards: {len(cards) - suitless} suited, {suitless} suitless, {span}"


def _clause_table(
    clauses: Sequence[Clause], needs: tuple[list[str], set[str]], plugins: Sequence[str]
) -> dict[str, str]:
    """The clause cited for each reason key; later clauses override earlier ones.

    Raises:
        RulesetError: a clause names an unknown reason code, or a required key is uncovered.
    """
    required, declared = needs
    table: dict[str, str] = {}
    for clause in clauses:
        for key in clause.reasons:
            if not reasons.known(key, declared):
                raise RulesetError(
                    f"clause {clause.id} names the reason code {key!r}, which is not one the "
                    "engine or a loaded plugin raises; see spitemalice.rules.reasons for the set")
            table[key] = clause.id
    resolved = {key: table.get(key) or table.get(key.partition("@")[0], "") for key in required}
    uncovered = [key for key, clause_id in resolved.items() if not clause_id]
    if uncovered:
        raise RulesetError(
            f"the rule sheet of {' + '.join(plugins)} has no clause for the reason code(s) "
            f"{', '.join(uncovered)}: list them in a clause's reasons (inherit a built-in "
            "rule set's sheet with spitemalice.rules.registry.base_sheet)")
    return {**table, **resolved}


def _resolve_teams(pm: pluggy.PluginManager, ruleset: Ruleset) -> TeamRule:
    """The teams and partner-pile access (the plugins' answers in the one order, else the base
    rules'), checked: every seat in exactly one team, and a seat may use only other seats'
    piles.

    Raises:
        RulesetError: a hook answer that breaks this, naming what is wrong.
    """
    seats = ruleset.players
    answer, _ = _first_answer(pm, "spitemalice_teams", ruleset)
    if answer is None:
        answer = base.spitemalice_teams(ruleset)
    teams = tuple(tuple(team) for team in answer)
    placed = sorted(seat for team in teams for seat in team)
    if placed != list(range(seats)) or not all(teams):
        raise RulesetError(f"{ruleset.name}: the teams {teams} must hold every seat 0 to "
                           f"{seats - 1} exactly once")
    access = None
    for impl in call_order(pm, "spitemalice_partner_piles"):
        access = _call(impl, ruleset=ruleset, teams=teams)
        if access is not None:
            break
    if access is None:
        access = base.spitemalice_partner_piles(ruleset, teams)
    if not isinstance(access, PileAccess):
        raise RulesetError("spitemalice_partner_piles must answer with a PileAccess, not "
                           f"{access!r}")
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


