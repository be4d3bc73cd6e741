"""The ``turn_limit`` a ``--games-out`` sidecar gives, read back by ``spitemalice metrics``
(:mod:`spitemalice.runs.games_in`): a limit below the games the rows record, or one of the
wrong shape for the file's kind (one number for a file of one configuration; one number, or
one per configuration the rows hold, for ``compare``'s A and B), is refused by name with the
value shown as JSON writes it, never passed on to a metric that cannot hold the rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spitemalice.cli import main
from spitemalice.errors import DataError
from spitemalice.runs.games_in import read_games

LIMIT = 10  # blackwood-frey's greedy games under turn_limit=10 all reach it


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A simulate file and a compare file (A under LIMIT, B under LIMIT + 2), 3 games each."""
    where = tmp_path_factory.mktemp("sidecar")
    one, pair = where / "g.csv", where / "pair.jsonl"
    assert main(["simulate", "blackwood-frey", "--set", f"turn_limit={LIMIT}", "--games", "3",
                 "--seed", "1", "--jobs", "1", "--quiet", "--games-out", str(one)]) == 0
    assert main(["compare", "blackwood-frey", "blackwood-frey", "--a-set",
                 f"turn_limit={LIMIT}", "--b-set", f"turn_limit={LIMIT + 2}", "--games", "3",
                 "--seed", "1", "--jobs", "1", "--quiet", "--games-out", str(pair)]) == 0
    return {"one": one, "pair": pair}


def _with_limit(games: Path, limit: Any) -> None:
    sidecar = games.with_name(games.name + ".config.json")
    data = json.loads(sidecar.read_text(encoding="utf-8"))
    sidecar.write_text(json.dumps({**data, "turn_limit": limit}), encoding="utf-8")


@pytest.mark.parametrize(("kind", "limit", "said"), [
    ("one", 5, "its turn_limit is 5, below the game on line"),
    ("one", 0, "its turn_limit is 0, below the game on line"),
    ("pair", {"A": 1, "B": 12}, "its turn_limit of configuration A is 1, below the game on"),
    ("pair", 5, "its turn_limit of configuration A is 5, below the game on line"),
])
def test_a_limit_below_the_games_the_rows_record_is_refused_naming_both(
        played: dict[str, Path], capsys: pytest.CaptureFixture[str], kind: str, limit: Any,
        said: str) -> None:
    # It ended in a ValueError from mean_interval ("takes values ... within (0, 5)").
    _with_limit(played[kind], limit)
    try:
        for json_flag in ([], ["--json"]):
            assert main(["metrics", str(played[kind]), *json_flag]) == 2
            out, err = capsys.readouterr()
            assert out == ""
            assert err.startswith("spitemalice: error: ")
            assert said in err
            assert f"which lasted {LIMIT} turns of" in err
    finally:
        _with_limit(played[kind], LIMIT if kind == "one" else {"A": LIMIT, "B": LIMIT + 2})


@pytest.mark.parametrize(("limit", "shown"), [
    ("10", '"10"'), (-1, "-1"), (1.5, "1.5"), (True, "true"), ([10], "[10]")])
def test_a_limit_not_a_whole_number_is_refused_in_the_librarys_words(
        played: dict[str, Path], limit: Any, shown: str) -> None:
    _with_limit(played["one"], limit)
    try:
        with pytest.raises(DataError) as refused:
            read_games(played["one"])
        assert str(refused.value) == ("g.csv.config.json: its turn_limit is a whole number "
                                      f"from 0 to 10**80 - 1, not {shown}")
    finally:
        _with_limit(played["one"], LIMIT)


def test_a_huge_limit_is_refused_without_its_digits(played: dict[str, Path]) -> None:
    sidecar = played["one"].with_name("g.csv.config.json")
    kept = sidecar.read_text(encoding="utf-8")
    sidecar.write_text(kept.replace(f'"turn_limit": {LIMIT}', '"turn_limit": 1e400'),
                       encoding="utf-8")
    try:
        with pytest.raises(DataError, match=r"from 0 to 10\*\*80 - 1, not ") as refused:
            read_games(played["one"])
        assert "999" not in str(refused.value)
    finally:
        sidecar.write_text(kept, encoding="utf-8")


@pytest.mark.parametrize(("kind", "limit", "said"), [
    ("one", {"A": 10}, 'a file of one configuration (no config column), is one whole '
                       'number, not {"A": 10}'),
    ("one", {}, "a file of one configuration (no config column), is one whole number, not {}"),
    ("pair", {"A": 10, "B": 12, "C": 5}, "one whole number, or one per configuration the "
                                         'file\'s rows hold (A, B) and no other, not {"A": 10, '
                                         '"B": 12, "C": 5}'),
    ("pair", {"A": 10}, "(A, B) and no other, not {\"A\": 10}"),
])
def test_a_table_of_the_wrong_shape_for_the_files_kind_is_refused(
        played: dict[str, Path], kind: str, limit: Any, said: str) -> None:
    # Each was taken: a table on a simulate file ignored, C on a compare file ignored.
    _with_limit(played[kind], limit)
    try:
        with pytest.raises(DataError) as refused:
            read_games(played[kind])
        assert said in str(refused.value)
    finally:
        _with_limit(played[kind], LIMIT if kind == "one" else {"A": LIMIT, "B": LIMIT + 2})


def test_the_limits_the_run_wrote_are_read_back(played: dict[str, Path]) -> None:
    assert read_games(played["one"]).turn_limits == {"": LIMIT}
    assert read_games(played["pair"]).turn_limits == {"A": LIMIT, "B": LIMIT + 2}


def test_a_command_that_is_not_text_is_refused_shown_as_json(
        played: dict[str, Path]) -> None:
    # metrics printed it as Python writes a dict: "played by: {'x': 1}".
    sidecar = played["one"].with_name("g.csv.config.json")
    kept = sidecar.read_text(encoding="utf-8")
    sidecar.write_text(json.dumps({**json.loads(kept), "command": {"x": 1}}), encoding="utf-8")
    try:
        with pytest.raises(DataError) as refused:
            read_games(played["one"])
        assert str(refused.value) == ("g.csv.config.json: its command is the text of the "
                                      'command that played the games, or null, not {"x": 1}')
    finally:
        sidecar.write_text(kept, encoding="utf-8")


def test_a_sidecar_that_is_no_json_object_is_refused(played: dict[str, Path]) -> None:
    # It was ignored: the file read as if it had no sidecar, any turn limit.
    sidecar = played["one"].with_name("g.csv.config.json")
    kept = sidecar.read_text(encoding="utf-8")
    sidecar.write_text("[5]", encoding="utf-8")
    try:
        with pytest.raises(DataError) as refused:
            read_games(played["one"])
        assert str(refused.value) == ("g.csv.config.json: a games file's sidecar is a JSON "
                                      "object (what --games-out writes), not [5]")
    finally:
        sidecar.write_text(kept, encoding="utf-8")
