"""The command line names its flags where the Python API names its arguments (found by a new
user: ``show ... --players 3`` said "load it with players=2"), and a hint to stack a house
rule appears only where it is not stacked already."""

from __future__ import annotations

from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats import parse_position
from spitemalice.formats.notation import format_position
from spitemalice.rules.registry import load_plugin


def _err(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    return capsys.readouterr().err


def test_a_position_for_other_seats_names_the_flag_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    text = format_position(sm.deal(sm.load("blackwood-frey", players=2), 1))
    with pytest.raises(sm.SpiteMaliceError, match=r"load it with players=2"):
        parse_position(text, sm.load("blackwood-frey", players=3))
    err = _err(capsys, "show", text, "--ruleset", "blackwood-frey", "--players", "3")
    assert "give --players 2 to read this position" in err and "players=" not in err


def test_a_file_based_on_a_file_names_the_flag_on_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mine.toml").write_text('title = "m"\nversion = "1"\nbase = "uspcc"\n')
    Path("ontop.toml").write_text('title = "o"\nversion = "1"\nbase = "mine.toml"\n')
    with pytest.raises(sm.RulesetError) as error:
        sm.load("ontop.toml")
    assert "allow_files=True" in str(error.value) and "--allow-files" not in str(error.value)
    for command in (["rules"], ["simulate"], ["validate"]):
        err = _err(capsys, *command, "ontop.toml")
        assert "(--allow-files)" in err and "allow_files" not in err and "load(" not in err


def test_a_data_rule_named_as_a_house_rule_names_what_to_type(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(sm.RulesetError, match=r"load\(path\)"):
        load_plugin("mine.toml:MY-1")
    err = _err(capsys, "rules", "uspcc", "--house-rule", "mine.toml:MY-1")
    assert "give that file as the rule set" in err and "load(" not in err


def test_the_partnerships_hint_only_where_it_is_not_stacked(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _err(capsys, "simulate", "skip-bo", "--house-rule", "partnerships", "--players", "3")
    assert "4 or 6, not 3" in err and "--house-rule partnerships" not in err
    err = _err(capsys, "simulate", "blackwood-frey", "--set", "team_size=2")
    assert "(teams are played with --house-rule partnerships)" in err
