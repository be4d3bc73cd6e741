"""Every result names its configuration (issue 19 item 3): the shared description."""

from __future__ import annotations

import shlex
from pathlib import Path

import spitemalice as sm
from spitemalice.study.provenance import changed_parameters, describe_run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


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
