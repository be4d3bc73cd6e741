"""Every numeric option of every command takes exactly the range the library checks: a value
outside it is refused by argparse (exit 2, one line naming the option and the range), never
passed on to fail deeper with a traceback (try-out s5, finding 1: ``ladder --until-decided
0.6``)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.cli import COMMANDS, build_parser, main
from spitemalice.cli._args import bot_list_option, setting
from spitemalice.limits import MAX_GAMES, MAX_INT, MAX_JOBS, MAX_SECONDS, MAX_SEED

BASE = {
    "simulate": ["simulate", "blackwood-frey"], "rules": ["rules", "blackwood-frey"],
    "validate": ["validate", "blackwood-frey"], "replay": ["replay", "x.json"],
    "check": ["check", "x.json"], "show": ["show", "p", "--ruleset", "blackwood-frey"],
    "schema": ["schema", "record"], "compare": ["compare", "blackwood-frey", "blackwood-frey"],
    "tournament": ["tournament", "blackwood-frey"], "ladder": ["ladder", "blackwood-frey"],
    "balance": ["balance", "blackwood-frey"], "play": ["play"], "serve": ["serve"],
    "bot": ["bot", "--connect", "http://h/table/x#seat=0&token=t"], "variants": ["variants"],
    "tune": ["tune", "blackwood-frey", "--param", "payoff_size=10..20", "--target",
             "completion>=0.9"],
}
"""Each command with the arguments it requires, so that only the option under test is bad."""

PLAYERS = (2, 8, int)
GAMES = (1, MAX_GAMES, int)
SEED = (0, MAX_SEED, int)
JOBS = (1, MAX_JOBS, int)
# (least, greatest, kind): "int" a whole number, both ends allowed; "open" a number between
# the ends, neither allowed; "closed" a finite number, both ends allowed.
BOUNDS: dict[tuple[str, str], tuple[float, float, Any]] = {
    **{(command, "--players"): PLAYERS for command in
       ("simulate", "rules", "validate", "show", "compare", "tournament", "ladder", "balance",
        "play", "tune")},
    **{(command, "--seed"): SEED for command in
       ("simulate", "validate", "compare", "tournament", "ladder", "balance", "play", "bot",
        "tune")},
    **{(command, "--games"): GAMES for command in
       ("simulate", "validate", "compare", "tournament", "ladder", "balance")},
    **{(command, "--jobs"): JOBS for command in
       ("simulate", "validate", "compare", "tournament", "ladder", "balance", "tune")},
    **{("tune", option): GAMES for option in
       ("--budget", "--batch", "--recheck", "--recheck-games")},
    ("simulate", "--spread"): (0, 2, "closed"),  # spit's reaction times' log-normal sigma
    ("compare", "--batch"): GAMES, ("ladder", "--batch"): GAMES,
    ("balance", "--deals"): GAMES, ("balance", "--coverage-games"): (0, MAX_GAMES, int),
    ("compare", "--until-decided"): (0, math.inf, "open"),  # sprt: any positive margin
    ("ladder", "--until-decided"): (0, 0.5, "open"),  # ladder: a share in (0, 0.5)
    ("play", "--seat"): (0, 7, int),  # the game's seats narrow it further, naming --seat
    ("replay", "--seat"): (0, 7, int),  # the record's seats narrow it further, naming --seat
    ("play", "--delay"): (0, 60, "closed"),
    ("serve", "--port"): (0, 65535, int),
    ("serve", "--lease-seconds"): (0.2, 3600, "closed"),
    ("serve", "--bot-delay"): (0, MAX_SECONDS, "closed"),
    ("serve", "--quickplay-wait"): (0, 50, "closed"),
    ("serve", "--max-tables"): (1, MAX_INT, int),
    ("serve", "--max-tables-per-client"): (1, MAX_INT, int),
    ("serve", "--max-connections"): (1, MAX_INT, int),
    ("serve", "--max-connections-per-client"): (1, MAX_INT, int),
}
"""Every numeric option and its range: the library's own bound (or the command line's
narrower one, where it names the bound itself)."""

NOT_NUMBERS = (None, str, Path, setting, bot_list_option)


def _numeric_options() -> set[tuple[str, str]]:
    found = set()
    for command in COMMANDS:
        parser = _subparser(command)
        for action in parser._actions:
            if action.option_strings and action.type not in NOT_NUMBERS \
                    and action.dest != "help":
                found.add((command, action.option_strings[0]))
    return found


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def test_every_numeric_option_has_its_range_here() -> None:
    """A new numeric option fails here until its range is in BOUNDS (and so tested)."""
    assert _numeric_options() == set(BOUNDS)


def _bad_and_good(low: float, high: float, kind: Any) -> tuple[list[str], list[str]]:
    huge = str(10**90)
    if kind is int:
        bad = [str(int(low) - 1), "-1", "1.5", "nan", "", "x", huge]
        if high < MAX_INT:
            bad.append(str(int(high) + 1))
        return bad, [str(int(low)), str(int(high))]
    bad = ["nan", "inf", "-inf", "1e400", "x", "-1", huge if high < 1e90 else "-" + huge]
    if kind == "open":
        bad += [repr(low), *([repr(high)] if math.isfinite(high) else [])]
        middle = (low + high) / 2 if math.isfinite(high) else 1.0
        return bad, [repr(middle), repr(low + 1e-9)]
    bad.append(repr(high * 1.5))
    return bad, [repr(float(low)), repr(float(high))]


@pytest.mark.parametrize("command, option", sorted(BOUNDS))
def test_a_value_out_of_range_is_refused_by_the_parser(
        command: str, option: str, capsys: pytest.CaptureFixture[str]) -> None:
    bad, good = _bad_and_good(*BOUNDS[command, option])
    parser = build_parser(command)
    for value in bad:
        with pytest.raises(SystemExit) as stop:
            parser.parse_args([*BASE[command], f"{option}={value}"])
        assert stop.value.code == 2, value
        err = capsys.readouterr().err
        assert "Traceback" not in err
        lines = err.strip().splitlines()
        assert len(lines) == 1, lines
        assert f"argument {option}" in lines[0], lines[0]
        assert " from " in lines[0] or " above " in lines[0], lines[0]
    for value in good:
        args = parser.parse_args([*BASE[command], f"{option}={value}"])
        assert args is not None, value


@pytest.mark.parametrize("argv", [
    ["ladder", "blackwood-frey", "--bots", "greedy,random", "--until-decided", "0.6"],
    ["ladder", "blackwood-frey", "--bots", "greedy,random", "--until-decided", "0.5"],
    ["simulate", "blackwood-frey", "--games", str(MAX_GAMES + 1)],
    ["simulate", "blackwood-frey", "--jobs", str(MAX_JOBS + 1)],
    ["simulate", "blackwood-frey", "--players", str(10**90)],
    ["serve", "--bot-delay", "nan"],
    ["serve", "--max-tables", "0"],
], ids=["ladder-margin-0.6", "ladder-margin-0.5", "games-above-max", "jobs-above-max",
        "players-huge", "bot-delay-nan", "max-tables-0"])
def test_the_tryouts_values_are_one_line_errors(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Values the library refused only after the parser let them through (a traceback for
    ladder's margin; a message naming a library argument, not the option, for the rest)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"argument {argv[-2]}" in err


def test_the_ranges_edges_run(capsys: pytest.CaptureFixture[str]) -> None:
    """The parser is not narrower than the library where it matters: a ladder margin just
    under 0.5 and a compare margin far above 1 run."""
    assert main(["ladder", "blackwood-frey", "--bots", "random,greedy", "--games", "1",
                 "--until-decided", "0.4999", "--quiet", "--jobs", "1"]) == 0
    assert main(["compare", "blackwood-frey", "blackwood-frey", "--games", "1",
                 "--until-decided", "1e90", "--quiet", "--jobs", "1", "--no-coverage"]) == 0
    capsys.readouterr()


PLOTS = {
    "simulate": ("spitemalice.study.plot", "plot_runs", ["moves per game", "seat"]),
    "compare": ("spitemalice.study.plot", "plot_runs", ["moves per game", "seat"]),
    "ladder": ("spitemalice.study.plot_ratings", "plot_ladder", ["rating", "pair"]),
    "balance": ("spitemalice.study.plot_ratings", "plot_balance",
                ["turn position", "skill matrix"]),
}
"""Each command with --plot, the function that draws its picture and words that both the
option's help and that function's docstring use for what is drawn (try-out s5, finding 5:
ladder's help described simulate's picture)."""


def test_every_plot_option_is_listed() -> None:
    with_plot = {command for command in COMMANDS
                 if any("--plot" in a.option_strings for a in _subparser(command)._actions)}
    assert with_plot == set(PLOTS)


@pytest.mark.parametrize("command", sorted(PLOTS))
def test_plot_help_says_what_the_picture_shows(command: str) -> None:
    import importlib

    module, function, words = PLOTS[command]
    drawn = (getattr(importlib.import_module(module), function).__doc__ or "").lower()
    help_text = next(a.help for a in _subparser(command)._actions
                     if "--plot" in a.option_strings) or ""
    for word in words:
        assert word in help_text.lower(), (command, help_text)
        assert word in " ".join(drawn.split()), (function, word)
    if command != "ladder":
        assert "rating" not in help_text
    else:
        assert "length" not in help_text and "per seat" not in help_text


@pytest.mark.parametrize("argv", [
    ["balance", "skip-bo", "--base", "blackwood-frey", "--no-base"],
    ["ladder", "skip-bo", "--all-games", "--until-decided", "0.1"],
    *((["compare", "skip-bo", "skip-bo"] if command == "compare" else [command, "skip-bo"])
      + ["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"] for command in
      ("simulate", "compare", "tournament", "validate", "ladder", "balance")),
], ids=["balance-base", "ladder-stop", "simulate-jobs", "compare-jobs", "tournament-jobs",
        "validate-jobs", "ladder-jobs", "balance-jobs"])
def test_options_that_contradict_each_other_are_refused(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out s5, finding 13: ``balance --base X --no-base`` ran, --no-base silently winning;
    so did ``ladder --all-games --until-decided M`` (the margin ignored) and ``--jobs N
    --scheduler ADDRESS`` (the jobs ignored)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    first, second = [word for word in argv if word.startswith("--")][-2:]
    assert err.strip().endswith(f"argument {second}: not allowed with argument {first}"), err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_base_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "skip-bo", "--base", "nope", "--games", "1", "--deals", "1"]) == 2
    assert capsys.readouterr().err.startswith("spitemalice: error: --base: unknown rule set")


@pytest.mark.parametrize("argv", [
    ["compare", "blackwood-frey", "blackwood-frey", "--until-decided", "\u0663"],
    ["ladder", "blackwood-frey", "--until-decided", "\u0660.\u0661"],
    ["play", "blackwood-frey", "--delay", "\u00b2"],
    ["serve", "--bot-delay", "\u0663"],
])
def test_a_number_option_takes_ascii_digits_only(argv: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out s8 finding 12: ``--until-decided ٣`` (Arabic-Indic three) was taken as 3,
    since float() reads any script's digits, while every whole-number option refuses them.
    Every option parsed by ``cli._args.share`` now refuses them alike."""
    from spitemalice.cli import main

    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    error = capsys.readouterr().err
    assert "is a number" in error and "not " in error, error


