"""``simulate`` and ``validate`` for a rule set whose seats move at once (Spit).

Such games have no turns, so the turn-based runner does not play them: here each game runs
under the seeded arrival policy (:mod:`spitemalice.runs.arrival`), named in every output.
The options this path cannot honour yet are refused by name before any game is played.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from spitemalice.cli._args import (
    INTERRUPTED,
    cut_short,
    describe,
    json_text,
    note_interrupted,
    say,
    share,
    switches,
    table,
)
from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.arrival_coverage import ArrivalCoverage
from spitemalice.measures.coverage import (
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
    format_coverage_report,
)
from spitemalice.measures.interval import Interval, mean_text, rate_text
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
from spitemalice.runs.provenance import RunConfiguration
from spitemalice.stops import held_stops
from spitemalice.study.arrival_counts import ArrivalCounts

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
              ) -> None:
    """Play ``games`` games of ``book``, game ``g`` dealt from seed ``seed + g``, each handed
    to ``on_game(g, game, bot names per seat)`` as it ends (to count it and write its record;
    no game is kept here). Ctrl-C ends the run quietly: ``on_game`` should hold stops
    (:func:`~spitemalice.stops.held_stops`) so that a game counts whole or not at all.

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
    try:
        for game in range(games):
            played = play_arrival(book, bots, seed + game, policy)
            if on_game is not None:
                on_game(game, played, names)
    except KeyboardInterrupt:
        return


def summary(book: RuleBook, named: RunConfiguration, policy: ReactionTimes,
            counts: ArrivalCounts, seconds: float) -> dict[str, Any]:
    """What ``simulate`` prints for a simultaneous rule set, as a dict (``--json``)."""
    assert book.simultaneous is not None  # the caller dispatched on it
    return {
        "configuration": {**named.as_dict(),
                          "parameters": {name: getattr(book.ruleset, name)
                                         for name in book.simultaneous.PARAMETERS},
                          "arrival": policy.as_dict(book.players)},
        "arrival_policy": policy.describe(book.players),
        **counts.as_dict(),
        "cpu_seconds": round(seconds, 2),
    }


def arrival_flags(args: argparse.Namespace) -> list[str]:
    """``--reaction`` and ``--spread`` as given (``[]`` for the defaults): what a rerun repeats."""
    flags = [] if args.reaction is None else ["--reaction", str(args.reaction)]
    return flags + ([] if args.spread is None else ["--spread", repr(float(args.spread))])


def run_simultaneous_simulate(args: argparse.Namespace, book: RuleBook, names: list[str]) -> int:
    """``simulate`` of a simultaneous rule set: play, then print the summary with the command
    that plays the same games again (arrival options included); exit 0, or
    :data:`~spitemalice.cli._args.INTERRUPTED` after Ctrl-C (the summary then covers the
    games finished, and the record folder holds exactly those)."""
    _refuse_unsupported(args, book)
    policy = policy_of(args)
    named = describe(args, book, names)
    command = named.command("simulate", "--games", str(args.games),
                            *switches(args, "allow_files", "coverage"), *arrival_flags(args))
    folder = RecordFolder(args.record, args.games, args.force) if args.record else None
    counts = ArrivalCounts(book.players, book.ruleset.turn_limit)
    covering = ArrivalCoverage(book) if args.coverage else None

    def count(game: int, played: ArrivalGame, bots: list[str]) -> None:
        with held_stops():  # a game counts whole, its record written, or not at all
            if folder is not None:
                folder.add(game, GameOutput(record=arrival_record(book, played, policy, bots)))
            if covering is not None:
                covering.add(played)
            counts.add(played)

    start = time.process_time()
    try:
        run_games(book, names, args.games, args.seed, policy, count)
    finally:  # a run cut short keeps the records of the games it finished, and only those
        if folder is not None:
            folder.close(Finished(counts.games, interrupted=counts.games < args.games))
    data = {**summary(book, named, policy, counts, time.process_time() - start),
            "command": command}
    covered, interrupted = _coverage(book, covering, data), counts.games < args.games
    if args.json:
        data.pop("cpu_seconds")  # equal runs print equal bytes
        say(json_text(data))
    else:
        say(_summary_table(named, data, interrupted, counts)
            + (f"\n\n{covered}" if covered else ""))
    if interrupted:
        note_interrupted(counts.games)
        return INTERRUPTED
    return 0


def _coverage(book: RuleBook, covering: ArrivalCoverage | None, data: dict[str, Any]) -> str:
    """``--coverage``: its table (text), its rows and notes put into ``data``."""
    if covering is None:
        return ""
    tally = covering.tally()
    rows = clause_coverage(book, tally)
    notes = coverage_notes(book, rows, tally.games)
    data["coverage"] = {**coverage_as_dict(rows, tally.games),
                        "notes": [{"level": note.level, "clause": note.clause,
                                   "message": note.message} for note in notes]}
    return format_coverage_report(rows, notes, tally.games)


def _summary_table(named: RunConfiguration, data: dict[str, Any], interrupted: bool,
                   counts: ArrivalCounts) -> str:
    """The summary as the turn-based one is laid out: the configuration and versions, then
    each count with its 95% interval."""
    ci = counts.intervals()
    seats = "  ".join(f"{seat}:{wins} = {rate_text(interval)}" for seat, (wins, interval)
                      in enumerate(zip(data["wins_per_seat"], ci["wins_per_seat"],
                                       strict=True)))
    outcomes, rates = data["outcomes"], ci["outcomes"]
    return table([
        *named.rows(),
        ("arrival policy", data["arrival_policy"]),
        ("rerun", data["command"]),
        ("games", f"{data['games']}{cut_short(interrupted)}"),
        ("won", f"{outcomes['win']} = {rate_text(rates['win'])}"),
        ("drawn (points game, equal scores)", f"{outcomes['drawn']} = {rate_text(rates['drawn'])}"),
        ("move limit reached", f"{outcomes['turn-limit']} = {rate_text(rates['turn-limit'])}"),
        ("wins per seat", seats),
        ("moves per game (mean / p95)",
         f"{_mean(ci['mean_moves'])} / {data['p95_moves']:.0f}"),
        ("rounds per game (mean)", _mean(ci["mean_rounds"])),
        ("stale intents per game (mean)", _mean(ci["stale_per_game"])),
        ("CPU seconds", f"{data['cpu_seconds']:.1f}"),
    ])


def _mean(interval: Interval) -> str:
    return mean_text(interval, infinite="?")  # an unknown end: no move limit
