"""Replaying and checking the record of a game whose seats move at once (Spit).

Such a record (:class:`~spitemalice.formats.records.record.GameRecord` with ``arrivals``)
holds every move in the order it was applied, each naming its seat, and the time each
arrived (:class:`~spitemalice.formats.records.record.ArrivalLog`).  Replaying it deals from
its seed through the engine (:func:`~spitemalice.engine.deal`) and applies each move with
:func:`~spitemalice.engine.apply_move`, which checks it for the seat it names: a move that
does not parse, or that its seat could not make at its point (a card that no longer fits,
a slap before the round is over), is refused with its number, the reason code and the
clause.  The outcome must be the replay's.

Whose move came first is the log's order: the times say when each arrived and never run
backwards (the reader refuses a log that does).
"""

from __future__ import annotations

from collections.abc import Iterator

from spitemalice.engine.deal import deal
from spitemalice.errors import (
    DataError,
)
from spitemalice.formats.record_problem import replay_moves
from spitemalice.formats.records.record import GameRecord, require_record
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.simultaneous import SimultaneousState
from spitemalice.wording import count_of


def check_arrival_form(record: GameRecord, book: RuleBook) -> None:
    """Refuse a record whose form does not fit a rule set whose seats move at once.

    Raises:
        DataError: ``book`` is turn-based but the record has ``arrivals``, or ``book`` moves
            at once and the record has no ``arrivals``, not one time per move, a dealer,
            teams, undos, or not one seat entry per seat; the field is named.
    """
    name = book.name
    if book.simultaneous is None:
        if record.arrivals is not None:
            raise DataError(f"record.arrivals: {name} is turn-based; only a record of a rule "
                            "set whose seats move at once has arrival times")
        return
    arrivals = record.arrivals
    if arrivals is None:
        raise DataError(f"record.arrivals: missing; {name}'s seats move at once, so its "
                        "record keeps when each move arrived")
    if len(arrivals.times_ms) != len(record.moves):
        raise DataError(f"record.arrivals.times_ms: {len(arrivals.times_ms)} time(s) for "
                        f"{len(record.moves)} move(s); the log holds one time per move")
    if len(record.seats) != book.players:
        raise DataError(f"record.seats: {count_of(len(record.seats), 'entry', 'entries')}, "
                        f"but the record's rules have {book.players} seats")
    for field, value, right in (("dealer", record.dealer, "null"),
                                ("teams", record.teams, "absent"),
                                ("undone", record.undone, "absent")):
        if value not in (None, ()):
            raise DataError(f"record.{field}: {name}'s seats move at once and it has no "
                            f"{field}; the field is {right} in its records")


def replay_arrivals(record: GameRecord, book: RuleBook) -> Iterator[SimultaneousState]:
    """The states of a recorded game whose seats move at once: the deal, then the state
    after each move, in the log's order.

    Raises:
        TypeError: ``record`` is not a record or ``book`` not a rule book (at the call, not
            at the first state).
        DataError: the record's form does not fit its rules (:func:`check_arrival_form`).
        RecordError: a move does not parse, or its seat could not make it at its point
            (reason code and clause in the problem's error), or the replay's outcome differs
            from the recorded one; the states before it have been yielded.
    """
    require_record(record, "replay_arrivals")
    check_book(book, "replay_arrivals")
    return _replay_arrivals(record, book)


def _replay_arrivals(record: GameRecord, book: RuleBook) -> Iterator[SimultaneousState]:
    """:func:`replay_arrivals`'s states, its arguments checked."""
    check_arrival_form(record, book)
    game = book.simultaneous
    assert game is not None  # check_arrival_form refused a turn-based book
    state: SimultaneousState = deal(book, record.seed)  # type: ignore[assignment]
    yield state
    yield from replay_moves(book, state, record.moves, game.parse_move, record.outcome)
