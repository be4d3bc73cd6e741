"""The tools take a rule-set file's scoring expression (issue 34 §1, ``values.score``):
``rules FILE`` shows it, a record of a game it scored carries it and ``check`` judges the
record's scores by it, and a record whose scores are not the expression's is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spitemalice.cli import main

SCORING = Path(__file__).parents[2] / "examples" / "scoring"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_rules_shows_the_scoring_expression(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "rules", str(SCORING / "skip-bo.toml"))
    assert status == 0, err
    assert "\nScoring\nSC-1  score = 25 + 5 * opponents.payoff if seat.won else 0  " in out
    status, out, _ = _run(capsys, "rules", "skip-bo")
    assert "\nScoring\n" not in out  # the Python scoring has no expression to show


def test_check_judges_a_record_by_the_files_scoring(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    # a short turn limit: drawn hands, scored by the expression's difference branch
    status, _, err = _run(capsys, "simulate", str(SCORING / "blackwood-frey.toml"), "--games",
                          "4", "--seed", "2", "--set", "turn_limit=40", "--jobs", "1",
                          "--quiet", "--record", str(folder))
    assert status == 0, err
    records = sorted(folder.glob("game-*.json"))
    scored = [path for path in records
              if any(json.loads(path.read_text())["outcome"]["scores"])]
    assert scored, "no game scored a point: nothing would be judged"
    for path in records:
        status, out, err = _run(capsys, "check", str(path))
        assert status == 0 and out.startswith("valid: "), out + err
        assert "blackwood-frey.toml:SC-1" in out
    data = json.loads(scored[0].read_text())
    data["outcome"]["scores"] = [score + 1 for score in data["outcome"]["scores"]]
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    status, out, err = _run(capsys, "check", str(wrong))
    assert status == 1, out + err
    assert "scores" in out + err
