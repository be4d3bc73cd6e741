"""The library's own error messages quote outside text escaped where they are built (issue 38,
class 10; round 3's R1): an embedder that logs ``str(error)`` must not write a file's control
characters to its terminal.

Discovery: every reader of untrusted input is a fuzz target (``tests/helpers/fuzz_targets.py``,
which the suite's contract tests hold to the readers), and every target has a row of
:data:`POISONED` here.  A row takes a valid input and puts a poison string (an escape that
clears a screen, a right-to-left override, a bell) at *every* place of it, one place at a
time: every key and every string of a JSON document (and every value there), every key and
value of a TOML file, every token of a position.  Each error that comes out must be the
library's own and hold no character a terminal acts on.  The fuzz targets check the same of
every error they meet (:func:`helpers.fuzz_targets.outcome`).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.fuzz_targets import TARGETS, games
from helpers.fuzz_targets import book as rules_of

import spitemalice as sm
from spitemalice.engine.views import view_of
from spitemalice.formats import (
    check_record,
    dumps_record,
    dumps_state,
    dumps_view,
    format_position,
    format_view,
    loads_record,
    loads_state,
    loads_view,
    parse_position,
    parse_view,
)
from spitemalice.wording import for_terminal

POISON = "\x1b[2J\u202e\x07"


def _places(data: Any) -> Iterator[Any]:
    """Copies of JSON ``data`` with the poison at one place each: every key renamed (and one
    added per object), every string with the poison in front, every other leaf replaced."""
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node[:6]):
                walk(value, (*path, index))

    walk(data, ())
    for path in paths:
        copied = copy.deepcopy(data)
        holder, node = None, copied
        for step in path:
            holder, node = node, node[step]
        if isinstance(node, dict):
            node[POISON] = 1
            yield copy.deepcopy(copied)
            del node[POISON]
        if holder is not None:
            key = path[-1]
            holder[key] = POISON + node if isinstance(node, str) else POISON
            yield copy.deepcopy(copied)
            if isinstance(holder, dict):
                value = holder.pop(key)
                holder[f"{key}{POISON}"] = value
                yield copied


def _escaped(reader: Callable[[Any], object], inputs: Iterator[Any]) -> int:
    """Feed every input; return how many were refused, each by the library's own error with
    an escaped message."""
    refused = 0
    for given in inputs:
        try:
            reader(given)
        except sm.SpiteMaliceError as error:
            refused += 1
            text = str(error)
            assert for_terminal(text, lines=True) == text, (text[:300], repr(given)[:300])
    return refused


def _game() -> tuple[str, tuple[sm.GameState, ...], Any]:
    return games()[0]


def _json_rows() -> dict[str, tuple[Callable[[Any], object], Callable[[], Any]]]:
    name, states, record = _game()
    rules = rules_of(name)
    state = states[len(states) // 2]
    return {
        "loads_state": (lambda d: loads_state(json.dumps(d), rules),
                        lambda: json.loads(dumps_state(state))),
        "loads_view": (lambda d: loads_view(json.dumps(d), rules),
                       lambda: json.loads(dumps_view(view_of(state, 1)))),
        "loads_record+check": (lambda d: check_record(loads_record(json.dumps(d))),
                               lambda: json.loads(dumps_record(record))),
    }


def _text_places(text: str) -> Iterator[str]:
    """``text`` with the poison at each boundary between tokens (spaces, commas, bars...)."""
    cuts = [0, *(i for i, char in enumerate(text) if char in " ,|:/=-"), len(text)]
    for cut in cuts:
        yield text[:cut] + POISON + text[cut:]
        yield text[:cut] + POISON


def _protocol_message(data: Any) -> object:
    pytest.importorskip("starlette")
    from spitemalice.server.protocol import read_message

    return read_message(json.dumps(data))


def _remote_bot(data: list[Any]) -> object:
    pytest.importorskip("websockets")
    from spitemalice.server.remote import RemoteBot, parse_link

    bot = RemoteBot(parse_link("http://127.0.0.1:1/table/0123456789abcdef#seat=0&token=t"),
                    say=lambda line: None)
    return [bot.receive(json.dumps(message)) for message in data]


def _welcome_and_state() -> list[Any]:
    from helpers.fuzz_remote import _messages

    _, texts = _messages(random.Random(3))
    return [json.loads(text) for text in texts[:2]]


def _toml_places(text: str) -> Iterator[str]:
    """A TOML file with the poison (as a TOML escape) in each string, and as each key."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if "=" in line and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            for changed in (f'"{key.strip()}\\u001b[2J" ={value}',
                            f'{key}= "\\u001b[2J\\u202e{value.strip().strip(chr(34))}"'):
                yield "\n".join([*lines[:number], changed, *lines[number + 1:]])


