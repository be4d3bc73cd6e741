"""The play server over its protocol (issue 18 §2-3): whole games against a bot and between
two clients, our bots through ``spitemalice bot --connect``, a restart that loses nothing,
and every kind of bad message answered by name while the connection and the table stay."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from jsonschema import Draft202012Validator

import spitemalice as sm
from spitemalice import limits
from spitemalice.cli import main
from spitemalice.formats.records import load_record, loads_record
from spitemalice.formats.schema import schema
from spitemalice.play import Session
from spitemalice.server import Connection, Hub, Store
from tests.serving import (
    SHORT_GAME,
    LiveServer,
    create,
    join,
    my_turn,
    play_out,
)

HUNG = 600
"""Seconds after which a player's thread is taken as hung: a guard against a test that never
ends, not a bound on how fast a game goes (a slow machine only takes longer)."""

MESSAGES = Draft202012Validator(schema("message"))
TO_CLIENT = Draft202012Validator({**schema("message"), "oneOf": [
    {"$ref": "#/$defs/to-client"}]})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One server for the tests that open tables of their own."""
    with LiveServer(tmp_path_factory.mktemp("records"), max_tables_per_client=1000) as live:
        yield live


def _valid(messages: list[dict[str, Any]]) -> None:
    for message in messages:
        errors = [e.message for e in TO_CLIENT.iter_errors(message)]
        assert errors == [], (message["type"], errors[:3])


def test_a_whole_game_against_a_greedy_bot_ends_with_a_valid_record(server: LiveServer) -> None:
    created = create(server)
    assert [s["link"] is not None for s in created["seats"]] == [True, False]
    with join(server, created) as ann:
        last = play_out(ann, 0)
        assert last["view"]["outcome"]["kind"] == "win"
        record = ann.ask({"type": "record"})
    assert record["type"] == "record"
    game = loads_record(record["text"])
    assert record["name"] == f"spitemalice-{created['table']}-1.json"
    assert sm.check_record(game) is None and game.outcome is not None
    assert game.ruleset.house_rules == ("mandatory-aces",)
    assert [(s.name, s.kind) for s in game.seats] == [("ann", "human"), ("bot", "greedy")]
    # the record file on disk is the same game, and `spitemalice check` calls it valid
    path = server.hub.store.record_path(created["table"], 1)
    assert load_record(path) == game
    assert main(["check", str(path)]) == 0
    _valid(ann.received)
    moves = [m for m in ann.received if m["type"] == "state"]
    assert [m["number"] for m in moves] == list(range(len(moves)))  # every move announced
    assert moves[-1]["number"] == len(game.moves)


def test_two_clients_play_each_other_and_see_each_others_moves(server: LiveServer) -> None:
    created = create(server, {**SHORT_GAME, "seats": [{"name": "ann", "player": "human"},
                                                      {"name": "bob", "player": "human"}]})
    ann, bob = join(server, created, 0), join(server, created, 1)
    done: dict[int, Any] = {}
    threads = [threading.Thread(target=lambda c=c, s=s: done.__setitem__(s, play_out(c, s)))
               for s, c in ((0, ann), (1, bob))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HUNG)
        assert not thread.is_alive(), "a player hung"
    assert done[0]["view"]["outcome"] == done[1]["view"]["outcome"] is not None
    assert done[0]["number"] == done[1]["number"]
    # each saw the same moves in the same order, and never the other's hand
    logs = [[m["last"]["move"] for m in c.received if m["type"] == "state" and m["last"]]
            for c in (ann, bob)]
    assert logs[0] == logs[1]
    for client, seat in ((ann, 0), (bob, 1)):
        views = [m["view"] for m in client.received if m["type"] == "state"]
        assert all(v["viewer"] == seat for v in views)
        _valid(client.received)
    ann.close()
    bob.close()


