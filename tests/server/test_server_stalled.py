"""A client that stops reading cannot hold up a table: messages go out under the table's
lock, so a message a client does not take within ``SEND_SECONDS`` closes that client (status
1008) and nothing more is sent to it (spitemalice.server.seating.Connection.send_text)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from spitemalice.server import Connection, Hub, Store, seating
from tests.serving import SHORT_GAME


class Stalled:
    """A client whose buffers are full: a send never completes; its close is recorded."""

    def __init__(self) -> None:
        self.sends = 0
        self.closed: list[tuple[int, str]] = []

    async def send(self, text: str) -> None:
        self.sends += 1
        await asyncio.Event().wait()  # never taken

    async def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


def test_a_client_that_stops_reading_is_closed_and_sent_nothing_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seating, "SEND_SECONDS", 0.05)
    client = Stalled()
    conn = Connection(client.send, "a", close=client.close)

    async def scene() -> None:
        await asyncio.wait_for(conn.send({"type": "catalog"}), 2)  # returns: not stuck
        await asyncio.wait_for(conn.send({"type": "catalog"}), 2)

    asyncio.run(scene())
    assert conn.stalled and client.sends == 1  # the second message is not tried
    assert [code for code, _ in client.closed] == [1008] and "too slow" in client.closed[0][1]


def test_a_stalled_spectator_does_not_hold_up_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seating, "SEND_SECONDS", 0.05)
    hub = Hub(Store(tmp_path), bot_delay=0)
    said: list[dict[str, object]] = []

    async def inbox(text: str) -> None:
        said.append(json.loads(text))

    async def scene() -> None:
        lobby, seat = Connection(inbox, "a"), Connection(inbox, "b")
        await hub.receive(lobby, json.dumps(SHORT_GAME))
        created = said[-1]
        watcher = Stalled()
        spy = Connection(watcher.send, "c", close=watcher.close)
        await asyncio.wait_for(hub.receive(spy, json.dumps(
            {"type": "watch", "table": created["table"]})), 2)
        assert spy.stalled and watcher.closed
        join = {"type": "join", "table": created["table"], "seat": 0,
                "token": created["seats"][0]["token"]}  # type: ignore[index]
        await asyncio.wait_for(hub.receive(seat, json.dumps(join)), 5)
        await hub.close()

    asyncio.run(scene())
    assert [m["type"] for m in said[1:3]] == ["welcome", "state"]
