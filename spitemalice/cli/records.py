"""The record and position subcommands: ``replay``, ``check`` and ``show``.

* ``spitemalice replay FILE`` prints a recorded game move by move: on a terminal each position
  laid out on several lines, for people; into a file or a pipe each as one line of the
  position notation, for programs (``--pretty`` and ``--notation`` choose either).  Exit 0, or
  1 when a move cannot be replayed (the error is the last line, on stderr).
* ``spitemalice check FILE`` validates a record against its rule set: exit 0 when every move
  is legal at its point and the outcome is the replay's; 1 with the first bad move's number,
  the position before it and the rule it breaks; 2 when the file cannot be read as a record
  or its rules cannot be loaded.
* ``spitemalice show POSITION --ruleset NAME`` lays out a position (or a view, a position
  with a ``view=`` field) for people; the position may be one quoted argument or several.
  With ``--svg FILE`` it writes the position (or view) as an SVG picture
  (:func:`spitemalice.formats.picture.position_svg`) instead of laying it out as text.
* ``spitemalice replay FILE --svg DIR`` also writes one picture per position:
  ``DIR/move-0000.svg`` for the deal, ``DIR/move-0001.svg`` after the first move, and on.

Pictures are written by the library's one rule for files (:mod:`spitemalice.files`):
never through a symbolic link, never over a file already there unless ``--force`` is given,
and every name checked before the first picture is written.  A file or folder that cannot be
written is an :class:`~spitemalice.errors.OutputError` (one line, exit status 2).

Errors the user can cause are :class:`~spitemalice.errors.SpiteMaliceError`\\ s, which the
command line prints as one line with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from spitemalice.cli._args import (
    Parser,
    add_allow_files,
    add_force,
    add_set,
    players,
    rule_params,
    say,
    seat,
)
from spitemalice.cli.arrival_records import rule_text, run_arrival_check, run_arrival_replay
from spitemalice.engine.views import SeatView, view_of
from spitemalice.errors import (
    DataError,
    IllegalMove,
    NotationError,
    RecordError,
    RulesetError,
    SpiteMaliceError,
)
from spitemalice.files import check_new, make_folder, write_file
from spitemalice.formats.arrival_replay import replay_arrivals
from spitemalice.formats.commitment import deal_problem, revealed
from spitemalice.formats.layout import describe_position, describe_view
from spitemalice.formats.notation import format_position, format_view
from spitemalice.formats.parse import parse_position, parse_view, seat_count
from spitemalice.formats.picture import position_svg
from spitemalice.formats.records.reading import load_record
from spitemalice.formats.records.record import GameRecord
from spitemalice.formats.replay import check_record, replay, rules_for
from spitemalice.model import GameState, Outcome
from spitemalice.moves import parse_move
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load
from spitemalice.wording import for_terminal

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands


def add_replay(commands: Commands) -> Parser:
    """Add ``replay`` to ``commands`` (argparse subparsers), with ``--svg DIR``."""
    rep = commands.add_parser("replay", help="show a recorded game move by move")
    rep.add_argument("file", type=Path, metavar="FILE", help="a game record (JSON)")
    layout = rep.add_mutually_exclusive_group()
    layout.add_argument("--pretty", action="store_true",
                        help="lay each position out on several lines (the default on a "
                             "terminal)")
    layout.add_argument("--notation", action="store_true",
                        help="each position as one line of the position notation (the "
                             "default into a file or a pipe)")
    rep.add_argument("--seat", type=seat, metavar="N",
                     help="show seat N's view of each position (what that seat may see) "
                          "instead of the whole position")
    rep.add_argument("--svg", type=Path, metavar="DIR",
                     help="also write one SVG picture per position into DIR "
                     "(move-0000.svg is the deal)")
    add_force(rep)
    return rep


def add_check(commands: Commands) -> Parser:
    """Add ``check`` to ``commands`` (argparse subparsers)."""
    chk = commands.add_parser(
        "check", help="validate a game record: exit 0 valid, 1 invalid, 2 unreadable")
    chk.add_argument("file", type=Path, metavar="FILE", help="a game record (JSON)")
    chk.add_argument("--invariants", action="store_true",
                     help="also check every invariant on every position (as validate does)")
    return chk


def add_show(commands: Commands) -> Parser:
    """Add ``show`` to ``commands`` (argparse subparsers), with ``--svg FILE``."""
    show = commands.add_parser("show", help="lay out a position given in the notation")
    show.add_argument("position", nargs="+", metavar="POSITION",
                      help="a position (or a view) in the notation, quoted or not")
    show.add_argument("--ruleset", required=True, metavar="NAME",
                      help="the rule set the position belongs to")
    show.add_argument("--players", type=players,
                      help="seats in the game (default: the seats the position shows)")
    show.add_argument("--house-rule", action="append", default=[], metavar="NAME",
                      help="a house rule to stack on the rule set (repeatable)")
    add_set(show)
    add_allow_files(show)
    show.add_argument("--svg", type=Path, metavar="FILE",
                      help="write the position as an SVG picture to FILE")
    add_force(show)
    return show


def record_rules(path: Path) -> tuple[GameRecord, RuleBook]:
    """The record in ``path`` and its rules, its seats, teams and dealer checked against
    them by dealing its game: every error names the file, as the reader's own do (a
    command may be given many records).

    Raises:
        RulesetError: the record's rules cannot be loaded.
        DataError: the file is not a record, or its seats, teams or dealer do not fit its
            rules.
    """
    record = load_record(path)
    try:
        book = rules_for(record)
        if book.simultaneous is not None:
            next(replay_arrivals(record, book))
        else:
            next(replay(record, book))
    except (RulesetError, DataError) as error:
        raise type(error)(f"{path}: {error}") from None
    return record, book


def run_replay(args: argparse.Namespace) -> int:
    """Print the record's header, the deal and every move with the position after it (exit
    1 when a move cannot be replayed); with ``--svg DIR``, write a picture per position
    first."""
    record, book = record_rules(args.file)
    pretty = args.pretty or (not args.notation and _terminal())
    if book.simultaneous is not None:
        code = run_arrival_replay(args, record, book, _header(record), pretty)
        if not code:
            say(f"outcome: {_outcome(record.outcome)}")
        return code
    if args.seat is not None and not 0 <= args.seat < book.players:
        raise SpiteMaliceError(f"--seat {args.seat}: {book.name} has seats 0 to "
                               f"{book.players - 1}")
    if args.svg is not None:
        _replay_pictures(record, book, args.svg, args.force)
    teams = book.teams.teams

    def show(state: GameState) -> str:
        if args.seat is not None:
            return (describe_view if pretty else format_view)(view_of(state, args.seat), teams)
        return (describe_position if pretty else format_position)(state, teams)

    for line in _header(record):
        say(line)
    if args.seat is not None:
        say(f"seat {args.seat}'s view: what it may see, nothing else")
    states = replay(record, book)
    try:
        before = next(states)
        say(_line(0, "deal", show(before), pretty))
        for number, (text, after) in enumerate(zip(record.moves, states, strict=False), 1):
            say(_line(number, f"seat {before.seat}  {text}", show(after), pretty))
            before = after
        for _ in states:  # the outcome check after the last move
            pass
    except RecordError as error:
        say(f"spitemalice: error: {args.file}: {error}", flush=True, file=sys.stderr)
        return 1
    say(f"outcome: {_outcome(record.outcome)}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Print ``valid: ...`` (exit 0) or the first problem, the position before it and the
    rule it breaks (exit 1)."""
    record, book = record_rules(args.file)
    if (broken_deal := deal_problem(record, book)) is not None:
        say(f"invalid: {args.file}: {broken_deal}")
        return 1
    if record.commitment is not None:
        say(revealed(record))
    if book.simultaneous is not None:
        return run_arrival_check(args, record, book, _rules(record), _outcome(record.outcome))
    problem = check_record(record, book)
    if problem is None:
        broken = _broken_invariant(args, record, book)
        if broken is not None:
            say(broken)
            return 1
        say(f"valid: {args.file}: {len(record.moves)} move(s), {_rules(record)}, outcome "
              f"{_outcome(record.outcome)}")
        if record.practice:
            say(_practice(record))
        for line in _takeovers(record):
            say(line)
        return 0
    error = problem.error
    assert isinstance(problem.before, GameState)  # a turn-based record's replay
    if problem.number is None:
        say(f"invalid: {args.file}: after the last move ({len(record.moves)}): {error}")
        say(f"final position: {format_position(problem.before, book.teams.teams)}")
        return 1
    what = _refusal(problem.move or "", error)
    say(f"invalid: {args.file}: move {problem.number} by seat {problem.before.seat} "
          f"{problem.move!r} {what}")
    say(f"position before move {problem.number}: "
          f"{format_position(problem.before, book.teams.teams)}")
    if isinstance(error, IllegalMove):
        say(f"rule: {rule_text(book, error)}")
    return 1


