"""The protocol's reader agrees with its published schema, the picture carries what the page
clicks on, the rate bound counts as documented, and the table files are written whole and
never through a link (issue 18 §2-3; issue 20 class 8)."""

from __future__ import annotations

import inspect
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import spitemalice as sm
from spitemalice import limits, wording
from spitemalice.cli import main
from spitemalice.files import write_file
from spitemalice.formats import dumps_state, loads_state
from spitemalice.formats.json_input import (
    MISSING,
    UNKNOWN,
    WRONG,
    data_error,
    describe,
    read_bool,
    read_card,
    read_int,
    read_list,
    read_object,
    read_str,
)
from spitemalice.formats.picture import position_svg
from spitemalice.formats.schema import schema
from spitemalice.server import quickplay, reactions
from spitemalice.server.protocol import ERROR_CODES, KINDS, read_message
from spitemalice.server.rate import Rate
from spitemalice.server.remote import RemoteBot, parse_link
from spitemalice.server.store import SeatEntry, Store, TableEntry
from spitemalice.server.tables import HANDLERS, Hub

TO_SERVER = Draft202012Validator({**schema("message"), "oneOf": [{"$ref": "#/$defs/to-server"}]})
SVG = "{http://www.w3.org/2000/svg}"

GOOD = [
    {"type": "catalog"},
    {"type": "create", "ruleset": "blackwood-frey", "seats": [{"name": "a", "player": "human"}]},
    {"type": "create", "ruleset": "g4a", "house_rules": ["pair-discards"],
     "params": {"payoff_size": 5, "jokers": None},
     "seats": [{"name": "ann", "player": "human"}, {"name": "b", "player": "greedy"}]},
    {"type": "join", "table": "0123456789abcdef", "seat": 1, "token": "ab" * 16,
     "picture": True},
    {"type": "move", "move": "9H>B2"},
    {"type": "move", "move": "pass", "seat": 0, "number": 7},
    {"type": "hint"}, {"type": "undo"}, {"type": "rematch"}, {"type": "record"},
]

BAD = [
    {}, [], "move", 3, None,
    {"type": "catalog", "x": 1},
    {"type": "create", "ruleset": "bf"},
    {"type": "create", "ruleset": "bf", "seats": []},
    {"type": "create", "ruleset": "bf", "seats": [{"name": "a"}]},
    {"type": "create", "ruleset": "bf", "seats": [{"name": "a", "player": "human", "x": 1}]},
    {"type": "create", "ruleset": "bf", "seats": [{"name": "", "player": "human"}]},
    {"type": "create", "ruleset": "bf", "seats": [{"name": "a" * 41, "player": "human"}]},
    {"type": "create", "ruleset": "bf", "params": {"k": [1]},
     "seats": [{"name": "a", "player": "human"}]},
    {"type": "create", "ruleset": "bf", "house_rules": "x",
     "seats": [{"name": "a", "player": "human"}]},
    {"type": "join", "table": "t", "seat": -1, "token": "x"},
    {"type": "join", "table": "t", "seat": 0, "token": "x" * 65},
    {"type": "join", "table": "t", "seat": 0, "token": "x", "picture": 1},
    {"type": "move", "move": ""},
    {"type": "move", "move": "x" * 65},
    {"type": "move", "move": "pass", "number": 1.5},
    {"type": "move", "move": "pass", "seat": False},
    {"type": "hint", "seat": 0},
    {"type": "nope"},
]


@pytest.mark.parametrize("message", GOOD, ids=lambda m: m["type"])
def test_every_good_message_is_read_and_valid_against_the_schema(message: Any) -> None:
    read = read_message(json.dumps(message))
    assert read.type == message["type"]
    assert set(read.fields) == set(message) - {"type"}
    assert TO_SERVER.is_valid(message)


@pytest.mark.parametrize("message", BAD, ids=range(len(BAD)))
def test_every_bad_message_is_refused_by_both_the_reader_and_the_schema(message: Any) -> None:
    with pytest.raises(sm.ProtocolError) as refused:
        read_message(json.dumps(message))
    assert refused.value.code in ERROR_CODES
    assert not TO_SERVER.is_valid(message)


