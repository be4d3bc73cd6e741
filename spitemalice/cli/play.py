"""``spitemalice play``: a person plays a rule set against bots in the terminal.

``spitemalice play RULESET [--house-rule NAME] [--set KEY=VALUE] [--players N] [--seat N]
[--bots greedy,heuristic] [--seed N] [--record FILE [--force]] [--delay SECONDS]`` deals a
new game (``--record`` refuses a file already there unless ``--force``);
``spitemalice play --resume RECORD [--seat N] [--bots ...]`` goes on with a saved one.  The game
itself is :class:`spitemalice.play.terminal.TerminalGame`.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from spitemalice.cli._args import (
    Parser,
    add_allow_files,
    add_force,
    add_rules_args,
    bot_list_option,
    load_rules,
    seat,
    seed,
    share,
)
from spitemalice.cli.records import record_rules
from spitemalice.errors import DataError, PlayError, RecordError, RulesetError
from spitemalice.files import check_new
from spitemalice.formats.records.record import GameRecord
from spitemalice.formats.replay import replay
from spitemalice.play.session import HUMAN, Session
from spitemalice.play.terminal import TerminalGame
from spitemalice.rules.book import RuleBook

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands

_NEW_GAME_ONLY = {"ruleset": "RULESET", "house_rule": "--house-rule", "settings": "--set",
                  "players": "--players", "seed": "--seed"}


def add_play(commands: Commands) -> Parser:
    """Add ``play`` to ``commands`` (argparse subparsers)."""
    play = commands.add_parser("play", help="play a game against bots in the terminal")
    add_rules_args(play, required=False)
    add_allow_files(play)
    play.add_argument("--seat", type=seat, metavar="N",
                      help="your seat, 0 first (default 0; with --resume, the record's person)")
    play.add_argument("--bots", type=bot_list_option, metavar="LIST",
                      help="the bots at the other seats: one name for all or one per seat, "
                           "as greedy,heuristic (default greedy)")
    play.add_argument("--seed", type=seed, help="the deal's seed (default: an unguessable one)")
    play.add_argument("--resume", type=Path, metavar="RECORD",
                      help="go on with a game saved as a record")
    play.add_argument("--record", type=Path, metavar="FILE",
                      help="keep the record in FILE, written after every move (default: saved "
                           "at the end to spitemalice-game.json or the next free name)")
    add_force(play)
    play.add_argument("--delay", type=_seconds, default=0.5, metavar="SECONDS",
                      help="pause between two bots' moves (default 0.5)")
    return play


_seconds = share(0, 60, "a delay (seconds)", closed_low=True, closed_high=True)
"""``--delay``: 0 to 60 seconds."""


BROWSER_GAME = (
    "{name} is played in real time: both seats move at once, as fast as they can, so it is "
    "a browser game, not a terminal one. Start the play server with `spitemalice serve` and "
    "open http://127.0.0.1:8000/spit in a browser: play a bot with the reaction time you "
    "choose (slow: 4 seconds), or send a second person their seat's link")
"""What ``play`` says of a rule set whose seats move at once."""


def run_play(args: argparse.Namespace) -> int:
    """Seat the person, play the game, return the exit status (0, or 130 after Ctrl-C).

    Raises:
        SpiteMaliceError: the rules, the record, the seat or the bots cannot be used.
    """
    session, seat = _resumed(args) if args.resume else _new(args)
    game = TerminalGame(session, seat, delay=args.delay, record_path=args.record)
    return game.run()


def _new(args: argparse.Namespace) -> tuple[Session, int]:
    if args.ruleset is None:
        raise PlayError("give a RULESET to play (spitemalice variants lists them), or "
                        "--resume RECORD to go on with a saved game")
    rules = load_rules(args)
    if rules.simultaneous is not None:
        raise PlayError(BROWSER_GAME.format(name=rules.name))
    seat = 0 if args.seat is None else _seat(args.seat, rules.players)
    kinds = _kinds(rules.players, seat, args.bots or ["greedy"])
    if args.record is not None:
        check_new(args.record, force=args.force, what="--record")
    return Session(rules, kinds, seed=args.seed, record_path=args.record,
                   overwrite=args.force), seat


def _resumed(args: argparse.Namespace) -> tuple[Session, int]:
    given = [flag for dest, flag in _NEW_GAME_ONLY.items() if getattr(args, dest)]
    if given:
        verb = "applies" if len(given) == 1 else "apply"  # one flag or several
        raise PlayError(f"--resume goes on with the record's own game; {', '.join(given)} "
                        f"{verb} to a new game only")
    # Read and checked against its rules first, as check and replay do: a bad record gets
    # their refusal, naming the file, before anything is said about its game.
    record, book = record_rules(args.resume)
    count = len(record.seats)
    kinds = [seat.kind for seat in record.seats]
    people = [index for index, kind in enumerate(kinds) if kind == HUMAN]
    if args.seat is not None:
        seat = _seat(args.seat, count)
    elif len(people) == 1:
        seat = people[0]
    else:
        raise PlayError(f"{args.resume}: {_people(people)}; say which is yours with --seat N")
    if args.bots:
        kinds = _kinds(count, seat, args.bots)
    else:
        kinds[seat] = HUMAN
        others = [index for index, kind in enumerate(kinds) if kind == HUMAN and index != seat]
        if others:
            raise PlayError(f"{args.resume}: seat {others[0]} was a person's too; seat bots "
                            "at the other seats with --bots")
    path = args.record
    # Going on in the file read is what --resume means; any other file follows the rule.
    same = path is not None and os.path.lexists(path) and os.path.samefile(path, args.resume)
    if path is not None and not same:
        check_new(path, force=args.force, what="--record")
    try:
        session = Session.resume(_checked(record, book), rules=book, kinds=kinds,
                                 record_path=path, overwrite=args.force or same)
    except (RulesetError, DataError, RecordError) as error:
        # The reader's own errors name the file; these come later, from the replay.
        raise PlayError(f"{args.resume}: {error}") from None
    return session, seat


def _checked(record: GameRecord, book: RuleBook) -> GameRecord:
    """``record`` when its game goes on; a finished game is replayed whole first, so a
    record whose moves or outcome do not hold is refused as such, not called over.

    Raises:
        PlayError: the game is over, or its seats move at once (no terminal table for them).
    """
    if book.simultaneous is not None:
        raise PlayError(f"{BROWSER_GAME.format(name=book.name)}; spitemalice replay shows "
                        "a spit record")
    if record.outcome is not None:
        for _ in replay(record, book):
            pass
        raise PlayError(f"that game is over ({record.outcome.describe()}); spitemalice "
                        "replay shows it")
    return record


def _people(people: list[int]) -> str:
    if not people:
        return "no seat of the record is a person's"
    return f"seats {', '.join(map(str, people))} are people's"


def _seat(seat: int, count: int) -> int:
    if not 0 <= seat < count:
        raise PlayError(f"--seat is a seat from 0 to {count - 1}, not {seat}")
    return seat


def _kinds(count: int, seat: int, bots: list[str]) -> list[str]:
    """The person at ``seat``, the bots at the others: one name for all, or one per seat."""
    others = count - 1
    if len(bots) == 1:
        bots = bots * others
    if len(bots) != others:
        raise PlayError(f"--bots: {others} other seat{'' if others == 1 else 's'} to fill: "
                        f"name one bot for all, or one per seat; not {len(bots)}")
    if HUMAN in bots:
        raise PlayError("--bots: a terminal game has one person; the other seats are bots")
    kinds = list(bots)
    kinds.insert(seat, HUMAN)
    return kinds
