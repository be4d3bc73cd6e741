"""Gymnasium ids for the installed rule sets: ``gymnasium.make("spitemalice/BlackwoodFrey-v1")``.

Importing :mod:`spitemalice.env` registers two ids per installed turn-based rule set (the
built-in ones and any a plugin adds; not Spit, whose seats move at once), in the namespace
``spitemalice``: the rule set's name with each word capitalised and the hyphens dropped,
then the version of the action space:

* ``-v0``, actions by hand slot (``catalogue="slot"``, :mod:`spitemalice.env.actions`);
* ``-v1``, actions by card (``catalogue="card"``, :mod:`spitemalice.env.card_actions`), the
  same actions whatever the order of the hand.

``blackwood-frey`` is ``spitemalice/BlackwoodFrey-v0`` and ``-v1``, ``skip-bo``
``spitemalice/SkipBo-v0`` and ``-v1``.  Each id makes the single-seat environment
:func:`spitemalice.env.single_agent` makes, and takes its keyword arguments: ``players``,
``house_rules``, rule-set parameters (``payoff_size=13``), ``seat``, ``opponents``,
``reward``, ``illegal``, ``discard_depth``, ``render_mode``.

Registered, an id answers an illegal action with a penalty (``illegal="penalty"``,
:mod:`spitemalice.env.single`) rather than raising, so that the environment an id makes
passes Gymnasium's ``check_env`` as it is: the checker draws an action in one deal and
plays it in the next, where no sampling can know it is legal.  ``illegal="raise"`` restores
the refusal.  ``gymnasium.make("spitemalice.env:spitemalice/BlackwoodFrey-v1")`` imports the
module first, for a program that has not.
"""

from __future__ import annotations

import gymnasium

from spitemalice.env.arguments import catalogue_of
from spitemalice.errors import SpiteMaliceError
from spitemalice.rules.loader import turn_based_rulesets
from spitemalice.wording import given_text

NAMESPACE = "spitemalice"
"""The Gymnasium namespace of every id."""

VERSIONS = {"slot": 0, "card": 1}
"""The id's version of each action space (``catalogue``)."""

REGISTERED_ILLEGAL = "penalty"
"""The ``illegal`` option every registered id starts from (module docstring)."""


def gym_id(ruleset: str, catalogue: str = "slot") -> str:
    """The registered id of the rule set named ``ruleset`` with the action space
    ``catalogue``: ``"spitemalice/BlackwoodFrey-v0"`` for ``"blackwood-frey"``,
    ``"spitemalice/BlackwoodFrey-v1"`` with ``catalogue="card"``.

    Raises:
        SpiteMaliceError: ``ruleset`` is not a str (a RuleBook, say: the message names its
            ``.ruleset.name``), or ``catalogue`` is neither ``"slot"`` nor ``"card"``.
    """
    if not isinstance(ruleset, str):
        hint = ": give rules.ruleset.name" if type(ruleset).__name__ == "RuleBook" else ""
        raise SpiteMaliceError(f"gym_id takes a rule set's name (a str), "
                               f"not {given_text(ruleset)}{hint}")
    version = VERSIONS[catalogue_of(catalogue)]
    words = ruleset.replace("_", "-").split("-")
    return f"{NAMESPACE}/{''.join(word[:1].upper() + word[1:] for word in words)}-v{version}"


def register_rulesets() -> dict[str, str]:
    """Register the ids of every installed turn-based rule set that has none yet; return
    ``{id: rule-set name}`` of every rule set's ids (both versions).  A rule set whose seats
    move at once (Spit) gets no id: the environments take turns, and refuse it by name."""
    ids = {}
    for name in turn_based_rulesets():
        for catalogue in VERSIONS:
            env_id = gym_id(name, catalogue)
            ids[env_id] = name
            if env_id not in gymnasium.registry:
                gymnasium.register(env_id, entry_point="spitemalice.env:single_agent",
                                   kwargs={"ruleset": name, "catalogue": catalogue,
                                           "illegal": REGISTERED_ILLEGAL})
    return ids