def test_the_schema_lists_the_readers_kinds_and_fields() -> None:
    defs = schema("message")["$defs"]
    for kind, (required, optional) in KINDS.items():
        shape = defs[f"to-server-{kind}"]
        assert set(shape["required"]) == {"type", *required}, kind
        assert set(shape["properties"]) == {"type", *required, *optional}, kind
    assert defs["to-client-error"]["properties"]["error"]["enum"] == list(ERROR_CODES)
    assert {d.removeprefix("to-server-") for d in defs if d.startswith("to-server-")} == set(KINDS)


def test_the_handler_table_has_one_handler_for_each_kind_a_client_sends() -> None:
    """Issue 33: the hub finds a message's handler in one explicit table, not by a name built
    from the kind; its keys are the kinds the reader reads and the schema lists, and each
    kind goes to the hub's coroutine for it (a swapped entry fails here)."""
    defs = schema("message")["$defs"]
    sent = {d.removeprefix("to-server-") for d in defs if d.startswith("to-server-")}
    assert set(HANDLERS) == set(KINDS) == sent
    for kind, handler in HANDLERS.items():
        assert inspect.iscoroutinefunction(handler), kind
        # the hub's own method, or a module's: quick play's (spitemalice.server.quickplay.
        # HANDLERS) and the reactions' (spitemalice.server.reactions)
        module = {**dict.fromkeys(quickplay.HANDLERS, quickplay), "react": reactions}
        owner, name = (module[kind], f"on_{kind}") if kind in module else (Hub, f"_on_{kind}")
        assert getattr(owner, handler.__name__) is handler and handler.__name__ == name


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 2**40), st.text(max_size=70),
                    st.lists(st.integers(0, 3), max_size=2))


@example(kind="move", fields={"move": "pass", "number": 2**31})
@example(kind="join", fields={"table": "t", "seat": 2**31 - 1, "token": "x"})
@given(kind=st.sampled_from([*KINDS, "other"]),
       fields=st.dictionaries(st.sampled_from(["move", "seat", "number", "table", "token",
                                               "picture", "ruleset", "x"]), _VALUES,
                              max_size=4))
def test_the_reader_and_the_schema_agree_on_any_message(kind: str,
                                                        fields: dict[str, Any]) -> None:
    message = {"type": kind, **fields}
    try:
        read_message(json.dumps(message))
        accepted = True
    except sm.ProtocolError:
        accepted = False
    # the reader also refuses what the schema cannot say: unprintable text
    printable = all(wording.printable(v) for v in fields.values() if isinstance(v, str))
    assert accepted == (TO_SERVER.is_valid(message) and printable), message


# -- one field reader: the protocol's and the files' (issue 33) -----------------------------

WRONG_VALUES = [(None, "null"), (True, "true"), ("5", 'a string "5"'), (2.5, "a number 2.5"),
                ([1], "a list of 1 item"), ([], "an empty list"),
                ({"a": 1, "b": 2}, "an object of 2 fields"), ({}, "an empty object")]


@pytest.mark.parametrize(("value", "words"), WRONG_VALUES, ids=[w for _, w in WRONG_VALUES])
def test_a_message_and_a_state_file_describe_a_wrong_value_alike(value: Any, words: str) -> None:
    assert describe(value) == words
    with pytest.raises(sm.ProtocolError) as refused:
        read_message(json.dumps({"type": "move", "move": "pass", "number": value}))
    assert refused.value.code == "wrong-type"
    assert str(refused.value) == f"move.number: expected a whole number, not {words}"
    data = json.loads(dumps_state(sm.deal(sm.load("blackwood-frey"), 1)))
    data["turn"] = value
    with pytest.raises(sm.DataError) as unread:
        loads_state(json.dumps(data), sm.load("blackwood-frey"))
    assert str(unread.value) == f"state.turn: expected a whole number, not {words}"


