"""A table opened from a rule-set file's text (issue 34 §4, :mod:`spitemalice.server.rulefile`),
through Starlette's test client: the lobby's ``create`` carries the text, the table's rule
sheet shows the file's clauses, a refusal cites the data rule's clause and reason, bad text
gets the reader's error (line, column, what would be right) and opens no table, the text is
bounded and read as data only, and a restarted server resumes the table from its record."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("simpleeval")

from jsonschema import Draft202012Validator

with warnings.catch_warnings():  # starlette's own note on the HTTP client it uses
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

import spitemalice as sm
from spitemalice import limits
from spitemalice.cli import main
from spitemalice.formats.records import load_record
from spitemalice.formats.schema import schema
from spitemalice.play import Session
from spitemalice.server import Hub, Store
from spitemalice.server.app import create_app
from spitemalice.server.remote import _rules_of

FILE = '''\
title = "Blackwood-Frey, no discards, aces first"
version = "1.0"
base = "blackwood-frey"

[[rule]]
clause = "ND-1"
text = "No card may be discarded: a turn ends only when a seat can do nothing else."
source = "HOUSE"
forbid = "discard"
reason = "no-discards"
message = "nothing may be discarded at this table"

[[rule]]
clause = "AF-1"
text = "While an ace can be played onto a build pile, only such plays are legal."
source = "HOUSE"
require = "move.kind == 'play' and move.rank == 1"
reason = "ace-first"
message = "an ace can be played and must be, before anything else"
'''
"""A designer's file: one forbid rule and one require rule."""

SEATS = [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]
TO_SERVER = Draft202012Validator({**schema("message"), "oneOf": [
    {"$ref": "#/$defs/to-server"}]})
TO_CLIENT = Draft202012Validator({**schema("message"), "oneOf": [
    {"$ref": "#/$defs/to-client"}]})


@pytest.fixture
def hub(tmp_path: Path) -> Hub:
    return Hub(Store(tmp_path / "records"), bot_delay=0)


@pytest.fixture
def client(hub: Hub) -> Iterator[TestClient]:
    with TestClient(create_app(hub, restore=False)) as test_client:
        yield test_client


def _ask(client: TestClient, message: dict[str, Any] | str) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(message if isinstance(message, str) else json.dumps(message))
        answer: dict[str, Any] = ws.receive_json()
    assert not list(TO_CLIENT.iter_errors(answer)), answer
    return answer


def _create(text: str = FILE, **more: Any) -> dict[str, Any]:
    message = {"type": "create", "ruleset_file": text, "seats": SEATS, **more}
    if "ruleset" not in more and len(text.encode()) <= limits.MAX_RULESET_FILE_BYTES:
        assert not list(TO_SERVER.iter_errors(message))
    return message


def test_the_catalog_says_how_long_a_file_may_be(client: TestClient) -> None:
    catalog = _ask(client, {"type": "catalog"})
    assert catalog["ruleset_file_bytes"] == limits.MAX_RULESET_FILE_BYTES


def test_a_pasted_file_opens_a_table_whose_sheet_shows_its_clauses(
        client: TestClient, hub: Hub) -> None:
    created = _ask(client, _create())
    assert created["type"] == "created"
    session = hub.tables[created["table"]].session
    assert session.rules.plugins == ("blackwood-frey", "table.toml:ND-1", "table.toml:AF-1",
                                     "table.toml")
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": created["table"], "seat": 0,
                      "token": created["seats"][0]["token"]})
        welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    assert welcome["ruleset"]["house_rules"] == ["table.toml:ND-1", "table.toml:AF-1"]
    sheet = welcome["sheet"]
    assert "Blackwood-Frey, no discards, aces first" in sheet
    assert re.search(r"ND-1\s+No card may be discarded", sheet)
    assert re.search(r"AF-1\s+While an ace can be played onto a build pile", sheet)


def _deal_where(hub: Hub, table_id: str, ace_playable: bool) -> None:
    """Deal the table again (nobody has joined) from the first seed whose seat on turn can
    play an ace, or cannot, as asked."""
    table = hub.tables[table_id]
    old = table.session
    for seed in range(500):
        state = sm.deal(old.rules, seed)
        aces = [m for m in sm.legal_moves(old.rules, state)
                if isinstance(m, sm.Play) and m.card.rank == 1]
        if bool(aces) == ace_playable:
            break
    table.session = Session(old.rules, old.kinds, names=[seat.name for seat in old.seats],
                            seed=seed, record_path=hub.store.record_path(table_id, 1),
                            overwrite=True)


