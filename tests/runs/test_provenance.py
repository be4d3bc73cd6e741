"""Every result names its configuration (issue 19 item 3): the shared description."""

from __future__ import annotations

import csv
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.cli import simulate as simulate_cli
from spitemalice.cli import study as study_cli
from spitemalice.runs.games_out import sidecar_path
from spitemalice.runs.provenance import changed_parameters, describe_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_description_names_rules_parameters_and_who_changed_them() -> None:
    book = sm.load("blackwood-frey", ["mandatory-aces"], {"payoff_size": 13, "players": 3})
    config = describe_run(book, ["greedy"], seed=7)
    assert config.ruleset == "blackwood-frey" and config.house_rules == ("mandatory-aces",)
    assert config.players == 3 and config.bots == ("greedy",) * 3 and config.seed == 7
    changed = {c.name: (c.value, c.own, c.set_by) for c in config.changed}
    assert changed == {"payoff_size": ("13", "26", "override"),
                       "mandatory_ranks": ("1", "none", "house rule mandatory-aces")}
    data = config.as_dict()
    assert data["version"] == sm.__version__ and data["ruleset_version"] == "blackwood-frey 1.0"
    assert data["changed"]["payoff_size"] == {"value": "13", "own": "26", "set_by": "override"}


def test_the_rerun_command_loads_the_same_configuration() -> None:
    book = sm.load("blackwood-frey", ["mandatory-aces"], {"payoff_size": 13, "players": 3})
    config = describe_run(book, ["random", "greedy", "greedy"], seed=7)
    argv = shlex.split(config.command("simulate", "--games", "5"))
    assert argv[:3] == ["spitemalice", "simulate", "blackwood-frey"]
    assert argv[argv.index("--bots") + 1] == "random,greedy,greedy"
    assert argv[argv.index("--seed") + 1] == "7"
    again = sm.load(argv[2], [argv[i + 1] for i, a in enumerate(argv) if a == "--house-rule"],
                    dict(argv[i + 1].split("=") for i, a in enumerate(argv) if a == "--set")
                    | {"players": int(argv[argv.index("--players") + 1])})
    assert again.ruleset == book.ruleset


def test_a_rule_set_file_is_named_by_its_path_and_its_own_house_rules_are_not_repeated() -> None:
    path = str(EXAMPLES / "short-three.toml")
    book = sm.load(path, ["mandatory-aces"])
    config = describe_run(book, ["greedy"], 1, ruleset=path, house_rules=["mandatory-aces"])
    assert config.house_rules == ("pair-discards", "mandatory-aces")  # the file's own first
    assert config.rule_args()[:3] == [path, "--house-rule", "mandatory-aces"]
    assert "--set" not in config.rule_args()  # the file sets its parameters itself
    by = {c.name: c.set_by for c in config.changed}
    assert by["payoff_size"] == "file short-three.toml"


def test_an_unchanged_configuration_says_so() -> None:
    config = describe_run(sm.load("blackwood-frey"), ["greedy"], 0)
    assert changed_parameters(sm.load("blackwood-frey")) == ()
    assert dict(config.rows())["changed parameters"] == "none"


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _rerun(command: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    argv = shlex.split(command)
    assert argv[0] == "spitemalice"
    return _json([*argv[1:], "--json"], capsys)


def test_simulate_names_its_configuration_and_its_rerun_plays_the_same_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "blackwood-frey", "--house-rule", "mandatory-aces", "--set",
            "payoff_size=5", "--bots", "random,greedy", "--games", "4", "--seed", "3"]
    data = _json([*argv, "--json"], capsys)
    named = data["configuration"]
    assert named["house_rules"] == ["mandatory-aces"] and named["seed"] == 3
    assert named["bots"] == ["random", "greedy"] and named["version"] == sm.__version__
    assert named["changed"]["payoff_size"]["set_by"] == "override"
    assert _rerun(data["command"], capsys) == data  # traced and rerun exactly
    assert main(argv) == 0
    text = capsys.readouterr().out
    for row in ("rule set", "changed parameters", "seed", "versions", "rerun"):
        assert re.search(rf"^{row}\s+\S", text, re.M), row
    assert "payoff_size=5 (own 26, set by override)" in text


