"""Finding installed rule sets and house rules, and loading a game configuration.

Every rule set and house rule, the built-in ones included, is found through the entry-point
group ``spitemalice.variants``, exactly as a third-party package's would be.  An entry point
names a plugin (a module or an object) with these attributes besides its hook implementations:

* ``NAME``: the name it is loaded by (``"blackwood-frey"``);
* ``KIND``: ``"ruleset"`` or ``"house-rule"``;
* ``DESCRIPTION``: one line for ``spitemalice variants``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.rulebook import RuleBook
from spitemalice.ruleset import closest

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
    name: str,
    house_rules: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    **overrides: Any,
) -> RuleBook:
    """Load a game configuration: a rule set by name, house rules by name, and parameters.

    Args:
        name: an installed rule set (``spitemalice variants`` lists them).
        house_rules: installed house rules, applied in this order.
        params: parameter overrides (``{"players": 3}``); text values are converted.
        **overrides: more overrides as keywords (``payoff_size=13``).

    Returns:
        A :class:`RuleBook` ready for :func:`spitemalice.deal`.

    Raises:
        RulesetError: an unknown rule set, house rule or parameter, a bad value, or plugins that
            cannot stack; nothing is loaded.
    """
    variant = load_plugin(name, "ruleset")
    rules = [load_plugin(rule, "house-rule") for rule in house_rules]
    return RuleBook(variant, rules, {**(params or {}), **overrides})
