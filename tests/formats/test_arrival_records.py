"""Records of a game whose seats move at once (spit): the arrival log (who moved what and
when) round-trips, replays through the engine to the same game, validates against the
record schema, and a tampered record is refused naming what is wrong.  Turn-based records
keep their bytes."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats import (
    check_record,
    dumps_record,
    load_record,
    loads_record,
    record_arrivals,
    record_from_dict,
    record_to_dict,
    replay_arrivals,
    schema,
)
from spitemalice.runs.arrival import (
    ReactionTimes,
    arrival_record,
    game_bots,
    play_arrival,
    replayed_by_bots,
)

ROOT = Path(__file__).parents[2]
SPIT = sm.load("spit")
SCHEMA = Draft202012Validator(schema("record"))


DEFAULT = ReactionTimes()


def played(seed: int, bots: tuple[str, str] = ("greedy", "greedy"),
           policy: ReactionTimes = DEFAULT) -> tuple[Any, sm.formats.GameRecord]:
    offered = game_bots(SPIT.simultaneous)  # type: ignore[arg-type]
    game = play_arrival(SPIT, [offered[name] for name in bots], seed, policy)
    return game, arrival_record(SPIT, game, policy, list(bots))


GAME, RECORD = played(4)
DATA = record_to_dict(RECORD)


@given(seed=st.integers(0, 2**40), bots=st.sampled_from(
    [("greedy", "greedy"), ("random", "greedy"), ("random", "random")]),
       means=st.sampled_from([(300.0,), (150.0, 600.0), (300.0, 300.0)]),
       spread=st.sampled_from([0.0, 0.35, 1.2]))
def test_a_record_round_trips_and_replays_to_the_game_played(seed: int, bots: tuple[str, str],
                                                              means: tuple[float, ...],
                                                              spread: float) -> None:
    # SP-1 (seats move at once) and the touch rule: the log's order is the order applied.
    game, record = played(seed, bots, ReactionTimes(means, spread))
    text = dumps_record(record)
    again = loads_record(text)
    assert again == record and dumps_record(again) == text
    assert list(SCHEMA.iter_errors(json.loads(text))) == []
    assert check_record(again) is None
    states = list(replay_arrivals(again, SPIT))
    assert len(states) == len(record.moves) + 1 == len(game.log) + 1
    assert states[-1] == game.final and states[-1].outcome == record.outcome
    assert [int(text[1]) for text in record.moves] == [seat for _, seat, _, _ in game.log]
    assert record.arrivals is not None
    assert list(record.arrivals.times_ms) == sorted(record.arrivals.times_ms)
    assert record.arrivals.stale == game.stale
    assert replayed_by_bots(again, SPIT) == ""


def test_the_committed_spit_record_checks_and_plays_again_by_its_bots() -> None:
    record = load_record(ROOT / "seeds" / "records" / "spit.json")
    assert record.arrivals is not None and record.arrivals.policy is not None
    assert check_record(record) is None and replayed_by_bots(record, SPIT) == ""


@pytest.mark.parametrize("path", sorted((ROOT / "seeds" / "records").glob("*.json")),
                         ids=lambda p: p.stem)
def test_committed_records_keep_their_bytes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert dumps_record(load_record(path)) + "\n" == text
    assert ("arrivals" in json.loads(text)) == (path.stem == "spit")


# -- tampering --------------------------------------------------------------------------

def _first(data: dict[str, Any], pattern: str) -> int:
    return next(i for i, move in enumerate(data["moves"]) if re.fullmatch(pattern, move))


def _illegal_card(data: dict[str, Any]) -> None:
    index = _first(data, r"S0\.P\d:.*>C\d")
    data["moves"][index] = re.sub(r":[^>]+>", ":KS>" if "KS" not in data["moves"][index]
                                  else ":QS>", data["moves"][index])


def _other_seat(data: dict[str, Any]) -> None:
    index = _first(data, r"S0\.P\d:.*>C\d")
    data["moves"][index] = "S1" + data["moves"][index][2:]


def _early_slap(data: dict[str, Any]) -> None:
    data["moves"].insert(3, "S0:slap>C1")
    data["arrivals"]["times_ms"].insert(3, data["arrivals"]["times_ms"][2])


def _after_the_end(data: dict[str, Any]) -> None:
    data["moves"].append("S0:spit")
    data["arrivals"]["times_ms"].append(data["arrivals"]["times_ms"][-1] + 1)


def _cut(data: dict[str, Any]) -> None:
    del data["moves"][-1], data["arrivals"]["times_ms"][-1]


def _winner(data: dict[str, Any]) -> None:
    data["outcome"]["winner"] = 1 - data["outcome"]["winner"]


# (change, where check_record's problem is, what it says)
MOVE_PROBLEMS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a card that is not on top", _illegal_card, "not-on-pile|not-adjacent"),
    ("another seat's card", _other_seat, "not-on-pile|empty-pile|not-adjacent|not-now"),
    ("a slap before the round ends", _early_slap, "not-now"),
    ("a move after the end", _after_the_end, "game-over"),
    ("the last move cut", _cut, "outcome"),
    ("another winner", _winner, "outcome"),
    ("a move that does not parse", lambda d: d["moves"].__setitem__(5, "S0:jump"),
     "not a Spit move"),
    ("a card that does not parse", lambda d: d["moves"].__setitem__(5, "S0.P1:XX>C1"),
     "not a card"),
]


@pytest.mark.parametrize("change", MOVE_PROBLEMS, ids=[c[0] for c in MOVE_PROBLEMS])
def test_a_tampered_move_or_outcome_is_found_with_its_number_and_reason(
        change: tuple[str, Callable[[dict[str, Any]], None], str]) -> None:
    _, alter, said = change
    data = copy.deepcopy(DATA)
    alter(data)
    problem = check_record(record_from_dict(data))
    assert problem is not None
    text = f"{getattr(problem.error, 'reason', '')} {problem.error}"
    assert re.search(said, text), text
    if isinstance(problem.error, sm.IllegalMove):
        assert problem.error.clause.startswith("SP-"), problem.error


FORM_PROBLEMS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a time earlier than the one before", lambda d: d["arrivals"]["times_ms"].__setitem__(
        6, d["arrivals"]["times_ms"][5] - 1), r"record\.arrivals\.times_ms\[6\]: .* earlier"),
    ("a time too few", lambda d: d["arrivals"]["times_ms"].pop(),
     r"record\.arrivals\.times_ms: \d+ time\(s\) for \d+ move\(s\)"),
    ("a negative time", lambda d: d["arrivals"]["times_ms"].__setitem__(0, -1),
     r"record\.arrivals\.times_ms\[0\]: expected a number of milliseconds"),
    ("a time as text", lambda d: d["arrivals"]["times_ms"].__setitem__(0, "12"),
     r"record\.arrivals\.times_ms\[0\]"),
    ("a stale count below 0", lambda d: d["arrivals"].__setitem__("stale", -2),
     r"record\.arrivals\.stale"),
    ("a mean reaction time of 0", lambda d: d["arrivals"]["policy"]["means_ms"].__setitem__(
        0, 0), r"record\.arrivals\.policy\.means_ms\[0\]"),
    ("an unknown field", lambda d: d["arrivals"].__setitem__("clock", 1),
     r"record\.arrivals"),
]


@pytest.mark.parametrize("change", FORM_PROBLEMS, ids=[c[0] for c in FORM_PROBLEMS])
def test_a_tampered_arrival_log_is_refused_when_read_naming_its_field(
        change: tuple[str, Callable[[dict[str, Any]], None], str]) -> None:
    _, alter, said = change
    data = copy.deepcopy(DATA)
    alter(data)
    with pytest.raises(sm.DataError, match=said):
        record_from_dict(data)
    assert list(SCHEMA.iter_errors(data)) or "earlier" in said or "for" in said  # order, count:
    # the reader's checks; the schema checks form only


RULE_PROBLEMS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("no arrival log", lambda d: d.pop("arrivals"), r"record\.arrivals: missing; spit's seats"),
    ("a dealer", lambda d: d.__setitem__("dealer", 0), r"record\.dealer: .* null"),
    ("an undo", lambda d: d.__setitem__("undone", [{"at": 1, "moves": ["pass"]}]),
     r"record\.undone"),
    ("three seats", lambda d: d["seats"].append({"name": "x", "kind": "greedy"}),
     r"record\.seats: 3 entries"),
]


@pytest.mark.parametrize("change", RULE_PROBLEMS, ids=[c[0] for c in RULE_PROBLEMS])
def test_a_record_whose_form_does_not_fit_spit_is_refused_naming_the_field(
        change: tuple[str, Callable[[dict[str, Any]], None], str]) -> None:
    _, alter, said = change
    data = copy.deepcopy(DATA)
    alter(data)
    with pytest.raises(sm.DataError, match=said):
        check_record(record_from_dict(data))
    assert list(SCHEMA.iter_errors(data)) or "seats" in said


def test_an_arrival_log_on_a_turn_based_record_is_refused() -> None:
    turn = json.loads((ROOT / "seeds" / "records" / "g4a.json").read_text(encoding="utf-8"))
    turn["arrivals"] = {"policy": None, "times_ms": [0.0] * len(turn["moves"]), "stale": 0}
    with pytest.raises(sm.DataError, match=r"record\.arrivals: g4a is turn-based"):
        check_record(record_from_dict(turn))
    assert list(SCHEMA.iter_errors(turn))  # turn-based move texts are no seat-named moves


def test_the_installed_version_must_be_the_records() -> None:
    data = copy.deepcopy(DATA)
    data["ruleset"]["version"] = "0.9"
    with pytest.raises(sm.RulesetError, match=r"version 0\.9"):
        check_record(record_from_dict(data))


@pytest.mark.parametrize("change", [
    "a later time", "two spits swapped", "a stale count", "another seed"])
def test_a_legal_log_its_bots_do_not_play_is_found_by_playing_again(change: str) -> None:
    data = copy.deepcopy(DATA)
    times = data["arrivals"]["times_ms"]
    if change == "a later time":
        times[-1] += 5.0
    elif change == "two spits swapped":
        assert data["moves"][:2] in (["S0:spit", "S1:spit"], ["S1:spit", "S0:spit"])
        data["moves"][:2] = data["moves"][1::-1]
    elif change == "a stale count":
        data["arrivals"]["stale"] += 1
    else:
        data["seed"] += 1
    record = record_from_dict(data)
    legal = check_record(record) is None
    found = replayed_by_bots(record, SPIT)
    assert found, change
    assert legal or change == "another seed"


def test_a_table_clock_log_is_not_played_again_and_human_seats_are_not_bots() -> None:
    record = record_arrivals(SPIT, 4, list(RECORD.moves), list(RECORD.arrivals.times_ms),  # type: ignore[union-attr]
                             seats=["human", "greedy"], outcome=RECORD.outcome)
    assert check_record(record) is None and replayed_by_bots(record, SPIT) is None
    assert loads_record(dumps_record(record)) == record
    assert list(SCHEMA.iter_errors(record_to_dict(record))) == []


def test_record_arrivals_refuses_bad_times_and_a_turn_based_rule_set() -> None:
    with pytest.raises(sm.SpiteMaliceError, match=r"1 time.* for 2 move"):
        record_arrivals(SPIT, 1, ["S0:spit", "S1:spit"], [3.0])
    with pytest.raises(sm.SpiteMaliceError, match=r"times_ms\[1\] is 2.0; .* never earlier"):
        record_arrivals(SPIT, 1, ["S0:spit", "S1:spit"], [3.0, 2.0])
    with pytest.raises(sm.SpiteMaliceError, match=r"times_ms\[0\] is nan"):
        record_arrivals(SPIT, 1, ["S0:spit"], [float("nan")])
    # past the bound: float() would overflow, the message would print 400 digits
    with pytest.raises(sm.SpiteMaliceError, match=r"times_ms\[0\] is a whole number of about "
                                                  r"401 digits; .* to limits.MAX_REAL"):
        record_arrivals(SPIT, 1, ["S0:spit"], [10**400])
    with pytest.raises(sm.NotationError, match="move 1 is not a move"):
        record_arrivals(SPIT, 1, ["S0:spit", "9H>D1"], [1, 2])
    with pytest.raises(sm.SpiteMaliceError, match="g4a is turn-based"):
        record_arrivals(sm.load("g4a"), 1, [], [])


def test_replay_of_a_spit_record_points_to_replay_arrivals() -> None:
    with pytest.raises(sm.DataError, match="replay_arrivals"):
        next(sm.replay(RECORD))


# -- the command line --------------------------------------------------------------------

def test_simulate_record_check_and_replay(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    assert main(["simulate", "spit", "--games", "3", "--seed", "4", "--bots", "greedy",
                 "--record", str(folder)]) == 0
    capsys.readouterr()
    paths = sorted(folder.glob("*.json"))
    assert [p.name for p in paths] == ["game-00000.json", "game-00001.json", "game-00002.json"]
    assert load_record(paths[0]) == RECORD  # game 0 is dealt from seed 4
    for path in paths:
        assert main(["check", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"valid: {path}: ") and "the same moves, times" in out
    assert main(["replay", str(paths[0]), "--notation"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "rules: spit 1.0" and "arrival policy: reaction times" in lines[3]
    first = RECORD.moves[0]
    assert any(re.match(rf"\s+1  {re.escape(first)}  at [0-9.]+ ms", line) for line in lines)
    assert lines[-1].startswith("outcome: win by seat")


def test_check_names_a_tampered_move_and_its_clause(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = copy.deepcopy(DATA)
    _illegal_card(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"invalid: .*bad\.json: move \d+ 'S0\.P\d:..>C\d' is illegal", out), out
    assert "rule: SP-" in out and "position before move" in out
    data = copy.deepcopy(DATA)
    data["arrivals"]["times_ms"][-1] += 5.0
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert "its moves are legal, but its bots (greedy, greedy)" in capsys.readouterr().out
    data["arrivals"]["times_ms"][3] = -1
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert "record.arrivals.times_ms[3]" in capsys.readouterr().err


def test_replay_refuses_pictures_a_seat_that_is_none_and_check_invariants(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "spit.json"
    path.write_text(dumps_record(RECORD), encoding="utf-8")
    assert main(["replay", str(path), "--seat", "2"]) == 2
    assert "--seat 2: spit has seats 0 to 1" in capsys.readouterr().err
    assert main(["replay", str(path), "--svg", str(tmp_path / "pics")]) == 2
    assert "--svg draws turn-based positions" in capsys.readouterr().err
    assert not (tmp_path / "pics").exists()
    assert main(["check", str(path), "--invariants"]) == 2
    assert "spitemalice validate spit" in capsys.readouterr().err


# -- privacy: what replay prints for a seat -----------------------------------------------

def _face_down(state: Any) -> set[str]:
    """Every card no seat sees: under each stock top, and the spit cards (SP-2, SP-3)."""
    return {str(card) for seat in state.seats for pile in seat.stock for card in pile[:-1]} | {
        str(card) for seat in state.seats for card in seat.spit}


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("layout", ["--notation", "--pretty"])
def test_replay_for_a_seat_prints_only_what_that_seat_may_see(
        seat: int, layout: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from spitemalice.formats import describe_plain, plain_line

    path = tmp_path / "spit.json"
    path.write_text(dumps_record(RECORD), encoding="utf-8")
    assert main(["replay", str(path), "--seat", str(seat), layout]) == 0
    out = capsys.readouterr().out
    states = list(replay_arrivals(RECORD, SPIT))
    game = SPIT.simultaneous
    assert game is not None
    rng = random.Random(seat)
    blocks = re.split(r"(?m)^\s+\d+  ", out)[1:]
    assert len(blocks) == len(states)
    hidden_seen = 0
    for state, block in zip(states, blocks, strict=True):
        twin = game.hidden_twin(state, rng)
        shown = plain_line(state.view(seat)) if layout == "--notation" else describe_plain(
            state.view(seat))
        assert shown == (plain_line(twin.view(seat)) if layout == "--notation"
                         else describe_plain(twin.view(seat)))
        assert shown.split("\n")[0] in block
        words = set(re.findall(r"\b(?:10|[2-9AJQK])[SHDC]\b", block.split("at ", 1)[-1]
                               .split("ms", 1)[-1]))
        hidden = _face_down(state)
        assert not words & hidden, (words & hidden, block)
        hidden_seen += bool(hidden)
    assert hidden_seen > len(states) // 2  # there were face-down cards to leak


def test_replay_without_a_seat_shows_the_whole_position(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "spit.json"
    path.write_text(dumps_record(RECORD), encoding="utf-8")
    assert main(["replay", str(path), "--notation"]) == 0
    lines = capsys.readouterr().out.splitlines()
    deal = json.loads(lines[5].split("deal", 1)[1])
    assert len(deal["seats"][0]["spit"]) == 11  # the record's reader sees every card


def test_replay_of_a_turn_based_record_for_a_seat_prints_that_seats_views(
        capsys: pytest.CaptureFixture[str]) -> None:
    from spitemalice.formats import format_view

    path = ROOT / "seeds" / "records" / "g4a.json"
    assert main(["replay", str(path), "--seat", "1", "--notation"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "view=" in line]
    states = list(sm.replay(load_record(path)))
    assert len(lines) == len(states)
    for line, state in zip(lines, states, strict=True):
        assert line.endswith(format_view(sm.view_of(state, 1)))


def test_a_spit_record_is_not_resumed_at_a_turn_based_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    from spitemalice.play.session import Session

    path = ROOT / "seeds" / "records" / "spit.json"
    with pytest.raises(sm.DataError, match="spitemalice replay shows a spit record"):
        Session.resume(load_record(path))
    assert main(["play", "--resume", str(path), "--seat", "0"]) == 2
    assert "spitemalice replay shows a spit record" in capsys.readouterr().err


def test_replay_stops_at_a_tampered_move_with_exit_1(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = copy.deepcopy(DATA)
    _other_seat(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path), "--notation"]) == 1
    captured = capsys.readouterr()
    assert re.search(r"error: .*bad\.json: move \d+ \('S1\.P", captured.err), captured.err
    assert "outcome:" not in captured.out


def test_a_move_written_with_spaces_plays_again_as_the_same_move() -> None:
    # Spaces around a Spit move's parts are read as absent (docs/formats.md), so playing the
    # record again by its bots compares the moves the texts name, not the texts.
    data = copy.deepcopy(DATA)
    at = _first(data, r"^S\d\.P\d:\w+>C\d$")
    data["moves"][at] = data["moves"][at].replace(">", " > ").replace(":", " : ")
    record = record_from_dict(data)
    assert check_record(record) is None
    assert replayed_by_bots(record, SPIT) == ""
    data["moves"][at] = data["moves"][at].replace("> C", "> P")  # a different move still differs
    assert replayed_by_bots(record_from_dict(data), SPIT) != ""
