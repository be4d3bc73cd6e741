"""Rule coverage of spit from simulated games (seats that move at once): each clause's row
counts the moves played, the probes refused and the events fired, read off the games."""

from __future__ import annotations

import json

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.measures.arrival_coverage import ArrivalCoverage, arrival_tally
from spitemalice.measures.coverage import clause_coverage
from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival

SPIT = sm.load("spit")
BOTS = game_bots(SPIT.simultaneous)  # type: ignore[arg-type]
GAMES = [play_arrival(SPIT, [BOTS["greedy"], BOTS["random"]], seed, ReactionTimes())
         for seed in range(6)]


def test_each_clause_is_credited_by_its_codes_and_events() -> None:
    tally = arrival_tally(SPIT, GAMES)
    rows = {row.clause: row for row in clause_coverage(SPIT, tally)}
    assert tally.games == 6 and tally.fired["dealt"] == 6 and tally.fired["win"] == 6
    # SP-6: a card goes on a spit pile one rank above or below; lays were played and others
    # refused not-adjacent.
    assert rows["SP-6"].played > 0 and rows["SP-6"].refused["not-adjacent"] > 0
    # SP-8: a fill of an empty stock pile; SP-12: the slap, the second slapper refused.
    assert rows["SP-8"].played > 0 and rows["SP-8"].refused.get("slot-not-empty", 0) > 0
    assert rows["SP-12"].played > 0
    assert rows["SP-16"].fired == {"win": 6}  # the standard game's win
    assert rows["SP-17"].intended and not rows["SP-17"].exercised  # no game hit the limit
    assert rows["SP-3"].fired["dealt"] == 6  # the spit cards laid out at each deal
    every_move = sum(len(game.log) for game in GAMES)
    assert rows["SP-18"].played == every_move  # every move passed the game-over check


def test_fewer_probes_refuse_fewer_and_play_the_same() -> None:
    dense, sparse = arrival_tally(SPIT, GAMES, every=1), arrival_tally(SPIT, GAMES, every=8)
    assert sum(dense.refused.values()) > sum(sparse.refused.values()) > 0
    assert sum(dense.played.values()) == sum(sparse.played.values())


def test_arrival_tally_refuses_a_turn_based_rule_set_and_a_bad_step() -> None:
    with pytest.raises(sm.SpiteMaliceError, match="g4a is turn-based"):
        arrival_tally(sm.load("g4a"), [])
    with pytest.raises(sm.SpiteMaliceError, match="every"):
        arrival_tally(SPIT, GAMES, every=0)


def test_simulate_spit_coverage_prints_a_row_per_clause_and_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "spit", "--games", "4", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "rule coverage over 4 games" in out
    assert all(f"\nSP-{n} " in out for n in range(1, 19))
    assert "never (intended)" in out  # SP-17, the move limit
    assert main(["simulate", "spit", "--games", "4", "--coverage", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["coverage"]["clauses"]) == {f"SP-{n}" for n in range(1, 19)}
    assert data["coverage"]["clauses"]["SP-6"]["exercised"] is True


def test_counting_a_game_at_a_time_gives_the_tally_of_the_whole_list() -> None:
    whole = arrival_tally(SPIT, GAMES)
    counting = ArrivalCoverage(SPIT)
    for game in GAMES[:3]:
        counting.add(game)
    halfway = counting.tally()
    for game in GAMES[3:]:
        counting.add(game)
    assert counting.tally() == whole and counting.tally() == whole  # tally() changes nothing
    assert halfway.games == 3 and sum(halfway.played.values()) < sum(whole.played.values())
    with pytest.raises(sm.SpiteMaliceError, match="blackwood-frey is turn-based"):
        ArrivalCoverage(sm.load("blackwood-frey"))
