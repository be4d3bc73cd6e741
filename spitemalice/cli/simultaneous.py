"""``simulate`` and ``validate`` for a rule set whose seats move at once (Spit).

Such games have no turns, so the turn-based runner does not play them: here each game runs
under the seeded arrival policy (:mod:`spitemalice.runs.arrival`), named in every output.
The options this path cannot honour yet are refused by name before any game is played.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from spitemalice.cli._args import describe, json_text, say, share, switches, table
from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.arrival_coverage import arrival_tally
from spitemalice.measures.coverage import (
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
    format_coverage_report,
)
from spitemalice.measures.rates import wilson
from spitemalice.rules.book import RuleBook
from spitemalice.runs.arrival import (
    ArrivalGame,
    ReactionTimes,
    arrival_record,
    game_bots,
    play_arrival,
)
from spitemalice.runs.commit import Finished
from spitemalice.runs.outputs import GameOutput, RecordFolder
from spitemalice.stops import held_stops

_NOT_YET = {"metrics": "--metrics",
            "games_out": "--games-out FILE", "plot": "--plot FILE", "scheduler": "--scheduler"}


_spread = share(0, 2, "a spread", closed_low=True, closed_high=True)
"""``--spread``: the reaction times' log-normal sigma, 0 to 2 (ReactionTimes checks it too)."""


def add_arrival_options(parser: argparse.ArgumentParser) -> None:
    """``--reaction`` and ``--spread``: the arrival policy of a simultaneous rule set."""
    parser.add_argument("--reaction", metavar="MS[,MS]", default=None,
                        help="rule sets whose seats move at once (spit): mean reaction time "
                             "in milliseconds, one for every seat or one per seat (default "
                             "300)")
    parser.add_argument("--spread", type=_spread, default=None,
                        help="rule sets whose seats move at once: the reaction times' "
                             "log-normal spread, 0 to 2 (default 0.35)")


def policy_of(args: argparse.Namespace) -> ReactionTimes:
    """The arrival policy ``--reaction`` and ``--spread`` name.

    Raises:
        SpiteMaliceError: a reaction time that is not a number of milliseconds, or out of
            range (the message says the range).
    """
    means: tuple[float, ...] = (300.0,)
    if args.reaction is not None:
        try:
            means = tuple(float(part) for part in str(args.reaction).split(","))
        except ValueError:
            raise SpiteMaliceError(f"--reaction takes milliseconds such as 300 or 250,400, "
                                   f"not {args.reaction!r}") from None
    return ReactionTimes(means, 0.35 if args.spread is None else args.spread)


def refuse_turn_based_options(args: argparse.Namespace) -> None:
    """Refuse ``--reaction``/``--spread`` for a turn-based rule set (they would be ignored).

    Raises:
        SpiteMaliceError: one of them was given.
    """
    if getattr(args, "reaction", None) is not None or getattr(args, "spread", None) is not None:
        raise SpiteMaliceError("--reaction and --spread set the arrival policy of a rule set "
                               "whose seats move at once (spit); this rule set is turn-based")


def _refuse_unsupported(args: argparse.Namespace, book: RuleBook) -> None:
    given = [flag for name, flag in _NOT_YET.items() if getattr(args, name, None)]
    if getattr(args, "jobs", None) not in (None, 1):
        given.append("--jobs")
    if given:
        raise SpiteMaliceError(f"{book.name}'s seats move at once; its simulation does not "
                               f"take {', '.join(given)} yet (it plays in one process and "
                               "prints its summary)")


def run_games(book: RuleBook, names: list[str], games: int, seed: int,
              policy: ReactionTimes,
              on_game: Callable[[int, ArrivalGame, list[str]], None] | None = None,
              ) -> list[ArrivalGame]:
    """``games`` games of ``book``, game ``g`` dealt from seed ``seed + g``; each handed to
    ``on_game(g, game, bot names per seat)`` as it ends (to write its record).

    Raises:
        SpiteMaliceError: a bot name the game does not offer (the message lists them).
    """
    assert book.simultaneous is not None  # the caller dispatched on it
    offered = game_bots(book.simultaneous)
    names = names * book.players if len(names) == 1 else names
    unknown = [name for name in names if name not in offered]
    if unknown or len(names) != book.players:
        raise SpiteMaliceError(f"--bots for {book.name}: one name for every seat or one per "
                               f"seat ({book.players}), from {', '.join(offered)}; not "
                               f"{','.join(names)}")
    bots = [offered[name] for name in names]
    played = []
    for game in range(games):
        played.append(play_arrival(book, bots, seed + game, policy))
        if on_game is not None:
            on_game(game, played[-1], names)
    return played


