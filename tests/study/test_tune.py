"""``spitemalice tune`` (spitemalice.study.tune, tune_targets, tune_report; spitemalice.cli.tune):
parameters and targets are read strictly, a verdict is pass or fail only when the interval lies
wholly on one side, a hopeless candidate is stopped after its first batch, the best are
re-evaluated at fresh seeds and written as rule-set files that load, and an interrupted search
resumes from its journal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.interval import Interval
from spitemalice.study.tune_targets import Param, Target, parse_param, parse_target

pytest.importorskip("optuna")

TINY = ["tune", "starturn", "--set", "wild_ranks=0", "--param", "jokers=0..8",
        "--param", "draw_pack=52-jokers", "--target", "completion>=90%", "--target",
        "turns=60+-30", "--bots", "greedy", "--budget", "60", "--batch", "6", "--recheck", "2",
        "--recheck-games", "8", "--jobs", "1", "--quiet"]


def test_params_and_targets_are_read_as_written() -> None:
    assert parse_param("jokers=0..8") == Param("jokers", 0, 8)
    assert parse_param("wild_ranks=0|none") == Param("wild_ranks", choices=("0", "none"))
    assert parse_param("draw_pack=52-jokers") == Param("draw_pack", high=52, minus="jokers")
    assert parse_target("completion>=95%") == Target("completion", ">=", 0.95)
    assert parse_target("turns=75±15") == Target("turns", "=", 75, 15)
    assert parse_target("first-seat=fair+-0.05") == Target("first-seat", "=", None, 0.05)
    assert parse_target("turns=75+-15").text() == "turns=75+-15"


@pytest.mark.parametrize(("text", "said"), [
    ("jokers=8..0", "the low end 8 is above the high end 0"),
    ("jokerz=0..8", "unknown parameter"),
    ("name=0..3", "unknown parameter"),
    ("jokers=5", "two or more values"),
    ("jokers", "NAME=LOW..HIGH"),
])
def test_a_bad_param_is_refused_by_name(text: str, said: str) -> None:
    with pytest.raises(SpiteMaliceError, match=said):
        parse_param(text)


@pytest.mark.parametrize(("text", "said"), [
    ("completion>=1.5", "a share is 0..1"),
    ("length=60", "unknown metric"),
    ("turns=fair", "'fair' is a value of first-seat only"),
    ("skill>=0.6+-0.1", "a tolerance goes with ="),
    ("completion", "METRIC=VALUE"),
])
def test_a_bad_target_is_refused_by_name(text: str, said: str) -> None:
    with pytest.raises(SpiteMaliceError, match=said):
        parse_target(text)


def test_a_verdict_is_pass_or_fail_only_when_the_interval_is_on_one_side() -> None:
    at_least = Target("completion", ">=", 0.9)
    assert at_least.verdict(Interval(0.95, 0.91, 0.98, 100), 0.5) == "pass"
    assert at_least.verdict(Interval(0.93, 0.85, 0.97, 100), 0.5) == "undecided"
    assert at_least.verdict(Interval(0.80, 0.70, 0.88, 100), 0.5) == "fail"
    fair = Target("first-seat", "=", None, 0.05)
    assert fair.verdict(Interval(0.5, 0.46, 0.54, 900), 0.5) == "pass"
    assert fair.verdict(Interval(0.5, 0.40, 0.60, 90), 0.5) == "undecided"
    assert fair.verdict(Interval(0.5, 0.0, 1.0, 0), 0.5) == "undecided"  # no game: no verdict
    # The miss is in units of the tolerance: 0 inside the band.
    assert fair.miss(0.52, 0.5) == 0
    assert fair.miss(0.60, 0.5) == pytest.approx(1.0)


def _run(tmp_path: Path, *extra: str) -> tuple[int, dict[str, object]]:
    out = tmp_path / "search"
    status = main([*TINY, "--out", str(out), *extra])
    return status, json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_a_search_reports_rechecked_candidates_whose_files_load(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    status, report = _run(tmp_path)
    printed = capsys.readouterr().out
    assert status == 0
    trials = report["trials"]
    assert isinstance(trials, list) and report["games"] >= 60
    # Every stopped trial had a target its first batch's interval already missed.
    for trial in trials:
        if trial["pruned"]:
            assert trial["measured"]["games"] == 6
    rechecked = report["rechecked"]
    assert isinstance(rechecked, list) and 1 <= len(rechecked) <= 2
    for entry in rechecked:
        assert entry["fresh"]["games"] == 8
        book = sm.load(entry["file"])
        assert book.ruleset.jokers == entry["values"]["jokers"]
        assert book.ruleset.draw_pack == 52 - entry["values"]["jokers"]  # a fixed total
        assert book.ruleset.wild_ranks == frozenset({0})
    assert "rerun: spitemalice tune starturn --set wild_ranks=0" in printed
    assert "winner: trial" in printed and "rule coverage:" in printed


def test_an_interrupted_search_resumes_and_other_settings_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, first = _run(tmp_path)
    assert status == 0
    assert (tmp_path / "search" / "journal.log").exists()
    # The same command again: the budget is spent, so no trial is added and the same
    # candidates come back.
    status, again = _run(tmp_path)
    assert status == 0 and again["games"] == first["games"]
    assert again["trials"] == first["trials"]
    assert again["rechecked"] == first["rechecked"]  # the fresh seeds are the same seeds
    # A larger budget goes on from the journal: the earlier trials stay, new ones follow.
    status, more = _run(tmp_path, "--budget", "90")
    assert status == 0 and more["games"] >= 90
    assert [t["values"] for t in more["trials"]][:len(first["trials"])] == [
        t["values"] for t in first["trials"]]
    # Another seed would play other games: refused, naming the folder.
    capsys.readouterr()
    assert main([*TINY, "--out", str(tmp_path / "search"), "--seed", "3"]) == 2
    assert "holds a search with other settings" in capsys.readouterr().err


def test_a_candidate_whose_rules_cannot_be_made_is_refused_not_fatal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Starturn seats 2 to 4: a candidate of 5 players is refused, one of 2 plays (a budget
    # of 9 games drew no candidate of 5).
    status = main(["tune", "starturn", "--param", "players=2|5", "--target",
                   "completion>=0.1", "--bots", "greedy", "--budget", "30", "--batch", "3",
                   "--recheck", "1", "--recheck-games", "3", "--jobs", "1", "--json",
                   "--out", str(tmp_path / "s")])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert {t["values"]["players"] for t in report["trials"]} == {"2"}
    assert report["rechecked"][0]["values"] == {"players": "2"}
    # Each refused trial is in the report too, with its values and why (it was left out)
    refused = report["refused"]
    assert refused and {r["values"]["players"] for r in refused} == {"5"}
    assert all("players" in r["refusal"] for r in refused)
    numbers = [t["number"] for t in report["trials"]] + [r["number"] for r in refused]
    assert sorted(numbers) == list(range(len(numbers)))  # every trial, played or refused
    kept = json.loads((tmp_path / "s" / "report.json").read_text(encoding="utf-8"))
    assert kept["refused"] == refused


def test_a_search_is_the_same_on_every_core(tmp_path: Path) -> None:
    # The sampler is seeded and every game a pure function of its seed: --jobs 2 finds the
    # same trials, figures and winner as one process.
    one = tmp_path / "one"
    two = tmp_path / "two"
    assert main([*TINY, "--budget", "30", "--out", str(one)]) == 0
    assert main([*TINY, "--budget", "30", "--jobs", "2", "--out", str(two)]) == 0
    reports = [json.loads((folder / "report.json").read_text(encoding="utf-8"))
               for folder in (one, two)]
    for key in ("trials", "games"):
        assert reports[0][key] == reports[1][key]
    assert [r["fresh"] for r in reports[0]["rechecked"]] == [
        r["fresh"] for r in reports[1]["rechecked"]]


def test_a_second_batch_plays_only_its_own_games_and_measures_as_both_at_once() -> None:
    # try-out s41: a trial's second batch played the first batch's games again (3 batches of
    # games for 2 counted); measured on top of the first, it plays its own and agrees
    from spitemalice.study.tune_targets import Plan, measure

    rules = sm.load("blackwood-frey", payoff_size=5)
    plan = Plan("greedy", "greedy", "random", frozenset({"completion", "turns", "skill"}))
    first = measure(rules, plan, range(4), 3)
    both = measure(rules, plan, range(4, 8), 3, earlier=first)
    whole = measure(rules, plan, range(8), 3)
    assert both.metrics == whole.metrics
    assert both.games == whole.games == 8 + 2 * 8  # self-play, and each deal twice for skill
    assert first.games == 4 + 2 * 4


def test_a_param_value_the_rule_set_cannot_take_is_refused_before_any_game() -> None:
    # try-out s41: first_seat=cut|nosuch ran, every "nosuch" trial refused with no reason
    with pytest.raises(SpiteMaliceError, match=r'--param jokers: "many" is no value of jokers'):
        parse_param("jokers=0|many")
    assert parse_param("first_seat=cut|higher-payoff-top").choices == (
        "cut", "higher-payoff-top")
    with pytest.raises(SpiteMaliceError, match="ends are whole numbers of at most 6 digits"):
        parse_param("jokers=0..99999999999999999999")


def test_a_refused_trial_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # try-out s41: "trial 0: jokers=938: refused" gave no reason
    # (a range the field refuses is refused before any trial: a hand too large for the deck
    # is refused trial by trial, each saying why; all refused, the search fails)
    status = main(["tune", "blackwood-frey", "--set", "packs=1", "--set", "payoff_size=20",
                   "--param", "hand_size=10..12", "--target", "completion>=0.5", "--budget",
                   "20", "--batch", "10", "--recheck", "1", "--recheck-games", "10", "--bots",
                   "random", "--out", str(tmp_path / "t")])
    captured = capsys.readouterr()
    assert status == 1, captured.err
    assert re.search(r"trial 0: hand_size=1\d: refused: .*hand_size", captured.err)
    assert "every trial was refused, no game played: trial 0, hand_size=1" in captured.out
    assert "every trial was refused" in captured.err.splitlines()[-1]
    report = json.loads((tmp_path / "t" / "report.json").read_text(encoding="utf-8"))
    assert [r["number"] for r in report["refused"]] == list(range(20))
    texts = {r["refusal"] for r in report["refused"]}
    assert len(texts) > 1  # one for each hand size the sampler tried
    # Each refusal is printed once on stderr (a trial refused alike names the first), and the
    # last line does not repeat the report's (the first was printed twice, then three times)
    for text in texts:
        assert captured.err.count(text) == 1 and captured.out.count(text) <= 1
    assert re.search(r"trial \d+: hand_size=1\d: refused as trial \d+ was", captured.err)


def test_a_quiet_search_prints_its_refusal_once(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["tune", "blackwood-frey", "--set", "packs=1", "--set", "payoff_size=20",
                   "--param", "hand_size=11..12", "--target",
                   "completion>=0.5", "--budget", "20", "--batch", "10", "--recheck", "1",
                   "--recheck-games", "10", "--quiet", "--out", str(tmp_path / "q")])
    captured = capsys.readouterr()
    assert status == 1
    said = "cannot deal each of 2 seats 1 pay-off pile of 20 cards"
    assert (captured.out + captured.err).count(said) == 1, captured.err


@pytest.mark.parametrize(("text", "said"), [
    ("turn_limit=1..5", r"turn_limit=1\.\.5: no value in it is allowed \(turn_limit = 1: it "
                        "must be at least 10"),
    ("turn_limit=5..12", r"only 10\.\.12 of it is allowed .*give a range within 10\.\.12"),
    ("packs=-1..2", r"packs=-1\.\.2: only 0\.\.2 of it is allowed \(packs = -1: it must be "
                    "at least 0"),
    ("packs=-1|2", r'"-1" is no value of packs: packs = -1: it must be at least 0'),
    ("wild_ranks=K|13", r'"K" and "13" are the same value of wild_ranks: give each value once'),
])
def test_a_param_with_values_the_field_refuses_is_refused_before_any_trial(
        text: str, said: str) -> None:
    # try-out: turn_limit=1..5 ran 20 trials, each refused, and exited 0; packs=-1..2 was
    # "no range LOW..HIGH"; K|13 searched one value as two
    with pytest.raises(SpiteMaliceError, match=said):
        parse_param(text)
    assert parse_param("turn_limit=10..12") == Param("turn_limit", 10, 12)


def test_every_bad_param_is_named_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", "blackwood-frey", "--param", "turn_limit=1..5", "--param",
                 "packs=-1..2", "--target", "completion>=0.5"]) == 2
    err = capsys.readouterr().err
    assert "2 problems: (1) --param turn_limit=1..5" in err and "(2) --param packs=-1..2" in err


# ---- try-out leftovers: each argument check, its message and its order ----

@pytest.mark.parametrize(("text", "said"), [
    ("turns=40+-0", "= needs a tolerance above 0, turns=40\\+-4 say"),
    ("turns=40", "= needs a tolerance above 0"),  # no tolerance: the same zero band
    ("completion=0.9±0%", "completion=0.9\\+-0.05 say, or a bound"),
    ("first-seat=fair", "= needs a tolerance above 0"),
    ("turns=1234567+-5", "at most 6 digits before its point"),
    ("turns=" + "9" * 400 + "+-5", "at most 6 digits"),  # was read as inf and searched
    ("turns=60+-" + "9" * 400, "at most 6 digits"),
])
def test_a_target_that_could_never_pass_or_is_no_number_is_refused(text: str,
                                                                   said: str) -> None:
    with pytest.raises(SpiteMaliceError, match=said):
        parse_target(text)


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["tune", "blackwood-frey", "--param", "hand_size=4..6", *argv]) == 2
    return capsys.readouterr().err


def test_a_turns_target_past_the_turn_limit_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, "--target", "turns=5000+-10", "--out", str(tmp_path / "s"))
    assert "no game lasts more than the turn limit, 3,000 turns" in err
    assert not (tmp_path / "s").exists()  # refused before the folder or any game
    err = _error(capsys, "--set", "turn_limit=100", "--target", "turns>=200",
                 "--out", str(tmp_path / "s"))
    assert "turn limit, 100 turns" in err


def test_a_folder_given_for_a_bot_is_named_as_an_unknown_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Try-out: --skill /some/folder said "--bots names one self-play bot and --skill two
    # bots" (a count of one) before it said the name was no bot.
    (tmp_path / "f").mkdir()
    err = _error(capsys, "--target", "turns=40+-5", "--skill", str(tmp_path / "f"),
                 "--out", str(tmp_path / "s"))
    assert "--skill: unknown player" in err and "names two bots" not in err
    err = _error(capsys, "--target", "turns=40+-5", "--bots", str(tmp_path))
    assert "--bots: unknown player" in err
    err = _error(capsys, "--target", "turns=40+-5", "--skill", "greedy")
    assert "--skill names two bots, STRONG,WEAK" in err and "--bots" not in err


def test_games_past_the_budget_are_said_as_such() -> None:
    from spitemalice.cli.tune import spent_text

    assert spent_text(20, 40) == "20 of 40 games"
    assert spent_text(60, 40) == ("60 games, 20 past the budget of 40: a trial begun within "
                                  "it plays to its end")


def test_a_varied_turn_limit_bounds_a_turns_target_by_its_largest_value() -> None:
    from spitemalice.cli.tune import _check_turns

    assert parse_param("turn_limit=10..6000").highest() == 6000
    assert parse_param("turn_limit=100|4000").highest() == 4000
    assert parse_param("draw_pack=52-jokers").highest() is None
    target = (parse_target("turns=5000+-10"),)
    _check_turns(target, (parse_param("turn_limit=10..6000"),), 3000)  # reachable: no error
    with pytest.raises(SpiteMaliceError, match="turn limit, 4,000 turns"):
        _check_turns(target, (parse_param("turn_limit=100|4000"),), 3000)