def _broken_invariant(args: argparse.Namespace, record: GameRecord,
                      book: RuleBook) -> str | None:
    """Why a record whose moves are legal is not valid all the same, or ``None``.

    With ``--invariants`` every invariant is re-run on every position and the first broken one
    is reported (and compared with the finding a validate failure record stores); without it a
    stored finding alone keeps the record from being called valid.
    """
    from spitemalice.validation.recheck import recheck_record

    stored = record.finding
    if not args.invariants:
        if stored is None:
            return None
        return (f"invalid: {args.file}: its moves are legal, but validate recorded the broken "
                f"invariant {stored.invariant}: {stored.message} (check --invariants re-runs "
                "them)")
    found = recheck_record(record, book)
    if found is None:
        if stored is None:
            return None
        return (f"invalid: {args.file}: validate recorded the broken invariant "
                f"{stored.invariant}, but every position keeps every invariant now")
    number, violation = found
    where = "the deal" if number == 0 else f"move {number} {record.moves[number - 1]!r}"
    same = "" if stored is None else (
        "; the same finding validate recorded" if
        (stored.invariant, stored.message) == (violation.invariant, violation.message)
        else f"; validate recorded {stored.invariant}: {stored.message}")
    return (f"invalid: {args.file}: after {where} the invariant {violation.invariant} is broken:"
            f" {violation.message}{same}")


