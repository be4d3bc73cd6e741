"""A value read from a TOML or JSON document is shown in an error as the document writes it
(tryout 12): ``true``, not Python's ``True``; ``2020-01-01``, not ``datetime.date(2020, 1,
1)``; a string in double quotes; with the field's path where the reader knows it.

The class, found by grepping ``def shown``, ``def _shown``, ``!r}`` and ``repr(`` in
spitemalice/: the shared :func:`spitemalice.wording.shown` (now the one helper: the copies in
rules/ruleset.py and rules/custom.py are gone) and the ``!r`` of a document's value in
rules/custom.py (keys, base), rules/ruleset.py (parameter names, the "did you mean" hint),
rules/registry.py (rule-set and house-rule names), formats/json_input.py (format, version),
formats/replay.py (a path as rule-set name), formats/serialize.py (outcome kind),
server/store.py (table id), server/tables.py (table id), server/lobby.py (names, the
person's player).  Each has a row below.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import pytest

import spitemalice as sm
import spitemalice.env  # registers the Gymnasium ids
from spitemalice.errors import DataError, ProtocolError, RulesetError
from spitemalice.formats import loads_record, loads_state
from spitemalice.rules.custom import read as read_custom
from spitemalice.rules.ruleset import FIELD_NAMES
from spitemalice.server import store
from spitemalice.server.lobby import table_rules
from spitemalice.server.protocol import read_message
from spitemalice.server.tables import Hub
from spitemalice.wording import rank_names, shown, together

PYTHON_WORDS = ("True", "False", "None", "datetime", "'")


@pytest.mark.parametrize(("value", "written"), [
    (True, "true"), (False, "false"), (None, "null"), ("abc", '"abc"'), ("it's", '"it\'s"'),
    (datetime.date(2020, 1, 1), "2020-01-01"),
    (datetime.datetime(1979, 5, 27, 7, 32), "1979-05-27T07:32:00"),
    (datetime.time(7, 32), "07:32:00"), (5.5, "5.5"), (float("inf"), "inf"),
    ([1, "a", True], '[1, "a", true]'), ({"a": [1, None]}, '{"a": [1, null]}'),
    ("\x1b[2J", '"\\x1b[2J"'), ("\u202e", '"\\u202e"'),
])
def test_shown_writes_a_value_as_toml_and_json_do(value: Any, written: str) -> None:
    assert shown(value) == written


def test_a_long_string_is_cut_inside_its_quotes_and_marked() -> None:
    text = shown("x" * 100)
    assert text.startswith('"xxx') and text.endswith('..."') and len(text) <= 60


def _toml(tmp_path: Path, params: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text('title = "T"\nversion = "1"\nbase = "blackwood-frey"\n[params]\n' + params,
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("line", "words"), [
    ("payoff_size = 2020-01-01", "not 2020-01-01"),
    ("payoff_size = 1979-05-27T07:32:00Z", "not 1979-05-27T07:32:00+00:00"),
    ("payoff_size = true", "not true"),
    ("payoff_size = 5.5", "not 5.5"),
    ('payoff_size = "abc"', 'not "abc"'),
    ("payoff_size = [1]", "not [1]"),
    ("packs_per_seat = 3", "true or false, not 3"),
    ('wild_ranks = [true]', "true is not a rank"),
    ('hand_size = "five"', 'not "five"'),
    ('payof_size = 5', 'unknown parameter "payof_size" (did you mean "payoff_size"?)'),
])
def test_a_toml_value_is_shown_as_toml_writes_it(tmp_path: Path, line: str, words: str) -> None:
    with pytest.raises(RulesetError) as caught:
        sm.load(str(_toml(tmp_path, line + "\n")), allow_files=True)
    message = str(caught.value)
    assert words in message and "params" in message, message
    assert not any(word in message.split(": ", 1)[1] for word in PYTHON_WORDS), message


def test_toml_keys_and_base_are_shown_in_double_quotes(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('title = "T"\nversion = "1"\nbase = "blackwood-frey"\nbsae = 1\n')
    with pytest.raises(RulesetError, match='unknown key "bsae"'):
        read_custom(path)
    path.write_text('title = "T"\nbase = "blackwood-frey"\n')
    with pytest.raises(RulesetError, match='missing key "version"'):
        read_custom(path)
    path.write_text('title = "T"\nversion = "1"\nbase = "other.toml"\n')
    with pytest.raises(RulesetError, match=re.escape('base: "other.toml" is a file')):
        read_custom(path)


BF = sm.load("blackwood-frey")


def _record(edit: Callable[[dict[str, Any]], None]) -> str:
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.formats.records import dumps_record, record_result
    from spitemalice.runs.loop import play_game

    result = play_game(BF, [GreedyPlayer(1), GreedyPlayer(2)], seed=3)
    data = json.loads(dumps_record(record_result(BF, result, ["greedy", "greedy"])))
    edit(data)
    return json.dumps(data)


def _replayed(text: str) -> None:
    from spitemalice.formats.replay import replay

    list(replay(loads_record(text)))


@pytest.mark.parametrize(("read", "words"), [
    (lambda: loads_record(_record(lambda d: d.update(format=True))),
     'record.format: expected "spitemalice-record", found true'),
    (lambda: loads_record(_record(lambda d: d.update(version="one"))),
     'record.version: "one" is not a known'),
    (lambda: _replayed(_record(lambda d: d["ruleset"].update(name="/etc/passwd"))),
     'record.ruleset.name: "/etc/passwd" is a file path'),
    (lambda: _replayed(_record(lambda d: d["ruleset"].update(name="blackwood-fray"))),
     'unknown rule set "blackwood-fray" (did you mean "blackwood-frey"?)'),
    (lambda: _replayed(_record(lambda d: d["ruleset"].update(house_rules=["mandatory-ace"]))),
     'unknown house rule "mandatory-ace"'),
    (lambda: _replayed(_record(lambda d: d["ruleset"]["params"].update(payoff_size=True))),
     "not true"),
    (lambda: loads_state(json.dumps({**json.loads(sm.formats.dumps_state(sm.deal(BF, 1))),
                                     "outcome": {"kind": "won!", "winner": 0,
                                                 "scores": [1, 0]}}), BF),
     'state.outcome.kind: expected one of win, drawn, blocked, turn-limit, not "won!"'),
])
def test_a_json_value_is_shown_as_json_writes_it(read: Callable[[], Any], words: str) -> None:
    with pytest.raises((DataError, RulesetError)) as caught:
        read()
    message = str(caught.value)
    assert words in message, message
    assert "True" not in message and "'" not in message, message


def test_a_table_file_with_another_id_shows_it_quoted(tmp_path: Path) -> None:
    path = tmp_path / "0123456789abcdef.table.json"
    path.write_text(json.dumps({"format": "spitemalice-table", "version": 1,
                                "table": "it's", "game": 1, "seats": []}))
    with pytest.raises(DataError, match=re.escape('table.table: "it\'s" is not this file')):
        store.read_entry(path)


def _create(**fields: Any) -> Any:
    message = {"type": "create", "ruleset": "blackwood-frey",
               "seats": [{"name": "a", "player": "human"}, {"name": "b", "player": "greedy"}],
               **fields}
    return table_rules(read_message(json.dumps(message)))


@pytest.mark.parametrize(("fields", "words"), [
    ({"params": {"payoff_size": True}},
     'create.params.payoff_size: payoff_size is a whole number or "equal", not true: true '
     'and false are not numbers'),
    ({"params": {"packs_per_seat": "maybe"}},
     'create.params.packs_per_seat: packs_per_seat is true or false, not "maybe"'),
    ({"ruleset": "nope"}, 'create.ruleset: "nope" is not an installed rule set'),
    ({"house_rules": ["nope"]}, 'create.house_rules[0]: "nope" is not an installed house rule'),
])
def test_a_protocol_value_is_shown_as_json_writes_it_with_its_path(fields: dict[str, Any],
                                                                    words: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        _create(**fields)
    assert words in str(caught.value), str(caught.value)


def test_an_unknown_table_is_shown_quoted(tmp_path: Path) -> None:
    tables = Hub(store.Store(tmp_path))
    with pytest.raises(ProtocolError, match='no table "nope\\\'s" on this server'):
        tables._table("nope's")


@pytest.mark.parametrize("players", ["2", 10**90, 1.5])
def test_gymnasium_players_names_the_rule_sets_seat_counts(players: Any) -> None:
    with pytest.raises(RulesetError) as caught:
        gymnasium.make("spitemalice/BlackwoodFrey-v0", players=players)
    message = str(caught.value)
    assert "from 2 to 4 for this rule set" in message and "10**80" not in message, message


TOML_VALUES = ["true", "false", "2020-01-01", "12:30:00", "2020-01-01T10:00:00", "[true]",
               "{a = 2020-01-01}", "[2020-01-01]"]
PYTHON_WORDING = re.compile(r"True|False|None|datetime|\{'|\['")
RULE_KEYS = ("clause", "text", "source", "forbid", "when", "require", "reason", "message",
             "reasons", "expects", "events", "refuse_when", "refusal")


def _toml_files() -> list[str]:
    """A rule-set file with a value of every TOML type at every place a value goes: each
    parameter (under [params] and, wrongly, at the top), each top-level key, each key of a
    [[rule]] table and of its [rule.values]."""
    head = 'title = "t"\nversion = "1"\nbase = "blackwood-frey"\n'
    rule = {"clause": '"X-1"', "text": '"t"', "source": '"s"', "forbid": '"discard"',
            "when": '"move.rank == 5"'}
    texts = []
    for value in TOML_VALUES:
        texts += [f"{head}[params]\n{key} = {value}\n" for key in sorted(FIELD_NAMES)]
        texts += [f"{head}{key} = {value}\n" for key in sorted(FIELD_NAMES)]
        texts += [head.replace('"t"', value, 1), head.replace('"1"', value),
                  head.replace('"blackwood-frey"', value), f"{head}house_rules = {value}\n",
                  f"{head}house_rules = [{value}]\n", f"{head}name = {value}\n"]
        for key in RULE_KEYS:
            body = "\n".join(f"{k} = {v}" for k, v in {**rule, key: value}.items())
            texts.append(f"{head}[[rule]]\n{body}\n")
        body = "\n".join(f"{k} = {v}" for k, v in rule.items())
        texts.append(f"{head}[[rule]]\n{body}\n[rule.values]\npayoff_size = {value}\n")
    return texts


def test_no_message_about_a_toml_value_uses_pythons_words(tmp_path: Path) -> None:
    """Issue 38, left from the last try-out: the class held everywhere, not at a few points:
    a value of every TOML type at every place of a rule-set file."""
    path = tmp_path / "every.toml"
    refused = 0
    for text in _toml_files():
        path.write_text(text, encoding="utf-8")
        try:
            sm.load(path)
        except sm.SpiteMaliceError as error:
            refused += 1
            assert not PYTHON_WORDING.search(str(error)), (text, str(error))
    assert refused > 300


def test_ranks_are_named_as_the_docs_write_them_sorted() -> None:
    # the one helper of every message that names ranks (load's refusals, validate's checks)
    assert rank_names(frozenset({13, 0, 10, 1, 12, 11})) == "joker, A, 10, J, Q, K"
    assert rank_names([14, 2]) == "2, 14" and rank_names(()) == "none"
    for wrong in ("1,13", 13, [1, "K"], [True]):
        with pytest.raises(TypeError, match="rank_names takes ranks as whole numbers, not "):
            rank_names(wrong)


def test_refusals_together_are_numbered_on_one_line() -> None:
    assert together(["packs = 99: too many"]) == "packs = 99: too many"
    assert together(["a; b", "c"]) == "2 problems: (1) a; b; (2) c"
    with pytest.raises(TypeError, match="together takes a list of messages"):
        together("a")  # type: ignore[arg-type]