@pytest.mark.parametrize(("ace_playable", "clause", "reason", "text", "message"), [
    (False, "ND-1", "no-discards", "No card may be discarded",
     "nothing may be discarded at this table"),
    (True, "AF-1", "ace-first", "While an ace can be played",
     "an ace can be played and must be, before anything else"),
], ids=["forbid", "require"])
def test_a_refusal_at_the_table_cites_the_data_rules_clause_and_reason(
        client: TestClient, hub: Hub, ace_playable: bool, clause: str, reason: str,
        text: str, message: str) -> None:
    created = _ask(client, _create())
    _deal_where(hub, created["table"], ace_playable)
    seats = created["seats"]
    sockets = [client.websocket_connect("/ws") for _ in seats]
    try:
        states = []
        for number, ws in enumerate(sockets):
            ws.__enter__()
            ws.send_json({"type": "join", "table": created["table"], "seat": number,
                          "token": seats[number]["token"]})
            assert ws.receive_json()["type"] == "welcome"
            states.append(ws.receive_json())
        mover = next(i for i, state in enumerate(states) if state["legal"])
        state = states[mover]
        card = next(c for c in state["view"]["hand"] if not c.startswith("A"))
        sockets[mover].send_json({"type": "move", "move": f"{card}>D1"})
        refused = sockets[mover].receive_json()
        while refused["type"] == "seats":  # the other seat's join, told to this one
            refused = sockets[mover].receive_json()
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    assert refused["type"] == "refused", refused
    assert not list(TO_CLIENT.iter_errors(refused))
    assert (refused["clause"], refused["reason"]) == (clause, reason)
    assert refused["clause_text"].startswith(text)
    assert message in refused["message"]


FAULTS = [
    # (what, the change to FILE, what the answer says: the place and what would be right)
    ("an unknown name", ("move.rank == 1", "move.rnak == 1"),
     r"table\.toml:17:36: rule AF-1: require: unknown name move\.rnak \(did you mean "
     r"move\.rank\?\)"),
    ("not TOML", ('forbid = "discard"', 'forbid "discard"'),
     r"table\.toml: not valid TOML: .*\(at line 9, column 8\)"),
    ("a hidden card", ('require = "', 'require = "payoff.cards > 3 and '),
     r"table\.toml:17:12: rule AF-1: require: .*payoff\.cards.*face down"),
    ("a reason without a message", ('message = "nothing may be discarded at this table"\n', ""),
     r"table\.toml:10:\d+: rule ND-1: reason: the reason code no-discards has no message"),
    ("a clause used twice", ('clause = "AF-1"', 'clause = "ND-1"'),
     r"table\.toml:\d+:\d+: rule 2: clause: clause ND-1 is used twice"),
    ("a base that is a path", ('base = "blackwood-frey"', 'base = "/etc/passwd.toml"'),
     r'table\.toml: base: "/etc/passwd\.toml" is a file; this file\'s base names an '
     r"installed rule set"),
    ("an unknown base", ('base = "blackwood-frey"', 'base = "blackwod-frey"'),
     r'table\.toml: base: unknown rule set "blackwod-frey" \(did you mean "blackwood-frey"\?\)'),
]


@pytest.mark.parametrize(("what", "change", "said"), FAULTS, ids=[f[0] for f in FAULTS])
def test_bad_file_text_gets_the_readers_error_and_opens_no_table(
        client: TestClient, hub: Hub, what: str, change: tuple[str, str], said: str) -> None:
    assert change[0] in FILE
    answer = _ask(client, _create(FILE.replace(*change)))
    assert answer["type"] == "error" and answer["error"] == "bad-rules", answer
    assert answer["message"].startswith("create.ruleset_file: table.toml")
    assert re.search(said, answer["message"]), answer["message"]
    assert hub.tables == {}
    assert not list(hub.store.directory.rglob("*.json"))


@pytest.mark.parametrize(("rules", "said"), [
    ({"ruleset": "blackwood-frey", "ruleset_file": FILE}, "not both"),
    ({}, "not neither"),
])
def test_the_rules_come_one_way(client: TestClient, hub: Hub, rules: dict[str, str],
                                said: str) -> None:
    message = {"type": "create", "seats": SEATS, **rules}
    assert list(TO_SERVER.iter_errors(message))  # the schema says so too
    answer = _ask(client, message)
    assert answer["error"] == "bad-rules" and said in answer["message"]
    assert "ruleset (an installed rule set's name) or ruleset_file" in answer["message"]
    assert hub.tables == {}


