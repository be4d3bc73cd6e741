"""A live Spit table survives a restart of its server (its table file and its current
game's record rebuild it: the position, the move number, the log with its arrival times,
the commitment), and play goes on where it stopped; an ended game stays ended and is
rematched; a table file that cannot be read, or that does not fit its record, is skipped
with a line that says why.  Through Starlette's test client; the takeover of a live table by
another process is test_server_redis_spit.py's."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats.commitment import commit
from spitemalice.formats.records.reading import load_record
from spitemalice.server import spit_live, spit_restore
from spitemalice.server.app import create_app
from spitemalice.server.spit_live import live_tables
from spitemalice.server.store import Store, token_hash
from spitemalice.server.tables import Hub
from tests.server.test_server_watching import ask, until

PEOPLE = {"type": "create", "ruleset": "spit",
          "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]}
SP = sm.load("spit")
GAME = SP.simultaneous
WITH_BOT = {"type": "create", "ruleset": "spit", "reaction_ms": 100,
            "seats": [{"name": "ann", "player": "human"}, {"name": "bo", "player": "greedy"}]}


@contextlib.contextmanager
def serving(records: Path, said: list[str] | None = None) -> Iterator[tuple[Hub, TestClient]]:
    """A hub on the records folder ``records``, started as ``serve`` starts it (its
    unfinished tables restored); ``said`` collects what it logs."""
    hub = Hub(Store(records), bot_delay=0)
    if said is not None:
        hub.log = said.append
    with TestClient(create_app(hub)) as client:
        yield hub, client


def sit(stack: contextlib.ExitStack, client: TestClient, created: dict[str, Any],
        seat: int) -> Any:
    ws = stack.enter_context(client.websocket_connect("/ws"))
    welcome = ask(ws, {"type": "join", "table": created["table"], "seat": seat,
                       "token": created["seats"][seat]["token"]})
    assert welcome["type"] == "welcome", welcome
    return ws


def play(seats: list[Any], latest: list[dict[str, Any]], moves: int) -> list[dict[str, Any]]:
    """Make ``moves`` moves between two people's seats (``latest``: the last ``spit``
    message of each), each by a seat with a legal move, its first; the last messages."""
    for _ in range(moves):
        seat = next(s for s, message in enumerate(latest) if message["legal"])
        number = latest[seat]["number"] + 1
        seats[seat].send_text(json.dumps({"type": "move", "move": latest[seat]["legal"][0],
                                          "number": number}))
        latest = [until(ws, "spit") for ws in seats]
        assert [m["number"] for m in latest] == [number, number]
    return latest


def test_a_spit_table_of_two_people_is_rebuilt_at_a_restart_and_plays_on(
        tmp_path: Path) -> None:
    with serving(tmp_path) as (hub, client):
        with client.websocket_connect("/ws") as lobby:
            created = ask(lobby, PEOPLE)
        table_id = created["table"]
        with contextlib.ExitStack() as stack:
            seats = [sit(stack, client, created, seat) for seat in (0, 1)]
            latest = play(seats, [until(ws, "spit") for ws in seats], 9)
        old = live_tables(hub)[table_id]
        before = (old.state, list(old.log), old.stale, old.commitment, old.game, old.seed)
    said: list[str] = []
    with serving(tmp_path, said) as (again, client):  # the server starts again
        table = live_tables(again)[table_id]
        assert (table.state, table.log, table.stale, table.commitment, table.game,
                table.seed) == before
        assert table.hashes == tuple(token_hash(s["token"]) for s in created["seats"])
        file = spit_restore.path(again.store, table_id)
        assert oct(file.stat().st_mode & 0o777) == "0o600"  # the owner's alone
        assert created["seats"][0]["token"] not in file.read_text()  # its hash only
        with contextlib.ExitStack() as stack:
            seats = [sit(stack, client, created, seat) for seat in (0, 1)]
            now = [until(ws, "spit") for ws in seats]
            assert now == latest  # the same position, number, last move and deal field
            play(seats, now, 4)
    record = load_record(tmp_path / f"{table_id}-1.json")
    assert len(record.moves) == 13 and record.commitment == before[3]
    assert record.arrivals is not None
    times = record.arrivals.times_ms
    assert list(times[:9]) == [ms for _, _, ms in before[1]]
    assert times[9] >= times[8]  # arrival times never go back across the restart
    assert main(["check", str(tmp_path / f"{table_id}-1.json")]) == 0


def until_the_bot_moves(ann: Any, after: int) -> dict[str, Any]:
    """Play seat 0 (its first legal move whenever it has one) until a ``spit`` message shows
    a move of the bot's (seat 1) numbered past ``after``; that message."""
    while True:
        message = until(ann, "spit")
        if message["last"] and message["last"]["seat"] == 1 and message["number"] > after:
            return message
        if message["legal"]:  # whatever the position, a seat that plays keeps the game going
            ann.send_text(json.dumps({"type": "move", "move": message["legal"][0],
                                      "number": message["number"] + 1}))


