"""Finding installed rule sets and house rules, and loading a game configuration.

Every rule set and house rule, the built-in ones included, is found through the entry-point
group ``spitemalice.variants``, exactly as a third-party package's would be.  An entry point
names a plugin (a module or an object) with these attributes besides its hook implementations:

* ``NAME``: the name it is loaded by (``"blackwood-frey"``);
* ``KIND``: ``"ruleset"`` or ``"house-rule"``;
* ``DESCRIPTION``: one line for ``spitemalice variants``;
* ``ENFORCES`` (optional): names of :data:`~spitemalice.ruleset.ENFORCED_FIELDS` that the
  plugin's move filter gives effect to.  :func:`load` refuses a configuration that sets such a
  field with no loaded plugin enforcing it (``--set mandatory_ranks=1,2`` without the
  ``mandatory-aces`` house rule would otherwise be silently ignored).

:func:`load` also takes the path of a custom rule set file (:mod:`spitemalice.custom`).
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs

from spitemalice import custom
from spitemalice.custom import is_file_name
from spitemalice.errors import RulesetError
from spitemalice.rulebook import RuleBook
from spitemalice.ruleset import ENFORCED_FIELDS, Ruleset, closest
from spitemalice.sheet import format_value

GROUP = "spitemalice.variants"
KINDS = ("ruleset", "house-rule")


@attrs.frozen
class PluginInfo:
    """An installed plugin as ``spitemalice variants`` lists it."""

    name: str
    kind: str
    description: str
    origin: str


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def load_plugin(name: str, kind: str | None = None) -> object:
    """The plugin installed under ``name`` (of ``kind``, if given).

    Raises:
        RulesetError: no such plugin (the message lists the installed ones of that kind), it
            fails to import, or it is of the other kind.
    """
    found = _entry_points()
    if name not in found:
        known = sorted(n for n in found if kind is None or _kind_of(found[n]) == kind)
        what = "house rule" if kind == "house-rule" else "rule set"
        raise RulesetError(
            f"unknown {what} {name!r}{closest(name, known)}; installed: {', '.join(known)}"
        )
    plugin = _import(found[name])
    actual = getattr(plugin, "KIND", None)
    if actual not in KINDS:
        raise RulesetError(f"plugin {name!r} has KIND {actual!r}; it must be one of {KINDS}")
    if kind is not None and actual != kind:
        raise RulesetError(f"{name!r} is a {actual}, not a {kind}")
    return plugin


def kind_of(name: str) -> str | None:
    """The ``KIND`` of the plugin installed under ``name`` (``"broken"`` if it fails to
    import), or ``None`` when no plugin has that name."""
    ep = _entry_points().get(name)
    if ep is None:
        return None
    kind = _kind_of(ep)
    return "broken" if kind == "?" else kind


def _import(ep: EntryPoint) -> object:
    try:
        return ep.load()
    except Exception as error:  # a broken third-party plugin must not crash discovery
        raise RulesetError(f"plugin {ep.name!r} ({ep.value}) failed to import: {error}") from error


def _kind_of(ep: EntryPoint) -> str:
    try:
        return str(getattr(_import(ep), "KIND", "?"))
    except RulesetError:
        return "?"


def installed() -> list[PluginInfo]:
    """Every installed rule set and house rule, rule sets first, each group sorted by name.

    A plugin that fails to import is listed with kind ``"broken"`` and the error as its
    description, so one bad package does not hide the others.
    """
    infos = []
    for name, ep in _entry_points().items():
        try:
            plugin = _import(ep)
            kind = str(getattr(plugin, "KIND", "?"))
            description = str(getattr(plugin, "DESCRIPTION", ""))
        except RulesetError as error:
            kind, description = "broken", str(error)
        infos.append(PluginInfo(name, kind, description, ep.value))
    order = {kind: i for i, kind in enumerate(KINDS)}
    return sorted(infos, key=lambda info: (order.get(info.kind, 9), info.name))


def load(
    name: str | os.PathLike[str],
    house_rules: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    *,
    allow_files: bool = False,
    **overrides: Any,
) -> RuleBook:
    """Load a game configuration: a rule set, house rules by name, and parameters.

    Args:
        name: an installed rule set (``spitemalice variants`` lists them), or the path of a
            custom rule set file (``.toml``, see :mod:`spitemalice.custom`), whose own house
            rules and parameters come before those given here.
        house_rules: installed house rules, applied in this order.
        params: parameter overrides (``{"players": 3}``); text values are converted.
        allow_files: whether a custom file's ``base`` may name another file (by default it
            names an installed rule set: a file may come from someone not trusted).
        **overrides: more overrides as keywords (``payoff_size=13``).

    Returns:
        A :class:`RuleBook` ready for :func:`spitemalice.deal`.

    Raises:
        RulesetError: an unknown rule set, house rule or parameter (with the closest valid
            name), a value out of range (with the valid range), plugins that cannot stack, or a
            parameter that needs a plugin that is not loaded; nothing is loaded.  Faults of a
            custom rule set file name the file and the key.
    """
    given = {**(params or {}), **overrides}
    if isinstance(house_rules, str):  # one name given alone, not a list of its letters
        house_rules = [house_rules]
    rules = [load_plugin(rule, "house-rule") for rule in house_rules]
    if is_file_name(name):
        return _load_file(name, rules, given, allow_files)
    variant = load_plugin(str(name), "ruleset")
    book = RuleBook(variant, rules, given)
    _check_enforced(book, [variant, *rules])
    return book


def _load_file(
    path: str | os.PathLike[str], extra: list[object], given: dict[str, Any],
    allow_files: bool = False,
) -> RuleBook:
    """A RuleBook from a custom rule set file plus house rules and parameters given to
    :func:`load`; a fault of the file's own choices is reported against the file."""
    spec = custom.read(path, allow_files)
    where = str(spec.path)
    variant = _file_plugin(where, "base", spec.base, "ruleset")
    own = [_file_plugin(where, "house_rules", rule, "house-rule") for rule in spec.house_rules]
    identity = custom.FilePlugin(spec)
    try:
        book = RuleBook(variant, [*own, *extra, identity], {**spec.params, **given})
        _check_enforced(book, [variant, *own, *extra])
    except RulesetError as error:
        if (extra or given) and _file_alone_works(variant, own, identity, spec.params):
            raise  # the file is sound: the house rules or parameters given with it are not
        raise RulesetError(f"{where}: {error}") from error
    return book


