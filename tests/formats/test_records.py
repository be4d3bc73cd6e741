"""Game records: recording and replaying give equal states, checks find the first bad move,
and bad records are refused naming the field."""

from __future__ import annotations

import json
import re

import attrs
import pytest
from helpers.walks import CONFIGS, RULESETS, book, config_id, configs_of, picks, seeds, walk
from hypothesis import given, settings
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.cli import main
from spitemalice.errors import DataError, IllegalMove, NotationError, RecordError, RulesetError
from spitemalice.formats import (
    GameRecord,
    SeatInfo,
    check_record,
    dumps_record,
    final_state,
    load_record,
    loads_record,
    record_game,
    record_result,
    record_to_dict,
    replay,
    rules_for,
    ruleset_ref,
    save_record,
)
from spitemalice.runs.loop import play_game


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=10)
@given(data=st.data(), seed=seeds, choices=picks, finish=st.booleans())
def test_recording_and_replaying_gives_equal_states_at_every_step(ruleset, data, seed, choices,
                                                                  finish) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    path = list(walk(rules, seed, choices, finish))
    states = [state for state, _ in path]
    moves = [move for _, move in path if move is not None]
    record = record_game(rules, seed, moves, outcome=states[-1].outcome)
    loaded = loads_record(dumps_record(record))
    assert loaded == record
    assert list(replay(loaded)) == states
    assert check_record(loaded) is None


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_a_record_loads_the_same_rules(config) -> None:
    rules = book(config)
    record = loads_record(dumps_record(record_game(rules, 1)))
    assert rules_for(record).ruleset == rules.ruleset
    assert rules_for(record).plugins == rules.plugins


def test_a_record_names_only_the_parameters_that_differ() -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"], players=3, payoff_size=13)
    ref = ruleset_ref(rules)
    assert (ref.name, ref.version, ref.house_rules) == ("blackwood-frey", "1.0",
                                                       ("pair-discards",))
    assert ref.param_dict == {"payoff_size": 13, "players": 3}


def test_a_finished_game_records_its_outcome_and_seats(bf: sm.RuleBook) -> None:
    result = play_game(bf, [GreedyPlayer(1), GreedyPlayer(2)], seed=3)
    record = record_result(bf, result, ["greedy", SeatInfo("ann", "human")])
    data = record_to_dict(record)
    assert data["format"] == "spitemalice-record" and data["version"] == 1
    assert data["seats"] == [{"name": "greedy-0", "kind": "greedy"},
                             {"name": "ann", "kind": "human"}]
    assert data["outcome"]["scores"] == list(result.final.outcome.scores)
    assert len(data["moves"]) == len(result.moves)
    assert final_state(record) == result.final


def test_a_game_in_progress_is_saved_and_resumed(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 12, dealer=1)
    moves = []
    for _ in range(30):
        move = sm.legal_moves(bf, state)[0]
        moves.append(move)
        state = sm.apply_move(bf, state, move)
    record = loads_record(dumps_record(record_game(bf, 12, moves, dealer=1)))
    assert record.outcome is None and record.dealer == 1
    assert final_state(record) == state


# -- checking ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished() -> tuple[GameRecord, list[sm.GameState]]:
    rules = sm.load("blackwood-frey")
    result = play_game(rules, [GreedyPlayer(4), GreedyPlayer(5)], seed=6)
    record = record_result(rules, result, ["greedy", "greedy"])
    return record, list(replay(record))


def _edited(record: GameRecord, number: int, text: str) -> GameRecord:
    moves = list(record.moves)
    moves[number - 1] = text
    return attrs.evolve(record, moves=tuple(moves))


def test_a_hand_edited_illegal_move_is_caught_at_its_number(finished) -> None:
    record, states = finished
    number = 17
    before = states[number - 1]
    edited = _edited(record, number, "AS>B4" if before.builds else "QS>B1")
    problem = check_record(loads_record(dumps_record(edited)))
    assert problem is not None
    assert problem.number == number and problem.move == edited.moves[number - 1]
    assert problem.before == before
    assert isinstance(problem.error, IllegalMove)
    assert problem.error.reason and problem.error.clause.startswith("BF-")
    with pytest.raises(RecordError, match=f"move {number} "):
        list(replay(edited))


def test_a_move_that_does_not_parse_is_caught_at_its_number(finished) -> None:
    record, states = finished
    problem = check_record(_edited(record, 5, "9H->B1"))
    assert problem is not None and problem.number == 5 and problem.before == states[4]
    assert isinstance(problem.error, NotationError)


def _spaced(text: str) -> str:
    # Not the ``+`` of ``B+``: a part, which a space inside refuses (next test).
    return re.sub(r"([>:.]|\+(?!$))", r" \1  ", text)


def test_a_record_whose_moves_are_written_with_spaces_replays(finished, tmp_path) -> None:
    """A hand-written record's ``AC > B+`` was refused as not a move; spaces around a move's
    parts are read as absent in a record file as in the terminal game, by ``check`` too, and
    a record made from such texts keeps them as the notation writes them."""
    record, states = finished
    spaced = attrs.evolve(record, moves=tuple(map(_spaced, record.moves)))
    assert spaced.moves != record.moves and check_record(spaced) is None
    assert list(replay(spaced)) == states
    path = tmp_path / "spaced.json"
    save_record(spaced, path)
    assert main(["check", str(path)]) == 0
    remade = record_game(sm.load("blackwood-frey"), record.seed, spaced.moves)
    assert remade.moves == record.moves


