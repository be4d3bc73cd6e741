"""Loading a game configuration: names in, one :class:`RuleBook` out.

The path is one way: a rule-set name (or a custom rule set file, :mod:`spitemalice.rules.custom`)
and house-rule names become plugin objects (:mod:`spitemalice.rules.registry`), and those with the
parameters become one :class:`~spitemalice.rules.book.RuleBook`, which resolves, checks and
renders the configuration (read :mod:`spitemalice.rules.book` for the whole story).
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.guards import check_list, check_path
from spitemalice.rules import custom, registry
from spitemalice.rules.book import FileLayer, RuleBook
from spitemalice.rules.custom import is_file_name
from spitemalice.rules.plugin_checks import check_house_rules
from spitemalice.rules.ruleset import convert_param
from spitemalice.rules.sheet import format_value
from spitemalice.wording import for_terminal, shown


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
            custom rule set file (``.toml``, see :mod:`spitemalice.rules.custom`), whose own house
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
            parameter that needs a plugin that is not loaded, or a parameter given both in
            ``params`` and as a keyword with another value; nothing is loaded.  Faults of a
            custom rule set file name the file and the key.
        TypeError: ``name`` is not a str or a path (a rule book already loaded, say: the
            message says how to change one).
    """
    if isinstance(name, RuleBook):
        raise TypeError("load takes a rule set's name or a rule-set file's path, not a "
                        "RuleBook: it is loaded already (rules.rebuild(name=value) changes "
                        "its parameters)")
    check_path(name, "load", "an installed rule set's name or a rule-set file's path")
    first = dict(params or {})
    given = {**first, **overrides}
    twice = [key for key, value in overrides.items()
             if key in first and not _same_value(key, first[key], value)]
    if twice:  # which value was meant cannot be told: the keyword would win silently
        key = twice[0]
        raise RulesetError(f"{key} is given twice, as {key}={shown(first[key])} in params "
                           f"and {key}={shown(overrides[key])} as a keyword: give it once")
    if isinstance(house_rules, str):  # one name given alone, not a list of its letters
        house_rules = [house_rules]
    rules = [registry.load_plugin(rule, "house-rule") for rule in house_rules]
    return load_plugins(name, rules, given, allow_files=allow_files)


def _same_value(name: str, one: Any, other: Any) -> bool:
    """Whether two values given for parameter ``name`` mean the same (``"3"`` and ``3``);
    values that do not convert are compared as given (the loader refuses them later)."""
    try:
        return bool(convert_param(name, one) == convert_param(name, other))
    except RulesetError:
        return bool(one == other)


def load_plugins(
    name: str | os.PathLike[str],
    house_rules: Iterable[object] = (),
    params: Mapping[str, Any] | None = None,
    *,
    allow_files: bool = False,
) -> RuleBook:
    """:func:`load` with house-rule plugin objects already made instead of names (a record's
    data rules, compiled from the tables it carries).

    Raises:
        RulesetError: as :func:`load`.
        TypeError: ``name`` is not a str or a path, or ``house_rules`` is no list (a bare
            str, say: plugin objects are wanted) or holds something other than a plugin (a
            house rule's name, say: the message names :func:`load`, which takes names).
    """
    check_path(name, "load_plugins", "an installed rule set's name or a rule-set file's path")
    check_house_rules(house_rules, "load_plugins")
    rules, given = list(house_rules), dict(params or {})
    if is_file_name(name):
        return _load_file(name, rules, given, allow_files)
    variant = registry.load_plugin(str(name), "ruleset")
    return RuleBook.from_plugins(variant, rules, given, enforcers=registry.enforcers)