def _file_plugin(where: str, key: str, name: str, kind: str) -> object:
    try:
        return load_plugin(name, kind)
    except RulesetError as error:
        raise RulesetError(f"{where}: {key}: {error}") from error


def _file_alone_works(
    variant: object, own: list[object], identity: object, params: Mapping[str, Any]
) -> bool:
    try:
        _check_enforced(RuleBook(variant, [*own, identity], params), [variant, *own])
    except RulesetError:
        return False
    return True


def _check_enforced(book: RuleBook, plugins: list[object]) -> None:
    """Refuse a parameter that only a plugin's move filter gives effect to
    (:data:`~spitemalice.ruleset.ENFORCED_FIELDS`) when no loaded plugin enforces it."""
    default = Ruleset()
    for field in ENFORCED_FIELDS:
        value = getattr(book.ruleset, field)
        if value == getattr(default, field):
            continue
        if any(field in getattr(plugin, "ENFORCES", ()) for plugin in plugins):
            continue
        enforcers = sorted(
            ep_name for ep_name, ep in _entry_points().items()
            if field in getattr(_safe_import(ep), "ENFORCES", ())
        )
        fix = (f"; add --house-rule {' or '.join(enforcers)}" if enforcers
               else "; no installed plugin enforces it")
        raise RulesetError(f"{field} = {format_value(value)} has no effect on "
                           f"{book.ruleset.name} unless a plugin that enforces it is loaded{fix}")


def house_rule_sheet(
    name: str, house_rules: Iterable[str] = (), params: Mapping[str, Any] | None = None
) -> str:
    """The sheet of an installed house rule as text: its clauses, and for every installed rule
    set the parameters it (with ``house_rules`` and ``params``) changes there, or why it is
    refused there.

    Args:
        house_rules: more house rules stacked after it; ``params``: overrides, as in
            :func:`load`.

    Raises:
        RulesetError: ``name`` is not an installed house rule (with the closest one).
    """
    plugin = load_plugin(name, "house-rule")
    rules = [name, *house_rules]
    lines = [f"{name} (house rule)", str(getattr(plugin, "DESCRIPTION", "")), ""]
    stacks, refused, clauses = [], [], None
    for info in installed():
        if info.kind != "ruleset":
            continue
        try:
            base = load(info.name)
            book = load(info.name, rules, params)
        except RulesetError as error:
            refused.append(textwrap.fill(f"{info.name}: {error}", 88, initial_indent="  ",
                                         subsequent_indent="    "))
            continue
        if clauses is None:
            mine = {clause.id for clause in book.clauses} - {c.id for c in base.clauses}
            clauses = (info.name, [c for c in book.clauses if c.id in mine])
        before, after = attrs.asdict(base.ruleset), attrs.asdict(book.ruleset)
        changes = [f"{field} {format_value(before[field])} -> {format_value(value)}"
                   for field, value in after.items() if value != before[field]]
        stacks.append(textwrap.fill(f"{info.name}: {'; '.join(changes) or 'no parameter'}", 88,
                                    initial_indent="  ", subsequent_indent="    "))
    if clauses is not None:
        lines.append(f"Clauses (as stacked on {clauses[0]})")
        for clause in clauses[1]:
            lines.append(textwrap.fill(f"{clause.id}  {clause.text} [{clause.source}]", 88,
                                       subsequent_indent=" " * (len(clause.id) + 2)))
        lines.append("")
    lines += ["Stacks on (parameters it changes)", *(stacks or ["  no installed rule set"])]
    if refused:
        lines += ["", "Refused on", *refused]
    return "\n".join(lines)


def _safe_import(ep: EntryPoint) -> object:
    try:
        return _import(ep)
    except RulesetError:
        return None
