"""validate judges a rule set (issue 8 point 4): findings with levels, evidence and the
parameter to look at; thresholds; --strict; skips that say why."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.measures.metrics import METRICS, balance, completion
from spitemalice.validation import format_report, validate
from spitemalice.validation.judge import (
    BALANCE_LIMIT,
    COMPLETION_LIMIT,
    ENOUGH_GAMES,
    JUDGED,
    LENGTH_RATIO,
    judge,
    unusual,
)
from spitemalice.validation.report import Check, GameStats, Report, skip

BF = sm.load("blackwood-frey")


def stats(greedy: int = 60, wins: int = 60, moves: float = 250.0,
          positions: tuple[int, ...] = (30, 30), games: int | None = None) -> GameStats:
    games = games if games is not None else greedy * 3
    return GameStats(games, moves, 0.0, 0.5, (0.4, 0.6), {"win": wins * 3},
                     greedy, {"win": wins, "drawn": greedy - wins}, moves, positions)


def names(findings) -> dict[str, str]:
    return {f.name: f.level for f in findings}


def test_a_low_completion_is_a_warning_with_its_interval_and_parameters() -> None:
    _, findings = judge(BF, stats(wins=5, positions=(3, 2)), None, {"build_ceiling": 13}, [], {})
    low = next(f for f in findings if f.name == "completion")
    assert low.level == "warning" and low.rate is not None
    assert low.rate.high < COMPLETION_LIMIT
    assert low.rate == completion(5, 60)  # the metric simulate --metrics prints
    assert "5 of 60 greedy games won" in low.evidence and "95% CI" in low.evidence
    assert "55 drawn" in low.message
    assert low.parameters == ("build_ceiling",)
    _, fine = judge(BF, stats(wins=40, positions=(20, 20)), None, {}, [], {})
    assert "completion" not in names(fine)


def test_the_completion_threshold_uses_the_interval_not_the_estimate() -> None:
    # 27 of 60 won is 45% but its interval reaches above 50%: no warning, and no pass either
    checks, findings = judge(BF, stats(wins=27, positions=(14, 13)), None, {}, [], {})
    assert "completion" not in names(findings)
    check = next(c for c in checks if c.name == "completion")
    assert check.status == "undecided"
    assert "holds the threshold" in check.undecided and "more games" in check.undecided


def test_an_undecided_completion_fails_strict_an_undecided_balance_does_not() -> None:
    checks, _ = judge(BF, stats(wins=27, positions=(14, 13)), None, {}, [], {})
    report = Report("x", tuple(checks))
    assert [c.name for c in report.undecided] == ["completion"]
    assert report.ok() and not report.ok(strict=True)
    assert format_report(report, strict=True).endswith(
        "no check failed; undecided: completion (FAIL under --strict)")
    # 60 of 60 won: completion passes; a 35-25 split (balance 0.83, 0.59..1.00) is open.
    checks, _ = judge(BF, stats(wins=60, positions=(35, 25)), None, {}, [], {})
    report = Report("x", tuple(checks))
    assert [c.status for c in checks[:2]] == ["pass", "undecided"]
    assert report.ok(strict=True)
    assert format_report(report, strict=True).endswith("no check failed; undecided: balance")


def test_the_more_games_estimate_counts_every_line_up() -> None:
    # The same greedy games, as a third or as a sixth of every game played.
    third, _ = judge(BF, stats(wins=27, positions=(14, 13), games=180), None, {}, [], {})
    sixth, _ = judge(BF, stats(wins=27, positions=(14, 13), games=360), None, {}, [], {})
    more = [int(c[0].undecided.split("about ")[1].split(" ")[0].replace(",", ""))
            for c in (third, sixth)]
    assert more[1] == pytest.approx(2 * more[0], abs=2)


def test_every_judgement_validate_reports_is_a_metric_of_simulate_metrics() -> None:
    assert set(JUDGED) <= set(METRICS)
    base = stats(moves=100.0)
    checks, findings = judge(BF, stats(400, 170, 300.0, positions=(170, 0)), base,
                             {"build_ceiling": 13}, [], {})
    assert {c.name for c in checks} == set(JUDGED)
    judged = {f.name for f in findings if f.name not in ("unusual value", "unusual combination")}
    assert judged == {"completion", "balance", "duration_moves"}
    assert judged <= set(METRICS)
    report = validate("blackwood-frey", params={"build_ceiling": 13}, games=60)
    reported = {c.name for c in report.checks} & {*METRICS, "drawn rate", "duration",
                                                   "decisiveness"}
    assert reported == set(JUDGED)
    assert {f.name for f in report.findings} - {"unusual value", "unusual combination",
                                                "unexercised"} <= set(METRICS)


def test_a_lopsided_seat_is_a_balance_warning() -> None:
    _, findings = judge(BF, stats(positions=(55, 5)), None, {}, [], {})
    lopsided = next(f for f in findings if f.name == "balance")
    assert lopsided.level == "warning" and "first" in lopsided.message
    assert lopsided.rate == balance([55, 5], 60)  # the metric simulate --metrics prints
    assert lopsided.rate.high < BALANCE_LIMIT
    _, fair = judge(BF, stats(positions=(35, 25)), None, {}, [], {})
    assert "balance" not in names(fair)
    # its evidence counts the wins as the check's figure does, not as a Python list
    assert lopsided.evidence.startswith(
        "wins by turn position in 60 greedy games: position 1 55, position 2 5; ")


def test_games_far_longer_than_the_base_are_a_duration_warning() -> None:
    base = stats(moves=100.0)
    checks, findings = judge(BF, stats(moves=100.0 * LENGTH_RATIO + 1), base, {}, [], {})
    assert names(findings).get("duration_moves") == "warning"
    assert next(c for c in checks if c.name == "duration_moves").status == "warn"
    _, same = judge(BF, stats(moves=150.0), base, {}, [], {})
    assert "duration_moves" not in names(same)


def test_judgements_without_enough_games_are_skipped_with_the_reason() -> None:
    checks, findings = judge(BF, stats(greedy=ENOUGH_GAMES - 1, wins=0, positions=(0, 0)),
                             None, {}, [], {})
    by_name = {c.name: c for c in checks}
    assert by_name["completion"].status == "skip" and "needed" in by_name["completion"].skipped
    assert by_name["duration_moves"].skipped.startswith("no base rule set is known")
    assert not findings


def test_a_skipped_check_prints_skip_never_pass() -> None:
    report = Report("x", (Check("ran", True, "1 game"), skip("not run", "nothing to compare")))
    text = format_report(report)
    assert "not run  skip  nothing to compare" in text
    assert "ran      pass  1 game" in text


def test_unusual_values_and_combinations() -> None:
    usual = [{"build_ceiling": 12, "wild_ranks": frozenset({13}), "payoff_size": 20},
             {"build_ceiling": 13, "wild_ranks": frozenset({0}), "payoff_size": 30}]
    found = unusual({"payoff_size": 13}, {"payoff_size": 13}, usual)
    assert [(f.level, f.name) for f in found] == [("info", "unusual value")]
    found = unusual({"build_ceiling": 13},
                    {"build_ceiling": 13, "wild_ranks": frozenset({13})}, usual)
    # Being new is not a fault: an unusual combination is info, never a warning.
    assert [(f.level, f.parameters) for f in found] == [("info", ("build_ceiling",
                                                                  "wild_ranks"))]
    assert unusual({"build_ceiling": 13},
                   {"build_ceiling": 13, "wild_ranks": frozenset({0})}, usual) == []


def test_unusual_values_are_written_as_the_field_is_sorted_by_value() -> None:
    """Found by a fresh user: ``wild_ranks = {10, 13}`` (a Python set) and ``they use 0, 10,
    12, 20, 26, 30, 8`` (sorted as text).  Each value is written as ``--set`` and the report's
    changed parameters write it, the values built-ins use sorted by value."""
    usual = [{"wild_ranks": frozenset({0, 13}), "payoff_size": 30, "max_build_piles": None,
              "discard_forbidden": frozenset()},
             {"wild_ranks": frozenset({0}), "payoff_size": 8, "max_build_piles": 4,
              "discard_forbidden": frozenset({13, 0})},
             {"wild_ranks": frozenset({13}), "payoff_size": 10, "max_build_piles": 4,
              "discard_forbidden": frozenset({1})}]
    changed = {"wild_ranks": frozenset({13, 10}), "payoff_size": 13, "max_build_piles": 2,
               "discard_forbidden": frozenset({2, 1})}
    found = {f.parameters: f.message for f in unusual(changed, changed, usual)}
    assert found[("wild_ranks",)] == ("wild_ranks = 10,13 is used by no built-in rule set "
                                      "(they use 0; 0,13; 13)")
    assert found[("payoff_size",)].endswith("(they use 8; 10; 30)")
    assert found[("max_build_piles",)].endswith("(they use 4; unlimited)")
    assert found[("discard_forbidden",)] == (
        "discard_forbidden = 1,2 is used by no built-in rule set (they use none; 0,13; 1)")
    together = unusual({"max_build_piles": 4}, {"max_build_piles": 4, **{
        key: value for key, value in changed.items() if key != "max_build_piles"}}, usual)
    assert "no built-in rule set has max_build_piles = 4 together with wild_ranks = 10,13" in [
        f.message for f in together]


def test_a_finding_the_sheet_expects_is_info_citing_the_clause() -> None:
    starturn = sm.load("starturn")
    _, findings = judge(starturn, stats(wins=3, positions=(2, 1)), None, {}, [],
                        {"completion": ("ST-16",)})
    drawn = next(f for f in findings if f.name == "completion")
    assert drawn.level == "info" and drawn.message.endswith("(intended: clause ST-16)")
    _, undeclared = judge(starturn, stats(wins=3, positions=(2, 1)), None, {}, [], {})
    warned = next(f for f in undeclared if f.name == "completion")
    assert warned.level == "warning"
    assert warned.message.endswith("declare it on the clause that says so: "
                                   "expects = [\"completion\"] in a rule-set file's rule, or "
                                   "Clause(..., expects=('completion',)) in Python")


def test_a_plugins_expects_names_a_clause_the_sheet_has() -> None:
    from spitemalice.validation.intent import intended

    class Missing:
        NAME = "missing"
        VALIDATE_EXPECTS: ClassVar = {"completion": "ST-99"}

    starturn = sm.load("starturn", draw_pack=52, jokers=0, wild_ranks="none")  # no stars
    assert intended(starturn, [Missing()]).get("completion") == ("ST-16",)  # its own clause
    assert intended(sm.load("blackwood-frey"), [Missing()]) == {}  # no ST-99 there


@pytest.mark.clause("ST-16")
def test_starturn_without_stars_draws_most_games_and_its_sheet_says_so() -> None:
    # The earlier reading of the faces (no star cards); the default's stars finish most games.
    report = validate("starturn", params={"draw_pack": 52, "jokers": 0, "wild_ranks": "none"},
                      games=90, seed=3)
    # (--strict also warns that no built-in rule set has these values any more: no stars.)
    assert report.ok(), format_report(report)
    drawn = [f for f in report.findings if f.name == "completion"]
    assert drawn and drawn[0].level == "info" and "ST-16" in drawn[0].message


CEILING_13 = 'title = "Ceiling 13"\nversion = "1"\nbase = "blackwood-frey"\n\n' \
             '[params]\nbuild_ceiling = 13\n'


def test_a_ceiling_of_13_fails_under_strict_naming_the_completion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ceiling13.toml"
    path.write_text(CEILING_13, encoding="utf-8")
    status = main(["validate", str(path), "--games", "60", "--strict",
                   "--record", str(tmp_path / "failure.json")])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "warning  completion: completion is" in out
    assert "look at build_ceiling" in out
    # The one warning is the games' evidence; the unusual ceiling alone is info.
    assert out.rstrip().endswith("all checks passed; 1 warning (FAIL under --strict)")
    assert "info     unusual combination: no built-in rule set has build_ceiling = 13" in out
    assert not (tmp_path / "failure.json").exists()  # no error: no failing game to record


@pytest.mark.parametrize(("extra", "shown"), [((), True), (("--json",), False)])
def test_validate_shows_progress_unless_json(extra, shown, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from spitemalice.validation import run

    seen: list[tuple[int, bool, int]] = []

    class Recorder(run.Progress):
        def __init__(self, total: int, description: str, enabled: bool = True,
                     stream=None) -> None:
            super().__init__(total, description, enabled, stream)
            seen.append((total, enabled, 0))

        def advance(self, games: int = 1) -> None:
            total, enabled, done = seen[-1]
            seen[-1] = (total, enabled, done + games)

    monkeypatch.setattr(run, "Progress", Recorder)
    assert main(["validate", "misery", "--games", "3", *extra,
                 "--record", str(tmp_path / "f.json")]) == 0
    capsys.readouterr()
    assert seen == [(3, shown, 3)]


def test_a_plugins_expected_findings_use_the_metric_names_or_are_refused() -> None:
    from spitemalice.validation.intent import plugin_expects as _expected

    class Old:
        NAME = "old-rules"
        VALIDATE_EXPECTS: ClassVar = {"drawn rate": "OL-1", "duration": "OL-2"}

    class Wrong:
        NAME = "wrong-rules"
        VALIDATE_EXPECTS: ClassVar = {"drawishness rate": "WR-1"}

    # Names of earlier releases are read as the metrics they became.
    assert _expected([Old()]) == {"completion": "OL-1", "duration_moves": "OL-2"}
    with pytest.raises(sm.RulesetError, match=r"wrong-rules: VALIDATE_EXPECTS names "
                       r"'drawishness rate'.*completion, balance, duration_moves"):
        _expected([Wrong()])


@pytest.mark.parametrize("setting", [{"discard_piles": 3}, {"hand_size": 6}])
def test_a_new_value_with_clean_games_passes_strict(setting: dict[str, int]) -> None:
    # Being new is not a fault (issue 35 §1): each value is one no built-in rule set uses,
    # reported as info, and with clean games and a decided completion --strict passes.
    report = validate("blackwood-frey", params=setting, games=150, seed=0)
    assert report.ok(strict=True), format_report(report, strict=True)
    new = [f for f in report.findings if f.name.startswith("unusual")]
    assert new and all(f.level == "info" for f in new)
    assert next(c for c in report.checks if c.name == "completion").status == "pass"