def load_text(
    text: str,
    house_rules: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    *,
    name: str = "table.toml",
) -> RuleBook:
    """Load a game configuration from a rule-set file's text (one pasted into the play
    server's lobby): as :func:`load` loads a file, but no file is opened, and the text's
    ``base`` names an installed rule set, never a path.

    Args:
        text: the rule-set file's text (:mod:`spitemalice.rules.custom`).
        house_rules: more installed house rules, as for :func:`load`.
        params: more parameters, as for :func:`load`.
        name: the file name messages, the plugin list and records give the text
            (``"table.toml:DD-1"`` names its rule ``DD-1``).

    Raises:
        RulesetError: the text is not a rule-set file (with its line and column for a rule's
            fault or a TOML error, and what would be right), names a file as its base, or its
            rules do not load (as :func:`load`); nothing is loaded.
        TypeError: ``text`` or ``name`` is not a str, or ``house_rules`` is a bare str
            (a list of names is wanted).
    """
    check_list(house_rules, "load_text", "house_rules, a list of names,", '["mandatory-aces"]')
    spec = custom.read_text(text, name)
    rules = [registry.load_plugin(rule, "house-rule") for rule in house_rules]
    return _from_spec(spec, rules, dict(params or {}))


def load_installed(
    name: str,
    house_rules: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    *,
    field: str,
    owner: str,
) -> RuleBook:
    """:func:`load` for a rule set named by someone else (a server's ``welcome``, a record,
    a table file): an installed rule set only, never a file.  A name there that is a path
    (:func:`~spitemalice.rules.custom.is_file_name`) could open any file the process may
    read (``/etc/passwd``, a FIFO, a rule-set file beside the program); rule-set files as
    data arrive by their content, never by a path a stranger chose.

    Args:
        field: the name's field, for the message (``"welcome.ruleset.name"``).
        owner: what names it, for the message (``"a server's welcome"``).

    Raises:
        RulesetError: the name is a file's path (the message says the field names an
            installed rule set), or as :func:`load`.
        TypeError: ``name`` is not a str.
    """
    return load(check_installed_name(name, field=field, owner=owner), house_rules, params)


def check_installed_name(name: str, *, field: str, owner: str) -> str:
    """``name`` when it may name an installed rule set, the check :func:`load_installed`
    makes first: for a door that loads the rules its own way (a record's or a welcome's
    data rules arrive by content, :func:`load_plugins`).

    Raises:
        RulesetError: ``name`` is a file's path (the message names ``field`` and says that
            ``owner`` names an installed rule set).
        TypeError: ``name`` is not a str.
    """
    if not isinstance(name, str):
        raise TypeError(f"load_installed takes a rule set's name (a str), not "
                        f"{type(name).__name__}")
    if is_file_name(name):
        raise RulesetError(f"{field}: {shown(name)} is a file path; {owner} names an "
                           "installed rule set (`spitemalice variants` lists them), never a "
                           "file")
    return name


def _load_file(
    path: str | os.PathLike[str], extra: list[object], given: dict[str, Any],
    allow_files: bool = False,
) -> RuleBook:
    """A RuleBook from a custom rule set file plus house rules and parameters given to
    :func:`load`; a fault of the file's own choices is reported against the file."""
    return _from_spec(custom.read(path, allow_files), extra, given)


def _from_spec(spec: custom.CustomRuleset, extra: list[object], given: dict[str, Any],
               ) -> RuleBook:
    """A RuleBook from a rule-set file read (:mod:`spitemalice.rules.custom`) plus house
    rules and parameters; a fault of the file's own choices is reported against the file."""
    where = for_terminal(str(spec.path))  # a file's name is outside text: escaped
    variant = _file_plugin(where, "base", spec.base, "ruleset")
    own = [_file_plugin(where, "house_rules", rule, "house-rule") for rule in spec.house_rules]
    own += spec.rules  # the file's own [[rule]] tables, compiled when it was read
    layer = FileLayer(spec.path.name, spec.name, spec.title, spec.version, dict(spec.params),
                      spec.description, dict(spec.param_files))
    try:
        return RuleBook.from_plugins(variant, [*own, *extra], given, file=layer,
                                     enforcers=registry.enforcers)
    except RulesetError as error:
        if extra or given:
            try:
                RuleBook.from_plugins(variant, own, file=layer)
            except RulesetError:
                pass
            else:
                raise  # the file is sound: the house rules or parameters given with it are not
        if str(error).startswith(f"{where}:"):  # a data rule's fault names its place already
            raise
        key = _param_named(str(error), spec.params)
        if key:  # a fault of a [params] value: shown at its line and column
            raise RulesetError(f"{spec.param_places[key]}: params.{key}: {error}") from error
        raise RulesetError(f"{where}: {error}") from error


