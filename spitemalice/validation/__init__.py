"""Validating a rule-set configuration: static checks, checked games, a judgement, a report.

``validate("g4a", ["mandatory-aces"], {"players": 2}, games=300, seed=1)`` returns a
:class:`Report`; ``spitemalice validate`` prints it.  ``Validation(book, games=300,
seed=1).run()`` does the same for a rule book already built (a plugin not installed, say),
and :func:`validate_book` is that call in one.  Errors mean the rules are inconsistent (an
invariant broken, a crash, a game that does not end, listed and checked moves that
disagree); warnings mean they play badly (see :mod:`spitemalice.validation.judge`).

The modules, in the order a run uses them: :mod:`~spitemalice.validation.run` (the
:class:`Validation` value and its entry points), :mod:`~spitemalice.validation.static`,
:mod:`~spitemalice.validation.dynamic` (the checked games, with
:mod:`~spitemalice.validation.audit`, :mod:`~spitemalice.validation.roundtrip`,
:mod:`~spitemalice.validation.termination` and :mod:`~spitemalice.validation.tally`),
:mod:`~spitemalice.validation.steps` (what is done after the games: other seat counts and
stacking orders from :mod:`~spitemalice.validation.spread`, the judgement of
:mod:`~spitemalice.validation.judge` against :mod:`~spitemalice.validation.base`, the
smallest failing game from :mod:`~spitemalice.validation.shrink`) and
:mod:`~spitemalice.validation.report`.
"""

from __future__ import annotations

from .report import Check, Finding, GameStats, Report, format_report
from .run import Validation, validate, validate_book
from .steps import STEPS, Step

__all__ = ["STEPS", "Check", "Finding", "GameStats", "Report", "Step", "Validation",
           "format_report", "validate", "validate_book"]