def test_our_bots_sit_at_a_remote_table_through_the_protocol(server: LiveServer,
                                                             capsys: Any) -> None:
    created = create(server, {**SHORT_GAME, "seats": [{"name": "one", "player": "human"},
                                                      {"name": "two", "player": "human"}]})
    links = [server.url + seat["link"] for seat in created["seats"]]
    statuses: list[int] = []
    threads = [threading.Thread(target=lambda link=link: statuses.append(main(
        ["bot", "--connect", link, "--player", "greedy"]))) for link in links]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HUNG)
        assert not thread.is_alive(), "a player hung"
    assert statuses == [0, 0]
    out = capsys.readouterr().out
    assert out.count("game over: win by seat") == 2
    # both left a finished game: the table is closed, its record kept
    assert created["table"] not in server.hub.tables
    record = load_record(server.hub.store.record_path(created["table"], 1))
    assert record.outcome is not None and sm.check_record(record) is None


def test_bot_connect_refuses_a_link_without_a_seat_and_token(capsys: Any) -> None:
    assert main(["bot", "--connect", "http://127.0.0.1:1/table/abc"]) == 2
    assert "expected a seat's link" in capsys.readouterr().err


def test_after_a_restart_every_unfinished_table_resumes_from_its_record(
        tmp_path: Path) -> None:
    records = tmp_path / "records"
    with LiveServer(records) as first:
        created = create(first)
        finished = create(first)
        with join(first, finished) as other:
            play_out(other, 0)
        with join(first, created) as ann:
            moves_made = 0
            while moves_made < 6:
                state = ann.until("state")
                if state["view"]["seat"] == 0 and state["legal"]:
                    ann.send({"type": "move", "move": state["legal"][0]["move"]})
                    moves_made += 1
            before = ann.until("state")
        log_before = [m["last"]["move"] for m in ann.received
                      if m["type"] == "state" and m["last"]]
    # the server is gone: nothing but the records folder is left
    with LiveServer(records) as second:
        assert set(second.hub.tables) == {created["table"]}  # the finished one stays closed
        with join(second, created) as again:
            state = again.until("state")
            assert state["number"] >= before["number"]
            log = [entry["move"] for entry in state["log"]]
            assert log[:len(log_before)] == log_before  # nothing lost
            last = play_out(again, 0)
        assert last["view"]["outcome"] is not None
    record = load_record(records / f"{created['table']}-1.json")
    assert sm.check_record(record) is None and record.outcome is not None


def test_a_rematch_deals_a_new_game_at_the_same_seats(server: LiveServer) -> None:
    created = create(server)
    with join(server, created) as ann:
        play_out(ann, 0)
        ann.send({"type": "rematch"})
        welcome = ann.until("welcome")
        state = ann.until("state")
    assert welcome["game"] == 2 and state["game"] == 2 and state["view"]["outcome"] is None
    assert state["log"] == [] or all(e["seat"] == 1 for e in state["log"])


def test_undo_takes_back_to_the_persons_previous_decision(server: LiveServer) -> None:
    created = create(server)
    with join(server, created) as ann:
        assert ann.received[0]["undo"] is True
        state = my_turn(ann, 0)
        number = state["number"]
        ann.send({"type": "move", "move": state["legal"][0]["move"]})
        assert ann.until("state")["number"] == number + 1
        ann.send({"type": "undo"})
        back = ann.until("state")
        while back.get("log") is None:
            back = ann.until("state")
        assert back["number"] == number and len(back["log"]) == number
        assert back["view"]["seat"] == 0
        last = play_out(ann, 0)
        ann.send({"type": "undo"})  # the game is over: its moves stay as played
        refused = ann.until("error")
        record = loads_record(ann.ask({"type": "record"})["text"])
    assert refused["error"] == "no-undo" and "over" in refused["message"]
    assert last["view"]["outcome"] is not None and record.outcome is not None
    # the record says the game is practice, and which moves were taken back where
    assert record.practice and [undo.at for undo in record.undone] == [number]
    assert record.undone[0].moves[0] == state["legal"][0]["move"]


