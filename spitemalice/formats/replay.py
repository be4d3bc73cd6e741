"""Replaying and checking game records through the engine.

Replaying a record (:mod:`spitemalice.formats.records`) loads its rules by name
(:func:`rules_for`), deals from its seed and applies its moves with
:func:`~spitemalice.engine.apply_move`, so every state equals the original game's at that
point.  It refuses a move that does not parse or is illegal at its point, naming its number
(:class:`~spitemalice.errors.RecordError`); :func:`check_record` reports the first such move
with the position before it and the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import attrs

from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.errors import (
    DataError,
    IllegalMove,
    NotationError,
    RecordError,
    RulesetError,
    SpiteMaliceError,
)
from spitemalice.formats.records.record import GameRecord, ParamValue, require_record
from spitemalice.guards import int_field
from spitemalice.model import GameState, Outcome
from spitemalice.moves import parse_move
from spitemalice.rules.book import RuleBook, check_book, require_turn_based
from spitemalice.rules.loader import load, load_installed
from spitemalice.rules.policies import same_teams, teams_text
from spitemalice.wording import count_of


@attrs.frozen
class RecordProblem:
    """The first thing wrong with a record's moves.

    Attributes:
        number: the move's number (1 for the first move), or ``None`` for a problem after
            the last move (an outcome the replay does not reach).
        move: the move's text, or ``None``.
        before: the position before the move (after the last move for ``number=None``).
        error: the :class:`~spitemalice.errors.IllegalMove` (with ``reason`` and ``clause``)
            or :class:`~spitemalice.errors.NotationError`, or a
            :class:`~spitemalice.errors.SpiteMaliceError` for an outcome mismatch.
    """

    number: int | None = attrs.field(validator=int_field())
    move: str | None
    before: GameState
    error: SpiteMaliceError

    @property
    def message(self) -> str:
        if self.number is None:
            return f"after the last move: {self.error}"
        return f"move {self.number} ({self.move!r}): {self.error}"



def rules_for(record: GameRecord, allow_files: bool = False) -> RuleBook:
    """Load the record's rules: the rule set by name, its house rules and parameters.

    Args:
        allow_files: whether the record's rule-set name may be the path of a custom rule-set
            file.  A record may come from a stranger, and a path there could name a device or
            a FIFO, so by default it is refused; records this library writes never hold one.

    Raises:
        RulesetError: the rule set or a house rule is not installed, the name is a path and
            files are not allowed, a parameter is refused, or the installed rule set's version
            differs from the record's.
    """
    ref = record.ruleset
    params = {k: _param_in(v) for k, v in ref.params}
    if allow_files:
        book = load(ref.name, ref.house_rules, params, allow_files=True)
    else:
        book = load_installed(ref.name, ref.house_rules, params, field="record.ruleset.name",
                              owner="a record")
    installed = book.own.version  # what own_version gives; load made the book
    if installed != ref.version:
        raise RulesetError(
            f"the record was made with {ref.name} version {ref.version}; the installed "
            f"{ref.name} is version {installed}, whose rules may differ"
        )
    return book


def _param_in(value: ParamValue) -> Any:
    return frozenset(value) if isinstance(value, tuple) else value


def replay(record: GameRecord, rules: RuleBook | None = None) -> Iterator[GameState]:
    """The states of the recorded game: the deal, then the state after each move.

    Args:
        rules: the rules to replay under; default :func:`rules_for` the record.

    Raises:
        RulesetError: the record's rules cannot be loaded (see :func:`rules_for`).
        DataError: the seats do not match the rules, or the dealer is not a seat.
        RecordError: a move does not parse or is illegal at its point, or the replay's
            outcome differs from the recorded one; states before it have been yielded.
        TypeError: ``rules`` is neither ``None`` nor a
            :class:`~spitemalice.rules.book.RuleBook` (raised at the call, not at the first
            state), or ``record`` is not a :class:`GameRecord` (a path, say: the message
            names :func:`~spitemalice.formats.records.reading.load_record`).
    """
    require_record(record, "replay")
    if rules is not None:
        check_book(rules, "replay")
    return _replay(record, rules)


def _replay(record: GameRecord, rules: RuleBook | None) -> Iterator[GameState]:
    """:func:`replay`'s states, its rule book checked."""
    book = rules_for(record) if rules is None else rules
    require_turn_based(book, "replay (and check_record)", DataError)
    if len(record.seats) != book.players:
        raise DataError(f"record.seats: {count_of(len(record.seats), 'entry', 'entries')}, but the "
                        "record's rules "
                        f"have {book.players} seats")
    if not same_teams(record.teams, book.teams.teams if book.teams.any else ()):
        raise DataError(f"record.teams: {teams_text(record.teams)}, but the record's rules "
                        f"form {teams_text(book.teams.teams if book.teams.any else ())}")
    try:
        state = deal(book, record.seed, record.dealer)
    except SpiteMaliceError as error:
        raise DataError(f"record.dealer: the deal cannot be made: {error}") from None
    yield state
    for number, text in enumerate(record.moves, 1):
        try:
            move = parse_move(text)
            after = apply_move(book, state, move)
        except (NotationError, IllegalMove) as error:
            raise RecordError(RecordProblem(number, text, state, error)) from None
        yield after
        state = after
    if state.outcome != record.outcome:
        mismatch = SpiteMaliceError(
            f"the record states outcome {_outcome_text(record.outcome)}, but the replay "
            f"ends with {_outcome_text(state.outcome)}"
        )
        raise RecordError(RecordProblem(None, None, state, mismatch))


def final_state(record: GameRecord, rules: RuleBook | None = None) -> GameState:
    """The state after the record's last move (to resume a saved game).

    Raises:
        RulesetError, RecordError: as :func:`replay`.
        TypeError: ``rules`` is neither ``None`` nor a :class:`~spitemalice.rules.book.RuleBook`,
            or ``record`` is not a :class:`GameRecord` (as :func:`replay`).
    """
    require_record(record, "final_state")
    if rules is not None:
        check_book(rules, "final_state")
    states = replay(record, rules)
    state = next(states)
    for state in states:  # noqa: B007 - the last state is the answer
        pass
    return state


def check_record(record: GameRecord, rules: RuleBook | None = None) -> RecordProblem | None:
    """``None`` when every move is legal at its point and the outcome matches the replay's,
    else the first :class:`RecordProblem`.

    Raises:
        RulesetError: the record's rules cannot be loaded.
        DataError: the seats do not match the rules, or the dealer is not a seat.
        TypeError: ``rules`` is neither ``None`` nor a :class:`~spitemalice.rules.book.RuleBook`,
            or ``record`` is not a :class:`GameRecord` (as :func:`replay`).
    """
    require_record(record, "check_record")
    if rules is not None:
        check_book(rules, "check_record")
    try:
        for _ in replay(record, rules):
            pass
    except RecordError as error:
        # replay() raises RecordError with a RecordProblem only (errors.py names no type of
        # this layer, so the error's field is typed by what it needs of a problem).
        return cast(RecordProblem, error.problem)
    return None


def _outcome_text(outcome: Outcome | None) -> str:
    if outcome is None:
        return "none (the game is live)"
    winner = "" if outcome.winner is None else f" by seat {outcome.winner}"
    return f"{outcome.kind}{winner}, scores {list(outcome.scores)}"
