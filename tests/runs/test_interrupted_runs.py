"""Runs cut short leave outputs that agree (issue 20 class 3): every study command stopped by
SIGINT or SIGTERM, early, in the middle and while it writes, exits 130, says how many games it
finished, and every output it leaves counts exactly those games.  tests/runs/test_commit.py holds
the pieces (held stops, commit_games, Outputs)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice import validation
from spitemalice.cli import main
from spitemalice.rules.book import RuleBook
from spitemalice.rules.registry import load_plugin
from spitemalice.validation import run, steps

AFTER_GAMES = tuple(step.name for step in validation.STEPS)


class _Crashing:
    """A house rule whose move filter crashes from turn 3: every game fails validation."""

    NAME, KIND = "crashing", "house-rule"

    @sm.hookimpl
    def spitemalice_filter_moves(self, ruleset: Any, state: Any, moves: Any) -> None:
        if state.turn >= 3:
            raise RuntimeError("boom")


class _CtrlCAt:
    """A stand-in for validate's progress bar that presses Ctrl-C while game ``at`` is being
    counted (inside its commit: the game still counts)."""

    def __init__(self, at: int) -> None:
        self.at, self.seen = at, 0

    def __call__(self, *args: object, **kwargs: object) -> _CtrlCAt:
        return self

    def __enter__(self) -> _CtrlCAt:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def advance(self, games: int = 1) -> None:
        if self.seen == self.at:
            os.kill(os.getpid(), signal.SIGINT)
        self.seen += 1


def test_validate_cut_short_in_its_games_reports_what_they_showed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "Progress", _CtrlCAt(4))
    book = RuleBook.from_plugins(load_plugin("blackwood-frey", "ruleset"), [_Crashing()])
    report = validation.validate_book(book, games=30, seed=1)
    assert report.interrupted and report.stats is not None and report.stats.played == 5
    assert report.not_run == AFTER_GAMES  # nothing after the games was done
    figure = next(c for c in report.checks if c.name == "invariants after every move").figure
    assert "0/5 games clean" in figure and "interrupted: 5 of 30 games played" in figure
    # The failing game is given as it was found (not shrunk: the person asked to stop).
    assert report.reproduction is not None and report.reproduction["record"]
    data = report.as_dict()
    assert data["interrupted"] is True and data["stats"]["played"] == 5  # type: ignore[index]
    assert validation.format_report(report).splitlines()[-1].startswith(
        "interrupted after 5 games: some checks FAILED so far; not done: games at every seat")


def test_validate_cut_short_after_its_games_names_what_it_did_not_do(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(*args: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(steps, "check_stacking", stopped)
    report = validation.validate("blackwood-frey", games=6, seed=2)
    assert report.interrupted and report.stats is not None and report.stats.played == 6
    assert report.not_run == AFTER_GAMES[1:]
    assert any(c.name == "games at every seat count" for c in report.checks)


def test_validate_on_the_command_line_cut_short_exits_130_and_writes_the_game_found(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr(run, "Progress", _CtrlCAt(2))
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "blackwood-frey", "--games", "40", "--jobs", "1"]) == 130
    out, err = capsys.readouterr()
    assert "interrupted after 3 games: no check failed so far" in out
    assert err.strip() == "interrupted: the report covers the 3 games finished"
    assert list(tmp_path.iterdir()) == []  # no failing game, so no record, and no temporary


# --- whole commands, stopped from outside --------------------------------------------------

GAMES = "100000"  # far more than any run here finishes: every run is cut short
QUICK = ["--set", "payoff_size=5"]


def _simulate(out: Path) -> list[str]:
    return ["simulate", "blackwood-frey", *QUICK, "--games", GAMES, "--record",
            str(out / "recs"), "--games-out", str(out / "g.csv"), "--plot", str(out / "p.png"),
            "--metrics", "--json"]


def _compare(out: Path) -> list[str]:
    return ["compare", "blackwood-frey", "blackwood-frey", "--b-house-rule", "mandatory-aces",
            *QUICK, "--games", GAMES, "--games-out", str(out / "g.jsonl"), "--plot",
            str(out / "p.png"), "--json"]


def _tournament(out: Path) -> list[str]:
    return ["tournament", "blackwood-frey", *QUICK, "--bots", "random,greedy", "--games",
            GAMES, "--games-out", str(out / "g.csv"), "--json"]


def _validate(out: Path) -> list[str]:
    return ["validate", "blackwood-frey", *QUICK, "--games", GAMES, "--json", "--record",
            str(out / "failure.json")]


def _ladder(out: Path) -> list[str]:
    return ["ladder", "blackwood-frey", *QUICK, "--bots", "random,greedy", "--games", GAMES,
            "--all-games", "--games-out", str(out / "g.csv"), "--plot", str(out / "p.png"),
            "--json"]


def _balance(out: Path) -> list[str]:
    # With --set, the base (blackwood-frey as it stands) is measured first, then this.
    return ["balance", "blackwood-frey", *QUICK, "--bots", "random,greedy", "--games", GAMES,
            "--deals", GAMES, "--plot", str(out / "p.png"), "--json"]


ATLAS = """\
import signal
import sys
from pathlib import Path