def test_a_spit_table_with_a_bot_is_rebuilt_and_its_bot_plays_on(tmp_path: Path) -> None:
    with serving(tmp_path) as (hub, client):
        with client.websocket_connect("/ws") as lobby:
            created = ask(lobby, WITH_BOT)
        table_id = created["table"]
        with client.websocket_connect("/ws") as ann:
            ask(ann, {"type": "join", "table": table_id, "seat": 0,
                      "token": created["seats"][0]["token"]})
            until_the_bot_moves(ann, 3)  # both spat, and the bot laid a card
        made = len(live_tables(hub)[table_id].log)  # the bots stopped with the server
    with serving(tmp_path) as (again, client):
        assert len(live_tables(again)[table_id].log) == made
        with client.websocket_connect("/ws") as ann:
            ask(ann, {"type": "join", "table": table_id, "seat": 0,
                      "token": created["seats"][0]["token"]})
            first = until(ann, "spit")
            assert first["number"] == made
            if first["legal"]:
                ann.send_text(json.dumps({"type": "move", "move": first["legal"][0],
                                          "number": made + 1}))
            until_the_bot_moves(ann, made)  # the bot plays again, after the restart
    assert main(["check", str(tmp_path / f"{table_id}-1.json")]) == 0


def played_out(seed: int) -> tuple[Any, list[tuple[int, str, float]]]:
    """A whole game dealt by ``seed``, each move the first legal one of the first seat
    that has one: its last state and its log, (seat, move, ms)."""
    state, log = sm.deal(SP, seed), []
    while state.outcome is None:
        assert len(log) < 5000, "the game did not end"
        seat, move = next((s, GAME.legal_moves(state, s)[0]) for s in (0, 1)
                          if GAME.legal_moves(state, s))
        log.append((seat, str(move), 10.0 * len(log)))
        state = GAME.apply(state, move)
    return state, log


def ended_table(records: Path) -> dict[str, Any]:
    """A live table created by a server on ``records``, its game played to its end and
    written, the server then stopped: the table's ``create`` answer."""
    with serving(records) as (hub, client):
        with client.websocket_connect("/ws") as lobby:
            created: dict[str, Any] = ask(lobby, PEOPLE)
        table = live_tables(hub)[created["table"]]
        table.state, table.log = played_out(7)
        table.seed, table.commitment = 7, commit(SP, 7, None)
        table.write()  # the record of a game played to its end
    return created


