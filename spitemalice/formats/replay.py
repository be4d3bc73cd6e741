"""Replaying and checking game records through the engine.

Replaying a record (:mod:`spitemalice.formats.records`) loads its rules by name
(:func:`rules_for`), deals from its seed and applies its moves with
:func:`~spitemalice.engine.apply_move`, so every state equals the original game's at that
point.  It refuses a move that does not parse or is illegal at its point, naming its number
(:class:`~spitemalice.errors.RecordError`); :func:`check_record` reports the first such move
with the position before it and the rule it breaks.

A record of a game whose seats move at once (Spit) has its own replay,
:func:`~spitemalice.formats.arrival_replay.replay_arrivals` (its states are the rule set's
own); :func:`check_record` checks either kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

from spitemalice.engine.deal import deal
from spitemalice.errors import (
    DataError,
    RecordError,
    RulesetError,
    SpiteMaliceError,
)
from spitemalice.formats.arrival_replay import check_arrival_form, replay_arrivals
from spitemalice.formats.record_problem import RecordProblem, replay_moves
from spitemalice.formats.records.record import GameRecord, ParamValue, require_record
from spitemalice.model import GameState
from spitemalice.moves import parse_move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.datarules.compile import compile_named
from spitemalice.rules.loader import check_installed_name, load_plugins
from spitemalice.rules.policies import same_teams, teams_text
from spitemalice.rules.registry import load_plugin
from spitemalice.wording import count_of


def rules_for(record: GameRecord, allow_files: bool = False) -> RuleBook:
    """Load the record's rules: the rule set by name, its house rules and parameters; a house
    rule a rule-set file wrote as data is compiled from the table the record carries
    (:attr:`~spitemalice.formats.records.record.RulesetRef.data_rules`), so no file is read.

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
    if not allow_files:  # a stranger's record: an installed rule set, never a path
        check_installed_name(ref.name, field="record.ruleset.name", owner="a record")
    tables = dict(ref.data_rules)
    rules = [_data_rule(name, tables[name]) if name in tables
             else load_plugin(name, "house-rule") for name in ref.house_rules]
    book = load_plugins(ref.name, rules, {k: _param_in(v) for k, v in ref.params},
                        allow_files=allow_files)
    installed = book.own.version  # what own_version gives; load made the book
    if installed != ref.version:
        raise RulesetError(
            f"the record was made with {ref.name} version {ref.version}; the installed "
            f"{ref.name} is version {installed}, whose rules may differ"
        )
    return book


def _data_rule(name: str, table: Mapping[str, Any]) -> object:
    """The plugin of a data rule the record carries (``FILE.toml:CLAUSE`` and its table),
    compiled as the file's reader compiles it.

    Raises:
        RulesetError: the table does not compile (changed by hand, or made by a newer
            library); the message names the field and the rule's fault.
    """
    try:
        return compile_named(name, table)
    except RulesetError as error:
        raise RulesetError(f"record.ruleset.data_rules[{name!r}]: {error}") from None


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
        DataError: the record's rule set moves its seats at once (replay it with
            :func:`~spitemalice.formats.arrival_replay.replay_arrivals`), or the record has
            arrival times, which only such a rule set's records have.
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
    if book.simultaneous is not None:
        raise DataError(f"replay gives the states of a turn-based game; {book.name}'s seats "
                        "move at once: replay its record with "
                        "spitemalice.formats.replay_arrivals (check_record checks either)")
    check_arrival_form(record, book)
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
    yield from replay_moves(book, state, record.moves, parse_move, record.outcome)


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
    else the first :class:`RecordProblem`.  A record of a game whose seats move at once is
    replayed by :func:`~spitemalice.formats.arrival_replay.replay_arrivals`: each move checked
    for the seat it names, in the order the moves arrived.

    Raises:
        RulesetError: the record's rules cannot be loaded.
        DataError: the seats do not match the rules, or the dealer is not a seat; or the
            record's arrival times do not fit its rules (missing for a rule set whose seats
            move at once, present for a turn-based one).
        TypeError: ``rules`` is neither ``None`` nor a :class:`~spitemalice.rules.book.RuleBook`,
            or ``record`` is not a :class:`GameRecord` (as :func:`replay`).
    """
    require_record(record, "check_record")
    if rules is not None:
        check_book(rules, "check_record")
    book = rules_for(record) if rules is None else rules
    states = replay_arrivals(record, book) if book.simultaneous is not None else replay(
        record, book)
    try:
        for _ in states:
            pass
    except RecordError as error:
        # replay() raises RecordError with a RecordProblem only (errors.py names no type of
        # this layer, so the error's field is typed by what it needs of a problem).
        return cast(RecordProblem, error.problem)
    return None