def test_a_record_move_with_a_space_inside_a_part_is_caught(finished, tmp_path) -> None:
    """``P:KS>B +`` passed ``check`` as ``P:KS>B+`` (its ``+`` read as a separator); a space
    inside a part is refused, the message naming the part."""
    record, _ = finished
    number = next(i for i, text in enumerate(record.moves, 1) if text.endswith(">B+"))
    problem = check_record(_edited(record, number, record.moves[number - 1][:-1] + " +"))
    assert problem is not None and problem.number == number
    assert isinstance(problem.error, NotationError)
    assert "'B +': no space inside a part; write B+" in str(problem.error)


def test_a_move_after_the_end_is_refused(finished) -> None:
    record, _ = finished
    problem = check_record(attrs.evolve(record, moves=(*record.moves, "pass")))
    assert problem is not None and problem.number == len(record.moves) + 1
    assert isinstance(problem.error, IllegalMove) and problem.error.reason == "game-over"


def test_an_outcome_the_replay_does_not_reach_is_reported(finished) -> None:
    record, states = finished
    short = attrs.evolve(record, moves=record.moves[:-1])
    problem = check_record(short)
    assert problem is not None and problem.number is None
    assert problem.before == states[-2]
    assert "the record states outcome win" in str(problem.error)


# -- bad records ---------------------------------------------------------------------------


def _data(finished) -> dict:
    return record_to_dict(finished[0])


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.pop("moves"), "record.moves: missing"),
    (lambda d: d.update(seed=-3), "record.seed: expected a whole number >= 0"),
    (lambda d: d.update(seed=1.5), "record.seed: expected a whole number, not a number 1.5"),
    (lambda d: d.update(dealer="0"), "record.dealer: expected a whole number"),
    (lambda d: d["moves"].__setitem__(3, 7), "record.moves[3]: expected a string"),
    (lambda d: d["ruleset"].pop("name"), "record.ruleset.name: missing"),
    (lambda d: d["ruleset"].update(params=[]), "record.ruleset.params: expected an object "
     'of parameter values, as {"players": 3}, not an empty list'),
    (lambda d: d["ruleset"]["params"].update(players={"n": 3}),
     "record.ruleset.params.players: expected a number, true/false, a string, null or a list "
     "of ranks, not an object of 1 field"),
    (lambda d: d["seats"][1].pop("kind"), "record.seats[1].kind: missing"),
    (lambda d: d.update(outcome={"kind": "win", "winner": 0}), "record.outcome.scores: missing"),
    (lambda d: d.update(comment="x"), "record.comment: unknown field"),
    (lambda d: d.update(version=2), "version 2 is newer than this library reads (1 to 1)"),
    (lambda d: d.update(version=0), "0 is not a known spitemalice-record version"),
    (lambda d: d.pop("version"), "record.version: missing"),
    (lambda d: d.update(format="chess-pgn"), "record.format: expected \"spitemalice-record\""),
])
def test_bad_record_data_is_refused_naming_the_field(finished, change, words) -> None:
    data = _data(finished)
    change(data)
    with pytest.raises(DataError) as caught:
        loads_record(json.dumps(data))
    assert words in str(caught.value)


def test_a_newer_version_is_refused_even_when_its_fields_changed(finished) -> None:
    with pytest.raises(DataError, match="newer"):
        loads_record(json.dumps({"format": "spitemalice-record", "version": 3, "game": {}}))


def test_a_truncated_record_is_refused(finished, tmp_path) -> None:
    text = dumps_record(finished[0])
    with pytest.raises(DataError, match="truncated"):
        loads_record(text[: len(text) - 40])
    path = tmp_path / "cut.json"
    path.write_text(text[:100])
    with pytest.raises(DataError, match=r"cut\.json: record is not valid JSON"):
        load_record(path)
    with pytest.raises(DataError, match="cannot read the record"):
        load_record(tmp_path / "missing.json")


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["ruleset"].update(name="blackwood-fray"), "did you mean \"blackwood-frey\""),
    (lambda d: d["ruleset"].update(house_rules=["mandatory-ace"]), "unknown house rule"),
    (lambda d: d["ruleset"]["params"].update(hand_sise=5), "unknown parameter \"hand_sise\""),
    (lambda d: d["ruleset"].update(version="0.9"), "version 0.9; the installed"),
])
def test_rules_that_cannot_be_loaded_are_refused(finished, change, words) -> None:
    data = _data(finished)
    change(data)
    record = loads_record(json.dumps(data))
    with pytest.raises(RulesetError) as caught:
        check_record(record)
    assert words in str(caught.value)


def test_a_record_file_round_trips(finished, tmp_path) -> None:
    path = tmp_path / "game.json"
    save_record(finished[0], path)
    assert load_record(path) == finished[0]
    assert json.loads(path.read_text())["moves"] == list(finished[0].moves)


def test_seat_entries_must_match_the_seats(bf: sm.RuleBook) -> None:
    with pytest.raises(sm.SpiteMaliceError, match="needs 2 seat entries, not 3"):
        record_game(bf, 1, seats=["greedy"] * 3)


def test_a_move_text_that_does_not_parse_is_refused_when_recorded(bf: sm.RuleBook) -> None:
    """record_game makes no record it could not replay: a move text that does not parse is
    refused naming its index (it was stored, and only check_record found it later)."""
    with pytest.raises(NotationError, match=r"^record_game: move 1 is not a move: ") as caught:
        record_game(bf, 3, ["pass", "zz"])
    assert caught.value.reason == "not-a-move"
    assert record_game(bf, 3, ["pass"]).moves == ("pass",)


def test_seats_and_dealer_that_do_not_fit_the_rules_are_refused(finished) -> None:
    record, _ = finished
    with pytest.raises(DataError, match=r"record\.seats: 3 entries"):
        check_record(attrs.evolve(record, seats=(*record.seats, SeatInfo("x", "y"))))
    with pytest.raises(DataError, match=r"record\.dealer: the deal cannot be made"):
        check_record(attrs.evolve(record, dealer=5))
