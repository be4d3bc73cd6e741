"""seeds/: the committed rule sheets match the code, and the committed records replay clean."""

from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.formats.arrival_replay import replay_arrivals
from spitemalice.rules.sheet import render_sheet

SEEDS = Path(__file__).parents[2] / "seeds"
SHEETS = sorted((SEEDS / "rules").glob("*.txt"))
RECORDS = sorted((SEEDS / "records").glob("*.json"))


def test_every_built_in_rule_set_has_a_committed_sheet() -> None:
    built_in = {i.name for i in sm.installed()
                if i.kind == "ruleset" and i.origin.startswith("spitemalice_variants")}
    assert {path.stem for path in SHEETS} == built_in


@pytest.mark.parametrize("path", SHEETS, ids=[p.stem for p in SHEETS])
def test_a_committed_sheet_is_the_rule_set_as_coded(path: Path) -> None:
    """After changing a rule set: `python tests/helpers/seed_sheets.py`."""
    assert path.read_text(encoding="utf-8") == render_sheet(sm.load(path.stem)) + "\n"


def test_there_is_a_committed_record_per_built_in_rule_set() -> None:
    names = {sm.load_record(path).ruleset.name for path in RECORDS}
    assert {path.stem for path in SHEETS} <= names


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_committed_record_checks_clean_and_reaches_its_outcome(path: Path) -> None:
    record = sm.load_record(path)
    assert sm.check_record(record) is None
    if record.arrivals is None:
        *_, final = sm.replay(record)
    else:  # spit's seats move at once: its record keeps when each move arrived
        *_, final = replay_arrivals(record, sm.load(record.ruleset.name))
    assert final.outcome == record.outcome and final.outcome is not None
