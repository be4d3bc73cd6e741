"""Quick play over the real protocol (issue 36 §2): two people asking for the same rule set
and seat count are seated together; one alone gets a bot after the stated wait; leaving the
queue (``unqueue`` or closing the connection) takes a person out; bad input is refused with
the field named."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from spitemalice.errors import SpiteMaliceError
from spitemalice.server import quickplay
from tests.serving import LiveServer

WAIT = 0.6
ASK = {"type": "quickplay", "ruleset": "blackwood-frey", "players": 2}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "records") as server:
        quickplay.configure(server.hub, wait=WAIT)
        yield server


def test_two_people_asking_for_the_same_table_are_seated_together(live: LiveServer) -> None:
    with live.client() as ann, live.client() as bob:
        queued = ann.ask({**ASK, "name": "Ann"})
        assert queued["type"] == "queued"
        assert (queued["wait"], queued["bot"], queued["waiting"]) == (WAIT, quickplay.BOT, 1)
        bob.send({**ASK, "name": "Bob"})
        first, second = ann.until("matched"), bob.until("matched")
        assert first["table"] == second["table"]
        assert (first["seat"], second["seat"]) == (0, 1)
        assert [s["name"] for s in first["seats"]] == ["Ann", "Bob"]
        assert first["bots"] == 0
        table = live.hub.tables[first["table"]]
        assert [s.player for s in table.entry.seats] == ["human", "human"]
        for client, got in ((ann, first), (bob, second)):
            client.send({"type": "join", "table": got["table"], "seat": got["seat"],
                         "token": got["token"]})
            assert client.until("welcome")["seat"] == got["seat"]
        assert not quickplay.desk(live.hub).waiting


def test_one_person_alone_gets_the_stated_bot_after_the_wait_and_the_game_starts(
        live: LiveServer) -> None:
    with live.client() as ann:
        started = time.monotonic()
        assert ann.ask({**ASK, "name": "Ann"})["type"] == "queued"
        matched = ann.until("matched", timeout=10)
        assert time.monotonic() - started >= WAIT * 0.9
        assert matched["bots"] == 1
        assert [(s["name"], s["player"]) for s in matched["seats"]] == [
            ("Ann", "human"), (f"{quickplay.BOT} bot", quickplay.BOT)]
        ann.send({"type": "join", "table": matched["table"], "seat": 0,
                  "token": matched["token"]})
        assert ann.until("welcome")["seat"] == 0
        state = ann.until("state")
        assert state["type"] == "state"


def test_cancelled_or_closed_people_are_not_seated(live: LiveServer) -> None:
    with live.client() as ann:
        ann.ask(ASK)
        assert ann.ask({"type": "unqueue"}) == {"type": "unqueued",
                                                "ruleset": "blackwood-frey", "players": 2}
        assert ann.ask({"type": "unqueue"})["error"] == "not-queued"
    gone = live.client()
    gone.ask(ASK)
    gone.close()
    deadline = time.monotonic() + 5
    while quickplay.desk(live.hub).waiting and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not quickplay.desk(live.hub).waiting
    with live.client() as bob:
        assert bob.ask(ASK)["waiting"] == 1  # nobody else waits: Ann and the closed one left
        assert bob.until("matched")["bots"] == 1
    time.sleep(WAIT * 1.5)
    tables = list(live.hub.tables.values())
    assert len(tables) == 1  # no table for those who left


@pytest.mark.parametrize(("message", "code", "words"), [
    ({"type": "quickplay"}, "missing-field", "ruleset"),
    ({**ASK, "ruleset": "blackwod-frey"}, "bad-rules", "quickplay.ruleset"),
    ({**ASK, "ruleset": "blackwod-frey"}, "bad-rules", "is not an installed rule set"),
    ({**ASK, "ruleset": "spit"}, "bad-rules", "spit\" is played live"),
    ({**ASK, "players": 9}, "bad-rules", "quickplay.players"),
    ({**ASK, "players": 9}, "bad-rules", "played by 2, 3 or 4 players, not 9"),
    ({**ASK, "players": "2"}, "wrong-type", "quickplay.players"),
    ({**ASK, "name": "x" * 41}, "wrong-type", "quickplay.name"),
    ({**ASK, "seats": 2}, "unknown-field", "seats"),
    ({"type": "unqueue", "now": True}, "unknown-field", "now"),
])
def test_bad_quickplay_messages_are_refused_naming_the_field(
        live: LiveServer, message: dict[str, object], code: str, words: str) -> None:
    with live.client() as ann:
        answer = ann.ask(message)
        assert (answer["type"], answer["error"]) == ("error", code)
        assert words in answer["message"]
        assert not quickplay.desk(live.hub).waiting


def test_a_connection_waits_in_one_queue_at_a_time(live: LiveServer) -> None:
    with live.client() as ann:
        ann.ask(ASK)
        assert ann.ask(ASK)["error"] == "already-queued"
        assert len(quickplay.desk(live.hub).waiting) == 1


def test_the_wait_is_checked(live: LiveServer) -> None:
    for wrong in (-1, quickplay.MAX_WAIT_SECONDS + 1, float("nan"), True, "20"):
        with pytest.raises(SpiteMaliceError, match="quickplay_wait"):
            quickplay.configure(live.hub, wait=wrong)  # type: ignore[arg-type]
    assert quickplay.desk(live.hub).wait == WAIT


class _TakenElsewhere(quickplay.LocalQueues):
    """Queues shared with another process that takes the waiting entry into its group at
    the moment it is cancelled: the cancel finds it gone, and the ``matched`` message that
    process leaves turns up at a later poll."""

    poll_seconds = 0.05

    def __init__(self) -> None:
        super().__init__()
        self.left: dict[str, dict[str, object]] = {}
        self.polls_before = 2  # the message comes a few polls after the cancel

    async def cancel(self, key: str, entry_id: str) -> bool:
        await super().cancel(key, entry_id)
        self.left[entry_id] = {"type": "matched", "table": "elsewhere", "seat": 1}
        return False

    async def poll(self, entry_id: str) -> dict[str, object] | None:
        if entry_id not in self.left:
            return None
        if self.polls_before:
            self.polls_before -= 1
            return None
        return self.left.pop(entry_id)


def test_who_leaves_as_another_process_seats_them_is_still_told_where(
        tmp_path: Path) -> None:
    """The ``not-queued`` answer says the ``matched`` message is on its way: with a site's
    shared queues it comes from the process that seated the person, and this process passes
    it on although the person's wait was over (it stopped looking when they left)."""
    with LiveServer(tmp_path / "records") as server:
        queues = _TakenElsewhere()
        quickplay.configure(server.hub, wait=30.0, queues=queues)
        with server.client() as ann:
            assert ann.ask({**ASK, "name": "Ann"})["type"] == "queued"
            assert ann.ask({"type": "unqueue"})["error"] == "not-queued"
            matched = ann.until("matched", timeout=5)
            assert (matched["table"], matched["seat"]) == ("elsewhere", 1)
            assert not queues.left
            deadline = time.monotonic() + 5  # the task ends just after sending
            while quickplay.desk(server.hub).following and time.monotonic() < deadline:
                time.sleep(0.02)
            assert not quickplay.desk(server.hub).following
