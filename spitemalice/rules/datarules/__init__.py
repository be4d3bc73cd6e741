"""House rules written as data in a rule-set file: ``[[rule]]`` tables, each a clause with a
``forbid``, ``require`` or ``values`` rule (or a clause alone), compiled once when the file is
read onto the hooks a Python house rule implements (docs/variants.md teaches the language).

:func:`compile_rules` turns the tables into plugin objects; every fault refuses the whole file
with its line and column.  Conditions read only what the mover sees
(:mod:`~spitemalice.rules.datarules.vocabulary`) and are evaluated by the safe evaluator
``simpleeval`` (the ``datarules`` extra).
"""

from spitemalice.rules.datarules.compile import KEYS, compile_named, compile_rules, names_table
from spitemalice.rules.datarules.plugins import DataRule
from spitemalice.rules.datarules.vocabulary import CONDITION_NAMES, HIDDEN, MOVE_KINDS

__all__ = [
           "CONDITION_NAMES",
           "HIDDEN",
           "KEYS",
           "MOVE_KINDS",
           "DataRule",
           "compile_named",
           "compile_rules",
           "names_table",
]
