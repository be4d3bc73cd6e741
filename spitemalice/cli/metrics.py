"""``spitemalice metrics FILE``: the metrics of games already played, from the rows a
``--games-out`` file holds (:mod:`spitemalice.runs.games_in`), without playing or replaying
them.

A command of its own, not an option of ``simulate``: a games file may hold several
configurations (``compare``'s A and B, ``tournament``'s challenger seats) and ``simulate``'s
rule set, bots and game count would say nothing about it; the file (and its sidecar) already
say what played.  The figures are those ``simulate --metrics`` prints over the same games:
the quality metrics (:mod:`spitemalice.measures.metrics`) and the designer metrics
(:func:`~spitemalice.measures.shape.row_metrics`), one table per configuration.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spitemalice.cli._args import Parser, json_text, say
from spitemalice.cli.simulate import format_quality, format_shape
from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.metrics import quality
from spitemalice.measures.shape import SHAPE_METRICS, row_metrics
from spitemalice.runs.games_in import GamesFile, read_games
from spitemalice.wording import count_of

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands


def add_metrics(commands: Commands) -> Parser:
    """Add ``metrics`` to ``commands`` (argparse subparsers)."""
    met = commands.add_parser(
        "metrics", help="the metrics of the games a --games-out file holds, without replaying",
        description="Read a --games-out file (.csv or .jsonl) and print, per configuration "
                    "in it (compare's A and B, say), the quality metrics and the designer "
                    "metrics that simulate --metrics prints, each with its 95%% interval.  A "
                    "file written before the designer-metric columns existed (format 1) gives "
                    "the quality metrics and names what it lacks.")
    met.add_argument("file", type=Path, metavar="FILE", help="a file --games-out wrote")
    met.add_argument("--json", action="store_true", help="print the metrics as JSON")
    return met


def run_metrics(args: argparse.Namespace) -> int:
    """``spitemalice metrics``: each configuration's metrics."""
    games = read_games(args.file)
    if games.seats < 2:
        raise SpiteMaliceError(f"{args.file}: games of {games.seats} seat; the metrics "
                               "compare seats, so they need two or more")
    data = metrics_data(games)
    say(json_text(data) if args.json else format_metrics(games, data))
    return 0


def metrics_data(games: GamesFile) -> dict[str, Any]:
    """JSON-ready: the file, its format, what it lacks, the rerun command its sidecar gives,
    and per configuration its games, ``metrics`` and ``designer_metrics`` (each interval as
    ``{"estimate", "low", "high", "n"}``)."""
    side = games.sidecar or {}
    return {
        "file": str(games.path), "format": games.format, "missing": list(games.missing),
        "command": side.get("command"),
        "configurations": {
            label: {"games": len(rows),
                    "metrics": quality(rows, games.seats, games.turn_limits.get(label)).as_dict(),
                    "designer_metrics": {name: i.as_dict()
                                         for name, i in row_metrics(rows).items()}}
            for label, rows in games.groups.items()},
    }


def format_metrics(games: GamesFile, data: dict[str, Any]) -> str:
    """The metrics as text: a head naming the file, then one block per configuration."""
    counts = ", ".join(f"{count_of(len(rows), 'game')}" + (f" of {label}" if label else "")
                       for label, rows in games.groups.items())
    lines = [f"{games.path.name}: {counts} ({count_of(games.seats, 'seat')}; games file "
             f"format {games.format}); 95% intervals"]
    if data["command"]:
        lines.append(f"played by: {data['command']}")
    lacking = [name for name in SHAPE_METRICS if not _computable(name, games.missing)]
    for label, rows in games.groups.items():
        lines += ["", f"configuration {label}:" if label else "", format_quality(
            quality(rows, games.seats, games.turn_limits.get(label)))]
        if not lines[-2]:
            del lines[-2]
        shape = row_metrics(rows)
        if shape:
            lines += ["", format_shape(shape)]
    if lacking:
        lines += ["", f"not in this file: {', '.join(lacking)} (the designer metrics need the "
                      f"columns {', '.join(games.missing)}, which games files have from format 2 "
                      "on; run the command again with --games-out to write them)"]
    return "\n".join(lines)


def _computable(metric: str, missing: tuple[str, ...]) -> bool:
    """Whether the file's columns give ``metric``."""
    needs = {"lead_changes": ("lead_changes",), "comeback": ("comeback", "lead_changes"),
             "lead_for_good": ("lead_taken", "lead_changes"),
             "mattered": ("probed", "mattered")}.get(
        metric, ("legal_early", "legal_middle", "legal_late"))
    return not set(needs) & set(missing)
