"""The remote bot (``spitemalice bot --connect``) against a hostile or wrong server (issue 38,
class 3): everything a server sends is a stranger's input.  Each way a server can go wrong
is answered by one line on stderr, the server's words escaped, and exit status 2; never a
traceback.  A discovery test finds every field the bot reads and every kind of message the
server may send, and fails on one without a row here.  ``bench/fuzz.py``'s ``remote bot``
target feeds its message handling many mutated messages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats.schema import schema
from spitemalice.server import remote
from spitemalice.server.remote import RemoteBot, parse_link, read_server_message
from tests.server.hostile import raw_http, scripted

WELCOME = {"type": "welcome", "protocol": 1, "table": "0123456789abcdef", "seat": 0, "game": 1,
           "ruleset": {"name": "blackwood-frey", "house_rules": [], "params": {}},
           "seats": [{}, {}], "sheet": "", "undo": True}


def _bot() -> RemoteBot:
    return RemoteBot(parse_link("http://localhost:1/table/0123456789abcdef#seat=0&token=t"),
                     say=lambda line: None)


def _welcome(**ruleset: Any) -> dict[str, Any]:
    return {**WELCOME, "ruleset": {**WELCOME["ruleset"], **ruleset}}  # type: ignore[dict-item]


# -- every field the bot reads, broken: the field named, never a KeyError or TypeError -------

BROKEN_FIELDS: dict[str, tuple[list[dict[str, Any]], str]] = {
    "welcome": ([{"type": "welcome", "seats": []}], "welcome.ruleset: missing"),
    "welcome.ruleset": ([{**WELCOME, "ruleset": "blackwood-frey"}],
                        "welcome.ruleset: expected an object"),
    "welcome.ruleset.name": ([_welcome(name=["x"])], "welcome.ruleset.name: expected a string"),
    "welcome.ruleset.house_rules": ([_welcome(house_rules=["x"] * 100)],
                                    "welcome.ruleset.house_rules: expected a list of at most 16"),
    "welcome.ruleset.params": ([_welcome(params={f"p{i}": 1 for i in range(40)})],
                               "welcome.ruleset.params: 40 parameters"),
    "welcome.ruleset.data_rules": ([_welcome(data_rules=[])],
                                   "welcome.ruleset.data_rules: expected an object"),
    "welcome.seats": ([{**WELCOME, "seats": []}], "welcome.seats: expected a list of 1 to 12"),
    "state": ([WELCOME, {"type": "state"}], "state.number: missing"),
    "state.number": ([WELCOME, {"type": "state", "number": -1, "view": {}, "legal": []}],
                     "state.number: expected a whole number"),
    "state.legal": ([WELCOME, {"type": "state", "number": 0, "view": {}, "legal": {}}],
                    "state.legal: expected a list"),
    "state.view": ([WELCOME, {"type": "state", "number": 0, "view": [], "legal": []}],
                   "state.view: expected a spitemalice-view object"),
}
"""Per field path the bot reads (as ``remote.py`` names it): messages that break it, and
the words of the refusal."""


def test_every_field_the_remote_bot_reads_has_a_broken_row() -> None:
    """Discovery: every field path ``remote.py`` names in a read (``"welcome.seats"``,
    ``"state.view"``...) has a row above; a new field read needs one."""
    source = Path(remote.__file__).read_text(encoding="utf-8")
    read = set(re.findall(r'"((?:welcome|state)(?:\.[a-z_]+)*)"', source))
    assert read == set(BROKEN_FIELDS)


@pytest.mark.parametrize("field", sorted(BROKEN_FIELDS))
def test_a_broken_field_of_a_server_message_is_named(field: str) -> None:
    messages, words = BROKEN_FIELDS[field]
    bot = _bot()
    with pytest.raises(sm.SpiteMaliceError) as refused:
        for message in messages:
            bot.receive(json.dumps(message))
    assert words in str(refused.value)


# -- every kind of message a server sends: read or let be, never a crash -------------------

KINDS = {"catalog": "let be", "created": "let be", "welcome": "read", "seats": "let be",
         "state": "read", "refused": "stops", "error": "stops", "hint": "let be",
         "record": "let be", "public": "let be", "watching": "let be", "tables": "let be",
         "claimed": "let be", "spit": "let be", "watchers": "let be", "moved": "read",
         "queued": "let be", "matched": "let be", "unqueued": "let be",
         "reaction": "let be", "takeover": "let be"}
"""What the bot does with each kind of message the protocol's schema says a server sends."""


def test_every_kind_a_server_sends_has_a_row() -> None:
    """Discovery: the schema's ``to-client`` kinds are the rows of :data:`KINDS`."""
    defs = schema("message")["$defs"]
    kinds = {ref["$ref"].rsplit("to-client-", 1)[1] for ref in defs["to-client"]["oneOf"]}
    assert kinds == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_with_any_body_is_read_or_let_be(kind: str) -> None:
    """A kind with hostile fields: read (and refused by name), let be, or the bot stops
    with the server's words escaped."""
    bot = _bot()
    bot.receive(json.dumps(WELCOME))
    hostile = {"type": kind, "message": "\x1b[2Jgone", "seats": 7, "move": None}
    try:
        assert bot.receive(json.dumps(hostile)) is None
    except sm.SpiteMaliceError as error:
        assert KINDS[kind] == "read" and "does not fit the protocol" in str(error)
    if KINDS[kind] == "stops":
        assert bot.problems == 1 and bot.said == f'the server said {kind}: \\x1b[2Jgone'
    else:
        assert bot.problems == 0