def test_the_files_own_parameters_and_the_messages_house_rules_stack(
        client: TestClient, hub: Hub) -> None:
    text = FILE.replace('base = "blackwood-frey"\n',
                        'base = "blackwood-frey"\n[params]\npayoff_size = 7\n')
    created = _ask(client, _create(text, house_rules=["jokers-to-king"],
                                   params={"hand_size": "6"}))
    rules = hub.tables[created["table"]].session.rules
    assert rules.plugins[3:] == ("jokers-to-king", "table.toml")
    assert (rules.ruleset.payoff_size, rules.ruleset.hand_size) == (7, 6)


def test_a_file_is_bounded_and_a_long_message_is_only_a_create_with_one(
        client: TestClient, hub: Hub) -> None:
    longest = limits.MAX_RULESET_FILE_BYTES
    padded = FILE + "#" * (longest - len(FILE.encode()) - 1) + "\n"
    assert len(padded.encode()) == longest
    created = _ask(client, _create(padded))  # a message of more than MAX_MESSAGE_BYTES
    assert created["type"] == "created"
    answer = _ask(client, _create(padded + "#"))
    assert answer["error"] == "too-large"
    assert f"at most {longest:,} bytes" in answer["message"]
    # any other message stays within MAX_MESSAGE_BYTES
    long_move = {"type": "create", "ruleset": "x" * limits.MAX_MESSAGE_BYTES, "seats": SEATS}
    answer = _ask(client, long_move)
    assert answer["error"] == "too-large"
    assert answer["message"].startswith(f"the message is {len(json.dumps(long_move)):,} bytes")
    assert len(hub.tables) == 1


@pytest.mark.parametrize("value", ["", "   \n", 7, ["title = 'x'"]])
def test_a_ruleset_file_that_is_no_text_is_refused(client: TestClient, value: object) -> None:
    answer = _ask(client, {"type": "create", "ruleset_file": value, "seats": SEATS})
    assert answer["error"] == "wrong-type"
    assert answer["message"].startswith("create.ruleset_file: expected a rule-set file's text")


def test_a_restarted_server_resumes_the_table_without_the_text(
        client: TestClient, hub: Hub, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    created = _ask(client, _create())
    table = hub.tables[created["table"]]
    seat = table.session.on_turn
    move = sm.legal_moves(table.session.rules, table.session.state)[0]
    table.session.play(seat, str(move))
    again = Hub(Store(tmp_path / "records"), bot_delay=0)
    said = again.restore()
    assert said == [f"resumed table {created['table']}, game 1, after 1 move"]
    resumed = again.tables[created["table"]].session
    assert resumed.rules.plugins[:3] == table.session.rules.plugins[:3]
    assert resumed.rules.clauses == table.session.rules.clauses
    path = hub.store.record_path(created["table"], 1)
    assert dict(load_record(path).ruleset.data_rules)["table.toml:ND-1"]["forbid"] == "discard"
    capsys.readouterr()
    assert main(["check", str(path)]) == 0
    assert "blackwood-frey 1.0 + table.toml:ND-1 + table.toml:AF-1" in capsys.readouterr().out


def test_a_program_at_the_table_loads_the_files_rules_from_its_welcome(
        client: TestClient, hub: Hub) -> None:
    """``spitemalice bot --connect`` (and any program) rebuilds the rules from ``welcome``:
    the data rules travel in it by content, as in a record."""
    created = _ask(client, _create())
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": created["table"], "seat": 1,
                      "token": created["seats"][1]["token"]})
        welcome = ws.receive_json()
    assert not list(TO_CLIENT.iter_errors(welcome))
    assert set(welcome["ruleset"]["data_rules"]) == {"table.toml:ND-1", "table.toml:AF-1"}
    rules = _rules_of(welcome)
    table = hub.tables[created["table"]].session
    assert rules.clauses == table.rules.clauses
    state = table.state
    assert sm.legal_moves(rules, state) == sm.legal_moves(table.rules, state)
    changed = json.loads(json.dumps(welcome))
    changed["ruleset"]["data_rules"]["table.toml:ND-1"]["clause"] = "ND-2"
    with pytest.raises(sm.RulesetError, match="states clause ND-1, not \"ND-2\""):
        _rules_of(changed)
