"""Seat credentials and the durable log at the play server (issue 38, classes 2 and 6).

Class 2: a seat holds one connection; a second holder of the link who joins takes the seat
and the first is told (``seat-taken``) and closed, while the second's ``welcome`` says
``replaced``: nobody ever sits at a seat unseen.  Class 6: a change that cannot be written to
the records folder is told to every seat at the table and in the server's log, and a table
whose bot could not move goes on by itself once the record can be written.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from websockets.exceptions import ConnectionClosed

from spitemalice.errors import OutputError, PlayError
from spitemalice.play import session as session_module
from spitemalice.server import tables
from tests.serving import SHORT_GAME, Client, LiveServer, create, join, my_turn

TWO_PEOPLE = {**SHORT_GAME, "seats": [{"name": "ann", "player": "human"},
                                      {"name": "bob", "player": "human"}]}


@pytest.fixture()
def server(tmp_path: Path) -> Any:
    with LiveServer(tmp_path, max_tables_per_client=1000) as live:
        yield live


def put_out(client: Client) -> dict[str, Any]:
    """The ``seat-taken`` error ``client`` was sent, after which the server closed it."""
    told = client.until("error")
    assert told["error"] == "seat-taken", told
    with pytest.raises(ConnectionClosed) as closed:
        client.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    return told


def test_a_second_holder_of_a_link_takes_the_seat_and_the_first_is_told(
        server: LiveServer) -> None:
    created = create(server, TWO_PEOPLE)
    bob = join(server, created, 1)
    assert bob.received[0]["replaced"] is False
    creator = join(server, created, 1)  # the creator opens Bob's link in a second tab
    assert creator.received[-1]["type"] == "state" or creator.until("state")
    assert next(m for m in creator.received if m["type"] == "welcome")["replaced"] is True
    told = put_out(bob)
    assert "seat 1" in told["message"] and "someone else has this seat's link" in \
        told["message"]
    table = server.hub.tables[created["table"]]
    assert [len(clients) for clients in table.clients] == [0, 1]
    back = join(server, created, 1)  # Bob takes it back, and the creator is told in turn
    put_out(creator)
    assert next(m for m in back.received if m["type"] == "welcome")["replaced"] is True
    assert table.clients[1] == {next(iter(table.clients[1]))} and len(table.clients[1]) == 1
    back.close()


def test_no_seat_ever_holds_two_connections_whatever_the_order_of_joins(
        server: LiveServer) -> None:
    created = create(server, TWO_PEOPLE)
    table = server.hub.tables[created["table"]]
    rng = random.Random(38)
    open_: dict[int, Client] = {}
    for _ in range(12):
        seat = rng.randrange(2)
        before = open_.get(seat)
        open_[seat] = join(server, created, seat)
        welcome = next(m for m in open_[seat].received if m["type"] == "welcome")
        assert welcome["replaced"] is (before is not None)
        if before is not None:
            put_out(before)
            before.close()
        assert all(len(clients) <= 1 for clients in table.clients)
        assert [len(c) for c in table.clients] == [int(s in open_) for s in range(2)]
    for client in open_.values():
        client.close()


def test_a_bots_move_that_cannot_be_written_is_told_and_the_table_goes_on_once_it_can(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    logged: list[str] = []
    server.hub.log = logged.append
    monkeypatch.setattr(tables, "RETRY_SECONDS", 0.05)
    created = create(server)
    ann = join(server, created)
    state = my_turn(ann, 0)
    writes = session_module._write_record
    failing = {"skip": 1, "left": 3}  # Ann's move is written; the bot's next three are not

    def full_disk(record: Any, path: Path, *, replace: bool) -> None:
        if failing["skip"]:
            failing["skip"] -= 1
        elif failing["left"]:
            failing["left"] -= 1
            raise PlayError("cannot write the record: No space left on device")
        writes(record, path, replace=replace)

    monkeypatch.setattr(session_module, "_write_record", full_disk)
    ann.send({"type": "move", "move": _discard(state), "number": state["number"] + 1})
    ann.until("state")
    errors = [ann.until("error") for _ in range(3)]
    assert all(e["error"] == "server-error" for e in errors)
    assert "greedy bot's move (seat 1) was not kept" in errors[0]["message"]
    assert "No space left on device" in errors[0]["message"]
    assert "tries again" in errors[0]["message"]
    after = ann.until("state")  # the bot moved once the record could be written
    assert after["last"]["seat"] == 1
    assert len(logged) == 4 and "written again" in logged[-1]
    assert all(created["table"] in line for line in logged)
    ann.close()


def _discard(state: dict[str, Any]) -> str:
    """A move that ends seat 0's turn (a discard), so the bot moves next."""
    return next(m["move"] for m in state["legal"] if m["to"] and "discard" in m["to"])


def test_a_persons_move_that_cannot_be_written_is_told_to_every_seat_and_the_log(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    logged: list[str] = []
    server.hub.log = logged.append
    created = create(server, TWO_PEOPLE)
    ann, bob = join(server, created, 0), join(server, created, 1)
    mover = ann.until("state")["view"]["seat"]  # the seat on turn
    state = (ann, bob)[mover].until("state")

    def full_disk(record: Any, path: Path, *, replace: bool) -> None:
        raise PlayError("cannot write the record: No space left on device")

    monkeypatch.setattr(session_module, "_write_record", full_disk)
    (ann, bob)[mover].send({"type": "move", "move": state["legal"][0]["move"], "number": 1})
    for client in (ann, bob):
        told = client.until("error")
        assert told["error"] == "server-error" and f"seat {mover}'s move" in told["message"]
    assert len(server.hub.tables[created["table"]].session.history) == 0  # not made
    assert len(logged) == 1 and "No space left on device" in logged[0]
    monkeypatch.undo()
    (ann, bob)[mover].send({"type": "move", "move": state["legal"][0]["move"], "number": 1})
    assert bob.until("state")["number"] == 1  # once it can be written, the move is made
    ann.close()
    bob.close()


def test_a_rematch_and_a_table_that_cannot_be_written_are_told(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    logged: list[str] = []
    server.hub.log = logged.append

    def refuse(entry: Any) -> None:
        raise OutputError("cannot write the table file: Read-only file system")

    monkeypatch.setattr(server.hub.store, "save", refuse)
    with server.client() as lobby:
        answer = lobby.ask(SHORT_GAME)
    assert answer["error"] == "server-error" and "Read-only file system" in answer["message"]
    assert len(logged) == 1 and "new table was not opened" in logged[0]
