"""``spitemalice simulate``: play seeded games with bots and print their summary.

Its outputs are its own options: ``--metrics`` (game-quality metrics), ``--plot FILE``,
``--games-out FILE`` and ``--quiet`` (the options every command that plays games takes,
:func:`spitemalice.cli._args.add_run_options`), and ``--record DIR``, one record per game,
``DIR/game-00000.json`` and on (:class:`spitemalice.runs.outputs.RecordFolder`).  Each
output refuses, before any game, to replace a file already there unless ``--force`` is
given, and never writes through a symbolic link.  ``--jobs`` and ``--scheduler`` come from
:mod:`spitemalice.runs.parallel`.

Every run shows a progress bar on a terminal (games done, rate, time left), none with
``--json``, ``--quiet`` or when output is not a terminal.  Ctrl-C stops a run and prints the
summary of the games finished.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spitemalice.cli._args import (
    INTERRUPTED,
    Parser,
    add_allow_files,
    add_rules_args,
    add_run_options,
    bot_list,
    count,
    cut_short,
    describe,
    json_text,
    load_rules,
    note_interrupted,
    progress_shown,
    say,
    seed,
    switches,
    table,
)
from spitemalice.cli.simultaneous import (
    add_arrival_options,
    refuse_turn_based_options,
    run_simultaneous_simulate,
)
from spitemalice.formats.records.making import record_result
from spitemalice.measures.coverage import format_coverage_report
from spitemalice.measures.interval import Interval, mean_text, rate_text
from spitemalice.measures.metrics import METRICS, Quality, quality
from spitemalice.measures.shape import (
    PROBE_GAMES,
    SHAPE_METRICS,
    GameShape,
    game_shape,
    shape_metrics,
)
from spitemalice.model import GameResult
from spitemalice.rules.book import RuleBook
from spitemalice.runs import parallel
from spitemalice.runs.commit import Outputs
from spitemalice.runs.games_out import GamesOut
from spitemalice.runs.outputs import GameOutput, RecordFolder
from spitemalice.runs.progress import Progress
from spitemalice.runs.provenance import RunConfiguration
from spitemalice.runs.runner import GameRow, configuration, row_of
from spitemalice.stops import held_stops
from spitemalice.study.plot import check_path, plot_runs
from spitemalice.study.simulate import Summary, simulate
from spitemalice.wording import count_of

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands


def add_simulate(commands: Commands) -> Parser:
    """Add ``simulate`` to ``commands`` (argparse subparsers), with its outputs' options."""
    sim = commands.add_parser("simulate", help="play seeded games with bots and summarise them")
    add_rules_args(sim)
    add_allow_files(sim)
    sim.add_argument("--games", type=count, default=100, help="games to play (default 100)")
    sim.add_argument("--seed", type=seed, default=0, help="seed of the whole run (default 0)")
    sim.add_argument("--bots", default="greedy",
                     help="player kinds, one for all seats or one per seat: random,greedy")
    sim.add_argument("--json", action="store_true",
                     help="print the summary as JSON (without timings: equal runs print equal "
                          "bytes)")
    sim.add_argument("--coverage", action="store_true",
                     help="also count which clauses of the rule sheet the games exercised "
                          "(moves played and refused, events) and warn about each clause "
                          "none did; several times slower")
    parallel.add_arguments(sim)
    sim.add_argument("--metrics", action="store_true",
                     help="add game-quality metrics (balance, completion, drawishness, "
                          "duration, decisiveness, branching factor) with 95%% intervals")
    add_run_options(sim)  # --quiet, --force, --games-out, --plot
    add_arrival_options(sim)  # --reaction, --spread: rule sets whose seats move at once
    sim.add_argument("--record", type=Path, metavar="DIR",
                     help="write a game record (JSON) per game into DIR")
    return sim