def test_an_ended_spit_game_is_rebuilt_at_a_join_and_rematched(tmp_path: Path) -> None:
    """A restart restores the unfinished live tables only; a table whose game has ended is
    rebuilt when one of its people comes back, still ended, and deals its rematch."""
    created = ended_table(tmp_path)
    table_id, moves = created["table"], len(played_out(7)[1])
    said: list[str] = []
    with serving(tmp_path, said) as (again, client):
        assert table_id not in live_tables(again)  # ended: not restored at the start
        with client.websocket_connect("/ws") as eve:  # a wrong token: refused unrebuilt
            answer = ask(eve, {"type": "join", "table": table_id, "seat": 0, "token": "0" * 32})
            assert answer["error"] == "bad-token" and table_id not in live_tables(again)
        with client.websocket_connect("/ws") as ann:
            welcome = ask(ann, {"type": "join", "table": table_id, "seat": 0,
                                "token": created["seats"][0]["token"]})
            assert welcome["type"] == "welcome" and welcome["game"] == 1
            ended = until(ann, "spit")
            assert ended["view"]["outcome"] is not None and ended["legal"] == []
            assert ended["number"] == moves and ended["deal"]["seed"] == "7"
            ann.send_text(json.dumps({"type": "rematch"}))
            dealt = until(ann, "spit")
            assert dealt["game"] == 2 and dealt["number"] == 0
    assert [line for line in said if "which has ended" in line] == [
        f"resumed live table {table_id}, game 1, which has ended, after "
        f"{moves} moves"]
    assert spit_restore.read_spit_entry(spit_restore.path(Store(tmp_path), table_id)).game == 2
    with serving(tmp_path) as (third, _):
        assert live_tables(third)[table_id].game == 2  # the rematch, unfinished: restored
    assert main(["check", str(tmp_path / f"{table_id}-1.json")]) == 0


def test_spit_table_files_that_cannot_be_read_or_do_not_fit_are_skipped_with_a_reason(
        tmp_path: Path) -> None:
    with serving(tmp_path) as (_, client):
        tables = []
        for _ in range(6):
            with client.websocket_connect("/ws") as lobby:
                tables.append(ask(lobby, PEOPLE)["table"])
    store = Store(tmp_path)
    unreadable, tampered, other_seats, bad_move, not_hex, long_name = tables
    for table, seat in ((not_hex, {"token_sha256": "zz" * 32}), (long_name, {"name": "a" * 41})):
        data = json.loads(spit_restore.path(store, table).read_text())
        data["seats"][0].update(seat)
        spit_restore.path(store, table).write_text(json.dumps(data))
    spit_restore.path(store, unreadable).write_text("{not json")
    data = json.loads(spit_restore.path(store, tampered).read_text())
    data["seats"][0]["token_sha256"] = 5
    spit_restore.path(store, tampered).write_text(json.dumps(data))
    data = json.loads(spit_restore.path(store, other_seats).read_text())
    data["seats"][1]["name"] = "eve"
    spit_restore.path(store, other_seats).write_text(json.dumps(data))
    record = json.loads((tmp_path / f"{bad_move}-1.json").read_text())
    record["moves"], record["arrivals"]["times_ms"] = ["S0:T>C1"], [5.0]  # before any spit
    (tmp_path / f"{bad_move}-1.json").write_text(json.dumps(record))
    again = Hub(Store(tmp_path), bot_delay=0)
    said = {next(t for t in tables if t in line): line for line in again.restore()}
    assert live_tables(again) == {}
    assert said[unreadable].startswith(f"skipped {unreadable}.spit.json: ")
    assert "not valid JSON" in said[unreadable]
    assert "table.seats[0].token_sha256: 5 is neither a SHA-256 in hex" in said[tampered]
    assert "table.seats[0].token_sha256: " in said[not_hex] and "zzzz" in said[not_hex]
    assert "table.seats[0].name" in said[long_name] and len(said[long_name]) < 300
    assert said[other_seats].startswith(f"skipped live table {other_seats}: ")
    assert "eve" in said[other_seats]
    assert said[bad_move].startswith(f"skipped live table {bad_move}: ")
    with serving(tmp_path) as (third, client), client.websocket_connect("/ws") as ws:
        answer = ask(ws, {"type": "join", "table": unreadable, "seat": 0, "token": "0" * 32})
        assert answer["error"] == "no-table" and unreadable not in live_tables(third)


