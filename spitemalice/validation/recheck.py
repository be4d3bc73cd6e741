"""Re-running validate's checks over a recorded game (``spitemalice check --invariants``)."""

from __future__ import annotations

from spitemalice.engine.deal import deal
from spitemalice.engine.invariants.run import state_violations
from spitemalice.engine.invariants.violation import Violation
from spitemalice.engine.legal import legal_moves
from spitemalice.formats.records.record import GameRecord
from spitemalice.moves import parse_move
from spitemalice.rules.book import RuleBook, check_book

from .audit import audit_position
from .dynamic import AGREE, ROUND_TRIP, step_violation, unintended
from .roundtrip import RoundTrip


def recheck_record(record: GameRecord, rules: RuleBook) -> tuple[int, Violation] | None:
    """The first fault validate would report along the recorded game, with the number of
    moves played before it shows (0: at the deal), or ``None`` when there is none.

    The deal gets the checks of a fresh deal; every live position is audited (listed and
    checked moves agree, see :func:`~spitemalice.validation.audit.audit_position`, and each
    listed move comes back from text, JSON and action numbers,
    :mod:`~spitemalice.validation.roundtrip`); every move is followed by the state and
    transition invariants and the stuck-seat check (unless a clause intends stuck seats,
    ``expects=("stuck-seat",)``); an exception
    a plugin raises is the fault ``"crash"``.  The moves must be legal (``spitemalice check``
    tells first).

    Raises:
        SpiteMaliceError: the deal cannot be made (seats or dealer do not fit the rules), or a
            move does not parse.
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "recheck_record")
    state = deal(rules, record.seed, record.dealer)
    found = state_violations(rules, state, fresh=True)
    if found:
        return 0, found[0]
    forms = RoundTrip(rules)
    for number, text in enumerate([*record.moves, None]):
        if state.outcome is None:
            problem = audit_position(rules, state)
            if problem:
                return number, Violation(AGREE, problem)
            problem = forms.problem(state, legal_moves(rules, state))
            if problem:
                return number, Violation(ROUND_TRIP, problem)
        if text is None:
            return None
        state, violation = step_violation(rules, state, parse_move(text))
        violation = unintended(rules, violation)
        if violation is not None:
            return number + 1, violation
    return None
