"""The rerun command every study prints (text, ``--json``'s ``command``, the ``--games-out``
sidecar) repeats the run: every option that changes what the run plays, measures or prints is
in it, except those :data:`spitemalice.cli._args.NOT_IN_RERUN` lists with a reason (try-out
s5, findings 2 and 3: ``balance`` dropped ``--no-base``, ``--base`` and ``--coverage-games``,
``ladder`` dropped ``--anchor``)."""

from __future__ import annotations

import argparse
import json
import shlex
from typing import Any

import pytest

from spitemalice.cli import build_parser, main
from spitemalice.cli._args import NOT_IN_RERUN, bot_list
from spitemalice.cli.study import BATCH

STUDIES = ("simulate", "compare", "tournament", "validate", "ladder", "balance")
"""The commands that print a rerun command."""

BASE = {
    "simulate": ["simulate", "blackwood-frey", "--games", "2"],
    "compare": ["compare", "blackwood-frey", "blackwood-frey", "--games", "2"],
    "tournament": ["tournament", "blackwood-frey", "--bots", "random,greedy", "--games", "1"],
    "validate": ["validate", "blackwood-frey", "--games", "1"],
    "ladder": ["ladder", "blackwood-frey", "--bots", "random,greedy", "--games", "1"],
    "balance": ["balance", "blackwood-frey", "--bots", "random,greedy", "--games", "2",
                "--deals", "1", "--coverage-games", "0"],
}
"""A tiny run of each command; the option under test is added to it."""

SAMPLES: dict[str, list[str]] = {
    "players": ["--players", "3"],
    "house_rule": ["--house-rule", "mandatory-aces"],
    "settings": ["--set", "payoff_size=13"],
    "allow_files": ["--allow-files"],
    "games": ["--games", "3"],
    "seed": ["--seed", "7"],
    "bots": ["--bots", "random,greedy"],
    "coverage": ["--coverage"],
    "metrics": ["--metrics"],
    "a_house_rule": ["--a-house-rule", "mandatory-aces"],
    "a_settings": ["--a-set", "payoff_size=13"],
    "a_bots": ["--a-bots", "random"],
    "b_bots": ["--b-bots", "heuristic"],
    "until_decided": ["--until-decided", "0.0123456789"],
    "statistic": ["--until-decided", "3", "--statistic", "turns"],
    "batch": ["--batch", "7"],
    "no_coverage": ["--no-coverage"],
    "strict": ["--strict"],
    "on": [],  # validate HOUSE-RULE --on RULESET: its own run, ON below
    # validate FILE --alone CLAUSE takes a rule-set file with data rules, not blackwood-frey:
    # tests/validation/test_rule_alone_rerun.py runs the rerun line it prints
    "alone": [],
    "all_games": ["--all-games"],
    "anchor": ["--anchor", "greedy"],
    "deals": ["--deals", "2"],
    "base": ["--base", "skip-bo"],
    "no_base": ["--no-base"],
    "coverage_games": ["--coverage-games", "1"],
    "ruleset": [], "a": [], "b": [],  # the positional arguments, in every run
}
"""A value other than the default for each option a rerun must repeat."""

ON = ["validate", "mandatory-aces", "--on", "blackwood-frey", "--games", "1"]


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


ARRIVAL = {"reaction": ["--reaction", "250,400"], "spread": ["--spread", "0.5"]}
"""simulate's arrival options, which only a rule set whose seats move at once takes (a
turn-based run refuses them): checked on spit below."""


def _dests(command: str) -> list[str]:
    return [a.dest for a in _subparser(command)._actions
            if a.dest not in ("help", *NOT_IN_RERUN, *ARRIVAL)]


@pytest.mark.parametrize("command", STUDIES)
def test_every_option_is_in_the_rerun_or_left_out_for_a_reason(command: str) -> None:
    """A new option fails here until it has a sample (and so is checked below) or a reason
    in NOT_IN_RERUN."""
    missing = [dest for dest in _dests(command) if dest not in SAMPLES]
    assert not missing, f"{command}: give these options a sample or a reason: {missing}"