def run_simulate(args: argparse.Namespace) -> int:
    """Play the games and print the summary (table or ``--json``); exit 0, or
    :data:`~spitemalice.cli._args.INTERRUPTED` after Ctrl-C."""
    book = load_rules(args)
    bots = bot_list(args.bots)
    if book.simultaneous is not None:  # seats that move at once: the arrival policy's games
        return run_simultaneous_simulate(args, book, bots)
    refuse_turn_based_options(args)
    named = describe(args, book, configuration(book, bots).bots)  # refuses a bad --bots
    command = named.command("simulate", "--games", str(args.games),
                            *switches(args, "allow_files", "coverage", "metrics"))
    provenance = {"configuration": named.as_dict(), "command": command}
    study = SimulateStudy(args, book, bots, named, provenance)  # refuses outputs now
    # A game counts once its record and row are written; however the run ends, the outputs
    # are closed holding exactly the games the summary counts (spitemalice.runs.commit).
    with study.progress, study.outputs:
        with parallel.backend(args) as (jobs, client):
            summary = simulate(book, bots, args.games, args.seed, on_game=study.on_game,
                               jobs=jobs, client=client, coverage=args.coverage)
        study.outputs.close(summary.interrupted)
    data = {**provenance, **summary.as_dict(timing=False)}
    metrics = study.finish(data, summary.interrupted)
    if args.json:
        say(json_text(data))
    else:
        covered = format_coverage_report(summary.coverage, summary.coverage_notes,
                                         summary.games)
        say(format_summary(summary, [*named.rows(), ("rerun", command)])
            + "".join(f"\n\n{part}" for part in (metrics, covered) if part))
    if summary.interrupted:
        note_interrupted(summary.games)
        return INTERRUPTED
    return 0


class SimulateStudy:
    """What ``simulate``'s outputs add: a progress bar, rows for ``--metrics`` and ``--plot``,
    the ``--record`` folder and the ``--games-out`` file (:attr:`outputs`, written together
    game by game: :mod:`spitemalice.runs.commit`), fed from ``simulate``'s ``on_game``.

    Raises:
        OutputError: an output that cannot be written (checked now, before any game).
    """

    def __init__(self, args: argparse.Namespace, book: RuleBook, bots: list[str],
                 named: RunConfiguration, provenance: dict[str, Any]) -> None:
        self.args, self.book, self.named = args, book, named
        self.config = configuration(book, bots)
        self.keep_rows = args.metrics or args.plot is not None
        if args.plot is not None:
            check_path(args.plot, force=args.force)
        self.rows: list[GameRow] = []
        self.shapes: list[GameShape] = []  # the designer metrics' games, under --metrics
        self.outputs = Outputs([
            *([RecordFolder(args.record, args.games, args.force)]
              if args.record is not None else []),
            *([GamesOut(args.games_out, book.players, teams=book.teams.any,
                        configuration=provenance, force=args.force,
                        turn_limit=book.ruleset.turn_limit)] if args.games_out
              else [])])
        self.progress = Progress(args.games, "simulate", progress_shown(args))

    def on_game(self, game: int, result: GameResult, kinds: tuple[str, ...]) -> None:
        """``simulate``'s ``on_game``: the game's record and row to every output, then its
        row kept and the bar moved on."""
        # One replay gives the designer metrics' shape (probed in the first games, as
        # compare and balance probe theirs) and the row's figures.
        shape = (game_shape(self.book, result, probe=game < PROBE_GAMES)
                 if self.args.metrics or self.args.games_out else None)
        row = (row_of(self.config, game, result, shape=shape)
               if self.keep_rows or self.args.games_out else None)
        record = (record_result(self.book, result, kinds)
                  if self.args.record is not None else None)
        self.outputs.add(game, GameOutput(() if row is None else ((row, "", self.book.teams),),
                                          record))
        if self.keep_rows and row is not None:
            self.rows.append(row)
        if self.args.metrics and shape is not None:
            self.shapes.append(shape)
        self.progress.advance()

    def finish(self, summary_data: dict[str, Any], interrupted: bool = False) -> str:
        """Add ``metrics`` to ``summary_data``; draw ``--plot`` (of the games finished, when
        there are any); the metrics table (text)."""
        text = ""
        if self.args.metrics:
            metrics = quality(self.rows, self.book.players, self.book.ruleset.turn_limit)
            shape = shape_metrics(self.shapes)
            summary_data["metrics"] = metrics.as_dict()
            summary_data["designer_metrics"] = {name: i.as_dict() for name, i in shape.items()}
            text = format_quality(metrics) + "\n\n" + format_shape(shape)
        if self.args.plot is not None and self.rows:
            with held_stops():  # the picture of the games finished, whole, even when cut short
                plot_runs(self.args.plot, [(self.named.label(), self.rows)],
                          self.book.players,
                          f"{self.named.label()}: {count_of(len(self.rows), 'game')}"
                          f"{cut_short(interrupted)}"
                          f"\n{self.named.title(under_label=True)}", force=self.args.force)
        return text


