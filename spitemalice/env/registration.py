"""Gymnasium ids for the installed rule sets: ``gymnasium.make("spitemalice/BlackwoodFrey-v0")``.

Importing :mod:`spitemalice.env` registers one id per installed turn-based rule set (the
built-in ones and any a plugin adds; not Spit, whose seats move at once), in the namespace
``spitemalice``: the rule set's name with each word capitalised and the hyphens dropped,
then ``-v0`` (``blackwood-frey`` is ``spitemalice/BlackwoodFrey-v0``, ``skip-bo``
``spitemalice/SkipBo-v0``).  Each id makes the single-seat environment
:func:`spitemalice.env.single_agent` makes, and takes its keyword arguments: ``players``,
``house_rules``, rule-set parameters (``payoff_size=13``), ``seat``, ``opponents``,
``reward``, ``illegal``, ``discard_depth``, ``render_mode``.
``gymnasium.make("spitemalice.env:spitemalice/BlackwoodFrey-v0")`` imports the module
first, for a program that has not.
"""

from __future__ import annotations

import gymnasium

from spitemalice.errors import SpiteMaliceError
from spitemalice.rules.loader import turn_based_rulesets
from spitemalice.wording import given_text

NAMESPACE = "spitemalice"
"""The Gymnasium namespace of every id."""


def gym_id(ruleset: str) -> str:
    """The registered id of the rule set named ``ruleset``: ``"spitemalice/BlackwoodFrey-v0"``
    for ``"blackwood-frey"``.

    Raises:
        SpiteMaliceError: ``ruleset`` is not a str (a RuleBook, say: the message names its
            ``.ruleset.name``).
    """
    if not isinstance(ruleset, str):
        hint = ": give rules.ruleset.name" if type(ruleset).__name__ == "RuleBook" else ""
        raise SpiteMaliceError(f"gym_id takes a rule set's name (a str), "
                               f"not {given_text(ruleset)}{hint}")
    words = ruleset.replace("_", "-").split("-")
    return f"{NAMESPACE}/{''.join(word[:1].upper() + word[1:] for word in words)}-v0"


def register_rulesets() -> dict[str, str]:
    """Register an id for every installed turn-based rule set that has none yet; return
    ``{id: rule-set name}`` of every rule set's id.  A rule set whose seats move at once
    (Spit) gets no id: the environments take turns, and refuse it by name."""
    ids = {}
    for name in turn_based_rulesets():
        env_id = gym_id(name)
        ids[env_id] = name
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="spitemalice.env:single_agent",
                               kwargs={"ruleset": name})
    return ids
