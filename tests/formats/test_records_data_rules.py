"""A record made under a rule-set file with data house rules carries those rules by content
(``ruleset.data_rules``), so it replays and checks where the file is not: every way a record
is made (the library, ``simulate --record``, ``validate``'s failing game) goes through
:func:`~spitemalice.formats.records.making.ruleset_ref`."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.cli import main
from spitemalice.errors import DataError
from spitemalice.formats import (
    check_record,
    dumps_record,
    loads_record,
    record_from_dict,
    record_game,
    record_to_dict,
)
from spitemalice.formats.replay import rules_for
from spitemalice.rules.ruleset import IDENTITY_FIELDS
from spitemalice.runs.loop import play_game

HOUSE = Path(__file__).parents[2] / "examples" / "house-rules"
EXAMPLES = sorted(HOUSE.glob("*.toml"))


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[Path]:
    """A working folder holding no rule-set file (as on another machine)."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(before)


def _game_record(path: Path, seed: int = 3) -> sm.GameRecord:
    rules = sm.load(path)
    game = play_game(rules, [GreedyPlayer(1), GreedyPlayer(2)], seed)
    return record_game(rules, seed, game.moves, outcome=game.final.outcome)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_files_record_checks_without_the_file(path: Path, tmp_path: Path) -> None:
    copied = tmp_path / path.name
    shutil.copy(path, copied)
    record = _game_record(copied)
    text = dumps_record(record)
    copied.unlink()  # the file is gone: only the record's text is left
    again = loads_record(text)
    tables = dict(again.ruleset.data_rules)
    data_names = [name for name in again.ruleset.house_rules if name.startswith(path.name + ":")]
    assert data_names and list(tables) == data_names
    for name in data_names:
        assert tables[name]["clause"] == name.partition(":")[2]
    assert again == record
    assert check_record(again) is None
    replayed, original = rules_for(again), sm.load(path)
    assert replayed.clauses == original.clauses
    assert _values(replayed) == _values(original)


def _values(rules: sm.RuleBook) -> dict[str, object]:
    """The rule set's values but its identity (the file's title and version are not kept)."""
    return {key: value for key, value in attrs.asdict(rules.ruleset).items()
            if key not in IDENTITY_FIELDS}


def test_a_file_with_installed_house_rules_and_parameters_records_all_three(
        tmp_path: Path) -> None:
    path = tmp_path / "mixed.toml"
    path.write_text(
        (HOUSE / "descending-discards.toml").read_text(encoding="utf-8")
        + '\n', encoding="utf-8")
    text = path.read_text(encoding="utf-8").replace(
        'base = "blackwood-frey"\n',
        'base = "blackwood-frey"\nhouse_rules = ["mandatory-aces"]\n[params]\npayoff_size = 9\n')
    path.write_text(text, encoding="utf-8")
    record = loads_record(dumps_record(_game_record(path)))
    path.unlink()
    ref = record.ruleset
    assert ref.house_rules == ("mandatory-aces", "mixed.toml:DD-1")
    assert [name for name, _ in ref.data_rules] == ["mixed.toml:DD-1"]
    assert ref.param_dict == {"payoff_size": 9}
    assert check_record(record) is None


def test_simulate_records_check_in_a_folder_without_the_file(
        tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copied = tmp_path / "descending-discards.toml"
    shutil.copy(HOUSE / "descending-discards.toml", copied)
    out = tmp_path / "records"
    assert main(["simulate", str(copied), "--games", "2", "--jobs", "1", "--quiet",
                 "--record", str(out)]) == 0
    copied.unlink()
    capsys.readouterr()
    for record in sorted(out.glob("*.json")):
        assert main(["check", str(record)]) == 0
        said = capsys.readouterr().out
        assert said.startswith(f"valid: {record}") and "descending-discards.toml:DD-1" in said


def test_a_changed_table_is_checked_against_what_it_now_says() -> None:
    """The tables are the rules: a record whose table was changed replays under the change
    (and is invalid where a move breaks it), never under the file's."""
    record = _game_record(HOUSE / "descending-discards.toml")
    data = record_to_dict(record)
    changed = copy.deepcopy(data)
    changed["ruleset"]["data_rules"]["descending-discards.toml:DD-1"]["when"] = "true"
    problem = check_record(record_from_dict(changed))
    assert problem is not None and problem.error.reason == "discard-not-descending"
    assert problem.error.clause == "DD-1"


def test_a_table_that_does_not_compile_is_refused_naming_the_field() -> None:
    data = record_to_dict(_game_record(HOUSE / "descending-discards.toml"))
    data["ruleset"]["data_rules"]["descending-discards.toml:DD-1"]["when"] = "payoff.cards > 0"
    record = record_from_dict(data)
    with pytest.raises(sm.RulesetError, match=re.escape(
            "record.ruleset.data_rules['descending-discards.toml:DD-1']: "
            "descending-discards.toml:")):
        rules_for(record)


@pytest.mark.parametrize(("change", "message"), [
    (lambda rs: rs["data_rules"].update({"other.toml:X-1": {"clause": "X-1"}}),
     "data_rules.other.toml:X-1|data_rules\\['other.toml:X-1'\\]: a data rule is named"),
    (lambda rs: rs["data_rules"]["descending-discards.toml:DD-1"].update({"clause": "DD-2"}),
     "states clause DD-1, not 'DD-2'"),
    (lambda rs: rs.update({"data_rules": ["DD-1"]}),
     "data_rules: .*an object of \\[\\[rule\\]\\] tables"),
    (lambda rs: rs["data_rules"].update({"descending-discards.toml:DD-1": "DD-1"}),
     "a \\[\\[rule\\]\\] table as an object"),
])
def test_a_malformed_data_rules_field_is_refused_by_path(change: object, message: str) -> None:
    data = record_to_dict(_game_record(HOUSE / "descending-discards.toml"))
    change(data["ruleset"])  # type: ignore[operator]
    with pytest.raises(DataError, match=message):
        record_from_dict(json.loads(json.dumps(data)))


def test_a_record_without_data_rules_has_no_field() -> None:
    data = record_to_dict(record_game(sm.load("blackwood-frey", ["mandatory-aces"]), 3, []))
    assert "data_rules" not in data["ruleset"]
    assert record_from_dict(data).ruleset.data_rules == ()
