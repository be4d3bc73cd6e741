"""``spitemalice validate FILE`` judges each house rule the file writes as data alone too, on
the rule set the file names (issue 34 §2; :mod:`spitemalice.validation.data_rules`): a rule
whose flaw the file's other clauses cover fails alone, its smallest failing game is kept
under its clause's name and replays without the file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("simpleeval")

from spitemalice.cli import main
from spitemalice.formats import load_record
from spitemalice.formats.replay import replay
from spitemalice.validation import format_report, validate
from spitemalice.validation.data_rules import format_data_rules_report, validate_data_rules

HOUSE = Path(__file__).parents[2] / "examples" / "house-rules"

KINGS_ONLY = '''\
title = "Only kings are discarded"
version = "1.0"
base = "blackwood-frey"

[[rule]]
clause = "KO-1"
text = "Only a king may be discarded."
source = "HOUSE"
forbid = "discard"
when = "move.rank != 13"
reason = "kings-only"
message = "only a king may be discarded"

[[rule]]
clause = "KO-2"
text = "A seat whose hand holds no king may be left with nothing but a pass."
source = "HOUSE"
expects = ["stuck-seat"]
'''
"""KO-1 leaves a seat without a king stuck; KO-2 declares that the file means it.  The file
passes; KO-1 alone, where nothing declares it, fails."""


def test_a_rule_the_file_covers_fails_alone_and_fails_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "kings-only.toml"
    path.write_text(KINGS_ONLY, encoding="utf-8")
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        status = main(["validate", path.name, "--strict", "--games", "20", "--jobs", "1",
                       "--json"])
    finally:
        os.chdir(before)
    found = json.loads(capsys.readouterr().out)
    assert status == 1
    assert found["passed"] is True  # the file as a whole: KO-2 declares the stuck seat
    alone = found["data_rules_alone"]
    assert alone["base"] == "blackwood-frey" and alone["same_as_file"] == ""
    assert list(alone["reports"]) == ["kings-only.toml:KO-1", "kings-only.toml:KO-2"]
    ko1, ko2 = alone["reports"].values()
    assert ko1["target"] == "blackwood-frey + kings-only.toml:KO-1, 2 players"
    assert ko1["passed"] is False and ko2["passed"] is True
    assert any("no legal move but a pass" in c["detail"] for c in ko1["checks"]
               if not c["passed"])
    # its smallest failing game, under the clause's name, replays where the file is not
    kept = tmp_path / "validate-failure-KO-1.json"
    path.unlink()
    record = load_record(kept)
    assert record.ruleset.house_rules == ("kings-only.toml:KO-1",)
    assert len(list(replay(record))) == len(record.moves) + 1
    assert not (tmp_path / "validate-failure-KO-2.json").exists()


def test_the_text_report_names_each_rule_alone_and_counts_them(
        tmp_path: Path) -> None:
    path = tmp_path / "kings-only.toml"
    path.write_text(KINGS_ONLY, encoding="utf-8")
    result = validate_data_rules(path, {"players": 2}, games=12)
    text = format_data_rules_report(result, strict=True)
    assert "kings-only.toml:KO-1 alone on blackwood-frey (without the file's other rules " \
        "and parameters)" in text
    assert "validate blackwood-frey + kings-only.toml:KO-2, 2 players" in text
    assert text.endswith("each data rule alone on blackwood-frey: 2 rules validated, 1 "
                         "passed, failed: kings-only.toml:KO-1")
    assert not result.ok(strict=True)


def test_a_file_that_is_one_rule_alone_is_not_validated_twice(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = validate_data_rules(HOUSE / "descending-discards.toml", games=1)
    assert result.reports == () and result.ok(strict=True)
    assert format_data_rules_report(result) == (
        "each data rule alone: descending-discards.toml:DD-1 is the file's only house rule "
        "and the file sets no parameter: the file is the rule alone")


def test_one_rule_with_the_files_other_house_rules_is_judged_without_them(
        tmp_path: Path) -> None:
    text = (HOUSE / "descending-discards.toml").read_text(encoding="utf-8").replace(
        'base = "blackwood-frey"\n',
        'base = "blackwood-frey"\nhouse_rules = ["mandatory-aces"]\n[params]\n'
        'payoff_size = 13\n')
    path = tmp_path / "more.toml"
    path.write_text(text, encoding="utf-8")
    result = validate_data_rules(path, games=6)
    ((name, report),) = result.reports
    assert name == "more.toml:DD-1"
    assert report.target == "blackwood-frey + more.toml:DD-1, 2 players"
    assert report.base == "blackwood-frey (the rule set the file names)"


def test_a_file_that_fails_as_a_whole_says_so_after_its_rules_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # try-out s41: the last line read "2 rules validated, 2 passed" while the file itself
    # had failed and the exit status was 1
    path = tmp_path / "kings-stuck.toml"
    path.write_text(KINGS_ONLY.replace('expects = ["stuck-seat"]',
                                       'forbid = "discard"\nwhen = "move.rank == 1"\n'
                                       'reason = "no-aces"\nmessage = "keep aces"'),
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", str(path), "--strict", "--games", "12"]) == 1
    out = capsys.readouterr().out
    assert f"{path} as a whole failed (its report above); exit status 1" in out
    assert out.index("each data rule alone") < out.index("as a whole failed")


def test_the_report_of_a_file_names_the_file_once(tmp_path: Path) -> None:
    """Found by a fresh user: the title read ``blackwood-frey + kings-only.toml:KO-1 +
    kings-only.toml:KO-2 + kings-only.toml``; the file's data rules now go in brackets
    after its name, and the findings write values as the fields do."""
    path = tmp_path / "kings-only.toml"
    path.write_text(KINGS_ONLY.replace('base = "blackwood-frey"\n',
                                       'base = "blackwood-frey"\nhouse_rules = '
                                       '["pair-discards"]\n[params]\nwild_ranks = [10, 13]\n'),
                    encoding="utf-8")
    report = validate(str(path), games=4)
    assert report.target == \
        "blackwood-frey + pair-discards + kings-only.toml (KO-1, KO-2), 2 players"
    text = format_report(report)
    assert text.startswith(f"validate {report.target}\n")
    assert text.count("kings-only.toml") == 3  # the title, the changed parameter, the rerun
    unusual = [f.text() for f in report.findings if f.name.startswith("unusual")]
    assert any("wild_ranks = 10,13 is used by no built-in rule set (they use " in line
               for line in unusual), unusual
    assert not [line for line in unusual if "{" in line or "[" in line]
