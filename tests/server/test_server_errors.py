"""Every error the play server documents, provoked (issue 38, the suite's blind spots): each
code of ``ERROR_CODES`` has a way to provoke it here, a live server answers with exactly that
code, and the connection that was answered goes on (it asks for the catalog and gets it), but
for ``seat-taken``, which by design closes the connection put out of its seat.

Also: the protocol reader with a value of every JSON type at every field and at ``type``
(class 8: only ``ProtocolError``, never Python's ``TypeError``), the rate bound after an idle
period (tokens capped at the burst), and what the hint's bot is built with.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("uvicorn")

import spitemalice as sm
from spitemalice.errors import OutputError, ProtocolError
from spitemalice.limits import MAX_MESSAGE_BYTES, MESSAGE_BURST
from spitemalice.play import session as session_module
from spitemalice.server import ERROR_CODES, KINDS, read_message
from spitemalice.server.rate import Rate
from tests.serving import SHORT_GAME, Client, LiveServer, create, join, play_out

QUICKPLAY = {"type": "quickplay", "ruleset": "blackwood-frey", "players": 2}
TWO_PEOPLE = {**SHORT_GAME, "seats": [{"name": "ann", "player": "human"},
                                      {"name": "bob", "player": "human"}]}


def _seated(server: LiveServer, message: dict[str, Any] = SHORT_GAME) -> tuple[Client, dict]:
    created = create(server, message)
    return join(server, created), created


def _off_turn(server: LiveServer) -> Client:
    """A client at the seat of a two-person table that is not on turn."""
    created = create(server, TWO_PEOPLE)
    ann = join(server, created, 0)
    mover = ann.until("state")["view"]["seat"]
    if mover == 1:
        return ann
    ann.close()
    bob = join(server, created, 1)
    bob.until("state")
    return bob


def _second_watcher(server: LiveServer) -> tuple[Client, list[Any]]:
    """A client about to watch a table that one spectator watches already."""
    created = create(server)
    first = server.client()
    first.send({"type": "watch", "table": created["table"]})
    first.until("public")
    return server.client(), [{"type": "watch", "table": created["table"]}]


def _finished(server: LiveServer) -> Client:
    client, _ = _seated(server)
    play_out(client, 0)
    return client


def _at_spit(server: LiveServer) -> Client:
    """A client at a person's seat of a live spit table."""
    created = create(server, {"type": "create", "ruleset": "spit", "seats": [
        {"name": "ann", "player": "human"}, {"name": "bot", "player": "greedy"}]}, seed=None)
    client = join(server, created, 0)
    client.until("spit")
    return client


def _taken_over(server: LiveServer) -> Client:
    """A client back at a person's seat that a bot took over (as the grace or the move
    clock would: spitemalice.server.leavers)."""
    created = create(server, TWO_PEOPLE)
    client = join(server, created, 1)
    server.hub.tables[created["table"]].session.take_over(1, "heuristic", "left")
    return client


# code -> (how to make the server and its limits, what to send on the connection answered)
Provoke = Callable[[LiveServer], tuple[Client, list[Any]]]
PROVOKE: dict[str, Provoke] = {
    "too-large": lambda s: (s.client(), ["x" * (MAX_MESSAGE_BYTES + 1)]),
    "rate-limited": lambda s: (s.client(), [{"type": "catalog"}] * (MESSAGE_BURST + 5)),
    "bad-json": lambda s: (s.client(), ["{"]),
    "unknown-type": lambda s: (s.client(), [{"type": []}]),
    "missing-field": lambda s: (s.client(), [{"type": "move"}]),
    "unknown-field": lambda s: (s.client(), [{"type": "hint", "x": 1}]),
    "wrong-type": lambda s: (s.client(), [{"type": "join", "table": "a", "seat": "0",
                                           "token": "b"}]),
    "not-joined": lambda s: (s.client(), [{"type": "hint"}]),
    "already-joined": lambda s: (lambda c: (c[0], [{"type": "join", "table": c[1]["table"],
                                                    "seat": 0, "token": "x"}]))(_seated(s)),
    "no-table": lambda s: (s.client(), [{"type": "join", "table": "0" * 16, "seat": 0,
                                         "token": "x"}]),
    "bad-token": lambda s: (lambda c: (s.client(), [{"type": "join", "table": c["table"],
                                                     "seat": 0, "token": "x"}]))(create(s)),
    "watchers-full": _second_watcher,
    "seat-not-free": lambda s: (s.client(), [{"type": "claim", "table": create(s)["table"],
                                              "seat": 0}]),
    "seat-taken": lambda s: (lambda c: (join(s, c), [("join", c)]))(create(s)),
    "not-your-seat": lambda s: (_seated(s)[0], [{"type": "move", "move": "pass", "seat": 1}]),
    "not-on-turn": lambda s: (_off_turn(s), [{"type": "hint"}]),
    "not-a-move": lambda s: (_seated(s)[0], [{"type": "move", "move": "??"}]),
    "stale": lambda s: (_seated(s)[0], [{"type": "move", "move": "pass", "number": 999}]),
    "game-over": lambda s: (_finished(s), [{"type": "move", "move": "pass"}]),
    "game-not-over": lambda s: (_seated(s)[0], [{"type": "record"}]),
    "no-undo": lambda s: (_off_turn(s), [{"type": "undo"}]),
    "bad-rules": lambda s: (s.client(), [{**SHORT_GAME, "ruleset": "nonesuch"}]),
    "too-many-tables": lambda s: (s.client(), [SHORT_GAME] * 3),
    "server-full": lambda s: (s.client(), [SHORT_GAME] * 5),
    "server-error": lambda s: (s.client(), [("unwritable",), SHORT_GAME]),
    "real-time": lambda s: (_at_spit(s), [{"type": "undo"}]),
    "bad-reaction": lambda s: (_seated(s)[0], [{"type": "react", "reaction": "boo"}]),
    "taken-over": lambda s: (_taken_over(s), [{"type": "hint"}]),
    "already-queued": lambda s: (s.client(), [QUICKPLAY, QUICKPLAY]),
    "not-queued": lambda s: (s.client(), [{"type": "unqueue"}]),
}
LIMITS = {"too-many-tables": {"max_tables_per_client": 2},
          "server-full": {"max_tables": 4},
          "watchers-full": {"max_tables_per_client": 1000, "max_watchers": 1}}