from spitemalice.stops import stop_on_sigterm
from spitemalice.study.atlas import entries, run

signal.signal(signal.SIGINT, signal.default_int_handler)  # as helpers.processes.STOPPABLE
signal.signal(signal.SIGTERM, stop_on_sigterm)  # as bench/atlas.py does
try:
    run(Path(sys.argv[1]), 100000, 100000, only=entries()[:1], jobs=2)
except KeyboardInterrupt:
    sys.exit(130)
"""


def _atlas(out: Path) -> list[str]:
    # bench/atlas.py's run on one entry, its data file in out (the script writes to docs/).
    return ["-c", ATLAS, str(out / "atlas.json")]


COMMANDS = {"simulate": _simulate, "compare": _compare, "tournament": _tournament,
            "validate": _validate, "ladder": _ladder, "balance": _balance, "atlas": _atlas}
"""Every study command, with every output it has.  Add a row for a new study command (its
checks go in _check_outputs)."""


def _stop(command: str, out: Path, moment: str, signum: int) -> tuple[int, dict[str, Any], str]:
    """Run ``command`` with ``--jobs 2`` and send ``signum`` (SIGINT to its whole process
    group, as Ctrl-C does; SIGTERM to it alone) at ``moment``: ``early``, once its workers are
    starting; ``writing``, once its first game is written (the rest of that chunk's games
    are being written then); ``later``, after some chunks (60 games written, or 3 CPU-seconds
    of its workers' play).  Returns the exit status, the JSON
    printed and stderr."""
    import json
    import subprocess
    import sys
    import time

    from helpers.processes import STOPPABLE, descendants, ended, running

    argv = COMMANDS[command](out)
    if argv[0] != "-c":
        argv = ["-c", STOPPABLE, *argv, "--jobs", "2"]
    with ended(subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                cwd=out)) as run:
        deadline = time.monotonic() + 90
        started: set[int] = set()
        while time.monotonic() < deadline and run.poll() is None:
            started |= set(descendants(run.pid))
            if _reached(moment, out, started):
                break
            time.sleep(0.02)
        assert run.poll() is None, f"{command} ended before it was stopped: {run.stderr}"
        if signum == signal.SIGINT:
            os.killpg(run.pid, signal.SIGINT)
        else:
            run.send_signal(signal.SIGTERM)
        stdout, stderr = run.communicate(timeout=90)
    for _ in range(100):  # every worker (and a fork server) ends with the run
        if not any(running(pid) for pid in started):
            break
        time.sleep(0.1)
    assert not [pid for pid in started if running(pid)], "a worker outlived its run"
    return run.returncode, json.loads(stdout) if stdout.strip() else {}, stderr


def _reached(moment: str, out: Path, started: set[int]) -> bool:
    from helpers.processes import cpu_seconds

    if moment == "early":
        return bool(started)
    if moment == "writing":
        return _games_written(out) >= 1
    # Some chunks played: by the games written, or (validate writes none) by the work done.
    return _games_written(out) >= 60 or sum(map(cpu_seconds, started)) >= 3


def _games_written(out: Path) -> int:
    """Games whose outputs the run has begun to write (its records, its rows so far)."""
    records = out / "recs"
    if records.is_dir():
        return sum(1 for _ in records.glob("game-*.json"))
    rows = [p for p in out.glob(".g.*.tmp")]
    return max((p.read_text(encoding="utf-8").count("\n") - 1 for p in rows), default=0)


def _finished(stderr: str, what: str) -> int:
    import re

    assert "Traceback" not in stderr, stderr
    # Each command counts in its printed output's own unit: compare its paired games, a
    # tournament its games with the deals they came from (issue 38, left from the try-out).
    found = re.fullmatch(rf"interrupted: the {what} covers the (\d+) (?:paired )?games?"
                         r"(?: \(\d+ deals?\))? finished", stderr.strip().splitlines()[-1])
    assert found, stderr
    return int(found[1])


@pytest.mark.parametrize(("command", "moment", "signum"), [
    ("simulate", "early", signal.SIGINT), ("simulate", "writing", signal.SIGTERM),
    ("simulate", "writing", signal.SIGINT), ("compare", "early", signal.SIGTERM),
    ("compare", "writing", signal.SIGINT), ("tournament", "writing", signal.SIGTERM),
    ("tournament", "later", signal.SIGINT), ("validate", "early", signal.SIGINT),
    ("validate", "later", signal.SIGTERM), ("ladder", "early", signal.SIGTERM),
    ("ladder", "writing", signal.SIGINT), ("ladder", "later", signal.SIGTERM),
    ("balance", "early", signal.SIGINT), ("balance", "later", signal.SIGTERM),
    ("atlas", "early", signal.SIGTERM), ("atlas", "later", signal.SIGINT)])
def test_a_command_stopped_leaves_outputs_that_agree(
        command: str, moment: str, signum: int, tmp_path: Path) -> None:
    status, printed, stderr = _stop(command, tmp_path, moment, signum)
    assert status == 130, stderr
    _check_outputs(command, tmp_path, printed, stderr)
    # Nothing half written is left: no temporary file, no empty file (but the rows of no
    # game: JSON lines have no header).
    leftovers = [p for p in tmp_path.rglob("*") if p.name.startswith(".")
                 or (p.is_file() and p.stat().st_size == 0 and p.name != "g.jsonl")]
    assert not leftovers, leftovers


def _check_outputs(command: str, out: Path, printed: dict[str, Any], stderr: str) -> None:
    import csv
    import json

    if command == "atlas":  # no entry finished: no data file, and no temporary (below)
        assert "Traceback" not in stderr, stderr
        assert not (out / "atlas.json").exists()
        return
    if command == "balance":
        played = _finished(stderr, "report")
        assert printed["interrupted"] is True
        assert printed["games"] + sum(t["games"] for t in printed["matrix"]) == played
        assert (out / "p.png").exists() == (played > 0)
        return
    if command == "validate":
        played = _finished(stderr, "report")
        assert printed["interrupted"] is True
        assert (printed["stats"] or {"played": 0})["played"] == played
        assert not (out / "failure.json").exists()  # blackwood-frey has no failing game
        return
    games = _finished(stderr, "table" if command in ("tournament", "ladder") else "summary")
    rows_file = out / ("g.jsonl" if command == "compare" else "g.csv")
    if rows_file.suffix == ".csv":
        rows = list(csv.DictReader(rows_file.open(encoding="utf-8")))
    else:
        rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
    sidecar = json.loads((out / f"{rows_file.name}.config.json").read_text())
    assert sidecar["interrupted"] is True
    if command == "simulate":
        assert printed["games"] == games and printed["interrupted"] is True
        assert [int(row["game"]) for row in rows] == list(range(games))
        records = sorted(p.name for p in (out / "recs").iterdir())
        assert records == [f"game-{g:05d}.json" for g in range(games)]
        if games:
            last = sm.formats.load_record(out / "recs" / records[-1])
            assert last.seed == int(rows[-1]["seed"])
        assert (out / "p.png").exists() == (games > 0)
        assert printed["metrics"]["games"] == games
    elif command == "compare":
        assert printed["games"] == games and printed["interrupted"] is True
        assert [(row["config"], row["game"]) for row in rows] == [
            (side, g) for g in range(games) for side in "AB"]
        assert (out / "p.png").exists() == (games > 0)
    elif command == "ladder":  # one pair: a deal is two games, a row each
        assert printed["interrupted"] is True
        assert 2 * printed["deals"] == sum(p["games"] for p in printed["pairs"]) == games
        assert [int(row["game"]) for row in rows] == [g for g in range(games // 2)
                                                      for _ in "ab"]
        assert (out / "p.png").exists() == (games > 0)
    else:
        assert printed["interrupted"] is True
        assert sum(p["games"] for p in printed["pairings"]) == games == len(rows)
    assert sidecar["rows"] == len(rows)


def test_a_stop_while_a_command_loads_is_one_line_and_status_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # A command's modules load while its parser is built (issue 22's lazy loading), before
    # main's own handler runs: the console script's entry catches a stop there too.
    from spitemalice import cli
    from spitemalice.__main__ import entry

    def stopped(command: str | None = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", stopped)
    monkeypatch.setattr("sys.argv", ["spitemalice", "simulate", "blackwood-frey"])
    assert entry() == 130
    assert capsys.readouterr().err == "spitemalice: interrupted\n"
