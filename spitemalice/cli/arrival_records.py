"""``replay`` and ``check`` of the record of a game whose seats move at once (Spit).

* ``spitemalice replay FILE`` prints the record's header (rules, seats, seed, the arrival
  policy and the stale intents), the deal and every move with its seat, its time of arrival
  and the position after it; ``--seat N`` shows seat N's view instead of the whole position,
  so what it prints depends only on what that seat may see.  On a terminal a position is
  laid out a field a line, into a file or a pipe as one line of JSON
  (:mod:`spitemalice.formats.plain_layout`).
* ``spitemalice check FILE``: exit 0 when every move is legal for the seat it names at its
  point, the outcome is the replay's and, for a simulated game whose seats are the game's
  bots, playing it again from its seed under its arrival policy gives the same log (the
  times and the stale intents too); 1 with the first difference, named.
"""

from __future__ import annotations

import argparse
import sys

from spitemalice.cli._args import say
from spitemalice.errors import IllegalMove, RecordError, SpiteMaliceError
from spitemalice.formats.arrival_replay import replay_arrivals
from spitemalice.formats.plain_layout import describe_plain, plain_line
from spitemalice.formats.records.record import GameRecord
from spitemalice.formats.replay import check_record
from spitemalice.rules.book import RuleBook
from spitemalice.runs.arrival import ReactionTimes, replayed_by_bots


def arrival_header(record: GameRecord, book: RuleBook) -> list[str]:
    """The lines that say how the record's moves were ordered: the arrival policy (or a
    table's clock) and the stale intents."""
    log = record.arrivals
    assert log is not None  # the record's form was checked against its rules
    if log.policy is None:
        how = "arrival times from a table's clock"
    else:
        try:
            how = ("arrival policy: "
                   + ReactionTimes.from_policy(log.policy).describe(book.players))
        except SpiteMaliceError:
            how = f"arrival policy: {log.policy.name} ({log.policy.distribution})"
    return [how, f"stale intents (arrived too late, decided again): {log.stale}"]


def run_arrival_replay(args: argparse.Namespace, record: GameRecord, book: RuleBook,
                       header: list[str], pretty: bool) -> int:
    """Print the header, the deal and every move (its seat and time) with the position, or
    with ``--seat N`` that seat's view, after it; exit 1 when a move cannot be replayed.

    Raises:
        SpiteMaliceError: ``--seat`` is not a seat of the rules, or ``--svg`` was given
            (pictures are of turn-based positions).
    """
    seat = args.seat
    if args.svg is not None:
        raise SpiteMaliceError(f"--svg draws turn-based positions; {book.name}'s seats move "
                               "at once: replay its record as text")
    if seat is not None and not 0 <= seat < book.players:
        raise SpiteMaliceError(f"--seat {seat}: {book.name} has seats 0 to "
                               f"{book.players - 1}")
    log = record.arrivals
    assert log is not None  # record_rules checked the form

    def show(state: object) -> str:
        shown = state if seat is None else state.view(seat)  # type: ignore[attr-defined]
        if not pretty:
            return plain_line(shown)
        return "\n".join(f"      {line}" for line in describe_plain(shown).split("\n"))

    for line in header + arrival_header(record, book) + (
            [] if seat is None else [f"seat {seat}'s view: what it may see, nothing else"]):
        say(line)
    states = replay_arrivals(record, book)
    try:
        say(_line(0, "deal", show(next(states)), pretty))
        for number, (text, after) in enumerate(zip(record.moves, states, strict=False), 1):
            what = f"{text}  at {log.times_ms[number - 1]!r} ms"
            say(_line(number, what, show(after), pretty))
        for _ in states:  # the outcome check after the last move
            pass
    except RecordError as error:
        say(f"spitemalice: error: {args.file}: {error}", flush=True, file=sys.stderr)
        return 1
    return 0


def _line(number: int, what: str, position: str, pretty: bool) -> str:
    if pretty:
        return f"{number:>4}  {what}\n{position}"
    return f"{number:>4}  {what:<28}  {position}"


def run_arrival_check(args: argparse.Namespace, record: GameRecord, book: RuleBook,
                      rules_text: str, outcome_text: str) -> int:
    """Print ``valid: ...`` (exit 0) or what is wrong (exit 1): the first move its seat could
    not make (the position before it, the rule it breaks), an outcome that is not the
    replay's, or a log the record's bots do not play again.

    Raises:
        SpiteMaliceError: ``--invariants`` was given (validate checks such games' invariants).
    """
    if args.invariants:
        raise SpiteMaliceError(f"check --invariants re-runs turn-based invariants; "
                               f"{book.name}'s seats move at once: spitemalice validate "
                               f"{book.name} checks its invariants")
    problem = check_record(record, book)
    if problem is not None:
        if problem.number is None:
            say(f"invalid: {args.file}: after the last move ({len(record.moves)}): "
                f"{problem.error}")
            say(f"final position: {plain_line(problem.before)}")
            return 1
        error = problem.error
        verb = "is illegal" if isinstance(error, IllegalMove) else "does not parse"
        say(f"invalid: {args.file}: move {problem.number} {problem.move!r} {verb}: {error}")
        say(f"position before move {problem.number}: {plain_line(problem.before)}")
        if isinstance(error, IllegalMove):
            say(f"rule: {rule_text(book, error)}")
        return 1
    again = replayed_by_bots(record, book)
    if again:
        say(f"invalid: {args.file}: its moves are legal, but {again}")
        return 1
    say(f"valid: {args.file}: {len(record.moves)} move(s), {rules_text}, outcome "
        f"{outcome_text}")
    say("arrival log: " + ("played again by its bots from its seed under its arrival "
                           "policy: the same moves, times and stale intents" if again == ""
                           else
                           "its times are not re-played (its seats are not all the game's "
                           "bots, or it names no arrival policy)"))
    return 0


def rule_text(book: RuleBook, error: IllegalMove) -> str:
    """The clause a refused move broke, for ``check``'s ``rule:`` line: its id and text and
    the reason code, or the reason alone when no clause of ``book`` covers it."""
    if not error.clause:
        return f"reason {error.reason} (no clause of {book.name} covers it)"
    try:
        clause = book.clause(error.clause)
    except KeyError:
        return f"{error.clause} [reason {error.reason}]"
    return f"{clause.id} {clause.text} [reason {error.reason}]"

