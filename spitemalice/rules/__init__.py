"""The rule book: rule sets, the hooks plugins answer, and how one rule book is resolved.

Loading flows one way: a name is looked up in the :mod:`~spitemalice.rules.registry`, its
plugins are registered on one pluggy manager, their answers are folded into a
:class:`~spitemalice.rules.ruleset.Ruleset` and a :class:`~spitemalice.rules.book.RuleBook`
(:mod:`~spitemalice.rules.loader`).  Nothing here imports the engine.
"""