def _param_named(message: str, params: Mapping[str, Any]) -> str:
    """The parameter of ``params`` a fault's ``message`` is about: the one it starts with
    (``payoff_size = 99: ...``), else the first it names as a word; ``""`` for none."""
    for key in params:
        if message.startswith(f"{key} ="):
            return key
    return next((key for key in params if re.search(rf"\b{key}\b", message)), "")


def _file_plugin(where: str, key: str, name: str, kind: str) -> object:
    try:
        return registry.load_plugin(name, kind)
    except RulesetError as error:
        raise RulesetError(f"{where}: {key}: {error}") from error


def house_rule_sheet(
    name: str,
    house_rules: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    on: str | None = None,
    *,
    allow_files: bool = False,
) -> str:
    """The sheet of an installed house rule as text: its clauses as stacked on each built-in
    rule set (or only on ``on``), the parameters it changes there, or why it is refused.

    Args:
        house_rules: more house rules stacked after it; ``params``: overrides, as in
            :func:`load`; ``on``: an installed rule set (or file) to show it on alone;
            ``allow_files``: that file's ``base`` may name another file, as in :func:`load`.

    Raises:
        RulesetError: ``name`` is not an installed house rule (with the closest one), or ``on``
            is not a rule set that loads.
    """
    plugin = registry.load_plugin(name, "house-rule")
    rules = [name, *house_rules]
    targets = [on] if on else built_in_rulesets()
    lines = [f"{name} (house rule)", str(getattr(plugin, "DESCRIPTION", "")), ""]
    stacks: list[str] = []
    refused: list[str] = []
    sheets: dict[tuple[str, ...], list[str]] = {}
    for target in targets:
        try:
            base = load(target, allow_files=allow_files)
            book = load(target, rules, params, allow_files=allow_files)
        except RulesetError as error:
            if on:
                raise
            refused.append(_wrap(f"{target}: {error}"))
            continue
        mine = {c.id for c in book.clauses} - {c.id for c in base.clauses}
        text = tuple(f"{c.id}  {c.text} [{c.source}]" for c in book.clauses if c.id in mine)
        sheets.setdefault(text, []).append(target)
        before, after = attrs.asdict(base.ruleset), attrs.asdict(book.ruleset)
        changes = [f"{field} {format_value(before[field])} -> {format_value(value)}"
                   for field, value in after.items() if value != before[field]]
        stacks.append(_wrap(f"{target}: {'; '.join(changes) or 'no parameter'}"))
    for text, names in sheets.items():
        lines.append(f"Clauses (as stacked on {', '.join(names)})")
        lines += [textwrap.fill(line, 88, subsequent_indent=" " * (line.index("  ") + 2))
                  for line in text]
        lines.append("")
    lines += ["Stacks on (parameters it changes)", *(stacks or ["  no rule set"])]
    if refused:
        lines += ["", "Refused on", *refused]
    return "\n".join(lines)


def turn_based_rulesets() -> list[str]:
    """The names of the installed rule sets whose seats take turns, in the order
    :func:`~spitemalice.rules.registry.installed` lists them: every rule set but those whose
    plugin answers ``spitemalice_simultaneous`` (Spit, SP-1), which the turn-based doors
    (records, the environments, the play server) refuse."""
    return [i.name for i in registry.installed() if i.kind == "ruleset"
            and not hasattr(registry.load_plugin(i.name), "spitemalice_simultaneous")]


def built_in_rulesets() -> list[str]:
    """The names of the turn-based rule sets that ship with spitemalice, sorted (what a house
    rule is shown and validated on by default; a rule set whose seats move at once, Spit,
    takes no house rule)."""
    built_in = {i.name for i in registry.installed() if i.built_in}
    return sorted(name for name in turn_based_rulesets() if name in built_in)


def _wrap(text: str) -> str:
    return textwrap.fill(text, 88, initial_indent="  ", subsequent_indent="    ")