def summary(book: RuleBook, names: list[str], seed: int, policy: ReactionTimes,
            played: list[ArrivalGame], seconds: float) -> dict[str, Any]:
    """What ``simulate`` prints for a simultaneous rule set, as a dict (``--json``)."""
    assert book.simultaneous is not None  # the caller dispatched on it
    n = len(played)
    kinds = Counter(game.outcome.kind for game in played)
    wins = Counter(game.outcome.winner for game in played if game.outcome.winner is not None)
    moves = [len(game.log) for game in played]
    return {
        "configuration": {"ruleset": book.name, "players": book.players,
                          "parameters": {name: getattr(book.ruleset, name)
                                         for name in book.simultaneous.PARAMETERS},
                          "bots": names, "seed": seed, "arrival": policy.as_dict(book.players)},
        "arrival_policy": policy.describe(book.players),
        "games": n,
        "outcomes": {kind: kinds.get(kind, 0) for kind in ("win", "drawn", "turn-limit")},
        "wins_per_seat": [wins.get(seat, 0) for seat in range(book.players)],
        "win_share_intervals": [_interval(wins.get(seat, 0), n) for seat in range(book.players)],
        "mean_moves": sum(moves) / n if n else 0.0,
        "mean_rounds": sum(game.final.round for game in played) / n if n else 0.0,  # type: ignore[attr-defined]
        "stale_per_game": sum(game.stale for game in played) / n if n else 0.0,
        "cpu_seconds": round(seconds, 2),
    }


def _interval(successes: int, n: int) -> list[float] | None:
    """The 95% Wilson interval of a share, or ``None`` for no game."""
    if not n:
        return None
    interval = wilson(successes, n)
    return [round(interval.low, 4), round(interval.high, 4)]


def arrival_flags(args: argparse.Namespace) -> list[str]:
    """``--reaction`` and ``--spread`` as given (``[]`` for the defaults): what a rerun repeats."""
    flags = [] if args.reaction is None else ["--reaction", str(args.reaction)]
    return flags + ([] if args.spread is None else ["--spread", repr(float(args.spread))])


def run_simultaneous_simulate(args: argparse.Namespace, book: RuleBook, names: list[str]) -> int:
    """``simulate`` of a simultaneous rule set: play, then print the summary with the command
    that plays the same games again (arrival options included); exit 0."""
    _refuse_unsupported(args, book)
    policy = policy_of(args)
    command = describe(args, book, names).command("simulate", "--games", str(args.games),
                                                  *switches(args, "allow_files"),
                                                  *arrival_flags(args))
    folder = RecordFolder(args.record, args.games, args.force) if args.record else None
    written = [0]

    def write(game: int, played: ArrivalGame, bots: list[str]) -> None:
        assert folder is not None  # only given with a folder
        with held_stops():  # a record is written whole or not at all
            folder.add(game, GameOutput(record=arrival_record(book, played, policy, bots)))
            written[0] = game + 1

    start = time.process_time()
    try:
        played = run_games(book, names, args.games, args.seed, policy,
                           None if folder is None else write)
    finally:  # a run cut short keeps the records of the games it finished, and only those
        if folder is not None:
            folder.close(Finished(written[0], interrupted=written[0] < args.games))
    data = {**summary(book, names, args.seed, policy, played, time.process_time() - start),
            "command": command}
    covered = ""
    if args.coverage:
        rows = clause_coverage(book, arrival_tally(book, played))
        notes = coverage_notes(book, rows, len(played))
        data["coverage"] = {**coverage_as_dict(rows, len(played)),
                            "notes": [{"level": note.level, "clause": note.clause,
                                       "message": note.message} for note in notes]}
        covered = format_coverage_report(rows, notes, len(played))
    if args.json:
        data.pop("cpu_seconds")  # equal runs print equal bytes
        say(json_text(data))
        return 0
    n = data["games"]
    seats = "  ".join(
        f"{seat}:{wins} = {wins / n:.1%} ({low:.1%}..{high:.1%})" if n else f"{seat}:0"
        for seat, (wins, (low, high)) in enumerate(zip(
            data["wins_per_seat"], data["win_share_intervals"] if n else [(0, 0)] * 2,
            strict=True)))
    say(table([
        ("rule set", f"{book.name} ({book.players} players, bots {','.join(names)})"),
        ("arrival policy", data["arrival_policy"]),
        ("seed", str(args.seed)),
        ("games", str(n)),
        ("won", str(data["outcomes"]["win"])),
        ("drawn (points game, equal scores)", str(data["outcomes"]["drawn"])),
        ("move limit reached", str(data["outcomes"]["turn-limit"])),
        ("wins per seat", seats),
        ("moves per game (mean)", f"{data['mean_moves']:.1f}"),
        ("rounds per game (mean)", f"{data['mean_rounds']:.1f}"),
        ("stale intents per game", f"{data['stale_per_game']:.1f}"),
        ("CPU seconds", f"{data['cpu_seconds']:.1f}"),
        ("rerun", command),
    ]) + (f"\n\n{covered}" if covered else ""))
    return 0