def test_compare_names_both_configurations_and_its_rerun_plays_the_same_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(["compare", "blackwood-frey", "blackwood-frey", "--b-house-rule",
                  "mandatory-aces", "--a-set", "payoff_size=5", "--b-set", "payoff_size=5",
                  "--games", "4", "--json"], capsys)
    a, b = data["configurations"]["A"], data["configurations"]["B"]
    assert a["house_rules"] == [] and b["house_rules"] == ["mandatory-aces"]
    assert "--b-house-rule mandatory-aces" in data["command"]
    assert _rerun(data["command"], capsys) == data


def test_b_house_rule_and_house_rule_are_the_same_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    common = ["compare", "blackwood-frey", "blackwood-frey", "--games", "3", "--json"]
    new = _json([*common, "--b-house-rule", "mandatory-aces", "--b-set", "payoff_size=5"],
                capsys)
    old = _json([*common, "--house-rule", "mandatory-aces", "--set", "payoff_size=5"], capsys)
    assert new == old and new["b"] == "blackwood-frey + mandatory-aces, payoff_size=5"


def test_tournament_and_validate_name_their_configuration(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    tour = _json(["tournament", "blackwood-frey", "--bots", "random,greedy", "--games", "2",
                  "--set", "payoff_size=5", "--json"], capsys)
    assert tour["bots"] == ["random", "greedy"] and tour["configuration"]["players"] == 2
    assert _rerun(tour["command"], capsys) == tour
    report = _json(["validate", "blackwood-frey", "--set", "payoff_size=5", "--games", "3",
                    "--json", "--record", str(tmp_path / "f.json")], capsys)
    assert report["configuration"]["changed"]["payoff_size"]["value"] == "5"
    assert report["command"].startswith("spitemalice validate blackwood-frey --set "
                                        "payoff_size=5")
    assert report["base"].startswith("blackwood-frey (the rule set alone")


@pytest.mark.parametrize("name", ["games.csv", "games.jsonl"])
def test_games_out_writes_the_configuration_beside_rows_that_readers_take_as_they_are(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / name
    data = _json(["simulate", "blackwood-frey", "--set", "payoff_size=5", "--games", "3",
                  "--games-out", str(out), "--json"], capsys)
    sidecar = json.loads(sidecar_path(out).read_text(encoding="utf-8"))
    assert sidecar_path(out).name == f"{name}.config.json"
    assert sidecar == {"games": name, "format": 2, "configuration": data["configuration"],
                       "command": data["command"], "rows": 3, "games_finished": 3,
                       "interrupted": False, "turn_limit": 3000}
    if name.endswith(".csv"):
        rows = list(csv.DictReader(out.open(encoding="utf-8")))  # no comment line to skip
        assert [row["game"] for row in rows] == ["0", "1", "2"]
    else:
        assert [json.loads(line)["game"] for line in out.read_text().splitlines()] == [0, 1, 2]


def test_a_plot_title_names_the_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    titles: list[str] = []
    for command in (simulate_cli, study_cli):  # simulate's picture, and compare's
        monkeypatch.setattr(command, "check_path", lambda path, force=False: None)
        monkeypatch.setattr(command, "plot_runs",
                            lambda path, runs, seats, title, force=False: titles.append(title))
    main(["simulate", "blackwood-frey", "--set", "payoff_size=5", "--games", "2", "--seed",
          "4", "--plot", str(tmp_path / "p.png"), "--quiet"])
    main(["compare", "blackwood-frey", "blackwood-frey", "--b-house-rule", "mandatory-aces",
          "--games", "2", "--plot", str(tmp_path / "c.png"), "--quiet"])
    capsys.readouterr()
    # The first line names the override; the second says the rest, each setting once.
    first, second = titles[0].split("\n")
    assert "payoff_size=5" in first and "payoff_size" not in second
    assert second.startswith("2 players, bots greedy, seed 4, spitemalice")
    assert "B: mandatory_ranks=1, 2 players, bots greedy" in titles[1]
