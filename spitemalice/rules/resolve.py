"""Resolving a configuration: plugins registered, parameters layered, hook answers asked.

The steps :class:`~spitemalice.rules.book.RuleBook` runs when it is built (its module docstring
tells the whole story); :mod:`spitemalice.rules.checks` then refuses what cannot work.  Every
hook is asked in one order, pluggy's own (:func:`call_order`); the base rules
(:mod:`spitemalice.rules.defaults`) answer only when no plugin does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.rules import defaults as base
from spitemalice.rules import hookspecs, reasons, sheet
from spitemalice.rules.policies import (
    Clause,
    Deck,
    PileAccess,
    TeamRule,
    WildRule,
)
from spitemalice.rules.ruleset import IDENTITY_FIELDS, TEAMS_HINT, Ruleset
from spitemalice.rules.values import override
from spitemalice.wording import for_terminal, shown

if TYPE_CHECKING:
    from spitemalice.rules.book import FileLayer

OVERRIDE = "override"


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


def call(impl: Any, **kwargs: Any) -> Any:
    """Call one implementation with the arguments it asks for; a fault in a plugin's code
    becomes a :class:`RulesetError` naming the plugin and the hook."""
    try:
        return impl.function(*(kwargs[name] for name in impl.argnames))
    except SpiteMaliceError:
        raise
    except Exception as error:
        raise RulesetError(f"plugin {impl.plugin_name!r} failed in {impl.function.__name__}: "
                           f"{type(error).__name__}: {error}") from error


def first_answer(pm: pluggy.PluginManager, hook: str, ruleset: Ruleset) -> tuple[Any, str | None]:
    """The first non-``None`` answer of a plugin to a build-time hook, and who gave it."""
    for impl in call_order(pm, hook):
        answer = call(impl, ruleset=ruleset)
        if answer is not None:
            return answer, impl.plugin_name
    return None, None


def per_move(pm: pluggy.PluginManager, hook: str) -> tuple[Callable[..., Any], ...]:
    """The functions of a hook asked during play, in the order they are asked, each to be
    called with the spec's arguments by position, in the spec's order (the engine's hot path:
    a keyword call costs more).  A plugin that takes other arguments or another order gets an
    adapter."""
    spec_args = tuple(getattr(pm.hook, hook).spec.argnames)
    functions = []
    for impl in call_order(pm, hook):
        function = impl.function
        if tuple(impl.argnames) != spec_args:
            function = _adapter(function, spec_args, tuple(impl.argnames))
        functions.append(function)
    return tuple(functions)


def _adapter(function: Callable[..., Any], spec: tuple[str, ...],
             names: tuple[str, ...]) -> Callable[..., Any]:
    where = tuple(spec.index(name) for name in names)

    def call_in_spec_order(*args: Any) -> Any:
        return function(*(args[at] for at in where))

    return call_in_spec_order


# -- plugins and parameters ----------------------------------------------------------------


def plugin_name(plugin: object) -> str:
    """A plugin's ``NAME`` attribute, or its module/class name when it has none."""
    return str(getattr(plugin, "NAME", getattr(plugin, "__name__", type(plugin).__name__)))


def plugin_manager(plugins: Sequence[object]) -> pluggy.PluginManager:
    """A fresh plugin manager (never a global one) with ``plugins`` registered in order and
    checked against the hook specs.

    Raises:
        RulesetError: a plugin given twice or named like the base rules, a hook that does not
            exist or an argument its spec lacks, or a wrapper on a hook other than
            ``spitemalice_ruleset``.
    """
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
    _check_wrappers(pm)
    return pm


def _check_wrappers(pm: pluggy.PluginManager) -> None:
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


def resolve_ruleset(
    pm: pluggy.PluginManager, file: FileLayer | None, params: Mapping[str, Any]
) -> tuple[Ruleset, Ruleset, dict[str, str]]:
    """The rule set's own Ruleset, the final one and who changed each parameter.

    Raises:
        RulesetError: as the plugins and the Ruleset refuse; a refusal of the seats for the
            teams hints at the partnerships house rule only where no plugin loaded forms
            teams (:data:`~spitemalice.rules.ruleset.TEAMS_HINT`).
    """
    try:
        return _resolved(pm, file, params)
    except RulesetError as error:
        if TEAMS_HINT not in str(error) or not any(
                "team_size" in getattr(plugin, "ENFORCES", ()) for plugin in pm.get_plugins()):
            raise
        raise RulesetError(str(error).replace(TEAMS_HINT, "")) from error


def _resolved(
    pm: pluggy.PluginManager, file: FileLayer | None, params: Mapping[str, Any]
) -> tuple[Ruleset, Ruleset, dict[str, str]]:
    own = None
    for impl in call_order(pm, "spitemalice_ruleset"):
        own = call(impl)
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
            ruleset = _note(origin, ruleset, wrap(impl, ruleset), f"house rule {impl.plugin_name}")
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
        ruleset = _note(origin, ruleset, wrap(impl, ruleset), f"house rule {impl.plugin_name}")
    return own, ruleset, origin