def _state_number(server: LiveServer, table: str) -> int:
    return len(server.hub.tables[table].session.history)


def my_move(server: LiveServer, table: str) -> str:
    return str(server.hub.tables[table].session.table_view(0).legal[0])


# -- bad messages: each answered by name; the connection and the table stay ----------------

BAD: list[tuple[str, Any, str, str]] = [
    ("malformed JSON", '{"type": "move", "move": ', "bad-json", "not JSON"),
    ("not an object", "[1, 2]", "bad-json", "a list"),
    ("binary garbage", b"\xff\xfe\x00", "bad-json", "not JSON"),
    ("no type", {"move": "pass"}, "unknown-type", "missing"),
    ("unknown type", {"type": "moove", "move": "pass"}, "unknown-type", "did you mean \"move\""),
    ("unknown field", {"type": "move", "move": "pass", "colour": "red"}, "unknown-field",
     "move.colour: unknown field"),
    ("missing field", {"type": "move"}, "missing-field", "move.move: missing"),
    ("wrong type", {"type": "move", "move": 7}, "wrong-type", "expected a string, not a number"),
    ("wrong type of number", {"type": "move", "move": "pass", "number": "3"}, "wrong-type",
     "move.number: expected a whole number"),
    ("a bool for a number", {"type": "move", "move": "pass", "seat": True}, "wrong-type",
     "not true"),
    ("too large", json.dumps({"type": "move", "move": "x" * 5000}), "too-large",
     "at most 4,096 bytes"),
    ("too deep", '{"type": "catalog", "x": [[[[[1]]]]]}', "bad-json", "4 deep"),
    ("a control character in a name", {"type": "create", "ruleset": "blackwood-frey",
     "seats": [{"name": "a\x1b[2Jb", "player": "human"}]}, "wrong-type", "printable"),
    ("a number past the digits read", '{"type": "move", "move": "pass", "number": '
     + "9" * 90 + "}", "wrong-type", "a number of 90 digits; at most 80"),
    ("a long name, shown cut with a mark", {"type": "create", "ruleset": "blackwood-frey",
     "seats": [{"name": "\x1b" + "b" * 60, "player": "human"}]}, "wrong-type", 'bbb..."'),
    ("an unknown rule set's long name", {"type": "create", "ruleset": "x" * 60,
     "seats": [{"name": "a", "player": "human"}]}, "bad-rules", "xxx...\" is not an installed"),
    ("a fraction for a parameter", {"type": "create", "ruleset": "blackwood-frey",
     "params": {"payoff_size": 5.5}, "seats": [{"name": "a", "player": "human"}]},
     "wrong-type", "expected a whole number, true/false, a string or null, not a number 5.5"),
    ("not a move", {"type": "move", "move": "9Z>B1"}, "not-a-move", "9Z"),
    ("a move for another seat", {"type": "move", "move": "pass", "seat": 1}, "not-your-seat",
     "sits at seat 0, not 1"),
    ("a stale move", {"type": "move", "move": "pass", "number": 999}, "stale",
     "not 999"),
    ("a record before the end", {"type": "record"}, "game-not-over", "seed"),
    ("a rematch before the end", {"type": "rematch"}, "game-not-over", "still on"),
    ("a second join", {"type": "join", "table": "0" * 16, "seat": 0, "token": "t"},
     "already-joined", "sits at seat 0 of table"),
]


