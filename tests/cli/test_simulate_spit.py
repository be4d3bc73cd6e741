"""``simulate spit`` reports like the turn-based summary: the configuration with its
versions, every rate and mean with its 95% interval, a partial summary when cut short, and
counts kept a game at a time (no game is held in memory)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from spitemalice.cli import main, simultaneous
from spitemalice.cli._args import INTERRUPTED

ARGS = ["simulate", "spit", "--games", "6", "--seed", "3"]


def test_the_table_names_versions_and_gives_every_count_an_interval(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ARGS) == 0
    rows = dict(_row(line) for line in capsys.readouterr().out.splitlines())
    assert rows["versions"].startswith("spitemalice ") and "rule set spit " in rows["versions"]
    assert rows["changed parameters"] == "none"
    for label in ("won", "drawn (points game, equal scores)", "move limit reached"):
        assert "% (" in rows[label] and rows[label].endswith("%)"), label
    for label in ("moves per game (mean / p95)", "rounds per game (mean)",
                  "stale intents per game (mean)"):
        assert ".." in rows[label], label


def _row(line: str) -> tuple[str, str]:
    label, _, value = line.partition("  ")
    return label.strip(), value.strip()


def test_the_json_intervals_agree_with_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    games, ci = data["games"], data["intervals"]
    assert games == 6 and sum(data["outcomes"].values()) == games
    assert sum(data["wins_per_seat"]) == data["outcomes"]["win"]
    for kind, count in data["outcomes"].items():
        interval = ci["outcomes"][kind]
        assert interval["n"] == games and interval["estimate"] == round(count / games, 4)
        assert interval["low"] <= interval["estimate"] <= interval["high"]
    moves = ci["mean_moves"]
    assert moves["low"] <= data["mean_moves"] <= moves["high"] <= data["p95_moves"] * 10
    assert data["configuration"]["version"] and data["configuration"]["ruleset_version"]


def _stop_at(monkeypatch: pytest.MonkeyPatch, name: str, at: int) -> None:
    """Press Ctrl-C the ``at``-th time ``simultaneous.name`` is called."""
    real, calls = getattr(simultaneous, name), [0]

    def pressing(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == at:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(simultaneous, name, pressing)


@pytest.mark.parametrize(("name", "finished"), [
    ("play_arrival", 3),  # Ctrl-C while game 4 is played: it is dropped
    ("arrival_record", 4),  # Ctrl-C while game 4's record is written: it counts whole
])
def test_cut_short_it_summarises_and_records_exactly_the_games_finished(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        name: str, finished: int) -> None:
    _stop_at(monkeypatch, name, 4)
    folder = tmp_path / "records"
    assert main([*ARGS, "--record", str(folder), "--json"]) == INTERRUPTED
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["games"] == finished and sum(data["outcomes"].values()) == finished
    assert f"covers the {finished} games finished" in err
    assert len(list(folder.glob("*.json"))) == finished
    assert all(main(["check", str(record)]) == 0 for record in folder.glob("*.json"))