READS: list[tuple[Any, str, str]] = [
    (lambda error: read_object({"b": 1}, "x", ("a", "b"), error=error), MISSING,
     "x.a: missing; x has the fields a, b"),
    (lambda error: read_object({"a": 1, "bb": 2}, "x", ("a",), ("b",), error=error,
                               owner="an x"), UNKNOWN,
     'x.bb: unknown field (did you mean "b"?); an x has the fields a, b (optional)'),
    (lambda error: read_object([], "x", ("a",), error=error), WRONG,
     "x: expected an object with the field a, not an empty list"),
    (lambda error: read_list({}, "x", least=1, most=3, noun="seat", error=error), WRONG,
     "x: expected a list of 1 to 3 seats, not an empty object"),
    (lambda error: read_int(7, "x", 0, maximum=5, error=error), WRONG,
     "x: expected a whole number from 0 to 5, not 7"),
    (lambda error: read_str("a\x1bb", "x", longest=9, error=error), WRONG,
     'x: expected 1 to 9 printable characters, not "a\\u001bb"'),
    (lambda error: read_bool(0, "x", error=error), WRONG,
     "x: expected true or false, not a number 0"),
    (lambda error: read_card("1Z", "x", error=error), WRONG, "x: '1Z' is not a card"),
]


@pytest.mark.parametrize(("read", "fault", "words"), READS, ids=range(len(READS)))
def test_the_field_reader_raises_the_error_it_is_given(read: Any, fault: str,
                                                       words: str) -> None:
    """The same fault, in the same words, as a DataError (the files' default) or as a
    ProtocolError whose code is the kind of fault (the server passes the class)."""
    with pytest.raises(sm.DataError) as unread:
        read(data_error)
    with pytest.raises(sm.ProtocolError) as refused:
        read(sm.ProtocolError)
    assert refused.value.code == fault and fault in ERROR_CODES
    assert str(refused.value) == str(unread.value) and str(unread.value).startswith(words)
    assert not isinstance(refused.value, sm.DataError)


def _bot() -> RemoteBot:
    return RemoteBot(parse_link("http://localhost:1/table/0123456789abcdef#seat=0&token=t"),
                     say=lambda line: None)


WELCOME = {"type": "welcome", "protocol": 1, "table": "0123456789abcdef", "seat": 0, "game": 1,
           "ruleset": {"name": "blackwood-frey", "house_rules": [], "params": {}},
           "seats": [{}, {}], "sheet": "", "undo": True}


@pytest.mark.parametrize(("message", "words"), [
    ({**WELCOME, "ruleset": {"name": "blackwood-frey", "house_rules": [], "params": None}},
     "welcome.ruleset.params: expected an object, not null"),
    ({**WELCOME, "ruleset": {"name": "blackwood-frey", "params": {}}},
     "welcome.ruleset.house_rules: missing; welcome.ruleset needs the fields name, "
     "house_rules, params"),
    ({**WELCOME, "seats": 2}, "welcome.seats: expected a list of 1 to 12 seats, not a number 2"),
    ({"type": "state", "number": "3", "view": {}, "legal": []},
     'state.number: expected a whole number, not a string "3"'),
])
def test_the_remote_bot_names_the_field_of_a_server_message_it_cannot_read(
        message: dict[str, Any], words: str) -> None:
    """The remote bot reads the server's messages with the same reader (before, a missing
    field was a KeyError); fields a newer server adds are let be."""
    bot = _bot()
    bot.answer({**WELCOME, "added": "by a newer server"})
    assert bot.rules is not None and bot.rules.ruleset.players == 2
    with pytest.raises(sm.SpiteMaliceError) as unread:
        bot.answer(message)
    assert str(unread.value) == ("the server sent a message that does not fit the protocol: "
                                 + words)


def test_a_message_over_the_size_bound_is_refused_before_it_is_parsed() -> None:
    text = '{"type": "move", "move": "' + "x" * limits.MAX_MESSAGE_BYTES + '"}'
    with pytest.raises(sm.ProtocolError, match="4,096 bytes") as refused:
        read_message(text)
    assert refused.value.code == "too-large"
    with pytest.raises(sm.ProtocolError) as deep:
        read_message('{"type": "catalog", "x": ' + "[" * 30 + "]" * 30 + "}")
    assert deep.value.code == "bad-json"


