"""The plugins a rule book is built from, checked before anything is registered.

pluggy registers any object, so a plugin's name given as a str was taken as a plugin with no
hooks (the house rule silently not applied), and a rule set's name ended in an error about a
missing Ruleset that did not say a str was given.  :meth:`RuleBook.from_plugins
<spitemalice.rules.book.RuleBook.from_plugins>` and :func:`~spitemalice.rules.loader.load_plugins`
refuse such a value here, naming it and the right form.  The ``KIND`` check is the registry's
own (:func:`~spitemalice.rules.registry.load_plugin`): a plugin passed directly is held to it
too.  The registry asks nothing of ``NAME``'s form or of ``DESCRIPTION`` (an entry point's
name is the plugin's name; a missing description lists as empty), so neither is asked here.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping, Sequence
from typing import cast

from spitemalice.errors import RulesetError
from spitemalice.guards import check_list
from spitemalice.rules import resolve
from spitemalice.rules.hookspecs import KINDS
from spitemalice.rules.ruleset import Ruleset
from spitemalice.wording import clipped, for_terminal, given_text, printable, shown
from spitemalice.wording import kind as kind_of


def check_house_rules(house_rules: object, function: str) -> None:
    """Refuse ``house_rules`` unless it is a list of house-rule plugins: the check
    :meth:`~spitemalice.rules.book.RuleBook.from_plugins` makes, for a door that passes them
    on to it too, so that the message names that door.

    Raises:
        TypeError: ``house_rules`` is not a list (a bare str, say), or a member is not a
            plugin (a plugin's name, ``None``, a number...); the message names ``function``,
            the member and the right form.
        RulesetError: a member's ``KIND`` is not ``"house-rule"``.
    """
    check_list(house_rules, function, "house_rules, a list of house-rule plugins,",
               '[spitemalice.load_plugin("pair-discards")]')
    for index, rule in enumerate(cast("Sequence[object]", house_rules)):  # a list: checked
        check_plugin(rule, f"house_rules[{index}]", "house-rule", function)


def check_plugin(plugin: object, where: str, kind: str, function: str) -> None:
    """Refuse ``plugin`` at ``where`` (``"variant"``, ``"house_rules[0]"``) of ``function``
    unless it is a plugin of ``kind``.

    Raises:
        TypeError: ``plugin`` is a value no plugin is (text, a number, ``None``, a path, a
            collection, a rule book or Ruleset) or a class.
        RulesetError: its ``KIND`` is missing or not ``kind``.
    """
    what = "a rule-set plugin" if kind == "ruleset" else "a house-rule plugin"
    start = (f"{function} takes {where}, {what} (a module or an object with hook "
             "implementations, what spitemalice.load_plugin(name) returns), not")
    if isinstance(plugin, str):
        name = shown(plugin)
        call = name if printable(plugin) else "name"
        load = (f"spitemalice.load({call})" if kind == "ruleset"
                else f"spitemalice.load(rule_set, house_rules=[{call}])")
        raise TypeError(f"{start} the str {name}, a plugin's name: "
                        f"spitemalice.load_plugin({call}), or {load}, which takes names")
    book = type(plugin).__name__ == "RuleBook"  # named, not imported: the book is above
    if plugin is None or book or isinstance(plugin, bytes | numbers.Number | os.PathLike
                                            | Mapping | list | tuple | set | frozenset
                                            | Ruleset):
        # A number or bytes is shown with its value, anything else by its type's name.
        given = kind_of(plugin) if isinstance(plugin, bytes | numbers.Number) \
            else given_text(plugin)
        hint = ""
        if book:
            hint = ": a rule book's plugins are book.plugin(name), for each of book.plugins"
        elif isinstance(plugin, list | tuple) and where == "variant":
            hint = " (a list where the rule-set plugin belongs: are the arguments in order?)"
        raise TypeError(f"{start} {given}{hint}")
    if isinstance(plugin, type):
        name = for_terminal(clipped(plugin.__name__, 60))
        raise TypeError(f"{start} the class {name}: make its plugin object, {name}(), as the "
                        "registry makes one for an entry point that names a class")
    actual = getattr(plugin, "KIND", None)
    if actual != kind:
        name = for_terminal(clipped(resolve.plugin_name(plugin), 60))
        have = "no KIND" if actual is None else f"KIND {shown(actual)}"
        raise RulesetError(f"{function} takes {where}, a plugin of KIND {shown(kind)}; "
                           f"plugin {shown(name)} has {have} (the kinds are "
                           f"{', '.join(map(shown, KINDS))})")
