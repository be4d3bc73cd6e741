"""Every reader of JSON from outside refuses an object that names a key twice, naming the key
and the object's path (formats/strict_json.py), and takes a leading UTF-8 byte-order mark;
the TOML reader of custom rule sets does both as well.

The readers (the class, found by grepping ``json.loads`` in spitemalice/): records, states
and views (formats/json_input.parse_json), the server's table files (server/store.py), protocol
messages (server/protocol.read_message), the server's messages as the remote bot reads them
(server/remote.read_server_message) and the atlas's data file (study/atlas.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.errors import DataError, ProtocolError, RulesetError, SpiteMaliceError
from spitemalice.formats import dumps_state, dumps_view, load_record, loads_state, loads_view
from spitemalice.formats.records import dumps_record, record_result
from spitemalice.formats.strict_json import DuplicateKey, loads
from spitemalice.rules.custom import read as load_custom
from spitemalice.runs.loop import play_game
from spitemalice.server import store
from spitemalice.server.protocol import read_message
from spitemalice.server.remote import read_server_message
from spitemalice.study import atlas

BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, seed=1)
TABLE = json.dumps({"format": "spitemalice-table", "version": 1, "table": "0123456789abcdef",
                    "game": 1, "seats": [{"name": "ann", "player": "human",
                                          "token_sha256": None}]})


def _record_text() -> str:
    result = play_game(BF, [GreedyPlayer(1), GreedyPlayer(2)], seed=3)
    return dumps_record(record_result(BF, result, ["greedy", "greedy"]), indent=None)


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


READERS: dict[str, tuple[Callable[[Path, str], Any], Callable[[], str], str, type]] = {
    # name: (read the text, a valid text, where the first nested object is, error raised)
    "record file": (lambda tmp, text: load_record(_file(tmp, "r.json", text)), _record_text,
                    "record.ruleset", DataError),
    "state": (lambda tmp, text: loads_state(text, BF), lambda: dumps_state(STATE),
              "state.seats[0]", DataError),
    "view": (lambda tmp, text: loads_view(text, BF),
             lambda: dumps_view(sm.view_of(STATE, 0)), "view.seats[0]", DataError),
    "table file": (lambda tmp, text: store.read_entry(_file(tmp, "0123456789abcdef.table.json",
                                                             text)),
                   lambda: TABLE, "table.seats[0]", DataError),
    "protocol message": (lambda tmp, text: read_message(text),
                         lambda: json.dumps({"type": "create", "ruleset": "blackwood-frey",
                                             "seats": [{"name": "a", "player": "human"},
                                                       {"name": "b", "player": "greedy"}]}),
                         "message.seats[0]", ProtocolError),
    "server message (remote bot)": (lambda tmp, text: read_server_message(text),
                                    lambda: json.dumps({"type": "seats", "seats": [
                                        {"name": "a", "player": "human"}]}),
                                    "a message.seats[0]", SpiteMaliceError),
    "atlas data file": (lambda tmp, text: atlas._read_data(_file(tmp, "atlas.json", text)),
                        lambda: json.dumps({"settings": {"games": 1}, "reports": {}}),
                        "atlas.json.settings", ValueError),
}


def _twice_at_top(text: str) -> tuple[str, str]:
    """The text with its first key given twice in the top object, and that key."""
    key = next(iter(json.loads(text)))
    return text.replace("{", f"{{{json.dumps(key)}: 0, ", 1), key


def _twice_nested(text: str) -> tuple[str, str]:
    """The text with the first key of its second object given twice, and that key."""
    second = text.index("{", 1)
    end = text.index(":", second)
    name = json.loads(text[second + 1:end])
    return text[:second + 1] + f"{json.dumps(name)}: 0, " + text[second + 1:], name


@pytest.mark.parametrize("name", READERS)
def test_every_json_reader_reads_its_valid_text(name: str, tmp_path: Path) -> None:
    read, text, _, _ = READERS[name]
    read(tmp_path, text())  # no error: the valid text is what the refusals below change


@pytest.mark.parametrize("name", READERS)
@pytest.mark.parametrize("place", ["top", "nested"])
def test_every_json_reader_refuses_a_key_given_twice_naming_key_and_object(
        name: str, place: str, tmp_path: Path) -> None:
    read, valid, nested_path, error = READERS[name]
    text, key = (_twice_at_top if place == "top" else _twice_nested)(valid())
    with pytest.raises(error) as caught:
        read(tmp_path, text)
    message = str(caught.value)
    assert f'the key "{key}" appears more than once in one object' in message
    if place == "nested":
        assert f"{nested_path}: the key" in message


@pytest.mark.parametrize("name", READERS)
def test_every_json_reader_takes_a_byte_order_mark(name: str, tmp_path: Path) -> None:
    read, text, _, _ = READERS[name]
    read(tmp_path, "\ufeff" + text())  # a file saved by Notepad (RFC 8259 section 8.1)


def test_a_record_with_a_byte_order_mark_reads_as_the_same_record(tmp_path: Path) -> None:
    text = _record_text()
    plain = load_record(_file(tmp_path, "a.json", text))
    assert load_record(_file(tmp_path, "b.json", "\ufeff" + text)) == plain


def test_a_key_twice_is_found_in_a_list_deep_in_the_document() -> None:
    with pytest.raises(DuplicateKey) as caught:
        loads('{"a": [1, {"b": {"c": 1, "my key": 2, "my key": 3}}]}')
    assert caught.value.key == "my key" and caught.value.steps == ("a", 1, "b")
    assert caught.value.at("doc").startswith('doc.a[1].b: the key "my key"')


def test_toml_refuses_a_key_twice_and_takes_a_byte_order_mark(tmp_path: Path) -> None:
    head = 'name = "x"\ntitle = "X"\nversion = "1"\nbase = "blackwood-frey"\n'
    twice = _file(tmp_path, "twice.toml", head + 'base = "skip-bo"\n')
    with pytest.raises(RulesetError, match="not valid TOML: Cannot overwrite a value"):
        load_custom(twice)
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + head.encode())
    assert load_custom(bom).base == "blackwood-frey"


def test_keys_from_the_document_are_cut_and_escaped_in_the_message() -> None:
    # Every key in the message is outside text: a huge or hostile key must not reach a
    # terminal whole or raw (the class of every printer of outside text).
    long_name = "k" * 5000
    hostile = "\x1b]0;PWNED\x07" + "x" * 5000
    text = f'{{"{long_name}": {{"{hostile}": {{"{hostile}": 1, "{hostile}": 2}}}}}}'
    with pytest.raises(DuplicateKey) as caught:
        loads(text.replace("\x1b", "\\u001b").replace("\x07", "\\u0007"))
    message = caught.value.at("doc")
    assert len(message) < 300
    assert "\x1b" not in message and "\x07" not in message
    assert message.startswith("doc.kkk") and "\\x1b]0;PWNED\\x07" in message