def test_no_spit_move_is_made_by_a_process_whose_lease_is_in_doubt(tmp_path: Path) -> None:
    """Now that another process may take a live table over, a process that is not sure it
    still owns one (its lease: Shared.holds) refuses a move there, so two processes never
    write one record."""
    with serving(tmp_path) as (hub, client):
        with client.websocket_connect("/ws") as lobby:
            created = ask(lobby, PEOPLE)
        table = live_tables(hub)[created["table"]]
        with contextlib.ExitStack() as stack:
            ann = sit(stack, client, created, 0)
            until(ann, "spit")
            table.holds = lambda: False
            ann.send_text(json.dumps({"type": "move", "move": "S0:spit", "number": 1}))
            refused = until(ann, "error")
            assert refused["error"] == "server-error" and "lease" in refused["message"]
            assert table.log == [] and load_record(table.record_path(1)).moves == ()
            table.holds = lambda: True
            ann.send_text(json.dumps({"type": "move", "move": "S0:spit", "number": 1}))
            assert until(ann, "spit")["number"] == 1


def test_a_live_table_whose_lease_is_lost_closes_its_seats_which_find_it_again(
        tmp_path: Path) -> None:
    """spit_live.lost (with Redis: this process stalled past the table's lease): its
    connections are closed with 1012, to connect again, and the table is rebuilt from its
    files by whoever holds it next (here the same hub, which holds every table)."""
    said: list[str] = []
    with serving(tmp_path, said) as (hub, client):
        with client.websocket_connect("/ws") as lobby:
            created = ask(lobby, PEOPLE)
        table_id = created["table"]
        with contextlib.ExitStack() as stack:
            seats = [sit(stack, client, created, seat) for seat in (0, 1)]
            latest = play(seats, [until(ws, "spit") for ws in seats], 3)
            client.portal.call(spit_live.lost, hub, table_id)  # type: ignore[union-attr]
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    seats[0].receive_text()
            assert closed.value.code == 1012 and "connect again" in closed.value.reason
        assert table_id not in live_tables(hub)
        assert any("another process takes the live table over" in line for line in said)
        with contextlib.ExitStack() as stack:
            seats = [sit(stack, client, created, seat) for seat in (0, 1)]
            assert [until(ws, "spit") for ws in seats] == latest
        assert f"resumed live table {table_id}, game 1, after 3 moves" in said


def test_an_ended_spit_table_found_by_a_sweep_is_let_go_not_kept_leased(
        tmp_path: Path) -> None:
    """A sweep takes over a dead process's tables from their files; a Spit table whose game
    has ended is let go again at once (its lease released, not resumed here), as an ended
    turn-based table is, instead of being held and renewed by the taking process forever."""
    pytest.importorskip("redis")
    from spitemalice.server import redis_leases
    from spitemalice.server.redis_shared import RedisShared
    from tests.redis_server import redis_server

    table_id = ended_table(tmp_path)["table"]

    async def sweep(url: str) -> tuple[Any, bool, Hub]:
        shared = RedisShared(url, "ws://127.0.0.1:1/ws", lease_seconds=5)
        taker = Hub(Store(tmp_path), bot_delay=0, shared=shared)
        shared.hub = taker
        try:
            assert await redis_leases.take(shared, table_id)
            await redis_leases.take_over(shared, taker, table_id)
            return (await shared.redis.get(shared.key("lease", table_id)),
                    table_id in shared.held, taker)
        finally:
            await shared.redis.aclose()
            await shared.leases.aclose()

    (tmp_path / "redis").mkdir()
    with redis_server(tmp_path / "redis") as url:
        lease, held, taker = asyncio.run(sweep(url))
    assert lease is None and not held
    assert table_id not in live_tables(taker)