def test_the_rate_bound_lets_a_burst_through_then_the_average() -> None:
    now = [0.0]
    rate = Rate(per_second=10, burst=5, clock=lambda: now[0])
    assert [rate.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    now[0] += 0.25  # 2.5 tokens back
    assert [rate.allow() for _ in range(3)] == [True, True, False]


def test_schema_message_prints_a_schema_that_stands_alone(capsys: Any) -> None:
    assert main(["schema", "message"]) == 0
    printed = json.loads(capsys.readouterr().out)
    Draft202012Validator.check_schema(printed)
    assert {"view", "record"} <= set(printed["$defs"])  # bundled, so no reference is fetched


# -- the picture the page clicks on --------------------------------------------------------

def test_every_pile_of_the_picture_is_a_group_with_its_zone() -> None:
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 3)
    root = ET.fromstring(position_svg(state, viewer=0, new_pile=True,
                                      names=["<b>ann</b>", "bo & b"]))
    zones = [g.get("data-zone") for g in root.iter(f"{SVG}g") if g.get("class") == "pile"]
    assert zones == ["build-new", "seat0-payoff1", *(f"seat0-discard{n}" for n in range(1, 5)),
                     "seat0-hand", "seat1-payoff1",
                     *(f"seat1-discard{n}" for n in range(1, 5)), "seat1-hand"]
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    # as text, isolated (FSI...PDI) so that a name written right to left stays in its place
    assert any(t.startswith("Seat 0 \u00b7 \u2068<b>ann</b>\u2069 (you)") for t in texts)
    assert not list(root.iter(f"{SVG}b"))
    plain = ET.fromstring(position_svg(state, viewer=0))
    assert not [g for g in plain.iter(f"{SVG}g") if g.get("data-zone") == "build-new"]
    with pytest.raises(sm.SpiteMaliceError, match="one per seat"):
        position_svg(state, names=["one"])


# -- the table files ------------------------------------------------------------------------

def test_a_table_file_replaces_a_planted_link_instead_of_writing_through_it(
        tmp_path: Path) -> None:
    store = Store(tmp_path / "records")
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    planted = store.directory / "0123456789abcdef.table.json"
    planted.symlink_to(outside)
    entry = TableEntry("0123456789abcdef", 1, (SeatEntry("ann", "human", "ab" * 32),))
    store.save(entry)
    assert outside.read_text() == "keep me"
    assert not planted.is_symlink() and json.loads(planted.read_text())["table"] == entry.table
    assert [p.name for p in store.directory.iterdir()] == [planted.name]  # no temporary left
    assert oct(os.stat(store.directory).st_mode & 0o777) == "0o700"


def test_an_unwritable_file_leaves_no_temporary_behind(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "file.json"
    with pytest.raises(sm.OutputError):
        write_file(target, "{}", force=True)
    assert not target.parent.exists()


def test_unreadable_table_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    store = Store(tmp_path)
    (tmp_path / "0123456789abcdef.table.json").write_text("{not json")
    (tmp_path / "fedcba9876543210.table.json").write_text(json.dumps({
        "format": "spitemalice-table", "version": 1, "table": "fedcba9876543210", "game": 1,
        "seats": []}))
    found = list(store.unfinished())
    assert len(found) == 2 and all(isinstance(line, str) for line in found)
    assert "not valid JSON" in str(found[0]) and "fedcba9876543210-1.json" in str(found[1])
    (tmp_path / "0123456789abcdef.table.json").write_text(json.dumps({
        "format": "spitemalice-table", "version": 1, "table": "0123456789abcdef", "game": 1,
        "seats": [{"name": "ann", "player": "human", "token_sha256": 5}]}))
    found = list(store.unfinished())
    assert "table.seats[0].token_sha256: 5 is neither a SHA-256 in hex" in str(found[0])
    for seat, field in (({"token_sha256": "zz" * 32}, "token_sha256"),
                        ({"name": "a" * 41}, "name")):
        (tmp_path / "0123456789abcdef.table.json").write_text(json.dumps({
            "format": "spitemalice-table", "version": 1, "table": "0123456789abcdef",
            "game": 1, "seats": [{"name": "ann", "player": "human", "token_sha256": "ab" * 32}
                                 | seat]}))
        found = list(store.unfinished())
        assert f"table.seats[0].{field}" in str(found[0]), found  # the same reader as Spit's
