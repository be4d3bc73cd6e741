"""The JSON Schemas: every document the library writes validates against its schema, and a
schema refuses documents the library would refuse (so the tests could fail)."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from helpers.walks import CONFIGS, book, config_id, states_of
from jsonschema import Draft202012Validator

import spitemalice as sm
from spitemalice.cards import parse_card
from spitemalice.cli import main
from spitemalice.engine.views import view_of
from spitemalice.formats import dumps_record, record_game, state_to_dict, view_to_dict
from spitemalice.formats.schema import SCHEMA_NAMES, schema, schema_text
from spitemalice.rules import datarules
from spitemalice.rules.custom import KEYS, PARAMS

ROOT = Path(__file__).parents[2]
RECORDS = sorted((ROOT / "seeds" / "records").glob("*.json"))
TOML_FILES = sorted([*(ROOT / "examples").glob("*.toml"),
                     *(ROOT / "examples" / "house-rules").glob("*.toml"),
                     *(ROOT / "examples" / "scoring").glob("*.toml")])


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name), format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(name: str, document: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator(name).iter_errors(document)]


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_an_unknown_schema_name_is_refused_with_the_names() -> None:
    with pytest.raises(sm.SpiteMaliceError, match="record, state, view, ruleset"):
        schema("game")


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_committed_record_validates(path: Path) -> None:
    assert RECORDS
    assert errors("record", json.loads(path.read_text(encoding="utf-8"))) == []


# A handful of seeded games per configuration: every rule set at every seat count, each
# house rule it takes, and a short game that reaches an outcome.  Games of short
# configurations are played to their end; long ones are cut after 120 moves.
SAMPLED = [c for c in CONFIGS if dict(c[2]).get("payoff_size") == 4 or c[1] or c[2]]


def _states(config: Any, seed: int) -> list[sm.GameState]:
    rules = book(config)
    short = dict(config[2]).get("payoff_size") == 4
    return states_of(rules, seed, [seed * 7 + i for i in range(120)], finish=short)


def _documents(config: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every 4th state of one seeded game, its views from every seat, and its record."""
    rules = book(config)
    states = _states(config, 3)
    documents = []
    for state in states[::4] + states[-1:]:
        documents.append(("state", state_to_dict(state)))
        documents += [("view", view_to_dict(view_of(state, seat)))
                      for seat in range(rules.players)]
    moves = [sm.legal_moves(rules, s)[0] for s in states[:5]]
    documents.append(("record", json.loads(dumps_record(record_game(rules, 3, moves)))))
    return documents


@pytest.mark.parametrize("config", SAMPLED, ids=config_id)
def test_generated_states_views_and_records_validate(config: Any) -> None:
    checks = {name: validator(name) for name in ("state", "view", "record")}
    for name, document in _documents(config):
        assert not list(checks[name].iter_errors(document)), (name, document)


def test_the_generated_documents_are_thousands_with_outcomes_jokers_and_numbers() -> None:
    """The sample above is worth something: it is large and meets ended games and every
    card form."""
    texts: set[str] = set()
    outcomes: set[str] = set()
    count = 0
    for config in SAMPLED:
        documents = _documents(config)
        count += len(documents)
        final = _states(config, 3)[-1]
        if final.outcome is not None:
            outcomes.add(final.outcome.kind)
        texts.update(str(card) for card in final.all_cards())
    assert count >= 2000
    assert "win" in outcomes
    assert "*" in texts and "15" in texts and "10H" in texts and "KS" in texts


BAD_STATES = [
    ("seats", 0, "hand", 0, "1S"),     # no such card text: the ace is A
    ("seats", 0, "hand", 0, "KX"),     # no such suit
    ("seats", 0, "hand", 0, "ks"),     # the library writes upper case
    ("seats", 0, "hand", 0, 13),       # a card is text
    ("turn", -1),
    ("seed", "5"),
    ("version", 2),
    ("format", "spitemalice-view"),
]


@pytest.mark.parametrize("change", BAD_STATES, ids=str)
def test_the_state_schema_refuses_a_broken_state(change: tuple[Any, ...]) -> None:
    rules = sm.load("blackwood-frey")
    document = state_to_dict(sm.deal(rules, 1))
    assert errors("state", document) == []
    *path, key, value = change
    where: Any = document
    for step in path:
        where = where[step]
    where[key] = value
    assert errors("state", document)