def wrap(impl: Any, ruleset: Ruleset) -> Ruleset:
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


# -- teams and the accept table ----------------------------------------------------------


def resolve_teams(pm: pluggy.PluginManager, ruleset: Ruleset) -> TeamRule:
    """The teams and partner-pile access (the plugins' answers in the one order, else the base
    rules'), checked: every seat in exactly one team, and a seat may use only other seats'
    piles.

    Raises:
        RulesetError: a hook answer that breaks this, naming what is wrong.
    """
    seats = ruleset.players
    answer, _ = first_answer(pm, "spitemalice_teams", ruleset)
    if answer is None:
        answer = base.spitemalice_teams(ruleset)
    teams = tuple(tuple(team) for team in answer)
    placed = sorted(seat for team in teams for seat in team)
    if placed != list(range(seats)) or not all(teams):
        raise RulesetError(f"{ruleset.name}: the teams {teams} must hold every seat 0 to "
                           f"{seats - 1} exactly once")
    access = None
    for impl in call_order(pm, "spitemalice_partner_piles"):
        access = call(impl, ruleset=ruleset, teams=teams)
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


def accept_table(deck: Deck, wild: WildRule, ceiling: int) -> tuple[frozenset[int], ...]:
    """``table[rank]``: the build ranks (1..ceiling) a card of ``rank`` may stand for."""
    ranks = {card.rank for card in (*deck.cards, *(deck.payoff_cards or ()))}
    table = [frozenset[int]()] * (max(ranks | {ceiling}) + 1)
    for rank in ranks:
        if rank in wild.wild_ranks:
            table[rank] = frozenset(r for r in range(1, ceiling + 1) if r not in wild.excluded)
        elif 1 <= rank <= ceiling:
            table[rank] = frozenset({rank})
    return tuple(table)


# -- the rule sheet -------------------------------------------------------------------------


def rule_sheet(pm: pluggy.PluginManager, ruleset: Ruleset,
               teams: tuple[tuple[int, ...], ...]) -> tuple[Clause, ...]:
    """Every plugin's clauses in registration order, rendered from the resolved values.

    Raises:
        RulesetError: a plugin answers with something other than :class:`Clause` objects, or
            with a clause whose id is on the sheet already (another plugin's or its own): a
            refusal citing the id must name one clause, and :meth:`RuleBook.clause` finds
            one.
    """
    clauses: list[Clause] = []
    given_by: dict[str, str] = {}  # clause id -> the plugin that put it on the sheet
    for impl in reversed(call_order(pm, "spitemalice_rule_sheet")):
        answer = call(impl, ruleset=ruleset)
        for clause in answer or ():
            if not isinstance(clause, Clause):
                raise RulesetError(f"plugin {impl.plugin_name!r}: spitemalice_rule_sheet "
                                   f"must return Clause objects, not {clause!r}")
            if clause.id in given_by:
                raise _clause_again(impl, clause.id, given_by[clause.id])
            given_by[clause.id] = impl.plugin_name
            clauses.append(sheet.render_clause(clause, ruleset, impl.plugin_name, teams))
    return tuple(clauses)


def _clause_again(impl: Any, clause_id: str, owner: str) -> RulesetError:
    """The refusal of a clause id already on the sheet, given by ``owner``: worded as a
    rule-set file's ``[[rule]]`` (a data rule's plugin, found by the ``spec`` of its clause,
    whose error the file's reader prefixes with the file) or as a Python plugin."""
    spec = getattr(impl.plugin, "spec", None)
    data_rule = getattr(getattr(spec, "clause", None), "id", None) == clause_id
    who = f"rule {clause_id}" if data_rule else f"plugin {shown(impl.plugin_name)}"
    if owner == impl.plugin_name:
        return RulesetError(f"{who}: clause {clause_id} is given twice in its own rule sheet; "
                            "give each clause an id of its own")
    return RulesetError(f"{who}: clause {clause_id} is already on the rule sheet (of "
                        f"{for_terminal(owner)}); give the rule an id of its own, such as \"HR-1\"")


def required_reasons(pm: pluggy.PluginManager,
                     plugins: Sequence[str]) -> tuple[list[str], set[str]]:
    """The reason keys the sheet must cover, and every code a clause may name."""
    declared: set[str] = set()
    required = reasons.keys(reasons.ENGINE)
    for impl in call_order(pm, "spitemalice_filter_moves"):
        codes = list(getattr(pm.get_plugin(impl.plugin_name), "REASONS", None) or ())
        declared.update(codes)
        required += [code for code in codes if code not in required]
    for plugin in (pm.get_plugin(name) for name in plugins):
        declared.update(getattr(plugin, "REASONS", None) or ())
    return required, declared