@pytest.mark.parametrize("what,message,code,says", BAD, ids=[b[0] for b in BAD])
def test_a_bad_message_is_answered_by_name_and_changes_nothing(
        server: LiveServer, what: str, message: Any, code: str, says: str) -> None:
    created = create(server)
    with join(server, created) as ann:
        before = my_turn(ann, 0)["number"]  # the bots wait for seat 0 now
        assert _state_number(server, created["table"]) == before
        ann.send(message)
        answer = ann.until("error")
        assert answer["error"] == code, answer
        assert says in answer["message"], answer["message"]
        _valid([answer])
        assert _state_number(server, created["table"]) == before
        # the connection and the table survive: the seat still moves
        state = ann.ask({"type": "move", "move": my_move(server, created["table"])})
        assert state["type"] == "state" and state["number"] == before + 1


def test_a_move_after_the_end_is_an_error_that_says_what_to_do(server: LiveServer) -> None:
    created = create(server)
    with join(server, created) as ann:
        play_out(ann, 0)
        answer = ann.ask({"type": "move", "move": "pass"})
        assert answer["error"] == "game-over" and "rematch" in answer["message"]
        assert ann.ask({"type": "record"})["type"] == "record"  # still connected


def test_a_move_the_rules_forbid_is_refused_with_its_clause(server: LiveServer) -> None:
    created = create(server)
    with join(server, created) as ann:
        my_turn(ann, 0)
        answer = ann.ask({"type": "move", "move": "pass"})
    assert answer["type"] == "refused"
    assert (answer["reason"], answer["clause"]) == ("pass-not-allowed", "BF-20")
    assert "pass" in answer["clause_text"] and answer["message"]
    _valid([answer])


def test_messages_before_join_and_with_a_wrong_token_are_refused(server: LiveServer) -> None:
    created = create(server)
    table = created["table"]
    with server.client() as stranger:
        assert stranger.ask({"type": "move", "move": "pass"})["error"] == "not-joined"
        assert stranger.ask({"type": "hint"})["error"] == "not-joined"
        wrong = stranger.ask({"type": "join", "table": table, "seat": 0, "token": "0" * 32})
        assert wrong["error"] == "bad-token" and "use the seat's own link" in wrong["message"]
        bot = stranger.ask({"type": "join", "table": table, "seat": 1, "token": "0" * 32})
        assert bot["error"] == "bad-token" and "greedy bot" in bot["message"]
        nowhere = stranger.ask({"type": "join", "table": "f" * 16, "seat": 0, "token": "x"})
        assert nowhere["error"] == "no-table"
        seat = stranger.ask({"type": "join", "table": table, "seat": 5, "token": "x"})
        assert seat["error"] == "wrong-type" and "seats 0 to 1" in seat["message"]
        assert stranger.ask({"type": "catalog"})["type"] == "catalog"  # still connected


def test_no_message_but_created_carries_a_token(server: LiveServer) -> None:
    created = create(server, {**SHORT_GAME, "seats": [{"name": "ann", "player": "human"},
                                                      {"name": "bob", "player": "human"}]})
    tokens = [seat["token"] for seat in created["seats"]]
    ann, bob = join(server, created, 0), join(server, created, 1)
    ann.ask({"type": "hint"})
    bob.ask({"type": "catalog"})
    for client in (ann, bob):
        client.close()
        text = json.dumps(client.received)
        assert not any(token in text for token in tokens)
    stored = (server.hub.store.directory / f"{created['table']}.table.json").read_text()
    assert not any(token in stored for token in tokens)  # only their hashes are kept


def test_undo_at_a_table_of_two_people_is_refused(server: LiveServer) -> None:
    created = create(server, {**SHORT_GAME, "seats": [{"name": "ann", "player": "human"},
                                                      {"name": "bob", "player": "human"}]})
    with join(server, created, 0) as ann:
        assert ann.received[0]["undo"] is False
        ann.send({"type": "undo"})
        answer = ann.until("error")
    assert answer["error"] == "no-undo" and "seat 1 is a person's" in answer["message"]