@pytest.mark.parametrize("argv", [
    ["simulate", "blackwood-frey", "--bots", "greedy,,", "--games", "1"],
    ["compare", "blackwood-frey", "blackwood-frey", "--bots", "greedy,", "--games", "1"],
    ["compare", "blackwood-frey", "blackwood-frey", "--a-bots", ",greedy", "--games", "1"],
    ["compare", "blackwood-frey", "blackwood-frey", "--b-bots", "greedy, ,random"],
    ["compare", "blackwood-frey", "blackwood-frey", "--a-bots", "", "--games", "1"],
    ["tournament", "blackwood-frey", "--bots", "random,,greedy", "--games", "1"],
    ["ladder", "blackwood-frey", "--bots", "random,,greedy", "--games", "1"],
    ["balance", "blackwood-frey", "--bots", "random,greedy,", "--games", "1"],
    ["play", "blackwood-frey", "--bots", "greedy,"],
])
def test_an_empty_bot_name_is_refused_not_dropped(argv: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out s8 finding 12: ``--bots random,,greedy`` dropped the empty name silently (a
    seat or a tier could go missing unseen).  Every --bots option reads cli._args.bot_list."""
    from spitemalice.cli import main

    try:
        status = main(argv)
    except SystemExit as stop:  # play's parser refuses it itself
        status = stop.code
    assert status == 2
    assert "with no empty name" in capsys.readouterr().err


@pytest.mark.parametrize("extra, says", [
    (["--batch", "3"], "--batch sets how many games --until-decided plays per test"),
    (["--until-decided", "5", "--statistic", ""], "unknown statistic ''"),
])
def test_compare_options_that_would_do_nothing_are_refused(
        extra: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out s8 finding 12: --batch without --until-decided was ignored, and an empty
    --statistic meant the default."""
    from spitemalice.cli import main

    assert main(["compare", "blackwood-frey", "blackwood-frey", "--games", "2", *extra]) == 2
    assert says in capsys.readouterr().err


def test_compare_names_the_side_of_each_refusal_and_both_sides_together(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out: "2 problems: (1) packs = -1 ...; (2) hand_size = 0 ..." named no side, and
    with problems on both sides only A's were shown."""
    from spitemalice.cli import main

    base = ["compare", "blackwood-frey", "blackwood-frey", "--games", "2"]
    assert main([*base, "--b-set", "packs=-1", "--b-set", "hand_size=0"]) == 2
    assert capsys.readouterr().err.startswith(
        "spitemalice: error: B (--b-set, --b-house-rule, --b-bots): 2 problems: (1) packs = -1")
    assert main([*base, "--a-set", "packs=-1", "--set", "hand_size=0"]) == 2
    err = capsys.readouterr().err
    assert "2 problems: (1) A (--a-set, --a-house-rule, --a-bots): packs = -1" in err
    assert "(2) B (--b-set, --b-house-rule, --b-bots): hand_size = 0" in err


def test_a_decided_difference_claims_what_walds_test_weighs(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out s8b: "B differs from A by 12.5 or more" was printed beside -7.80
    (-12.34..-3.26): Wald's test weighs a difference of the margin against none, and may
    favour it for a difference in between.  The verdict now says what was weighed."""
    from spitemalice.cli import main

    argv = ["compare", "blackwood-frey", "blackwood-frey", "--set", "payoff_size=13",
            "--a-set", "payoff_size=13", "--a-bots", "random", "--b-bots", "greedy",
            "--until-decided", "20", "--statistic", "turns", "--batch", "10", "--games", "60",
            "--no-coverage", "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert ("B differs from A in turns per game (a difference of 20 fits the games better "
            "than none; the interval above says by how much)") in out
    assert "or more" not in out


@pytest.mark.parametrize(("argv", "option"), [
    (["rules", "g4a", "--set", "payoff_size=10", "--set", "payoff_size=12"], "--set"),
    (["simulate", "g4a", "--games", "1", "--set", "payoff_size=10", "--set", "hand_size=4",
      "--set", "payoff_size = 12"], "--set"),
    (["compare", "g4a", "g4a", "--games", "1", "--b-set", "payoff_size=10", "--set",
      "payoff_size=12"], "--set"),
    (["compare", "g4a", "g4a", "--games", "1", "--a-set", "payoff_size=10", "--a-set",
      "payoff_size=12"], "--a-set"),
])
def test_a_parameter_set_twice_to_different_values_is_refused_naming_both(
        argv: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    first = {"--set": "--b-set"}.get(option, option) if "--b-set" in argv else option
    assert (f"payoff_size is set twice, to different values ({first} payoff_size=10 and "
            f"{option} payoff_size=12): keep one (drop {first} payoff_size=10, or drop "
            f"{option} payoff_size=12)") in err, err


@pytest.mark.parametrize("argv", [
    ["rules", "blackwood-frey", "--set", "players=3", "--set", "players=3"],
    ["rules", "blackwood-frey", "--set", "players=3", "--set", "players = 03"],
    ["rules", "blackwood-frey", "--players", "3", "--set", "players=3", "--set", "players=3"],
    ["show", "blackwood-frey", "--set", "payoff_size=10", "--set", "payoff_size=10", "--help"],
])
def test_a_parameter_given_twice_with_the_same_value_is_taken(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``--set players=3 --set players=3`` was refused (set twice) where ``--players 3 --set
    players=3`` was taken: the same value twice is taken once, on every command."""
    if argv[-1] == "--help":
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 0
        return
    assert main(argv) == 0
    assert " *players               3" in capsys.readouterr().out


@pytest.mark.parametrize(("first", "then", "shown"), [
    ("wild_ranks=K", "wild_ranks=13", " *wild_ranks "),
    ("wild_ranks=0,13", "wild_ranks=13,0", "  wild_ranks            0,13 "),
    ("packs_per_seat=true", "packs_per_seat=yes", " *packs_per_seat "),
    ("max_build_piles=unlimited", "max_build_piles=Unlimited", " *max_build_piles "),
])
def test_a_parameter_given_twice_with_equal_values_written_differently_is_taken(
        first: str, then: str, shown: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--set wild_ranks=K --set wild_ranks=13`` was refused as set twice to different
    values: the texts were compared, not the values they read as."""
    assert main(["rules", "blackwood-frey", "--set", first, "--set", then]) == 0
    assert shown in capsys.readouterr().out


def test_two_parameters_set_once_each_are_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "g4a", "--set", "payoff_size=10", "--set", "hand_size=4"]) == 0
    out = capsys.readouterr().out
    assert " *payoff_size" in out and " *hand_size" in out


@pytest.mark.parametrize(("argv", "option"), [
    (["simulate", "blackwood-frey", "--games", "1", "--set", "players=3", "--players", "2"],
     "--set"),
    (["rules", "blackwood-frey", "--players", "2", "--set", "players=3"], "--set"),
    (["tournament", "blackwood-frey", "--games", "1", "--set", "players=3", "--players", "2"],
     "--set"),
    (["compare", "g4a", "g4a", "--games", "1", "--a-set", "players=3", "--players", "2"],
     "--a-set"),
    (["compare", "g4a", "g4a", "--games", "1", "--set", "players=3", "--players", "2"],
     "--b-set"),
])
def test_the_seats_given_by_players_and_set_are_refused_naming_both(
        argv: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--players`` is the one option that gives a rule-set parameter beside ``--set``: two
    different values would have let ``--players`` win silently (a fresh user's try-out)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"given twice, as --players 2 and {option} players=3" in err, err
    assert f"keep --players 2 and drop {option} players=3" in err, err


def test_the_seats_given_alike_by_players_and_set_are_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "blackwood-frey", "--players", "3", "--set", "players=3"]) == 0
    assert " *players" in capsys.readouterr().out


def test_tune_refuses_the_seats_varied_and_fixed_by_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", "blackwood-frey", "--param", "players=2..4", "--players", "3",
                 "--target", "completion>=0.9", "--budget", "1",
                 "--out", str(tmp_path / "t")]) == 2
    assert "varied by --param and fixed by --players 3" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


def _tune_args(*extra: str) -> argparse.Namespace:
    return build_parser("tune").parse_args(
        ["tune", "blackwood-frey", "--target", "completion>=0.9", *extra])


def test_tune_takes_a_parameter_varied_twice_alike_once() -> None:
    from spitemalice.cli.tune import search_of

    search = search_of(_tune_args("--param", "payoff_size=5..10", "--param",
                                  "payoff_size=5..10"))
    assert [param.text() for param in search.params] == ["payoff_size=5..10"]


@pytest.mark.parametrize(("extra", "words"), [
    (("--param", "payoff_size=5..10", "--param", "payoff_size=5..12"),
     "--param payoff_size is given twice, with different values (--param payoff_size=5..10 "
     "and --param payoff_size=5..12): keep one (drop --param payoff_size=5..10, or drop "
     "--param payoff_size=5..12)"),
    (("--param", "payoff_size=5..10", "--set", "payoff_size=8"),
     "--param payoff_size: a parameter is varied once, and not fixed by --set too (--param "
     "payoff_size=5..10 and --set payoff_size=8): keep one (drop --set payoff_size=8 to vary "
     "it, or drop --param payoff_size=5..10 to fix it)"),
])
def test_tune_refuses_a_parameter_given_two_ways_naming_both(
        extra: tuple[str, ...], words: str) -> None:
    from spitemalice.cli.tune import search_of

    with pytest.raises(sm.SpiteMaliceError) as refused:
        search_of(_tune_args(*extra))
    assert str(refused.value) == words


def _helps(parser: argparse.ArgumentParser, name: str) -> list[tuple[str, str]]:
    """``parser``'s --help text and those of the subcommands under it, by command line."""
    found = [(name, parser.format_help())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, child in action.choices.items():
                found += _helps(child, f"{name} {sub}")
    return found


def test_no_help_shows_a_doubled_percent_sign() -> None:
    """A new user saw "each with its 95%% interval" in metrics --help: a description is
    printed as written (only an option's help is %-formatted).  Every command's --help."""
    helps = _helps(build_parser(), "spitemalice")
    assert len(helps) > len(COMMANDS)
    assert [name for name, text in helps if "%%" in text] == []
    assert any("95% interval" in text for _, text in helps)