def test_missing_and_unknown_fields_are_refused_everywhere() -> None:
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 1)
    documents = {"state": state_to_dict(state), "view": view_to_dict(view_of(state, 0)),
                 "record": json.loads(dumps_record(record_game(rules, 1, [])))}
    for name, document in documents.items():
        assert errors(name, document) == []
        for key in document:
            missing = {k: v for k, v in document.items() if k != key}
            assert errors(name, missing), (name, key)
        assert errors(name, {**document, "extra": 1}), name


def test_a_view_pay_off_pile_names_its_top_exactly_when_it_has_cards() -> None:
    view = view_to_dict(view_of(sm.deal(sm.load("blackwood-frey"), 2), 0))
    broken = copy.deepcopy(view)
    broken["seats"][1]["payoff"][0]["top"] = None
    assert errors("view", broken)
    broken["seats"][1]["payoff"][0]["count"] = 0
    assert errors("view", broken) == []


CARD_TEXTS = ["AS", "10H", "QD", "KC", "2S", "9C", "*", "SB", "7", "15", "1", "100",
              "1S", "11H", "0", "01", "K", "AX", "10", "A S", "", "**", "sb", "as", "KSS"]


@pytest.mark.parametrize("text", CARD_TEXTS)
def test_the_card_pattern_accepts_exactly_the_texts_the_library_writes(text: str) -> None:
    try:
        canonical = str(parse_card(text)) == text
    except sm.NotationError:
        canonical = False
    document = state_to_dict(sm.deal(sm.load("blackwood-frey"), 1))
    document["draw"] = [text]
    assert (errors("state", document) == []) == canonical


MOVE_TEXTS = ["pass", "9H>B2", "9H>B+", "P:9H>B1", "P2:9H>B1", "D3:9H>B1", "S1.D3:9H>B1",
              "9H>D2", "9H+9S>D2", "*>B+", "15>D4"]


@pytest.mark.parametrize("text", MOVE_TEXTS)
def test_the_move_pattern_accepts_every_move_text_form(text: str) -> None:
    assert str(sm.parse_move(text)) == text
    record = json.loads(dumps_record(record_game(sm.load("blackwood-frey"), 1, [text])))
    assert errors("record", record) == []


@pytest.mark.parametrize("text", ["PASS", "9H>B0", "9H>X1", "9H", "P0:9H>B1", "9h>B1"])
def test_the_move_pattern_refuses_what_is_not_a_written_move(text: str) -> None:
    record = json.loads(dumps_record(record_game(sm.load("blackwood-frey"), 1, [])))
    record["moves"] = [text]
    assert errors("record", record)


def test_the_rule_set_schema_names_every_key_and_parameter() -> None:
    ruleset = schema("ruleset")
    assert set(ruleset["properties"]) == set(KEYS)
    assert set(ruleset["properties"]["params"]["properties"]) == set(PARAMS)


def test_the_rule_set_schema_names_every_key_of_a_data_rule() -> None:
    rule = schema("ruleset")["properties"]["rule"]["items"]
    assert set(rule["properties"]) == set(datarules.KEYS)
    # the parameters, and score: the scoring expression (issue 34 §1)
    assert set(rule["properties"]["values"]["properties"]) == {*PARAMS, "score"}