def test_a_flood_is_rate_limited_with_one_error_a_second(tmp_path: Path) -> None:
    """A connection's messages pass at MESSAGE_BURST at once, then MESSAGES_PER_SECOND; the
    rest are ignored with one ``rate-limited`` error a second, and the connection goes on.
    Its clock is the test's (a socket's timing would decide how many pass)."""
    async def scene() -> list[list[str]]:
        hub, now, said = Hub(Store(tmp_path)), [0.0], []

        async def send(text: str) -> None:
            message = json.loads(text)
            said[-1].append(message["type"] if message["type"] != "error"
                            else message["error"])

        flood = Connection(send, "a", clock=lambda: now[0])
        for at, count in ((0.0, 100), (0.5, 20), (1.0, 20), (5.0, 1)):
            now[0] = at
            said.append([])
            for _ in range(count):
                await hub.receive(flood, json.dumps({"type": "catalog"}))
        return said

    burst, per_second = limits.MESSAGE_BURST, limits.MESSAGES_PER_SECOND
    said = asyncio.run(scene())
    assert said[0] == ["catalog"] * burst + ["rate-limited"]  # one error, not 60
    assert said[1] == ["catalog"] * (per_second // 2)  # no second error within the second
    assert said[2] == ["catalog"] * (per_second // 2) + ["rate-limited"]
    assert said[3] == ["catalog"]  # the connection goes on


def test_a_client_may_open_only_so_many_tables(tmp_path: Path) -> None:
    with LiveServer(tmp_path, max_tables_per_client=2) as live, live.client() as lobby:
        assert [lobby.ask(SHORT_GAME)["type"] for _ in range(2)] == ["created", "created"]
        refused = lobby.ask(SHORT_GAME)
    assert refused["error"] == "too-many-tables"


BAD_TABLES = [
    ({"ruleset": "nope"}, "\"nope\" is not an installed rule set"),
    ({"ruleset": "/etc/passwd"}, "not an installed rule set"),
    ({"house_rules": ["blackwood-frey"]}, "not an installed house rule"),
    ({"params": {"payoff_size": "lots"}}, "payoff_size"),
    ({"seats": [{"name": "a", "player": "human"}] * 7}, "7"),
    ({"seats": [{"name": "a", "player": "human"}, {"name": "b", "player": "wizard"}]},
     "\"wizard\" is not an installed player"),
]


@pytest.mark.parametrize("change,says", BAD_TABLES)
def test_a_table_the_rules_refuse_is_not_opened(server: LiveServer, change: dict[str, Any],
                                                says: str) -> None:
    with server.client() as lobby:
        before = set(server.hub.tables)
        answer = lobby.ask({**SHORT_GAME, **change})
    assert answer["error"] == "bad-rules" and says in answer["message"], answer
    assert set(server.hub.tables) == before


def test_a_page_of_another_site_may_not_open_the_socket(server: LiveServer) -> None:
    with pytest.raises(Exception, match=r"1008|403|rejected|closed"):
        client = server.client(Origin="http://evil.example")
        client.ask({"type": "catalog"})
    with server.client(Origin=server.url) as same:
        assert same.ask({"type": "catalog"})["type"] == "catalog"


def test_pages_are_served_with_a_strict_content_security_policy(server: LiveServer) -> None:
    import httpx

    for path in ("/", "/table/0123456789abcdef", "/static/table.js", "/static/style.css"):
        response = httpx.get(server.url + path)
        assert response.status_code == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
    assert httpx.get(server.url + "/static/../app.py").status_code == 404
    assert httpx.get(server.url + "/table/..%2f..%2fetc").status_code == 404


def test_serve_listens_on_this_machine_only_unless_told(capsys: Any) -> None:
    from spitemalice.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.records) == ("127.0.0.1", 8000, None)
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", "70000"])
    assert stop.value.code == 2
    assert "argument --port: expected a port from 0 to 65535" in capsys.readouterr().err


def test_bot_connect_says_when_the_server_cannot_be_reached(capsys: Any) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    link = f"http://127.0.0.1:{port}/table/0123456789abcdef#seat=0&token=ab"
    assert main(["bot", "--connect", link]) == 2
    assert "cannot reach the server" in capsys.readouterr().err


def test_a_seat_that_closes_its_tab_and_opens_its_link_again_resumes(
        server: LiveServer) -> None:
    created = create(server)
    with join(server, created) as first:
        state = my_turn(first, 0)
        first.send({"type": "move", "move": state["legal"][0]["move"]})
        after = first.until("state")
    # the tab is closed; the table goes on without it, and the link still seats it
    with join(server, created) as again:
        state = again.until("state")
        assert state["number"] >= after["number"]
        assert [e["move"] for e in state["log"]][:after["number"]] == \
            [m["last"]["move"] for m in first.received if m["type"] == "state" and m["last"]]
        assert again.received[0]["seats"][0]["connected"] is True


def test_a_seat_joining_while_a_bot_moves_gets_its_welcome_first(tmp_path: Path) -> None:
    """A person reopens the link while the bot's move is being made and announced: the first
    message the new connection receives is its welcome, then the whole state, never a bot's
    move announced before them (a client needs the welcome's rules to read a state)."""
    async def scene() -> list[str]:
        hub = Hub(Store(tmp_path), bot_delay=0)
        said: dict[str, list[dict[str, Any]]] = {"lobby": [], "late": []}

        def inbox(name: str) -> Any:
            async def send(text: str) -> None:
                said[name].append(json.loads(text))
            return send

        lobby, late = Connection(inbox("lobby"), "a"), Connection(inbox("late"), "b")
        await hub.receive(lobby, json.dumps(SHORT_GAME))
        created = said["lobby"][-1]
        table = hub.tables[created["table"]]
        join = {"type": "join", "table": created["table"], "seat": 0,
                "token": created["seats"][0]["token"]}
        async with table.lock:  # as a bot's move holds it while made and announced
            joining = asyncio.create_task(hub.receive(late, json.dumps(join)))
            for _ in range(5):
                await asyncio.sleep(0)  # the join runs up to the lock and waits there
            await hub._announce(table)
        await joining
        await hub.close()
        return [message["type"] for message in said["late"]]

    assert asyncio.run(scene())[:2] == ["welcome", "state"]


TWO_PEOPLE = {**SHORT_GAME, "seats": [{"name": "ann", "player": "human"},
                                      {"name": "bob", "player": "human"}]}


def test_messages_to_one_connection_never_overlap_and_begin_with_its_welcome(
        tmp_path: Path) -> None:
    """The tab of seat 1 closes while seat 0's link is opened again and its welcome is still
    being written (a slow socket): the seat list announcing the leave waits until the welcome
    and the whole state are sent; no two sends to one connection are ever under way at once,
    whatever the transport does while a send is pending."""
    async def scene() -> list[str]:
        hub = Hub(Store(tmp_path), bot_delay=0)
        events: list[str] = []
        gate, entered = asyncio.Event(), asyncio.Event()

        async def slow(text: str) -> None:  # the joining connection's socket
            kind = json.loads(text)["type"]
            events.append(f"start {kind}")
            entered.set()
            await gate.wait()
            events.append(f"end {kind}")

        async def quick(text: str) -> None:
            said.append(json.loads(text))

        said: list[dict[str, Any]] = []
        lobby, bob, late = (Connection(quick, "a"), Connection(quick, "b"),
                            Connection(slow, "c"))
        await hub.receive(lobby, json.dumps(TWO_PEOPLE))
        created = said[-1]
        tokens = [seat["token"] for seat in created["seats"]]
        await hub.receive(bob, json.dumps({"type": "join", "table": created["table"],
                                           "seat": 1, "token": tokens[1]}))
        joining = asyncio.create_task(hub.receive(late, json.dumps(
            {"type": "join", "table": created["table"], "seat": 0, "token": tokens[0]})))
        await entered.wait()  # the welcome is being written
        leaving = asyncio.create_task(hub.leave(bob))
        for _ in range(10):
            await asyncio.sleep(0)  # the leave runs as far as it may
        gate.set()
        await asyncio.gather(joining, leaving)
        await hub.close()
        return events

    events = asyncio.run(scene())
    assert events[:4] == ["start welcome", "end welcome", "start state", "end state"]
    assert events[4:] == ["start seats", "end seats"]  # bob's leave, told after


def test_a_server_closing_while_a_bot_thinks_waits_for_the_move_and_its_record(
        tmp_path: Path) -> None:
    """The server stops while a bot's move is being made in its thread: closing waits for
    that move (a thread cannot be stopped), so the record on disk holds it before the next
    server reads the records folder, and the table's lock is not let go meanwhile."""
    async def scene() -> tuple[bool, int, int]:
        hub = Hub(Store(tmp_path), bot_delay=0)
        said: list[dict[str, Any]] = []

        async def send(text: str) -> None:
            said.append(json.loads(text))

        ann = Connection(send, "a")
        await hub.receive(ann, json.dumps(SHORT_GAME))
        created = said[-1]
        table = hub.tables[created["table"]]
        old, path = table.session, hub.store.record_path(table.id, 1)
        path.unlink()  # dealt again from a fixed seed: the same game on every run
        session = table.session = Session(old.rules, old.kinds, names=["ann", "bot"], seed=7,
                                          record_path=path)
        thinking, go_on = threading.Event(), threading.Event()
        play_bot = session.play_bot

        def slow_bot() -> Any:
            thinking.set()
            go_on.wait(30)
            return play_bot()

        session.play_bot = slow_bot  # type: ignore[method-assign]
        await hub.receive(ann, json.dumps({"type": "join", "table": created["table"],
                                           "seat": 0, "token": created["seats"][0]["token"]}))
        while not session.bot_on_turn:  # play seat 0's turn until the bot is on turn
            move = str(session.table_view(0).legal[0])
            await hub.receive(ann, json.dumps({"type": "move", "move": move}))
        await asyncio.to_thread(thinking.wait, 30)
        made = len(session.history)
        closing = asyncio.create_task(hub.close())
        for _ in range(20):
            await asyncio.sleep(0)
        waited = not closing.done() and table.lock.locked()
        go_on.set()
        await closing
        return waited, made, len(load_record(path).moves)

    waited, made, on_disk = asyncio.run(scene())
    assert waited  # closing waits for the move being made, the lock still held
    assert on_disk == made + 1  # and the bot's move is in the record


def test_serve_on_port_0_says_the_port_it_listens_on(tmp_path: Path) -> None:
    """``serve --port 0`` takes any free port and tells that port, not 0; the page is there."""
    import os
    import re
    import subprocess
    import sys
    import urllib.request

    command = [sys.executable, "-m", "spitemalice", "serve", "--port", "0", "--records",
               str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env) as process:
        try:
            line = process.stderr.readline() if process.stderr else ""
            told = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            assert told is not None, line
            assert told.group(1) != "0"
            page = urllib.request.urlopen(f"http://127.0.0.1:{told.group(1)}/", timeout=20)
            assert page.status == 200
        finally:
            process.terminate()


def test_serve_on_a_port_in_use_is_refused_saying_what_to_try(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--records", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert f"cannot listen on \"127.0.0.1\" port {port}: Address already in use" in error
    assert "--port 0 for any free one" in error


def test_serve_on_a_host_name_that_does_not_resolve_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A failed name lookup has a negative code: it was told as "Unknown error -2"
    (try-out s6 P8); now in the lookup's own words, without the socket module's address."""
    assert main(["serve", "--host", "no.such.host.invalid", "--port", "0", "--records",
                 str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert 'cannot listen on "no.such.host.invalid" port 0: ' in error
    assert "Unknown error" not in error and "while attempting" not in error, error