def format_quality(metrics: Quality) -> str:
    """The metrics as an aligned table: name, estimate and 95% interval, meaning."""
    lines = []
    width = max(len(name) for name in METRICS)
    for name, interval in metrics.items():
        mean = name.startswith("duration") or name == "branching_factor"
        lines.append(f"{name.ljust(width)}  {mean_text(interval, 1 if mean else 3)}")
    return "quality metrics (Ludii definitions, 95% intervals)\n" + "\n".join(lines)


def format_shape(metrics: dict[str, Interval]) -> str:
    """The designer metrics (:mod:`spitemalice.measures.shape`) as an aligned table."""
    width = max(len(name) for name in SHAPE_METRICS)
    lines = [f"{name.ljust(width)}  {designer_text(name, i)}" for name, i in metrics.items()]
    return ("designer metrics (lead = pay-off cards cleared; docs/studying.md; 95% "
            "intervals)\n" + "\n".join(lines))


def format_summary(summary: Summary, head: list[tuple[str, str]] | None = None) -> str:
    """The summary as an aligned two-column table; every rate and mean with its 95% interval
    (Wilson for rates, Student's t for means).  ``head`` (label, value) rows name the configuration
    (:meth:`~spitemalice.runs.provenance.RunConfiguration.rows`); without them the first row
    names the rule set, players and bots."""
    o, n, ci = summary.outcomes, summary.games, summary.intervals()
    seats = "  ".join(f"{s}:{w} = {rate_text(i)}"
                      for s, (w, i) in enumerate(zip(summary.wins_per_seat,
                                                     ci["wins_per_seat"], strict=True)))
    rows = [
        *(head or [("rule set", f"{summary.ruleset} ({summary.players} players, "
                                f"bots {','.join(summary.bots)})")]),
        ("games", str(n) + ("  (interrupted)" if summary.interrupted else "")),
        ("won", f"{o['win']} = {rate_text(ci['won'])}"),
        ("drawn (the draw pile ran out)", f"{o['drawn']} = {rate_text(ci['drawn'])}"),
        ("other (blocked, turn limit)",
         f"{o['blocked'] + o['turn-limit']} = {rate_text(ci['other'])}"),
        ("wins per seat", seats),
        ("wins by the seat that moved first",
         f"{summary.first_seat_wins} = {rate_text(ci['first_seat_wins'])}"),
        *([("wins per team", "  ".join(
            f"{team}:{w} = {rate_text(i)}" for team, w, i in
            zip(summary.teams, summary.wins_per_team, ci["wins_per_team"], strict=True)))]
          if summary.teams else []),
        ("moves per game (mean / p95)",
         f"{mean_text(ci['mean_moves'])} / {summary.p95_moves:.0f}"),
        ("turns per game (mean / p95)",
         f"{mean_text(ci['mean_turns'])} / {summary.p95_turns:.0f}"),
        ("games per second", f"{summary.games_per_second:.1f}"),
        ("moves per second", f"{summary.moves_per_second:.0f}"),
    ]
    return table(rows)


def designer_text(name: str, interval: Interval) -> str:
    """A designer metric as ``simulate --metrics`` prints it: a mean of counts (``choice_*``,
    ``lead_changes``) with one decimal, a share with three; not measured with no games."""
    return mean_text(interval, 1 if name.startswith(("choice", "lead_c")) else 3)
