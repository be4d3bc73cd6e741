"""``--allow-files`` on every command that loads a rule set by name (found by a new user:
``validate`` refused a file whose base is another file, telling them to pass
``--allow-files``, and then refused the flag)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from spitemalice.cli import COMMANDS, build_parser, main

MINE = 'title = "mine"\nversion = "1.0"\nbase = "blackwood-frey"\n\n[params]\npayoff_size = 3\n'
ONTOP = 'title = "on top"\nversion = "1.0"\nbase = "mine.toml"\n'


@pytest.fixture
def chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``ontop.toml``, whose base is the file ``mine.toml``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text(MINE, encoding="utf-8")
    (tmp_path / "ontop.toml").write_text(ONTOP, encoding="utf-8")
    return tmp_path / "ontop.toml"


def _options(command: str) -> set[str]:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {option for action in sub.choices[command]._actions
            for option in action.option_strings} | {
        action.dest for action in sub.choices[command]._actions if not action.option_strings}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_naming_a_rule_set_takes_allow_files(command: str) -> None:
    options = _options(command)
    if "ruleset" in options or "--ruleset" in options:
        assert "--allow-files" in options, command


def test_validate_takes_allow_files_and_reruns_with_it(
        chain: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "ontop.toml", "--games", "1", "--jobs", "1"]) == 2
    assert "--allow-files" in capsys.readouterr().err
    main(["validate", "ontop.toml", "--allow-files", "--games", "2", "--jobs", "1"])
    out = capsys.readouterr().out
    rerun = next(line for line in out.splitlines() if line.startswith("rerun"))
    assert rerun.endswith("--allow-files"), rerun


def test_show_and_a_house_rules_sheet_take_allow_files(
        chain: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mandatory-aces", "--on", "ontop.toml", "--allow-files"]) == 0
    assert "Stacks on" in capsys.readouterr().out
    assert main(["rules", "mandatory-aces", "--on", "ontop.toml"]) == 2
    assert "--allow-files" in capsys.readouterr().err
    assert main(["show", "xx", "--ruleset", "ontop.toml", "--allow-files"]) == 2
    assert "is a file" not in capsys.readouterr().err  # the text is refused, not the file
