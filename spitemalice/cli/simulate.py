"""``spitemalice simulate``: play seeded games with bots and print their summary.

The study options (``--metrics``, ``--games-out``, ``--plot``, ``--quiet``) come from
:mod:`spitemalice.cli.study`, ``--record DIR`` from :mod:`spitemalice.cli.records`, ``--jobs``
and ``--scheduler`` from :mod:`spitemalice.runs.parallel`.
"""

from __future__ import annotations

import argparse
from typing import Any

from spitemalice.cli._args import (
    INTERRUPTED,
    add_allow_files,
    add_rules_args,
    bot_list,
    count,
    describe,
    json_text,
    load_rules,
    note_interrupted,
    say,
    seed,
    switches,
    table,
)
from spitemalice.cli.study import SimulateStudy, add_simulate_options
from spitemalice.measures.coverage import format_coverage_report
from spitemalice.measures.stats import Interval
from spitemalice.runs import parallel
from spitemalice.runs.runner import configuration
from spitemalice.study.simulate import Summary, simulate


def add_simulate(commands: Any) -> None:
    """Register ``simulate`` on ``commands`` (argparse subparsers)."""
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
    add_simulate_options(sim)  # --metrics, --games-out, --plot, --quiet
    sim.set_defaults(handler=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    """Play the games and print the summary (table or ``--json``); exit 0, or
    :data:`~spitemalice.cli._args.INTERRUPTED` after Ctrl-C."""
    book = load_rules(args)
    bots = bot_list(args.bots)
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


def format_summary(summary: Summary, head: list[tuple[str, str]] | None = None) -> str:
    """The summary as an aligned two-column table; every rate and mean with its 95% interval
    (Wilson for rates, Student's t for means).  ``head`` (label, value) rows name the configuration
    (:meth:`~spitemalice.runs.provenance.RunConfiguration.rows`); without them the first row
    names the rule set, players and bots."""
    o, n, ci = summary.outcomes, summary.games, summary.intervals()
    seats = "  ".join(f"{s}:{w} {_rate(i)}"
                      for s, (w, i) in enumerate(zip(summary.wins_per_seat,
                                                     ci["wins_per_seat"], strict=True)))
    rows = [
        *(head or [("rule set", f"{summary.ruleset} ({summary.players} players, "
                                f"bots {','.join(summary.bots)})")]),
        ("games", str(n) + ("  (interrupted)" if summary.interrupted else "")),
        ("won", f"{o['win']} {_rate(ci['won'])}"),
        ("drawn (the draw pile ran out)", f"{o['drawn']} {_rate(ci['drawn'])}"),
        ("other (blocked, turn limit)", f"{o['blocked'] + o['turn-limit']} {_rate(ci['other'])}"),
        ("wins per seat", seats),
        ("wins by the seat that moved first",
         f"{summary.first_seat_wins} {_rate(ci['first_seat_wins'])}"),
        *([("wins per team", "  ".join(
            f"{team}:{w} {_rate(i)}" for team, w, i in
            zip(summary.teams, summary.wins_per_team, ci["wins_per_team"], strict=True)))]
          if summary.teams else []),
        ("moves per game (mean / p95)",
         f"{_mean(ci['mean_moves'])} / {summary.p95_moves:.0f}"),
        ("turns per game (mean / p95)",
         f"{_mean(ci['mean_turns'])} / {summary.p95_turns:.0f}"),
        ("games per second", f"{summary.games_per_second:.1f}"),
        ("moves per second", f"{summary.moves_per_second:.0f}"),
    ]
    return table(rows)


def _rate(interval: Interval) -> str:
    return (f"= {interval.estimate:.1%} ({interval.low:.1%}..{interval.high:.1%})")


def _mean(interval: Interval) -> str:
    return f"{interval.estimate:.1f} ({interval.low:.1f}..{interval.high:.1f})"