def _commands(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    status = main([*argv, "--json", "--jobs", "1"])
    out = capsys.readouterr().out
    assert status in (0, 1), out  # validate: 1 when a check fails
    data = json.loads(out)
    if "reports" in data:  # validate HOUSE-RULE: one report (and rerun) per rule set
        return [report["command"] for report in data["reports"].values()]
    return [data["command"]]


def _effective(command: str, args: argparse.Namespace) -> dict[str, Any]:
    """The options as the run uses them: a rerun writes some in a resolved form (compare's
    --bots as --a-bots and --b-bots, the statistic --until-decided defaults to)."""
    values = {dest: getattr(args, dest) for dest in _dests(command)}
    if "bots" in values and command != "compare":
        values["bots"] = bot_list(values["bots"])
    if command == "compare":
        bots = values.pop("bots")
        values["a_bots"] = bot_list(values["a_bots"] or bots)
        values["b_bots"] = bot_list(values["b_bots"] or bots)
        if values["until_decided"] is not None:
            values["statistic"] = values["statistic"] or "moves"
            values["batch"] = values["batch"] or BATCH
    return values


def _variants() -> list[tuple[str, str]]:
    """Each command with each option; validate's (a second or more a run) all in one run."""
    found = [(command, dest) for command in STUDIES for dest in _dests(command)
             if command != "validate" and SAMPLES.get(dest)]
    return [*found, ("validate", "all"), ("validate", "on")]


@pytest.mark.parametrize("command, dest", _variants())
def test_the_rerun_repeats_each_option(command: str, dest: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    argv = (ON if dest == "on" else
            [*BASE[command], *(word for name in _dests(command) for word in SAMPLES[name])]
            if dest == "all" else [*BASE[command], *SAMPLES[dest]])
    if dest == "anchor" or dest == "bots":
        argv = [a for a in argv if a not in ("--bots", "random,greedy")] + SAMPLES["bots"]
    if command == "compare" and dest == "batch":  # compare refuses --batch alone
        argv += ["--until-decided", "3"]
    parser = build_parser(command)
    given = _effective(command, parser.parse_args(argv))
    for rerun in _commands(argv, capsys):
        words = shlex.split(rerun)
        assert words[:2] == ["spitemalice", command], rerun
        again = _effective(command, parser.parse_args(words[1:]))
        if dest == "on":  # the report on RULESET reruns as RULESET --house-rule HOUSE-RULE
            assert again["ruleset"] == given["on"], rerun
            assert again["house_rule"] == [given["ruleset"]], rerun
            continue
        if given["players"] is None:  # the rerun names the seats played (the default)
            given["players"] = again["players"]
        assert again == given, rerun


def test_the_rerun_of_a_simultaneous_simulation_repeats_every_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    """SP-1: spit's run names its arrival policy; its rerun plays the same games."""
    argv = ["simulate", "spit", "--games", "2", "--seed", "5", *ARRIVAL["reaction"],
            *ARRIVAL["spread"]]
    assert main([*argv, "--json"]) == 0
    first = capsys.readouterr().out
    data = json.loads(first)
    parser = build_parser("simulate")
    given, again = parser.parse_args(argv), parser.parse_args(shlex.split(data["command"])[1:])
    for dest in ("ruleset", "games", "seed", *ARRIVAL):
        assert getattr(again, dest) == getattr(given, dest), data["command"]
    assert main([*shlex.split(data["command"])[1:], "--json"]) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("argv", [
    ["balance", "skip-bo", "--players", "3", "--games", "6", "--deals", "2", "--no-base",
     "--bots", "random,greedy", "--coverage-games", "3"],
    ["balance", "blackwood-frey", "--games", "4", "--deals", "1", "--base", "skip-bo",
     "--bots", "random,greedy", "--coverage-games", "0"],
    ["ladder", "blackwood-frey", "--bots", "random,greedy", "--anchor", "greedy", "--games",
     "4", "--all-games"],
], ids=["balance-no-base", "balance-base", "ladder-anchor"])
def test_the_printed_rerun_prints_the_same(argv: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The try-out's two examples, small: the rerun line's command prints the same report,
    rerun line included."""
    assert main([*argv, "--quiet", "--jobs", "1"]) == 0
    first = capsys.readouterr().out
    rerun = next(line.split(None, 1)[1] for line in first.splitlines()
                 if line.startswith("rerun"))
    assert main([*shlex.split(rerun)[1:], "--quiet", "--jobs", "1"]) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("argv, games", [
    (["simulate", "blackwood-frey", "--games", "3"], 3),
    (["compare", "blackwood-frey", "blackwood-frey", "--games", "2", "--no-coverage"], 4),
    (["tournament", "blackwood-frey", "--bots", "random,greedy,heuristic", "--games", "2"],
     2 * 2 * 2),  # two pairings, two deals, each played once per seat
    (["ladder", "blackwood-frey", "--bots", "random,greedy,heuristic", "--games", "2",
      "--all-games"], 3 * 2 * 2),  # three pairs, two deals, each played twice
], ids=["simulate", "compare", "tournament", "ladder"])
def test_the_sidecar_counts_games(argv: list[str], games: int, tmp_path: Any,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``rows`` and ``games_finished`` both count games, in every command with --games-out
    (try-out s5, finding 11: compare and ladder counted seeds and deals); its ``command`` is
    the rerun --json prints."""
    out = tmp_path / "games.csv"
    assert main([*argv, "--games-out", str(out), "--json", "--jobs", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)["command"]
    sidecar = json.loads((tmp_path / "games.csv.config.json").read_text())
    lines = out.read_text().splitlines()
    assert sidecar["rows"] == sidecar["games_finished"] == len(lines) - 1 == games
    assert sidecar["interrupted"] is False
    assert sidecar["command"] == printed