def test_a_broken_spit_table_file_is_read_and_logged_once_until_it_changes(
        tmp_path: Path) -> None:
    """A join of a live table whose file cannot be read is refused ``no-table``; the file
    is read and the reason logged once (here at the start, which restores the tables), and
    the joins are refused from memory, until the file changes (then it is read again)."""
    with serving(tmp_path) as (_, client), client.websocket_connect("/ws") as lobby:
        created = ask(lobby, PEOPLE)
    table_id = created["table"]
    file = spit_restore.path(Store(tmp_path), table_id)
    good = file.read_text()
    file.write_text("{not json")
    join = {"type": "join", "table": table_id, "seat": 0, "token": created["seats"][0]["token"]}
    said: list[str] = []
    reads = []
    found = spit_restore.found

    def counted(store: Store, table: str) -> Any:
        reads.append(table)
        return found(store, table)

    with serving(tmp_path, said) as (hub, client), contextlib.ExitStack() as stack:
        stack.enter_context(pytest.MonkeyPatch.context()).setattr(spit_restore, "found",
                                                                  counted)
        for _ in range(3):
            with client.websocket_connect("/ws") as ws:
                assert ask(ws, join)["error"] == "no-table"
        assert reads == []  # read once, at the start, which said why (on stderr)
        assert [line for line in said if f"{table_id}.spit.json" in line] == []
        file.write_text(good)  # mended: read again, and the table rebuilt
        with client.websocket_connect("/ws") as ws:
            assert ask(ws, join)["type"] == "welcome"
        assert len(reads) == 1 and table_id in live_tables(hub)
        with client.websocket_connect("/ws") as lobby:  # broken while the server runs:
            other = ask(lobby, PEOPLE)  # read and said at the first join only
        live_tables(hub).pop(other["table"])
        spit_restore.path(Store(tmp_path), other["table"]).write_text("{not json")
        for _ in range(3):
            with client.websocket_connect("/ws") as ws:
                assert ask(ws, {**join, "table": other["table"]})["error"] == "no-table"
        assert reads.count(other["table"]) == 1
        assert len([line for line in said if f"{other['table']}.spit.json" in line]) == 1


def test_a_rematch_whose_table_file_cannot_be_rewritten_is_not_dealt(tmp_path: Path) -> None:
    """The table file names the current game, which a restart reads: a rematch that cannot
    rewrite it is refused and changes nothing (no record of a game 2 is left, the ended
    game stays), and deals once the file can be written again."""
    created = ended_table(tmp_path)
    table_id = created["table"]
    file = spit_restore.path(Store(tmp_path), table_id)
    kept = file.read_bytes()
    said: list[str] = []
    with serving(tmp_path, said) as (hub, client), client.websocket_connect("/ws") as ann:
        ask(ann, {"type": "join", "table": table_id, "seat": 0,
                  "token": created["seats"][0]["token"]})
        until(ann, "spit")
        file.unlink()
        file.mkdir()  # no file can be renamed over a folder
        refused = ask(ann, {"type": "rematch"})
        assert refused["error"] == "server-error"
        assert refused["message"].startswith("the next game was not dealt")
        table = live_tables(hub)[table_id]
        assert (table.game, table.state.outcome is not None) == (1, True)
        assert not (tmp_path / f"{table_id}-2.json").exists()
        logged = [line for line in said if "was not dealt" in line]
        assert len(logged) == 1 and "is a folder" in logged[0] and "is a folder" in refused[
            "message"] and logged[0].startswith(f"table {table_id}: game 2 was not dealt: ")
        file.rmdir()
        file.write_bytes(kept)
        ann.send_text(json.dumps({"type": "rematch"}))
        assert until(ann, "spit")["game"] == 2
    assert spit_restore.read_spit_entry(file).game == 2
    assert (tmp_path / f"{table_id}-2.json").exists()


def test_a_table_whose_file_cannot_be_written_is_not_opened_and_leaves_no_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its table file no restart could find the table: its ``create`` is refused,
    and the first game's record, written a moment before, is removed again."""
    from spitemalice.errors import OutputError

    def full(store: Store, table: object) -> None:
        raise OutputError("the disk is full")

    monkeypatch.setattr(spit_restore, "save", full)
    with serving(tmp_path) as (hub, client), client.websocket_connect("/ws") as lobby:
        refused = ask(lobby, PEOPLE)
        assert refused["error"] == "server-error"
        assert refused["message"] == "the server cannot keep a new table: the disk is full"
        assert not live_tables(hub)
    assert not list(tmp_path.glob("*.json"))  # nor a record
