"""Where ``spitemalice validate`` keeps the smallest failing game (found by a fresh user): its
own default record, ``validate-failure.json`` (and ``validate-failure-X.json`` for each rule
set a house rule is stacked on), is replaced by the next failing run without ``--force``, and
a run that records none there leaves it and says so; a name given with ``--record``, and
anything at a default name that is not a failure record, is refused as every output is."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats import RecordFinding
from spitemalice.formats.records import record_to_dict
from spitemalice.validation import Check, Report, validate
from spitemalice.validation import house_rule as house_rule_module

FAST = ["--games", "2", "--jobs", "1", "--json", "--set", "payoff_size=3"]
DEFAULT = "validate-failure.json"


@cache
def _passing(name: str) -> Report:
    """A real passing report (made once: the tests vary only what the command writes)."""
    report = validate(name, [], {"payoff_size": 3}, games=2)
    assert report.passed and report.reproduction is None, report
    return report


def _failing(message: str) -> Callable[..., Report]:
    """validate with a failing game whose record's finding says ``message``."""
    def failing(name: str, house_rules: Any = (), *args: Any, **kwargs: Any) -> Report:
        rules = sm.load("blackwood-frey", payoff_size=3)
        game = record_to_dict(attrs.evolve(
            sm.record_game(rules, 1, seats=["greedy", "greedy"]),
            finding=RecordFinding("crash", message)))
        report = _passing("blackwood-frey")
        return attrs.evolve(report, checks=(*report.checks, Check("crash", False, "", message)),
                            reproduction={"seed": 1, "moves": [], "problem": message,
                                          "record": game})
    return failing


def _passes(name: str, *args: Any, **kwargs: Any) -> Report:
    return _passing("blackwood-frey")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the default record lands here
    return tmp_path


def _use(monkeypatch: pytest.MonkeyPatch, run: Callable[..., Report]) -> None:
    import spitemalice.cli.validate as command

    monkeypatch.setattr(command, "validate", run)
    monkeypatch.setattr(house_rule_module, "validate", run)


def _finding(path: Path) -> str:
    return str(json.loads(path.read_text())["finding"]["message"])


# command line, the default record it writes
COMMANDS = {
    "rule set": (["validate", "blackwood-frey", *FAST], DEFAULT),
    "house rule --on": (["validate", "mandatory-aces", "--on", "blackwood-frey", *FAST],
                        "validate-failure-blackwood-frey.json"),
}


@pytest.mark.parametrize("name", COMMANDS)
def test_the_next_failing_run_replaces_validates_own_record(
        name: str, folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv, written = COMMANDS[name]
    _use(monkeypatch, _failing("first"))
    assert main(argv) == 1
    assert _finding(folder / written) == "first"
    _use(monkeypatch, _failing("second"))
    capsys.readouterr()
    assert main(argv) == 1, capsys.readouterr().err  # not 2: no --force needed
    assert _finding(folder / written) == "second"
    assert sorted(os.listdir(folder)) == [written]


@pytest.mark.parametrize("name", COMMANDS)
def test_a_run_that_records_nothing_leaves_an_earlier_record_and_says_so(
        name: str, folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv, written = COMMANDS[name]
    _use(monkeypatch, _failing("first"))
    assert main(argv) == 1
    before = (folder / written).read_bytes()
    _use(monkeypatch, _passes)
    capsys.readouterr()
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert (folder / written).read_bytes() == before
    # it names the rule set the record is of: another run's (leaky-malice's, say) reads so
    assert (f"{written} is an earlier run's failing game (of blackwood-frey): this run "
            "recorded none there") in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("planted", [
    "not a record\n",
    json.dumps({"format": "spitemalice-record", "version": 1}),  # a record, but no finding
])
def test_another_file_at_the_default_name_is_still_refused(
        planted: str, folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (folder / DEFAULT).write_text(planted)
    _use(monkeypatch, _failing("first"))
    assert main(COMMANDS["rule set"][0]) == 2
    err = capsys.readouterr().err
    assert "the failure record (--record's default) validate-failure.json exists" in err
    assert "give --force to replace it" in err
    assert (folder / DEFAULT).read_text() == planted


def test_a_link_to_a_record_at_the_default_name_is_refused(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _use(monkeypatch, _failing("first"))
    assert main(["validate", "blackwood-frey", *FAST, "--record", "kept.json"]) == 1
    (folder / DEFAULT).symlink_to(folder / "kept.json")
    assert main(COMMANDS["rule set"][0]) == 2
    assert (folder / DEFAULT).is_symlink() and _finding(folder / "kept.json") == "first"


def test_a_record_named_with_the_option_is_never_replaced_without_force(
        folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for named in (["--record", "mine.json"], ["--record", DEFAULT]):
        _use(monkeypatch, _failing("first"))
        assert main(["validate", "blackwood-frey", *FAST, *named]) == 1
        _use(monkeypatch, _failing("second"))
        capsys.readouterr()
        assert main(["validate", "blackwood-frey", *FAST, *named]) == 2
        assert "--record" in capsys.readouterr().err
        assert _finding(folder / named[1]) == "first"
        assert main(["validate", "blackwood-frey", *FAST, *named, "--force"]) == 1
        assert _finding(folder / named[1]) == "second"
        _use(monkeypatch, _passes)  # passing, it is refused before any game all the same
        assert main(["validate", "blackwood-frey", *FAST, *named]) == 2
        _use(monkeypatch, _passes)
        capsys.readouterr()
        assert main(["validate", "blackwood-frey", *FAST, *named, "--force"]) == 0
        assert capsys.readouterr().err == ""  # the file was named: no note
        assert _finding(folder / named[1]) == "second"
