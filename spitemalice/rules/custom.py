"""Custom rule sets in TOML files: a base rule set, house rules and parameter overrides.

A custom rule set file looks like this (``examples/`` ships two)::

    title = "Short three-player game"       # required: shown on the rule sheet
    version = "1.0"                         # required: version of the rule sheet
    base = "blackwood-frey"                 # required: an installed rule set, or another file
    house_rules = ["mandatory-aces"]        # optional: applied in this order
    name = "short-three"                    # optional: defaults to the file name's stem
    description = "..."                     # optional: one line

    [params]                                # optional: parameter overrides, as --set takes them
    players = 3
    payoff_size = 13

    [[rule]]                                # optional: house rules written as data
    clause = "DD-1"
    ...

Each ``[[rule]]`` table is a house rule of the file's own (:mod:`spitemalice.rules.datarules`),
compiled when the file is read and stacked after the ``house_rules`` it names.

``base`` may name another custom file (a path relative to this file) when the caller allows
it (``allow_files=True``, ``--allow-files`` on the command line): a file may come from a
stranger, so by default a name inside it is an installed rule set's name and never a path.  The
base file's house rules come first and its parameters are overridden by this file's.  Anywhere
a rule-set name is accepted, :func:`spitemalice.load` and the command line accept a path to
such a file (:func:`is_file_name`).

A file is read only if it is a regular file of at most
:data:`~spitemalice.limits.MAX_TOML_BYTES` bytes, nested at most
:data:`~spitemalice.limits.MAX_DEPTH` deep, with numbers of at most
:data:`~spitemalice.limits.MAX_DIGITS` digits and printable texts
(:func:`~spitemalice.wording.printable`).  Every fault is a
:class:`~spitemalice.errors.RulesetError` that names the file, the key and, for a misspelt
name, the closest valid one.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from spitemalice import files, guards, limits, wording
from spitemalice.errors import RulesetError, worded
from spitemalice.rules import datarules
from spitemalice.rules.datarules.locate import locate_param
from spitemalice.rules.ruleset import FIELD_NAMES, IDENTITY_FIELDS, closest
from spitemalice.rules.values import value_problems
from spitemalice.wording import for_terminal, together
from spitemalice.wording import shown as _shown

REQUIRED = ("title", "version", "base")
OPTIONAL = ("house_rules", "params", "name", "description", "rule")
KEYS = REQUIRED + OPTIONAL
PARAMS = tuple(name for name in FIELD_NAMES if name not in IDENTITY_FIELDS)
_MAX_DEPTH = 8
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\.toml")


@attrs.frozen
class CustomRuleset:
    """A custom rule set file, resolved through any chain of ``base`` files.

    Attributes:
        path: the file (resolved, absolute).
        name, title, version, description: the rule set's identity, from the file.
        base: the installed rule set at the bottom of the chain.
        house_rules: house-rule names, the base file's first.
        params: parameter overrides (converted), the base file's overridden by this file's.
        param_files: for each parameter in ``params``, the name of the file in the chain that
            set it (so ``rules`` credits a base file's value to that file).
        rules: the plugins of the ``[[rule]]`` tables, the base file's first.
        param_places: for each parameter in ``params``, ``FILE:LINE:COLUMN`` of its value in
            the file that set it (a fault found when the rule book is built is shown there).
    """

    path: Path
    name: str
    title: str
    version: str
    description: str
    base: str
    house_rules: tuple[str, ...]
    params: Mapping[str, Any]
    param_files: Mapping[str, str] = attrs.field(factory=dict)
    rules: tuple[object, ...] = ()
    param_places: Mapping[str, str] = attrs.field(factory=dict)


def is_file_name(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` means a custom rule set file rather than an installed rule set: a path
    object, a name ending in ``.toml``, or a name with a path separator."""
    if not isinstance(name, str):
        return True
    return name.lower().endswith(".toml") or "/" in name or os.sep in name


def read(path: str | os.PathLike[str], allow_files: bool = False) -> CustomRuleset:
    """Read and check a custom rule set file and the chain of files its ``base`` names.

    Only the file's form is checked here (keys, types, parameter names and values' types);
    whether the rule set, house rules and values work together is checked when it is loaded
    (:func:`spitemalice.load`).

    Args:
        allow_files: whether ``base`` may name another file (default: only an installed rule
            set, since the file may come from someone who is not trusted).

    Raises:
        RulesetError: the file is missing, not a regular file, too large or not TOML, a key
            is unknown or missing, a value has the wrong type, a parameter is unknown, a
            ``base`` names a file without ``allow_files``, or ``base`` files form a cycle; the
            message starts with the file's path and names the key.
    """
    return _read(Path(path), (), allow_files)


def read_text(text: str, name: str = "table.toml") -> CustomRuleset:
    """Read and check the text of a rule-set file that came without a file (pasted into the
    play server's lobby, say): as :func:`read` reads a file, but its ``base`` names an
    installed rule set, never a path (there is no folder it could be relative to).

    Args:
        text: the file's text, at most :data:`~spitemalice.limits.MAX_TOML_BYTES` bytes.
        name: the file name messages, plugin names (``NAME:CLAUSE``) and records give it;
            it is never opened.

    Raises:
        RulesetError: as :func:`read` (every message starts with ``name``), or ``base``
            names a file.
        TypeError: ``text`` or ``name`` is not a str.
    """
    if not isinstance(text, str) or not isinstance(name, str):
        raise TypeError("read_text takes the file's text and a name (both str), not "
                        f"{wording.given_text(text if not isinstance(text, str) else name)}")
    if not _PLAIN_NAME.fullmatch(name):
        raise RulesetError(f"read_text: name {_shown(name)} is not a plain file name: give "
                           'up to 100 of the letters A to Z (either case), digits 0 to 9, "-", '
                           '"_" or "." (not "." or "-" first) and ".toml", such as "table.toml"')
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.MAX_TOML_BYTES:
        raise RulesetError(f"{name}: {size:,} bytes; a rule-set file has at most "
                           f"{limits.MAX_TOML_BYTES:,}")
    text = text.removeprefix("\ufeff")
    spec = _checked(Path(name), name, _parse(text, name), text)
    if is_file_name(spec.base):
        raise RulesetError(f"{name}: base: {_shown(spec.base)} is a file; this file's base "
                           "names an installed rule set (`spitemalice variants` lists them)")
    return spec


def _read(path: Path, seen: tuple[Path, ...], allow_files: bool) -> CustomRuleset:
    path = path.expanduser().resolve()
    # A file's name is outside text too (a folder listing, a download): every message
    # names the file escaped (wording.for_terminal), as it names a key.
    where = for_terminal(str(path))
    if path in seen:
        chain = for_terminal(" -> ".join(str(p) for p in (*seen, path)))
        raise RulesetError(f"{where}: base: the files name each other in a cycle: {chain}")
    if len(seen) >= _MAX_DEPTH:
        raise RulesetError(f"{where}: base: more than {_MAX_DEPTH} files deep")
    data, text = _toml(path)
    spec = _checked(path, where, data, text)
    if not is_file_name(spec.base):
        return spec
    if not allow_files:
        python = "load(..., allow_files=True)"
        raise worded(RulesetError(f"{where}: base: {_shown(spec.base)} is a file; a base "
                                  f"names an installed rule set unless files are allowed "
                                  f"({python})"), python, "--allow-files")
    parent = _read(path.parent / spec.base, (*seen, path), allow_files)
    return CustomRuleset(
        path, spec.name, spec.title, spec.version, spec.description, parent.base,
        parent.house_rules + spec.house_rules, {**parent.params, **spec.params},
        {**parent.param_files, **spec.param_files}, parent.rules + spec.rules,
        {**parent.param_places, **spec.param_places},
    )


def _checked(path: Path, where: str, data: dict[str, Any], text: str) -> CustomRuleset:
    """The file's own keys checked (its ``base`` as written, not followed)."""
    unknown = [key for key in data if key not in KEYS]
    if unknown:
        key = unknown[0]
        if key in PARAMS:  # the commonest slip: a parameter written above its table
            raise RulesetError(f"{where}: {_shown(key)} is a parameter: put it in the [params] "
                               f"table (a line '[params]', then '{key} = ...' below it)")
        raise RulesetError(f"{where}: unknown key {_shown(key)}{closest(key, KEYS)}; "
                           f"the keys are {', '.join(KEYS)}")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise RulesetError(f"{where}: missing key {_shown(missing[0])}: a custom rule set "
                           f"names its {', '.join(REQUIRED)}")
    title, version, base = (_text(where, data, key) for key in REQUIRED)
    name = _text(where, data, "name") if "name" in data else path.stem
    description = _text(where, data, "description") if "description" in data else title
    house_rules = _names(where, data.get("house_rules", []))
    params, places = _params(where, data.get("params", {}), text)
    own_files = dict.fromkeys(params, path.name)
    rules = datarules.compile_rules(data["rule"], where, text) if "rule" in data else ()
    return CustomRuleset(path, name, title, version, description, base, house_rules, params,
                         own_files, rules, places)


def _toml(path: Path) -> tuple[dict[str, Any], str]:
    """The file's TOML data, and its text (for the lines and columns of a rule's faults)."""
    where = for_terminal(str(path))
    if not path.exists():
        raise RulesetError(f"{where}: no such custom rule set file")
    try:
        text = files.read_file(path, limits.MAX_TOML_BYTES).decode("utf-8-sig")
    except files.FileRefused as error:
        raise RulesetError(f"{where}: cannot be read: {for_terminal(str(error))}") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{where}: not a text file (TOML is UTF-8 text)") from None
    return _parse(text, where), text


def _parse(text: str, where: str) -> dict[str, Any]:
    """The TOML data of a file's text, within the bounds on depth and number length."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesetError(f"{where}: not valid TOML: {for_terminal(str(error))}") from None
    except ValueError:  # Python's own integer-string limit
        raise RulesetError(f"{where}: a number longer than {limits.MAX_DIGITS} digits") from None
    except RecursionError:
        raise RulesetError(f"{where}: nested deeper than {limits.MAX_DEPTH} levels") from None
    if guards.data_depth(data) > limits.MAX_DEPTH:
        raise RulesetError(f"{where}: nested deeper than {limits.MAX_DEPTH} levels")
    too_long = _long_number(data)
    if too_long:
        raise RulesetError(f"{where}: {for_terminal(too_long)}: a number longer than "
                           f"{limits.MAX_DIGITS} digits")
    return data


def _long_number(data: Any, path: str = "") -> str:
    """The key path of the first integer longer than the digit bound, or ``""``."""
    if isinstance(data, int) and not isinstance(data, bool):
        return path or "value" if abs(data) >= 10 ** limits.MAX_DIGITS else ""
    if isinstance(data, dict):
        items: Any = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return ""
    for key, value in items:
        found = _long_number(value, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return ""


def _text(where: str, data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value.strip() or not wording.printable(value):
        raise RulesetError(f"{where}: {key} must be a non-empty printable text in quotes of at "
                           f"most {limits.MAX_NAME_CHARS} characters, such as "
                           f'{key} = "{_EXAMPLE.get(key, "...")}", not {_shown(value)}')
    return value.strip()


_EXAMPLE = {"title": "My rule set", "version": "1.0", "base": "blackwood-frey", "name": "mine"}


def _names(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
            isinstance(v, str) and wording.printable(v) for v in value):
        raise RulesetError(f"{where}: house_rules must be a list of names in quotes, such as "
                           f'house_rules = ["mandatory-aces"], not {_shown(value)}')
    return tuple(v.strip() for v in value)


def param_place(where: str, text: str, key: str) -> str:
    """``FILE:LINE:COLUMN``: where the value of the parameter ``key`` stands in the
    ``[params]`` table of the file ``where`` whose text is ``text``."""
    place = locate_param(text, key)
    return f"{where}:{place.line}:{place.column}"


def _params(where: str, table: Any, text: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The converted parameters of a file's ``[params]`` table, and the place of each
    (:func:`param_place`).

    Raises:
        RulesetError: ``FILE:LINE:COLUMN: params.KEY: what is wrong; what would be right``,
            for every key at fault (an identity field, an unknown name, a wrong type, a value
            out of its range: :func:`~spitemalice.rules.values.value_problems`) together.
    """
    if not isinstance(table, dict):
        raise RulesetError(f"{param_place(where, text, 'params')}: params must be a table: "
                           "write [params] on a line of its own and key = value lines below it")
    params, places, problems = {}, {}, []
    for key, value in table.items():
        place = places[key] = param_place(where, text, key)
        shown = for_terminal(key)
        if key in IDENTITY_FIELDS:
            problems.append(f"{place}: params.{shown}: set {shown} at the top of the file, "
                            "not under [params]")
        elif key not in PARAMS:
            problems.append(f"{place}: params: unknown parameter {_shown(key)}"
                            f"{closest(key, PARAMS)}; `spitemalice rules NAME` lists them")
        else:
            wrong, converted = value_problems({key: value})
            problems += [f"{place}: params.{shown}: {error}" for error in wrong]
            params.update(converted)
    if problems:  # every key at fault, each with its place
        raise RulesetError(together(problems))
    return params, places