def run_show(args: argparse.Namespace) -> int:
    """Parse the position (or view) against the rule set and lay it out, the teams
    included in a game with teams; with ``--svg FILE``, write its picture to FILE instead."""
    if args.svg is not None:
        return _show_picture(args)
    book, position = shown_position(args)
    teams = book.teams.teams
    if isinstance(position, SeatView):
        say(describe_view(position, teams))
    else:
        say(describe_position(position, teams))
    return 0


def shown_position(args: argparse.Namespace) -> tuple[RuleBook, GameState | SeatView]:
    """The rules, and the position (or view, with a ``view=`` field) ``show`` was given,
    parsed against them.

    Raises:
        SpiteMaliceError: the rule set cannot be loaded, the position does not parse, or the
            rule set's seats move at once (its positions have no text: ``no-notation``).
    """
    text = " ".join(args.position)
    params = rule_params(args)
    try:
        params.setdefault("players", seat_count(text))
    except NotationError:  # a rule set with no notation says so before the text's faults
        book = load(args.ruleset, args.house_rule, params, allow_files=args.allow_files)
        if book.simultaneous is not None:
            parse_position(text, book)  # raises no-notation
        raise
    book = load(args.ruleset, args.house_rule, params, allow_files=args.allow_files)
    return book, parse_view(text, book) if "view=" in text else parse_position(text, book)


def _show_picture(args: argparse.Namespace) -> int:
    """``show --svg FILE``: the position's picture written to FILE.

    Raises:
        SpiteMaliceError: FILE is not a ``.svg`` file, or the position does not parse.
        OutputError: FILE is there already (without ``--force``) or cannot be written.
    """
    if args.svg.suffix.lower() != ".svg":  # an SVG text in a .png file opens as nothing
        raise SpiteMaliceError(f"--svg {for_terminal(str(args.svg))}: name a .svg file (the "
                               "picture is SVG text)")
    check_new(args.svg, force=args.force, what="--svg")
    book, position = shown_position(args)
    caption = f"{args.ruleset}: {'view' if 'view=' in ' '.join(args.position) else 'position'}"
    write_file(args.svg, position_svg(position, caption=caption, teams=book.teams.teams),
               force=args.force, what="--svg")
    say(f"wrote {for_terminal(str(args.svg))}")
    return 0


