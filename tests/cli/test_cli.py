"""The ``spitemalice`` command line: simulate, rules, variants, and one-line errors."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main

SIM = ["simulate", "blackwood-frey", "--players", "2", "--games", "5", "--seed", "1"]


def one_line_error(err: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    assert "error" in lines[0]


def test_simulate_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(SIM) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert re.search(r"^games\s+5$", out, re.M), out
    assert "blackwood-frey" in out


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SIM, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 5
    assert data["ruleset"] == "blackwood-frey"
    assert sum(data["outcomes"].values()) == 5
    assert set(data["outcomes"]) == {"win", "drawn", "blocked", "turn-limit"}
    assert sum(data["wins_per_seat"]) == data["outcomes"]["win"]


def test_simulate_is_repeatable_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        assert main([*SIM, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        runs.append((data["outcomes"], data["wins_per_seat"], data["total_moves"]))
    assert runs[0] == runs[1]


def test_simulate_with_one_bot_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SIM, "--bots", "greedy,random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == ["greedy", "random"]
    assert data["games"] == 5


def test_simulate_table_names_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SIM, "--bots", "greedy,random"]) == 0
    assert "greedy,random" in capsys.readouterr().out


def test_rules_prints_every_clause(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "blackwood-frey"]) == 0
    out = capsys.readouterr().out
    ids = [clause.id for clause in sm.load("blackwood-frey").clauses]
    assert len(ids) >= 23
    for clause_id in ids:
        assert re.search(rf"^{re.escape(clause_id)}\s", out, re.M), clause_id


def test_rules_shows_overridden_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "blackwood-frey", "--set", "payoff_size=13"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ \*payoff_size\s+13\s", out, re.M)
    assert re.search(r"^\s+\(was 26; changed by override\)$", out, re.M)
    assert re.search(r"^  hand_size\s+5\s", out, re.M), "an unchanged parameter is not marked"


def test_variants_lists_blackwood_frey(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^blackwood-frey\s+ruleset\s", out, re.M), out


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "no-such-rules"],
        ["rules", "no-such-rules"],
        [*SIM[:2], "--players", "5"],
        [*SIM, "--set", "nosuch=1"],
        [*SIM, "--bots", "greedy,random,random"],
        [*SIM, "--bots", "nobody"],
    ],
    ids=["unknown-ruleset", "rules-unknown", "players-5", "set-unknown",
         "bots-count", "bots-unknown"],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    one_line_error(err)


@pytest.mark.parametrize(
    "argv",
    [
        [*SIM[:2], "--games", "-1"],
        [*SIM[:2], "--games", "0"],
        [*SIM[:2], "--seed", "x"],
        [*SIM[:2], "--players", "two"],
        [*SIM[:2], "--players", "1"],
        [*SIM[:2], "--players", "9"],
        [*SIM[:2], "--set", "nonsense"],
        ["frobnicate"],
    ],
    ids=["games-negative", "games-zero", "seed-text", "players-text", "players-1",
         "players-9", "set-no-equals",
         "unknown-command"],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("flag, command", [
    ("--seed", "simulate"), ("--games", "simulate"), ("--batch", "compare"),
    ("--delay", "play"),
])
def test_a_value_cut_short_in_an_error_is_marked_cut(
    flag: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 101-digit number cut to its first 40 digits with no mark would read as a valid
    value: the message marks the cut and names the bound that was broken."""
    typed = "1" + "0" * 100
    argv = ([command, "blackwood-frey", "blackwood-frey"] if command == "compare" else
            [command, "blackwood-frey"])
    with pytest.raises(SystemExit) as e:
        main([*argv, flag, typed])
    assert e.value.code == 2
    err = capsys.readouterr().err
    one_line_error(err)
    shown = re.search(r'not "(1\d*)', err)
    assert shown is not None and typed.startswith(shown[1]) and shown[1] != typed
    assert err.rstrip().endswith('..."')
    if flag != "--delay":
        assert re.search(r"from [\d,]+ to [\d,]+|from 0 to 10\*\*80 - 1", err), err


def _console_script() -> str:
    script = Path(sys.executable).parent / "spitemalice"
    if script.exists():
        return str(script)
    found = shutil.which("spitemalice")
    assert found, "the spitemalice console script is not installed"
    return found


def test_console_script_runs() -> None:
    script = _console_script()
    done = subprocess.run([script, "variants"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "blackwood-frey" in done.stdout
    bad = subprocess.run([script, "simulate", "no-such-rules"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2
    one_line_error(bad.stderr)


def test_version_flag_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("spitemalice 0.")


def test_no_command_lists_every_command_and_exits_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Bare ``spitemalice`` names what it can do instead of only saying a command is needed."""
    from spitemalice.cli import COMMANDS

    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    listed = err.split("positional arguments:")[1]
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", listed, re.MULTILINE), name
    assert err.rstrip().endswith("a command is needed: one of those listed above")


def test_a_program_calling_main_keeps_its_stderr_after_a_broken_pipe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """main(argv) run inside a program (a test runner, a notebook) stops quietly on a broken
    pipe, as the command line does, but leaves the program's stderr open: closing it broke
    every later test of a worker whose capture file it was."""
    import spitemalice.cli.rulesets as rulesets

    def broken(args: object) -> int:
        raise BrokenPipeError

    monkeypatch.setattr(rulesets, "run_variants", broken)
    stderr = sys.stderr
    assert main(["variants"]) == 0
    assert not stderr.closed