def _load_text(tmp: Path) -> Callable[[str], object]:
    def load(text: str) -> object:
        path = tmp / "poisoned.toml"
        path.write_text(text, encoding="utf-8")
        return sm.load(path)

    return load


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

POISONED: dict[str, str] = {
    "parse_card": "text", "parse_move": "text", "parse_position": "text",
    "parse_view": "text", "loads_state": "json", "loads_view": "json",
    "loads_record+check": "json", "custom TOML file": "toml", "data house rules": "toml",
    "parameters": "params", "command line": "the fuzz target's outcome() (its errors are "
    "the readers' above, printed by the command line's own escaping too)",
    "env arguments": "python values: the fuzz target's outcome()",
    "env reset": "python values: the fuzz target's outcome()",
    "env step/observe": "python values: the fuzz target's outcome()",
    "openspiel parameters": "params", "remote bot": "json",
    "protocol message": "json",
}
"""Per reader (the fuzz targets, and the server's protocol reader): how its places are
poisoned here."""


def test_every_reader_has_a_poisoned_row() -> None:
    assert {target.name for target in TARGETS} | {"protocol message"} == set(POISONED)


@pytest.mark.parametrize("name", ["loads_state", "loads_view", "loads_record+check"])
def test_a_json_document_poisoned_at_every_place_is_refused_escaped(name: str) -> None:
    reader, valid = _json_rows()[name]
    assert _escaped(reader, _places(valid())) > 20


def test_a_protocol_message_poisoned_at_every_place_is_refused_escaped() -> None:
    create = {"type": "create", "ruleset": "blackwood-frey", "house_rules": ["mandatory-aces"],
              "params": {"payoff_size": 5},
              "seats": [{"name": "a", "player": "human"}, {"name": "b", "player": "greedy"}]}
    refused = sum(_escaped(_protocol_message, _places(message)) for message in (
        create, {"type": "join", "table": "0123456789abcdef", "seat": 0, "token": "t"},
        {"type": "move", "move": "9H>B1", "number": 3, "seat": 0}))
    assert refused > 20


def test_a_servers_messages_poisoned_at_every_place_are_refused_escaped() -> None:
    assert _escaped(_remote_bot, _places(_welcome_and_state())) > 20


def test_positions_and_moves_poisoned_at_every_boundary_are_refused_escaped() -> None:
    name, states, _ = _game()
    rules = rules_of(name)
    state = states[len(states) // 2]
    moves = [str(move) for move in sm.legal_moves(rules, state)[:5]] + ["P", "pass"]
    refused = _escaped(lambda text: parse_position(text, rules),
                       _text_places(format_position(state)))
    refused += _escaped(lambda text: parse_view(text, rules),
                        _text_places(format_view(view_of(state, 0))))
    refused += _escaped(sm.parse_move, (text for move in moves for text in _text_places(move)))
    refused += _escaped(sm.parse_card, _text_places("10H"))
    assert refused > 50


def test_rule_set_files_poisoned_at_every_key_and_value_are_refused_escaped(
        tmp_path: Path) -> None:
    files = [*sorted(EXAMPLES.glob("*.toml")), *sorted((EXAMPLES / "house-rules")
                                                            .glob("*.toml"))]
    refused = sum(_escaped(_load_text(tmp_path), _toml_places(path.read_text("utf-8")))
                  for path in files)
    assert refused > 20


def test_parameters_poisoned_are_refused_escaped() -> None:
    from spitemalice.rules.ruleset import FIELD_NAMES

    def load(pair: tuple[str, str]) -> object:
        return sm.load("blackwood-frey", params={pair[0]: pair[1]})

    pairs = [(POISON + key, "3") for key in FIELD_NAMES] + [(key, POISON) for key in
                                                          FIELD_NAMES]
    assert _escaped(load, iter(pairs)) == len(pairs)
