"""Finding installed rule sets and house rules: names in, plugin objects out.

Every rule set and house rule, the built-in ones included, is found through the entry-point
group ``spitemalice.variants``, exactly as a third-party package's would be.  An entry point
may name

* a module (``my_package.my_variant``) whose functions carry ``@hookimpl``;
* a class (``my_package.my_variant:Quick``): it is instantiated once, with no arguments;
* an object (``my_package.my_variant:plugin``) whose methods carry ``@hookimpl``.

The plugin has these attributes besides its hook implementations:

* ``NAME``: the name it is loaded by (``"blackwood-frey"``);
* ``KIND``: ``"ruleset"`` or ``"house-rule"``;
* ``DESCRIPTION``: one line for ``spitemalice variants``;
* ``ENFORCES`` (optional): names of :data:`~spitemalice.rules.ruleset.ENFORCED_FIELDS` that the
  plugin's move filter gives effect to, or that a rule set's sheet states as its option
  (skip-bo's ``recycle_under_tops``), or of :data:`~spitemalice.rules.ruleset.TEAM_FIELDS` that
  its sheet states (partnerships' ``team_size`` and ``partner_piles``);
* ``COMPOSES_WITH`` (optional, house rules): parameter names; when ``--set``, a file or a
  record gives one of them, the house rule's ``spitemalice_ruleset`` wrapper is applied after
  the parameters instead of before, so it adds to them (no-wild-ceiling: ``wild_excluded``,
  ``build_ceiling``);
* ``REASONS`` (optional): the reason codes its move filter answers with
  (:mod:`spitemalice.rules.reasons`).

Anything else an entry point names is refused with one line.  This module builds no rule
book: :mod:`spitemalice.rules.loader` turns names into a :class:`~spitemalice.rules.book.RuleBook`.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

import attrs

from spitemalice.errors import RulesetError, worded
from spitemalice.guards import not_a_book
from spitemalice.rules.hookspecs import KINDS
from spitemalice.rules.policies import Clause
from spitemalice.rules.ruleset import Ruleset, closest
from spitemalice.wording import a_or_an, given_text, shown

if TYPE_CHECKING:
    from spitemalice.rules.book import RuleBook

GROUP = "spitemalice.variants"
BUILT_IN = "spitemalice_variants"
"""The package of the built-in plugins (an entry point's value starts with it)."""

_INSTANCES: dict[str, object] = {}  # a class an entry point names, instantiated once


@attrs.frozen
class PluginInfo:
    """An installed plugin as ``spitemalice variants`` lists it."""

    name: str
    kind: str
    description: str
    origin: str

    @property
    def built_in(self) -> bool:
        """Whether the plugin ships with spitemalice (``spitemalice_variants``)."""
        return self.origin.split(":")[0].split(".")[0] == BUILT_IN


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def load_plugin(name: str, kind: str | None = None) -> object:
    """The plugin installed under ``name`` (of ``kind``, if given).

    Raises:
        RulesetError: no such plugin (the message lists the installed ones of that kind), it
            fails to import or to be instantiated, it is not a module, class or plugin object,
            it has no valid ``KIND``, or it is of the other kind.
        TypeError: ``name`` is not a str.
    """
    if not isinstance(name, str):
        raise TypeError(f"load_plugin takes a plugin's name (a str), not {given_text(name)}")
    found = _entry_points()
    file, colon, clause = name.partition(":")
    if name not in found and colon and file.lower().endswith(".toml"):
        # A record made under a rule-set file names each of its data rules so.
        python = "load that file and pass its rule book (replay(record, load(path)))"
        raise worded(RulesetError(f"{shown(name)} is house rule {shown(clause)} of the "
                                  f"rule-set file {shown(file)}, not an installed plugin: "
                                  f"{python}"), python,
                     "give that file as the rule set, and its house rules come with it")
    if name not in found:
        known = sorted(n for n in found if kind is None or _kind_of(found[n]) == kind)
        what = "house rule" if kind == "house-rule" else "rule set"
        raise RulesetError(
            f"unknown {what} {shown(name)}{closest(name, known)}; installed: {', '.join(known)}"
        )
    plugin = _plugin(found[name])
    actual = getattr(plugin, "KIND", None)
    if kind is not None and actual != kind:
        raise RulesetError(f"{shown(name)} is {a_or_an(str(actual))}, not {a_or_an(kind)}")
    return plugin


def kind_of(name: str) -> str | None:
    """The ``KIND`` of the plugin installed under ``name`` (``"broken"`` if it cannot be
    loaded), or ``None`` when no plugin has that name."""
    ep = _entry_points().get(name)
    return None if ep is None else _kind_of(ep)


def installed() -> list[PluginInfo]:
    """Every installed rule set and house rule, rule sets first, each group sorted by name.

    A plugin that cannot be loaded is listed with kind ``"broken"`` and the one-line reason
    as its description, so one bad package does not hide the others.
    """
    infos = []
    for name, ep in _entry_points().items():
        try:
            plugin = _plugin(ep)
            kind = str(getattr(plugin, "KIND", "?"))
            description = str(getattr(plugin, "DESCRIPTION", ""))
        except RulesetError as error:
            kind, description = "broken", str(error)
        infos.append(PluginInfo(name, kind, description, ep.value))
    order = {kind: i for i, kind in enumerate(KINDS)}
    return sorted(infos, key=lambda info: (order.get(info.kind, 9), info.name))


def enforcers(field: str) -> list[tuple[str, str]]:
    """Installed plugins whose ``ENFORCES`` lists ``field``, as ``(name, kind)`` pairs by
    name (kind ``"house-rule"`` or ``"ruleset"``)."""
    found = []
    for name, ep in _entry_points().items():
        try:
            plugin = _plugin(ep)
            if field in getattr(plugin, "ENFORCES", ()):
                found.append((name, str(getattr(plugin, "KIND", "?"))))
        except RulesetError:
            continue
    return sorted(found)


def distribution(name: str) -> str | None:
    """``"package version"`` of the installed distribution that provides the plugin
    ``name`` (``"spitemalice 0.1.0"`` for a built-in one), or ``None`` when no entry point
    has that name or its distribution is unknown (a plugin given as an object, a file)."""
    ep = _entry_points().get(name)
    dist = getattr(ep, "dist", None)
    if dist is None:
        return None
    return f"{dist.name} {dist.version}"


def base_sheet(name: str, ruleset: Ruleset, changes: Iterable[Clause] = ()) -> list[Clause]:
    """The clauses of the installed rule set ``name``, for a plugin that builds on it.

    A Python rule set made from a built-in one (``attrs.evolve(RULESET, name=...)``) inherits
    its sheet by answering ``spitemalice_rule_sheet`` with this; the texts are rendered from
    the resolved values of the new rule set.  Inherited clauses are marked
    (``Clause.inherited_from``): the conformance kit leaves their scenarios to the base.
    Each clause of ``changes`` replaces the clause with the same id, or is added at the end.

    Raises:
        RulesetError: ``name`` is not an installed rule set.
        TypeError: ``name`` is not a str.
    """
    if not isinstance(name, str):
        raise TypeError(f"base_sheet takes an installed rule set's name (a str), "
                        f"not {given_text(name)}")
    plugin = load_plugin(name, "ruleset")
    hook = getattr(plugin, "spitemalice_rule_sheet", None)
    clauses = [attrs.evolve(clause, inherited_from=clause.inherited_from or name)
               for clause in (hook(ruleset=ruleset) if hook is not None else ())]
    for clause in changes:
        ids = [c.id for c in clauses]
        if clause.id in ids:
            clauses[ids.index(clause.id)] = clause
        else:
            clauses.append(clause)
    return clauses


def _kind_of(ep: EntryPoint) -> str:
    try:
        return str(getattr(_plugin(ep), "KIND", "?"))
    except RulesetError:
        return "broken"


def _plugin(ep: EntryPoint) -> object:
    """The plugin object an entry point names: the module or object itself, or a class's one
    instance; refused with one line if it is none of these or has no valid ``KIND``."""
    try:
        target = ep.load()
    except Exception as error:  # a broken third-party plugin must not crash discovery
        raise RulesetError(f"plugin {ep.name!r} ({ep.value}) failed to import: "
                           f"{type(error).__name__}: {error}") from None
    if inspect.isclass(target):
        if ep.value not in _INSTANCES:
            try:
                _INSTANCES[ep.value] = target()
            except Exception as error:
                raise RulesetError(f"plugin {ep.name!r} ({ep.value}) is a class that cannot be "
                                   f"made with no arguments: {type(error).__name__}: "
                                   f"{error}") from None
        target = _INSTANCES[ep.value]
    elif callable(target) and not isinstance(target, types.ModuleType):
        raise RulesetError(f"plugin {ep.name!r} ({ep.value}) is a function; the entry point "
                           "must name a module, a plugin class or a plugin object")
    kind = getattr(target, "KIND", None)
    if kind not in KINDS:
        hint = (" (the entry point names a module: point it at the plugin class inside, "
                "module:Class, or give the module NAME, KIND and DESCRIPTION)"
                if isinstance(target, types.ModuleType) else "")
        raise RulesetError(f"plugin {ep.name!r} ({ep.value}) has KIND {kind!r}; it must be one "
                           f"of {', '.join(KINDS)}{hint}")
    return target




def own_clauses(book: RuleBook) -> set[str]:
    """Ids of the clauses ``book``'s plugins under test add (not inherited with
    ``base_sheet``): those of its plugins that do not ship with spitemalice, or, when all of
    them do, every clause.  A rule-set file adds no clauses of its own.
    """
    try:
        plugins = book.plugins
    except AttributeError:  # a field every rule book has (the book's module is not imported)
        raise not_a_book(book, "own_clauses") from None
    built_in = {info.name for info in installed() if info.built_in}
    outside = [name for name in plugins if name not in built_in]
    own = {c.id for c in book.clauses if not c.inherited_from}
    if not outside:
        return own
    found: set[str] = set()
    for name in outside:
        found |= _sheet_ids(book.plugin(name), book.ruleset)  # a file's layer has no sheet
    return found & own


def house_rule_clauses(book: RuleBook) -> dict[str, tuple[str, ...]]:
    """Each house rule of ``book`` (in stacking order) -> the ids of the clauses its own rule
    sheet adds, in sheet order (a rule-set file's layer and the rule set itself are left
    out).
    """
    try:
        plugins = book.plugins
    except AttributeError:  # a field every rule book has
        raise not_a_book(book, "house_rule_clauses") from None
    found = {}
    for name in plugins[1:]:
        plugin = book.plugin(name)
        if getattr(plugin, "KIND", "house-rule") != "house-rule":
            continue
        ids = _sheet_ids(plugin, book.ruleset)
        found[name] = tuple(c.id for c in book.clauses if c.id in ids)
    return found


def _sheet_ids(plugin: object, ruleset: Ruleset) -> set[str]:
    hook = getattr(plugin, "spitemalice_rule_sheet", None)
    if hook is None:
        return set()
    takes = inspect.signature(hook).parameters
    clauses = hook(ruleset=ruleset) if "ruleset" in takes else hook()
    return {clause.id for clause in clauses or ()}


__all__ = ["GROUP", "KINDS", "PluginInfo", "base_sheet", "distribution", "enforcers",
           "house_rule_clauses", "installed", "kind_of", "load_plugin", "own_clauses"]
