"""Secrets on disk (issue 38, class 5): a file that holds a secret is created readable by its
owner alone (0600), a folder made for such files 0700.

Discovery: every call in the package that creates a file or a folder (``write_file``,
``NewFile``, ``make_folder``, ``mkdir``, ``write_text``...) is a row of :data:`WRITERS`,
saying whether what it writes is a secret and why.  A new writer without a row fails.  Each
secret writer is run below and the mode of what it made is checked.
"""

from __future__ import annotations

import ast
import json
import os
import stat
import sys
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.files import PUBLIC_FILE, SECRET_FILE, SECRET_FOLDER
from spitemalice.formats import loads_record, record_result, save_record
from spitemalice.formats.records.making import record_game
from spitemalice.play import Session
from spitemalice.runs.loop import play_game

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")

PACKAGE = Path(sm.__file__).resolve().parent
MAKERS = {"write_file", "NewFile", "make_folder", "write_text", "write_bytes", "mkdir",
          "mkstemp", "mkdtemp", "_write_record", "save_record"}

SECRET = "secret: 0600 (checked below)"
WRITERS: dict[str, str] = {
    "play/session.py:_write_record -> write_file": SECRET + ": a game's record, written "
    "while it is played (its deal's seed gives every hidden card)",
    "play/session.py:__init__ -> _write_record": SECRET,
    "play/session.py:_write -> _write_record": SECRET,
    "play/session.py:resume -> _write_record": SECRET,
    "play/session.py:save -> _write_record": SECRET + " (play's save, Ctrl-C, end of input)",
    "formats/records/writing.py:save_record -> write_file": SECRET + " when the record's game "
    "is not over; a finished game's record is public (the server sends it to every seat)",
    "server/store.py:save -> write_file": SECRET + ": a table file (the seats' token hashes)",
    "server/spit_table.py:write -> write_file": SECRET + ": a live spit table's record (its "
                                                "seed decides every face-down card)",
    "server/spit_restore.py:save -> write_file": SECRET + ": a live spit table's file (the "
                                                 "seats' token hashes)",
    "server/store.py:__init__ -> make_folder": "secret folder: 0700 when made (the play "
    "server's records and table files)",
    "files.py:write_file -> NewFile": "the rule itself: the mode its caller gives",
    "files.py:make_folder -> mkdir": "the rule itself: the mode its caller gives",
    "files.py:_probe -> mkstemp": "an empty probe file, 0600, removed at once",
    "cli/records.py:_replay_pictures -> make_folder": "public: pictures of a replayed record",
    "cli/records.py:_replay_pictures -> write_file": "public: pictures of a replayed record",
    "cli/records.py:_show_picture -> write_file": "public: a picture of a position given",
    "cli/tune.py:run_tune -> write_file": "public: the search's report",
    "cli/validate.py:_write_record -> write_file": "public: a bots' game of the person's own "
    "validation (no one holds a hidden hand)",
    "cli/validate.py:_run_house_rule -> _write_record": "public: as above",
    "cli/validate.py:run_validate -> _write_record": "public: as above",
    "cli/validate.py:_run_alone -> _write_record": "public: as above",
    "runs/games_out.py:__init__ -> NewFile": "public: per-game figures of bots' games",
    "runs/games_out.py:close -> write_file": "public: the sidecar of a run's settings",
    "runs/outputs.py:__init__ -> make_folder": "public: records of bots' finished games",
    "runs/outputs.py:add -> write_file": "public: records of bots' finished games",
    "study/atlas.py:_write -> write_file": "public: the atlas's data",
    "study/plot.py:save -> NewFile": "public: a plot",
    "study/tune_study.py:open_study -> make_folder": "public: a search's folder",
    "study/tune_study.py:open_study -> write_file": "public: a search's settings",
    "study/tune_report.py:write_candidates -> write_file": "public: rule-set files found",
}
"""Every call that makes a file or a folder, by ``module:function -> callee``."""


def _makers() -> set[str]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    func = call.func
                    name = (func.id if isinstance(func, ast.Name)
                            else func.attr if isinstance(func, ast.Attribute) else "")
                    if name in MAKERS:
                        found.add(f"{path.relative_to(PACKAGE).as_posix()}:{node.name} -> "
                                  f"{name}")
    return found


def test_every_writer_has_a_row_saying_whether_it_writes_a_secret() -> None:
    assert _makers() == set(WRITERS)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def _open_umask() -> object:
    """An umask that takes nothing away, so a mode seen is the mode the code asked for."""
    before = os.umask(0)
    yield
    os.umask(before)


RULES = sm.load("blackwood-frey", payoff_size=5)


def test_a_live_games_record_is_its_owners_alone_at_every_write(tmp_path: Path) -> None:
    path = tmp_path / "live.json"
    session = Session(RULES, ["human", "greedy"], seed=3, record_path=path)
    assert _mode(path) == SECRET_FILE
    mover = session.on_turn
    if session.bot_on_turn:
        session.play_bot()
    else:
        session.play(mover, sm.legal_moves(RULES, session.state)[0])
    assert _mode(path) == SECRET_FILE  # rewritten after the move: still private
    saved = session.save(tmp_path / "saved.json")
    assert _mode(saved) == SECRET_FILE
    resumed = tmp_path / "resumed.json"
    Session.resume(loads_record(saved.read_text(encoding="utf-8")), record_path=resumed)
    assert _mode(resumed) == SECRET_FILE


def test_save_record_is_private_while_the_game_goes_on_and_public_after(
        tmp_path: Path) -> None:
    result = play_game(RULES, [GreedyPlayer(1), GreedyPlayer(2)], seed=5)
    finished = record_result(RULES, result)
    save_record(finished, tmp_path / "over.json")
    assert _mode(tmp_path / "over.json") == PUBLIC_FILE
    live = record_game(RULES, result.seed, result.moves[:4])
    assert live.outcome is None
    save_record(live, tmp_path / "live.json")
    assert _mode(tmp_path / "live.json") == SECRET_FILE


def test_the_servers_table_files_and_folder_are_private(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    from spitemalice.server.store import SeatEntry, Store, TableEntry

    folder = tmp_path / "made" / "records"
    store = Store(folder)
    assert _mode(folder) == SECRET_FOLDER
    store.save(TableEntry("0123456789abcdef", 1, (SeatEntry("a", "human", "0" * 64),)))
    table = folder / "0123456789abcdef.table.json"
    assert _mode(table) == SECRET_FILE
    assert json.loads(table.read_text())["seats"][0]["token_sha256"] == "0" * 64


def test_a_live_spit_tables_record_is_its_owners_alone(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from spitemalice.server.spit_table import SpitTable

    table = SpitTable("t", sm.load("spit"), ("human", "greedy"), ("a", "b"), ("h", None),
                      1000, None, lambda game: tmp_path / f"spit-{game}.json")
    table.new_game(3)
    assert _mode(tmp_path / "spit-1.json") == SECRET_FILE
    assert table.intent(0, table.simultaneous.parse_move("S0:spit"), None) is None
    assert _mode(tmp_path / "spit-1.json") == SECRET_FILE  # rewritten after the move
