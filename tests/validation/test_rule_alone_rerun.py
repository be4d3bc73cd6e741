"""The rerun line of a rule-set file's section for one data rule alone reruns that section
(found by a new user: it repeated the whole file's command): ``validate FILE --alone
CLAUSE``."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from spitemalice.cli import main

TWO = """\
title = "two"
version = "1.0"
base = "blackwood-frey"

[params]
payoff_size = 5

[[rule]]
clause = "MY-1"
text = "Play the pay-off card first."
source = "HOUSE"
require = "move.source == 'payoff'"
reason = "payoff-first"
message = "play the pay-off card first"
"""


@pytest.fixture
def two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "two.toml"
    path.write_text(TWO, encoding="utf-8")
    return path


def test_a_rules_section_reruns_with_its_own_command(
        two: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "two.toml", "--games", "2", "--jobs", "1"]) == 0
    whole = capsys.readouterr().out
    heading = "validate blackwood-frey + two.toml:MY-1, 2 players"
    section = whole[whole.index(heading):].split("\n\neach data rule alone")[0]
    rerun = next(line for line in section.splitlines() if line.startswith("rerun"))
    argv = shlex.split(rerun.removeprefix("rerun").strip())
    assert argv[:2] == ["spitemalice", "validate"] and "--alone" in argv
    assert main([*argv[1:], "--jobs", "1"]) == 0
    again = capsys.readouterr().out.strip()
    assert again == section.strip()  # the very section, its rerun line included


def test_alone_refuses_what_it_cannot_run(two: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "two.toml", "--alone", "MY-9"]) == 2
    assert "has no rule 'MY-9': its rules are MY-1" in capsys.readouterr().err
    assert main(["validate", "blackwood-frey", "--alone", "MY-1"]) == 2
    assert "give a .toml file" in capsys.readouterr().err