# -- what a message's text may be ----------------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    ("[" * 100_000 + "]" * 100_000, "nested 100,000 deep; at most 32"),
    ('{"type": "welcome", "type": "state"}', 'the key "type" appears more than once'),
    ("[1, 2]", "not a JSON object but a list"),
    ('{"type": ["welcome"]}', "whose type is a list"),
    ('{"seat": 0}', "whose type is missing"),
    ("{\"type\": \"x\", \"n\": " + "9" * 5000 + "}", "5000 digits"),
    (b"\xff\xfe", "not JSON"),
    ("{\"type\": \"welcome\"", "not JSON"),
    ("x" * (remote.MAX_SERVER_MESSAGE_BYTES + 1), "at most 16,777,216 are read"),
])
def test_a_message_text_is_read_as_strictly_as_a_clients(text: str | bytes, words: str) -> None:
    with pytest.raises(sm.SpiteMaliceError) as refused:
        read_server_message(text)
    assert words in str(refused.value)


# -- class 4: a rule set named by the server is an installed one, never a file ----------------


@pytest.mark.parametrize("name", ["/etc/passwd", "x.toml", "../variants/g4a.TOML",
                                  "examples\\quick.toml"])
def test_a_welcome_naming_a_file_is_refused_and_no_file_is_opened(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("spitemalice.rules.custom.read",
                        lambda *args, **kw: opened.append(str(args[0])))
    with pytest.raises(sm.RulesetError) as refused:
        _bot().receive(json.dumps(_welcome(name=name)))
    if "\\" in name and "/" not in name and not name.lower().endswith(".toml"):
        pytest.skip("a backslash is a path separator on Windows only")  # pragma: no cover
    assert "welcome.ruleset.name" in str(refused.value)
    assert "is a file path; a server's welcome names an installed rule set" in str(refused.value)
    assert opened == []


# -- the whole command against hostile servers: one escaped line, exit 2 ---------------------


def _one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err and "\x1b" not in captured.err
    assert captured.out == ""
    return lines[0]


@pytest.mark.parametrize(("answer", "words"), [
    (b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n",
     "refused the connection with HTTP status 403 (Forbidden)"),
    (b"HTTP/1.1 599 Odd\r\nContent-Length: 0\r\n\r\n",
     "HTTP status 599 (not a status HTTP defines)"),
    (b"HTTP/1.1 200 \x1b[2JOK\r\nContent-Length: 0\r\n\r\n",
     "does not speak the WebSocket protocol"),
    (b"HTTP/1.1 9999 Weird\r\n\r\n", "does not speak the WebSocket protocol"),
    (b"\x1b[2J garbage\r\n\r\n", "does not speak the WebSocket protocol"),
    (b"", "does not speak the WebSocket protocol"),
])
def test_a_server_that_does_not_upgrade_is_one_line(
        capsys: pytest.CaptureFixture[str], answer: bytes, words: str) -> None:
    with raw_http(answer) as link:
        line = _one_line(capsys, ["bot", "--connect", link])
    assert words in line and line.startswith("spitemalice: error: --connect: ")


@pytest.mark.parametrize(("messages", "close", "words"), [
    ([json.dumps({k: v for k, v in WELCOME.items() if k != "ruleset"})], (1000, ""),
     "welcome.ruleset: missing"),
    (["[" * 100_000 + "]" * 100_000], (1000, ""), "nested 100,000 deep"),
    ([json.dumps(_welcome(name="/etc/passwd"))], (1000, ""), "is a file path"),
    ([], (1000, "\x1b[2Jbye"), 'reason "\\x1b[2Jbye"'),
    ([], (4000, "\x1b[2Jbye\u202e"), 'code 4000, reason "\\x1b[2Jbye\\u202e"'),
    ([json.dumps(WELCOME)], None, "without a closing handshake"),
    ([json.dumps({"type": "error", "error": "x", "message": "\x1b]0;pwned\x07"})], (1000, ""),
     "the server said error: \\x1b]0;pwned\\x07"),
    ([json.dumps({"type": "refused", "message": ["not", "text"]})], (1000, ""),
     "its message is a list"),
])
def test_a_hostile_websocket_server_is_one_escaped_line(
        capsys: pytest.CaptureFixture[str], messages: list[str], close: tuple[int, str] | None,
        words: str) -> None:
    with scripted(messages, close) as link:
        line = _one_line(capsys, ["bot", "--connect", link])
    assert words in line, line


def test_a_message_over_the_bots_size_bound_closes_the_connection_by_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    with scripted(["x" * (remote.MAX_SERVER_MESSAGE_BYTES + 1)]) as link:
        line = _one_line(capsys, ["bot", "--connect", link])
    assert "the connection broke" in line and "1009" in line


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:99999/table/x#seat=0&token=t", "http://:80/table/x#seat=0&token=t",
    "http://127.0.0.1:1/table/x#seat=0&token=\x1b[2J",
])
def test_a_link_the_bot_cannot_use_is_refused_before_it_connects(
        capsys: pytest.CaptureFixture[str], url: str) -> None:
    line = _one_line(capsys, ["bot", "--connect", url])
    assert "expected a seat's link" in line
