"""Every JSON reader refuses a key named twice, naming the key (issue 38, left from the last
try-out): Python's ``json.loads`` keeps the last of two values, so a document could mean one
thing here and another to a reader that keeps the first.

Discovery: every call of ``json.load(s)``, ``strict_json.loads`` or ``parse_json`` in the
package and the bench scripts is a row of :data:`READERS`, saying what it reads; each reader
of outside text is given ``{"a": 1, "a": 2}`` at its door below.  A new reader without a row
fails.  Also the file-name rows of class 10: each reader of a named file quotes the name
escaped.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.formats import loads_record, loads_state, loads_view
from spitemalice.formats.records.reading import load_record

ROOT = Path(sm.__file__).resolve().parents[1]

OUTSIDE = "outside text: strict (a key twice refused by name, provoked below)"
READERS: dict[str, str] = {
    "spitemalice/formats/json_input.py:parse_json -> strict_json.loads": OUTSIDE,
    "spitemalice/formats/records/reading.py:loads_record -> parse_json": OUTSIDE,
    "spitemalice/formats/serialize.py:loads_state -> parse_json": OUTSIDE,
    "spitemalice/formats/serialize.py:loads_view -> parse_json": OUTSIDE,
    "spitemalice/server/protocol.py:_parse_within -> strict_json.loads": OUTSIDE,
    "spitemalice/server/remote.py:read_server_message -> strict_json.loads": OUTSIDE,
    "spitemalice/server/store.py:read_table_file -> parse_json": OUTSIDE,
    "spitemalice/study/atlas.py:_read_data -> strict_json.loads": OUTSIDE,
    "spitemalice/study/tune_study.py:open_study -> parse_json": OUTSIDE,
    "spitemalice/runs/games_in.py:_json_records -> parse_json": "a games file the user names "
    "(spitemalice metrics FILE): the strict reader, a line at a time",
    "spitemalice/runs/games_in.py:_sidecar -> parse_json": "the same file's sidecar: the "
    "strict reader",
    "spitemalice/study/tune_study.py:open_study -> strict_json.loads": "the library's own "
    "settings, written and read back in memory",
    "spitemalice/study/atlas.py:_play -> strict_json.loads": "the library's own report, "
    "written and read back in memory",
    "spitemalice/formats/strict_json.py:loads -> json.loads": "the strict reader itself",
    "spitemalice/formats/schema.py:schema -> json.loads": "the schemas shipped in the package",
    "spitemalice/formats/schema.py:schema_text -> json.loads": "the schemas shipped in the "
    "package",
    "bench/atlas.py:main -> strict_json.loads": "the atlas's data file, just written",
    "spitemalice/server/redis_shared.py:listings -> json.loads": "the lobby's listings the "
    "site's own server processes wrote to its Redis",
    "spitemalice/server/redis_shared.py:status -> json.loads": "the same",
    "spitemalice/server/redis_leases.py:rebuild -> json.loads": "the same (the move clock "
    "a dead owner published)",
    "spitemalice/server/redis_shared.py:watch -> json.loads": "the same (whether a table "
                                                             "is a live Spit table)",
    "spitemalice/server/redis_queues.py:_group -> json.loads": "quick play's queue entries "
    "the site's own server processes wrote to its Redis",
    "spitemalice/server/redis_queues.py:poll -> json.loads": "the same (a match another "
    "process made)",
    "spitemalice/server/relay.py:_read -> json.loads": "the site's own server processes' "
    "pub/sub messages (a message not understood is said in the log and passed over)",
    "bench/serve_load.py:seat -> strict_json.loads": "a server's messages: strict",
    "bench/serve_load.py:table_loop -> strict_json.loads": "a server's messages: strict",
    "bench/faults.py:run_validate -> json.loads": "the library's own --json output",
    "bench/rule_sets.py:measure -> json.loads": "the library's own --json output",
    "bench/side_by_side.py:peers -> json.loads": "the library's own --json output",
    "spitemalice/cli/validate.py:_earlier_record -> strict_json.loads": "the file at "
    "validate's own default record name, to tell an earlier run's failure record (replaced) "
    "from anything else (refused): strict, and what it does not read as a record is not "
    "replaced",
}
"""Every JSON reader, by ``file:function -> reader``, with what it reads."""


def _readers() -> set[str]:
    found = set()
    for root in ("spitemalice", "bench"):
        for path in sorted((ROOT / root).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for call in ast.walk(node):
                    if not isinstance(call, ast.Call):
                        continue
                    func = call.func
                    if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                            and func.value.id in ("json", "strict_json")
                            and func.attr in ("load", "loads")):
                        name = f"{func.value.id}.{func.attr}"
                    elif isinstance(func, ast.Name) and func.id == "parse_json":
                        name = "parse_json"
                    else:
                        continue
                    found.add(f"{path.relative_to(ROOT).as_posix()}:{node.name} -> {name}")
    return found


def test_every_json_reader_has_a_row() -> None:
    assert _readers() == set(READERS)


TWICE = '{"a": 1, "a": 2}'
WORDS = 'the key "a" appears more than once in one object'


def _bf() -> sm.RuleBook:
    return sm.load("blackwood-frey")


def _table_file(tmp_path: Path) -> object:
    pytest.importorskip("uvicorn")
    from spitemalice.server.store import Store

    path = tmp_path / "0123456789abcdef.table.json"
    path.write_text(TWICE, encoding="utf-8")
    return next(iter(Store(tmp_path).unfinished()))


def _tune_settings(tmp_path: Path) -> object:
    pytest.importorskip("optuna")
    from spitemalice.study.tune_study import SETTINGS, open_study
    from spitemalice.study.tune_targets import Plan

    search = _search(Plan)
    (tmp_path / SETTINGS).write_text(TWICE, encoding="utf-8")
    return open_study(search, tmp_path)


def _search(plan: Any) -> Any:
    from spitemalice.study.tune import Search

    return Search("blackwood-frey", (), (), (), (), 10, 5, 0, 5, 0,
                  plan("greedy", "heuristic", "random", frozenset()))


def _atlas(tmp_path: Path) -> object:
    from spitemalice.study.atlas import _read_data

    path = tmp_path / "atlas.json"
    path.write_text(TWICE, encoding="utf-8")
    return _read_data(path)


def _protocol() -> object:
    pytest.importorskip("starlette")
    from spitemalice.server.protocol import read_message

    return read_message('{"type": "catalog", "type": "hint"}')


def _remote() -> object:
    from spitemalice.server.remote import read_server_message

    return read_server_message('{"type": "state", "type": "welcome"}')


def test_each_reader_of_outside_text_refuses_a_key_named_twice(tmp_path: Path) -> None:
    doors = {"record": lambda: loads_record(TWICE), "state": lambda: loads_state(TWICE, _bf()),
             "view": lambda: loads_view(TWICE, _bf()), "atlas": lambda: _atlas(tmp_path),
             "protocol": _protocol, "remote": _remote}
    for name, door in doors.items():
        with pytest.raises(ValueError) as refused:  # the library's errors and the atlas's
            door()
        assert 'the key "' in str(refused.value) and "appears more than once" in str(
            refused.value), name
    said = _table_file(tmp_path)
    assert isinstance(said, str) and WORDS in said


def test_a_tune_folders_settings_naming_a_key_twice_are_refused_by_name(
        tmp_path: Path) -> None:
    with pytest.raises(sm.DataError) as refused:
        _tune_settings(tmp_path)
    assert WORDS in str(refused.value)


# -- class 10: a file's name is outside text too, quoted escaped -----------------------------

NAME = "x\x1b[2J\u202e"


def test_readers_of_a_named_file_quote_its_name_escaped(tmp_path: Path) -> None:
    if os.sep != "/":  # pragma: no cover
        pytest.skip("POSIX names")
    record = tmp_path / f"{NAME}.json"
    record.write_text("{", encoding="utf-8")
    toml = tmp_path / f"{NAME}.toml"
    toml.write_text('title = "t"\nversion = "1"\nbase = "g4a"\nzz = 1\n', encoding="utf-8")
    rule = tmp_path / f"r{NAME}.toml"
    rule.write_text('title = "t"\nversion = "1"\nbase = "g4a"\n[[rule]]\nclause = "X-1"\n'
                    "zz = 1\n", encoding="utf-8")
    bad_base = tmp_path / f"b{NAME}.toml"
    bad_base.write_text('title = "t"\nversion = "1"\nbase = "nope"\n', encoding="utf-8")
    for door in (lambda: load_record(record), lambda: sm.load(toml), lambda: sm.load(rule),
                 lambda: sm.load(bad_base)):
        with pytest.raises(sm.SpiteMaliceError) as refused:
            door()
        assert "\\x1b[2J\\u202e" in str(refused.value) and "\x1b" not in str(refused.value)


def test_a_skipped_table_files_name_is_escaped(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    from spitemalice.server.store import Store

    (tmp_path / f"{NAME}.table.json").write_text(json.dumps({}), encoding="utf-8")
    said = list(Store(tmp_path).unfinished())
    assert len(said) == 1 and "\x1b" not in str(said[0]) and "\\x1b[2J" in str(said[0])


def test_a_games_file_with_a_key_twice_is_refused_naming_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from spitemalice.cli import main

    games = tmp_path / "games.jsonl"
    games.write_text('{"seed": 1}\n' + TWICE + "\n", encoding="utf-8")
    assert main(["metrics", str(games)]) == 2
    assert f"games.jsonl line 2: {WORDS}" in capsys.readouterr().err