def _replay_pictures(record: GameRecord, book: RuleBook, directory: Path, force: bool) -> None:
    """``replay --svg DIR``: every position's picture, ``DIR/move-NNNN.svg``; every name is
    checked before the first is written, so a refused run writes nothing.

    Raises:
        OutputError: DIR or a picture's name cannot be written (or, without ``--force``, a
            picture is there already).
    """
    make_folder(directory, what="--svg")
    paths = [directory / f"move-{number:04d}.svg" for number in range(len(record.moves) + 1)]
    for path in paths:
        check_new(path, force=force, what="--svg")
    states = replay(record, book)
    name = record.ruleset.name
    try:
        # zip stops before the outcome check that follows the last state
        for number, (path, state) in enumerate(zip(paths, states, strict=False)):
            what = "the deal" if number == 0 else (
                f"move {number}: {record.moves[number - 1]}")
            write_file(path, position_svg(state, caption=f"{name}, {what}",
                                          teams=book.teams.teams), force=force, what="--svg")
    except RecordError:
        pass  # the pictures stop at the bad move; run_replay reports it


def _terminal() -> bool:
    """Whether standard output is a terminal (a person reads it)."""
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def _line(number: int, what: str, position: str, pretty: bool) -> str:
    if pretty:
        body = "\n".join(f"      {line}" for line in position.split("\n"))
        return f"{number:>4}  {what}\n{body}"
    return f"{number:>4}  {what:<20}  {position}"


def _header(record: GameRecord) -> list[str]:
    seats = ", ".join(f"{i} {s.name} ({s.kind})" for i, s in enumerate(record.seats))
    dealer = "seeded cut" if record.dealer is None else f"seat {record.dealer}"
    if record.arrivals is not None:  # seats that move at once: the seed alone deals
        return [f"rules: {_rules(record)}", f"seats: {seats}",
                f"seed {record.seed}, {len(record.moves)} move(s)"]
    return [f"rules: {_rules(record)}", f"seats: {seats}",
            f"seed {record.seed}, dealer: {dealer}, {len(record.moves)} move(s)",
            *([_practice(record)] if record.practice else []), *_takeovers(record)]


def _takeovers(record: GameRecord) -> list[str]:
    """A line per seat a bot took over from its person (the record's ``takeovers``)."""
    return [f"seat {taken.seat} ({record.seats[taken.seat].name}) taken over by the "
            f"{taken.player} bot from move {taken.at + 1}: {taken.why}"
            for taken in record.takeovers if taken.seat < len(record.seats)]


def _practice(record: GameRecord) -> str:
    """What a record with undos is: practice, not a game played fairly."""
    taken = sum(len(undo.moves) for undo in record.undone)
    undos = len(record.undone)
    return (f"practice game: {taken} move(s) taken back in {undos} undo(s); the player saw "
            "cards drawn after them, so it is no evidence of how well a seat plays")


def _rules(record: GameRecord) -> str:
    ref = record.ruleset
    extra = "".join(f" + {name}" for name in ref.house_rules)
    params = ", ".join(f"{k}={_value(v)}" for k, v in ref.params)
    return f"{ref.name} {ref.version}{extra}" + (f" ({params})" if params else "")


def _value(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) or "none"
    return "unlimited" if value is None else str(value)


def _outcome(outcome: Outcome | None) -> str:
    if outcome is None:
        return "none yet (the game is live)"
    winner = "" if outcome.winner is None else f" by seat {outcome.winner}"
    return f"{outcome.kind}{winner}, scores {', '.join(str(s) for s in outcome.scores)}"


def _refusal(move: str, error: SpiteMaliceError) -> str:
    if isinstance(error, IllegalMove):
        return f"is illegal: {error}"
    try:
        parse_move(move)
    except SpiteMaliceError:
        return f"does not parse: {error}"
    return f"is refused: {error}"
