"""Findings the rules intend: a clause's ``expects`` and a plugin's ``VALIDATE_EXPECTS``.

A finding the rule sheet intends is reported as ``info`` citing the clause that declares it
(``(intended: clause SD-1)``), instead of failing validate (a stuck seat is otherwise an error)
or warning (a low completion); a finding no clause declares says how to declare it
(:func:`spitemalice.rules.findings.how_to_declare`); the wording of both is
:mod:`spitemalice.rules.findings`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from spitemalice.errors import RulesetError
from spitemalice.rules.book import RuleBook
from spitemalice.rules.findings import EXPECTABLE, declared

from .judge import JUDGED

RENAMED = {"drawn rate": "completion", "decisiveness": "completion",
           "duration": "duration_moves"}
"""Finding names of earlier releases, now named after the metrics of ``simulate --metrics``:
a plugin's ``VALIDATE_EXPECTS`` written with them keeps working."""

PER_CLAUSE = ("unexercised",)
"""Names a clause declares for itself alone; the others are about the whole configuration."""


def plugin_expects(plugins: Sequence[object]) -> dict[str, str]:
    """Finding name -> clause id, from the plugins' ``VALIDATE_EXPECTS`` (the older way to
    declare a judged finding; a clause's ``expects`` is the newer).

    Raises:
        RulesetError: a plugin names a finding validate does not judge (it would otherwise
            be silently ignored); the message lists the names judged.
    """
    expected: dict[str, str] = {}
    for plugin in plugins:
        for name, clause in (getattr(plugin, "VALIDATE_EXPECTS", {}) or {}).items():
            metric = RENAMED.get(name, name)
            if metric not in JUDGED:  # the older way keeps its older names
                owner = getattr(plugin, "NAME", type(plugin).__name__)
                raise RulesetError(f"{owner}: VALIDATE_EXPECTS names {name!r}, which validate "
                                   f"does not judge; the names are {', '.join(JUDGED)}")
            expected[metric] = clause
    return expected


def intended(book: RuleBook, plugins: Sequence[object]) -> dict[str, tuple[str, ...]]:
    """Finding name -> the ids of the clauses of ``book`` that intend it: every clause whose
    ``expects`` names it, then a plugin's ``VALIDATE_EXPECTS`` clause when the sheet has it.
    Names a clause declares for itself alone (:data:`PER_CLAUSE`) are left out.

    Raises:
        RulesetError: as :func:`plugin_expects`.
    """
    found = {name: declared(book.clauses, name) for name in EXPECTABLE
             if name not in PER_CLAUSE}
    ids = {clause.id for clause in book.clauses}
    for name, clause_id in plugin_expects(plugins).items():
        if clause_id in ids and clause_id not in found[name]:
            found[name] += (clause_id,)
    return {name: clauses for name, clauses in found.items() if clauses}


def intends(book: RuleBook, name: str) -> bool:
    """Whether some clause of ``book`` declares the finding ``name`` in its ``expects``."""
    return bool(declared(book.clauses, name))


Intended = Mapping[str, tuple[str, ...]]
"""What :func:`intended` returns: finding name -> the clauses that declare it."""
