"""The balance atlas (issue 21 item 5): the committed page is the rendering of the committed
data file, its structure answers the two questions per configuration, and the command that
makes the data resumes after an interruption."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from spitemalice.rules.registry import installed
from spitemalice.study.atlas import Entry, entries, run
from spitemalice.study.atlas_page import PICTURES, picture_name, render

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "atlas.md"
DATA = ROOT / "docs" / PICTURES / "atlas.json"
HEADINGS = ["# Balance atlas", "## How to read it", "## At a glance", "## The table",
            "## In short"]


@pytest.fixture(scope="module")
def data() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def test_the_page_is_the_rendering_of_the_committed_data_file(data: dict[str, object]) -> None:
    # Every number on the page comes from the data file: rendering the file again gives the
    # page byte for byte (regenerate both with `python bench/atlas.py`).
    assert PAGE.read_text(encoding="utf-8") == render(data, [e.key for e in entries()])


def test_the_page_answers_both_questions_for_every_configuration_in_the_data(
        data: dict[str, object]) -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if line.startswith("#")] == HEADINGS
    reports = data["reports"]
    assert isinstance(reports, dict) and reports
    rows = [line for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| configuration")]
    assert len(rows) == len(reports)
    for row, report in zip(rows, reports.values(), strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[0] == report["label"] and cells[1] == str(report["players"])
        first = report["positions"][0]
        assert cells[2].startswith(f"{first['estimate']:.1%} ")
        # A verdict only where the interval lies wholly on one side, on the report's seeds
        # and on the fresh ones (issue 35 §1).
        fresh = data.get("fresh", {}).get(report["key"])
        fair = report["fair"]

        def side(first: dict[str, float], fair: float = fair) -> str:
            return ("favoured" if first["low"] >= fair else "disfavoured"
                    if first["high"] < fair else "undecided")

        word = side(first)
        if fresh is None or side(fresh["positions"][0]) != word:
            word = "undecided"
        assert cells[3] == word
        if report["base"] is None:
            assert cells[5].startswith("(")
        else:
            def change(of: dict[str, Any]) -> str:
                moved = of["gradient"][of["top_pair"]]
                return ("more" if moved["low"] >= 0 else "less" if moved["high"] < 0
                        else "undecided")

            word = change(report)
            if fresh is None or change(fresh) != word:
                word = "undecided"
            assert re.match(rf"{word}: [+-]\d", cells[5]), cells[5]
            assert cells[5].endswith(f"vs {report['base']}")
        picture = picture_name(report["key"])
        assert cells[-1] == f"![]({PICTURES}/{picture})"
        assert (ROOT / "docs" / PICTURES / picture).is_file()
    assert f"{len(reports)} configurations took" in text
    assert (f"Coverage: all {len(entries())} configurations." in text) == (
        len(reports) == len(entries()))


def test_the_atlas_holds_every_built_in_rule_set_and_house_rule() -> None:
    # spit's seats move at once: the atlas's ladders and paired games take turns
    keys = {entry.key for entry in entries()}
    assert not any(key.startswith("spit") for key in keys)
    for info in installed():
        if not info.built_in or info.name == "spit":
            continue
        if info.kind == "ruleset":
            assert f"{info.name}/2" in keys
        else:
            assert any(key.startswith(f"blackwood-frey+{info.name}/") for key in keys), info.name


def test_an_interrupted_run_resumes_with_the_configuration_it_lacks(tmp_path: Path) -> None:
    path = tmp_path / "atlas.json"
    todo = [Entry("blackwood-frey", (), 2), Entry("blackwood-frey", ("short-payoff",), 2)]

    def stop(entry: Entry, report: dict[str, object]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(path, 4, 2, 0, todo, stop)
    first = json.loads(path.read_text(encoding="utf-8"))
    assert list(first["reports"]) == ["blackwood-frey/2"]

    played: list[str] = []
    data = run(path, 4, 2, 0, todo, lambda entry, report: played.append(entry.key))
    assert played == ["blackwood-frey+short-payoff/2"]
    assert data["reports"]["blackwood-frey/2"] == first["reports"]["blackwood-frey/2"]
    assert data["reports"]["blackwood-frey+short-payoff/2"]["base"] == "blackwood-frey"
    assert json.loads(path.read_text(encoding="utf-8")) == data

    with pytest.raises(ValueError, match="give the same settings"):
        run(path, 6, 2, 0, todo)


def test_a_report_of_another_version_of_its_rule_set_plays_again(tmp_path: Path) -> None:
    # A rule set whose version changed (starturn's 2.0 default) is no longer what its rows
    # measured: the next run plays it again, and leaves the current ones.
    path = tmp_path / "atlas.json"
    todo = [Entry("blackwood-frey", (), 2), Entry("blackwood-frey", ("short-payoff",), 2)]
    first = run(path, 4, 2, 0, todo)
    assert first["reports"]["blackwood-frey/2"]["ruleset_version"] == "1.0"
    stale = json.loads(path.read_text(encoding="utf-8"))
    for section in ("reports", "fresh"):
        stale[section]["blackwood-frey+short-payoff/2"]["ruleset_version"] = "0.9"
    path.write_text(json.dumps(stale), encoding="utf-8")
    played: list[str] = []
    again = run(path, 4, 2, 0, todo, lambda entry, report: played.append(entry.key))
    assert played == ["blackwood-frey+short-payoff/2"]
    assert again["fresh"]["blackwood-frey+short-payoff/2"]["ruleset_version"] == "1.0"


def test_a_median_without_an_upper_bound_renders_and_draws(data: dict[str, object],
                                                           tmp_path: Path) -> None:
    """A data file of a few games (try-out s7b F2) writes a quantile's unbounded end as
    null: the page prints it as inf and the thumbnails' scale falls back on the longest
    game."""
    pytest.importorskip("matplotlib")
    import copy

    from spitemalice.study.atlas_page import draw

    few = copy.deepcopy(data)
    reports = few["reports"]
    assert isinstance(reports, dict)
    key = next(iter(reports))
    report = reports[key]
    for q in report["quantiles"]:
        q["high"] = None
    few["reports"] = {key: report}
    page = render(few, [key])
    median = next(q for q in report["quantiles"] if q["share"] == 0.5)
    assert f"{median['estimate']:.0f} ({median['low']:.0f}..inf)" in page
    made = draw(few, tmp_path)
    assert all(path.stat().st_size > 0 for path in made)