@pytest.mark.parametrize("body", [
    {"clause": "X-1", "text": "t", "source": "s", "forbid": "discard", "reason": "no-go"},
    {"clause": "X-1", "text": "t", "source": "s", "forbid": "pass", "reason": "a",
     "message": "m"},
    {"clause": "X-1", "text": "t", "source": "s", "forbid": "discard", "require": "true",
     "reason": "a", "message": "m"},
    {"clause": "X-1", "text": "t", "source": "s", "wen": "true"},
    {"clause": "X 1", "text": "t", "source": "s"},
    {"clause": "X-1", "text": "t", "source": "s", "values": {"payof_size": "3"}},
    {"clause": "X-1", "text": "t", "source": "s", "values": {"score": 25}},
    {"clause": "X-1", "text": "t", "source": "s", "values": {"score": ""}},
    {"clause": "X-1", "text": "t", "source": "s", "require": "move.wild " * 50,
     "reason": "a", "message": "m"},
], ids=str)
def test_the_rule_set_schema_refuses_a_malformed_data_rule(body: dict[str, Any],
                                                           tmp_path: Path) -> None:
    document = {"title": "t", "version": "1", "base": "g4a", "rule": [body]}
    assert errors("ruleset", document)
    path = tmp_path / "bad.toml"
    lines = ['title = "t"', 'version = "1"', 'base = "g4a"', "[[rule]]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in body.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(sm.RulesetError):
        sm.load(path)


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


@pytest.mark.parametrize("path", TOML_FILES, ids=lambda p: p.name)
def test_the_example_rule_set_files_validate(path: Path) -> None:
    assert TOML_FILES
    assert errors("ruleset", tomllib.loads(path.read_text(encoding="utf-8"))) == []


def test_every_built_in_rule_sets_parameters_validate_as_a_file() -> None:
    """Each installed rule set's resolved values, written as a file's [params]."""
    for info in sm.installed():
        if info.kind != "ruleset":
            continue
        params = {}
        for key, value in sm.load(info.name).parameters().items():
            if isinstance(value, frozenset):
                value = sorted(value)
            params[key] = "unlimited" if value is None else value
        document = {"title": "t", "version": "1", "base": info.name, "params": params}
        assert errors("ruleset", document) == [], info.name


@pytest.mark.parametrize("document", [
    {"title": "t", "version": "1"},
    {"title": "t", "version": "1", "base": "g4a", "parms": {}},
    {"title": "", "version": "1", "base": "g4a"},
    {"title": "t", "version": "1", "base": "g4a", "params": {"hand_sise": 5}},
    {"title": "t", "version": "1", "base": "g4a", "params": {"hand_size": 0}},
    {"title": "t", "version": "1", "base": "g4a", "params": {"exhaustion": "draw"}},
    {"title": "t", "version": "1", "base": "g4a", "params": {"packs_per_seat": "maybe"}},
    {"title": "t", "version": "1", "base": "g4a", "house_rules": "mandatory-aces"},
], ids=str)
def test_the_rule_set_schema_refuses_what_the_reader_refuses(document: dict[str, Any],
                                                              tmp_path: Path) -> None:
    assert errors("ruleset", document)
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(_toml_lines(document)), encoding="utf-8")
    with pytest.raises(sm.RulesetError):
        sm.load(path)


def _toml_lines(document: dict[str, Any]) -> list[str]:
    lines = [f"{k} = {json.dumps(v)}" for k, v in document.items() if not isinstance(v, dict)]
    for key, table in document.items():
        if isinstance(table, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in table.items()]
    return lines


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_the_schema_command_prints_the_shipped_schema(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", name]) == 0
    printed = capsys.readouterr().out
    assert printed == schema_text(name)
    assert json.loads(printed)["$id"].endswith(f"/{name}.schema.json")


def test_the_schema_command_refuses_an_unknown_name_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["schema", "game"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_schemas_quote_the_readers_size_bounds() -> None:
    """The bounds of spitemalice.limits, as the readers apply them."""
    from spitemalice.limits import MAX_MOVE_CHARS, MAX_NAME_CHARS

    record = schema("record")["properties"]
    assert record["moves"]["items"]["maxLength"] == MAX_MOVE_CHARS
    assert record["seats"]["items"]["properties"]["name"]["maxLength"] == MAX_NAME_CHARS
    assert record["ruleset"]["properties"]["name"]["maxLength"] == MAX_NAME_CHARS
    assert schema("ruleset")["$defs"]["text"]["maxLength"] == MAX_NAME_CHARS
    document = json.loads(dumps_record(record_game(sm.load("g4a"), 1, [])))
    document["seats"][0]["name"] = "x" * (MAX_NAME_CHARS + 1)
    assert errors("record", document)
    with pytest.raises(sm.SpiteMaliceError):
        sm.formats.records.record_from_dict(document)


def test_a_practice_record_validates_and_an_undo_of_nothing_is_refused_by_both() -> None:
    """``undone`` (a person's undos against bots): the schema and the reader agree."""
    from spitemalice.formats import Undone, record_from_dict

    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 3)
    first = sm.legal_moves(rules, state)[0]
    record = record_game(rules, 3, [first], undone=[Undone(0, (str(first), "9H>D1"))])
    document = json.loads(dumps_record(record))
    assert errors("record", document) == [] and record_from_dict(document) == record
    for bad in ([], ["9Z>D1"]):
        document["undone"][0]["moves"] = bad
        assert errors("record", document)
        with pytest.raises(sm.DataError, match=r"record\.undone\[0\]\.moves"):
            record_from_dict(document)