def test_every_documented_error_code_has_a_way_to_provoke_it() -> None:
    assert set(PROVOKE) == set(ERROR_CODES)


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_each_error_code_is_sent_and_the_connection_goes_on(
        code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limits_ = LIMITS.get(code, {"max_tables_per_client": 1000})
    with LiveServer(tmp_path, **limits_) as server:
        client, messages = PROVOKE[code](server)
        for message in messages:
            if message == ("unwritable",):
                monkeypatch.setattr(server.hub.store, "save", _unwritable)
            elif isinstance(message, tuple):  # a second holder joins the client's seat
                second = join(server, message[1])
            else:
                client.send(message)
        answer = client.until("error", timeout=30)
        assert answer["error"] == code, answer
        assert answer["message"]
        if code == "seat-taken":  # put out of its seat, and closed: the second one goes on
            client = second
        elif code == "rate-limited":
            time.sleep(0.2)  # a few tokens back
        client.send({"type": "catalog"})
        assert client.until("catalog", timeout=30)["type"] == "catalog"
        client.close()


def _unwritable(entry: Any) -> None:
    raise OutputError("cannot write the table file: Read-only file system")


# --- the reader's types (class 8)

JSON_VALUES = [None, True, False, 0, -1, 2**31, 10**30, 1.5, "", "x", [], [1], {}, {"a": 1},
               [[{}]]]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_field_and_the_type_refuse_every_json_type_by_name(kind: str) -> None:
    required, optional = KINDS[kind]
    good = {"str": "x", "int": 0, "bool": True, "names": [], "params": {}, "reaction": "nice",
            "seats": [{"name": "a", "player": "human"}]}
    base = {"type": kind, **{name: good[form] for name, form in required.items()}}
    for field in ("type", *required, *optional):
        for value in JSON_VALUES:
            message = {**base, field: value}
            try:
                read_message(_dumps(message))
            except ProtocolError as error:
                assert error.code in ERROR_CODES and str(error)
            # anything else (TypeError, KeyError...) fails the test


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message)


def test_a_message_whose_type_is_a_list_or_an_object_is_an_unknown_type() -> None:
    for value in ([], {}, ["move"], {"move": 1}, 1, None, True):
        with pytest.raises(ProtocolError) as raised:
            read_message(_dumps({"type": value}))
        assert raised.value.code == "unknown-type"


# --- the rate bound after an idle period


def test_the_rate_bound_after_an_idle_period_lets_only_a_burst_through() -> None:
    now = [0.0]
    rate = Rate(per_second=10, burst=5, clock=lambda: now[0])
    assert sum(rate.allow() for _ in range(5)) == 5
    now[0] += 3600.0  # an hour idle: 36,000 tokens earned, the bucket holds 5
    assert [rate.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    now[0] += 0.15  # one more token (and half of another)
    assert [rate.allow() for _ in range(2)] == [True, False]


# --- what the hint's bot is built with


def test_the_hint_bot_is_seeded_from_the_view_alone_at_every_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sessions whose deals differ only in the deal's seed: at every position where seat 0
    is on turn and sees the same at both (until a reshuffle of the draw pile, which the seed
    orders, draws other cards), the hint's bot is built with the same kind and seed at both,
    and the seed is never the deal's."""
    built: list[tuple[str, int]] = []
    make = session_module.make_player

    def recording(kind: str, seed: int, *args: Any, **kwargs: Any) -> Any:
        built.append((kind, seed))
        return make(kind, seed, *args, **kwargs)

    monkeypatch.setattr(session_module, "make_player", recording)
    rules = sm.load("blackwood-frey", params={"payoff_size": 20})
    deal = sm.deal(rules, 4)
    twin = attrs.evolve(deal, seed=deal.seed + 12345)
    first = session_module.Session(rules, ["human", "greedy"], seed=4)
    monkeypatch.setattr(session_module, "deal", lambda rules, seed, dealer: twin)
    second = session_module.Session(rules, ["human", "greedy"])
    asked = 0
    while not first.is_over:
        if first.bot_on_turn:
            first.play_bot()
            second.play_bot()
            continue
        if sm.view_of(first.state, 0) != sm.view_of(second.state, 0):
            break  # a reshuffle of the draw pile drew other cards: the seat can tell them apart
        built.clear()
        first.hint(0)
        second.hint(0)
        hinted = [b for b in built if b[0] == session_module.STRONGEST]
        assert len(hinted) == 2 and hinted[0] == hinted[1], (asked, hinted)
        assert hinted[0][1] not in (deal.seed, twin.seed)
        asked += 1
        move = first.table_view(0).legal[0]
        first.play(0, move)
        second.play(0, move)
    assert asked >= 40
