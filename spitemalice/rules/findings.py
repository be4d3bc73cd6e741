"""The findings a rule-sheet clause may declare it intends (``Clause.expects``).

``spitemalice validate``, the conformance kit and studies report findings by name.  Some of
them are what a rule is meant to do: a house rule that caps a discard pile at three cards
leaves a seat with only a pass on purpose; a rule set meant to end drawn often has a low
completion.  The clause that says so declares the finding's name,
``Clause("SD-1", "...", "HOUSE", expects=("stuck-seat",))``, and the finding is then reported
as ``info`` citing that clause instead of failing (an error) or warning.

A name declared here that no tool reports yet is reserved, so a declaration written today
keeps its meaning.  This module imports nothing of the library: the rule sheet (which may not
import validation) and validation (which judges) both read this one table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

EXPECTABLE: dict[str, str] = {
    "stuck-seat": "a seat is left, at the start of its turn, with no legal move but a pass "
                  "although it holds a card it may discard (validate and the conformance "
                  "kit's checked games)",
    "completion": "most games between greedy players end without a winner (validate's "
                  "completion judgement)",
    "balance": "one turn position wins far more often than another (validate's balance "
               "judgement)",
    "duration_moves": "games last more than twice as long as the base rule set's (validate's "
                      "duration judgement)",
    "unusual combination": "a changed parameter has a value, or a pairing with another "
                           "play-shaping parameter, that no built-in rule set uses (validate "
                           "compares with the base rule set)",
    "unexercised": "no game of a study exercised this clause: no move it governs was played "
                   "or refused and no event it defines happened (clause coverage)",
}
"""Finding name -> what it means.  ``unexercised`` applies to the declaring clause only; the
others are findings about the whole configuration, which any clause of its sheet may
declare."""


def expects_names(names: Iterable[str] | str) -> tuple[str, ...]:
    """``Clause.expects`` as a tuple of names; a single name given as a string is one name,
    not its characters.

    Raises:
        ValueError: a name that is not one of :data:`EXPECTABLE` (the message lists them).
    """
    return known_names(names, EXPECTABLE, "expects", "finding a clause may declare")


def known_names(names: Iterable[str] | str, table: Iterable[str], field: str,
                kind: str) -> tuple[str, ...]:
    """``names`` (one name as a string, or several) as a tuple, each one of ``table``'s; what
    a clause's ``field`` is checked with.

    Raises:
        ValueError: a name not in ``table``: the message names ``field``, the unknown names,
            what a name must be (``kind``) and the names there are.
    """
    found = (names,) if isinstance(names, str) else tuple(names)
    known = list(table)
    unknown = [name for name in found if name not in known]
    if unknown:
        raise ValueError(f"{field} names {', '.join(map(repr, unknown))}, which is no {kind}; "
                         f"the names are {', '.join(known)}")
    return found


def how_to_declare(name: str) -> str:
    """The sentence a finding's message ends with when no clause declares it: how to say
    that the rules intend it, in a rule-set file's words and in Python's (the reader may
    write either)."""
    return (f"if the rules intend this, declare it on the clause that says so: "
            f"expects = [\"{name}\"] in a rule-set file's rule, or "
            f"Clause(..., expects=({name!r},)) in Python")


def cite(clause_ids: Iterable[str]) -> str:
    """How a finding the rules intend ends: ``(intended: clause SD-1)``, or ``(intended:
    clauses SD-1, SD-2)``."""
    ids = list(clause_ids)
    word = "clause" if len(ids) == 1 else "clauses"
    return f"(intended: {word} {', '.join(ids)})"


class _Declaring(Protocol):
    """What :func:`declared` reads of a clause (a ``Clause``, not imported here)."""

    @property
    def id(self) -> str: ...

    @property
    def expects(self) -> tuple[str, ...]: ...


def declared(clauses: Iterable[_Declaring], name: str) -> tuple[str, ...]:
    """The ids of the clauses in ``clauses`` that declare the finding ``name``, in sheet
    order (empty when none does)."""
    return tuple(clause.id for clause in clauses if name in clause.expects)
