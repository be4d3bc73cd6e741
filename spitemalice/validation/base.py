"""The base rule set a configuration is compared with (game length, changed parameters).

* A rule set with house rules or parameters given is compared with the rule set alone.
* A rule-set file is compared with its ``base``.
* A Python rule set names its base with a module (or plugin object) attribute,
  ``BASED_ON = "blackwood-frey"`` (an installed rule set).  Without it, a rule set that
  inherits the sheet of exactly one installed rule set
  (:func:`spitemalice.rules.registry.base_sheet`) is compared with that one.
* Otherwise no base is known, and validate says so instead of comparing with nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.guards import check_list
from spitemalice.rules.book import RuleBook, book_field
from spitemalice.rules.custom import is_file_name
from spitemalice.rules.custom import read as read_custom
from spitemalice.rules.loader import load
from spitemalice.rules.registry import load_plugin


@attrs.frozen
class Base:
    """The base rule set found for a configuration, or why there is none.

    Attributes:
        book: the base rule set at the configuration's seat count, or ``None``.
        name: its name (empty without one).
        how: how it was found (``"named by quick's BASED_ON"``), or why there is none.

    Raises:
        TypeError: ``book`` is neither ``None`` nor a :class:`~spitemalice.rules.book.RuleBook`.
    """

    book: RuleBook | None = attrs.field(validator=book_field(optional=True))
    name: str
    how: str


def base_of(name: str, house_rules: Sequence[str], params: Mapping[str, Any],
            players: int, *, allow_files: bool = False) -> Base:
    """The base of the configuration ``name`` + ``house_rules`` + ``params`` (see the module
    text), loaded for ``players`` seats.  A base that does not load is no base, and the
    reason says why.  ``allow_files``: a rule-set file's ``base`` may name another file (the
    installed rule set at the bottom of the chain is its base).

    Raises:
        TypeError: ``house_rules`` is a bare str (a list is wanted).
    """
    check_list(house_rules, "base_of", "house_rules, a list of names,",
               '["mandatory-aces"]')
    if is_file_name(name):
        base = read_custom(name, allow_files).base
        return _loaded(base, "the file's base", players)
    if house_rules or set(params) - {"players"}:
        return _loaded(name, "the rule set alone, without the house rules and parameters "
                             "given", players)
    plugin = load_plugin(name, "ruleset")
    named = getattr(plugin, "BASED_ON", None)
    if named:
        if named == name:
            return Base(None, "", f"{name}'s BASED_ON names {name} itself: nothing to compare "
                                  "with")
        return _loaded(str(named), f"named by {name}'s BASED_ON", players)
    inherited = _inherited_from(name)
    if len(inherited) == 1:
        return _loaded(inherited[0], f"{name} inherits its sheet; name a base with BASED_ON",
                       players)
    return Base(None, "", f"no base rule set is known for {name}: a rule set derived from "
                          "another names it with BASED_ON = 'NAME' in its plugin")


def _loaded(name: str, how: str, players: int) -> Base:
    try:
        return Base(load(name, players=players), name, how)
    except RulesetError as error:
        return Base(None, "", f"the base rule set {name} ({how}) does not load at "
                              f"{players} players: {error}")


def _inherited_from(name: str) -> list[str]:
    """The rule sets whose clauses the sheet of the rule set ``name`` inherits
    (``Clause.inherited_from``)."""
    try:
        book = load(name)
    except RulesetError:
        return []
    return sorted({c.inherited_from for c in book.clauses if c.inherited_from} - {name})
