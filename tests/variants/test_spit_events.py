"""The events that make Spit's clauses visible to rule coverage (issue 37): each clause that
names no reason code names an event, the game reports it for the move that causes it (and
not for a move that does not), and a tally of simulated games counts every clause."""

from __future__ import annotations

import attrs
import pytest
from spitemalice_variants.spit import Fill, Lay, Slap, Spit

import spitemalice as sm
from spitemalice.measures.arrival_coverage import arrival_tally
from spitemalice.measures.coverage import clause_coverage
from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival
from tests.variants.test_spit import SP, play

GAME = SP.simultaneous
BOTS = game_bots(GAME)  # type: ignore[arg-type]


def events(state: object, move: object) -> tuple[str, ...]:
    return GAME.events(state, move, GAME.apply(state, move))  # type: ignore[union-attr,arg-type]


def card(text: str) -> sm.Card:
    return sm.parse_card(text)


@pytest.mark.clause("SP-3")
def test_the_spit_cards_are_laid_out_at_each_deal_and_each_new_layout() -> None:
    assert SP.clause("SP-3").events == ("dealt", "laid-out-again")
    state = play(["4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C 3D 4D 5D 6D"], ["9S KS"],
                 ["3C 8C", "QD"], spit1="7D", phase="slap")
    after = GAME.apply(GAME.apply(state, Slap(0, 1)), Slap(1, 0))
    assert after.seats[0].spit and "laid-out-again" in GAME.events(
        GAME.apply(state, Slap(0, 1)), Slap(1, 0), after)
    assert all(sm.view_of(after, seat).spit_cards == (2, 0) for seat in (0, 1))


@pytest.mark.clause("SP-7")
def test_a_card_under_a_moved_card_turning_up_is_an_event() -> None:
    position = play(["9C 4H", "5D"], ["KS"], ["3C", "QD"])
    assert "turned-up" in events(position, Lay(0, card("4H"), 0, 0))
    assert "turned-up" not in events(position, Lay(0, card("5D"), 1, 0))  # nothing under it
    assert "turned-up" in events(play(["", "9C 7H"], ["KS"], ["3C", "2D"]),
                                 Fill(0, card("7H"), 1, 0))


@pytest.mark.clause("SP-9")
def test_an_intent_that_arrives_too_late_is_counted_stale() -> None:
    played = play_arrival(SP, [BOTS["greedy"]] * 2, 4, ReactionTimes())
    assert played.stale > 0
    tally = arrival_tally(SP, [played])
    assert tally.fired["stale"] == played.stale
    assert SP.clause("SP-9").events == ("stale",)


@pytest.mark.clause("SP-10")
def test_both_spitting_again_within_a_round_is_an_event() -> None:
    position = play(["9C 4H"], ["6S", "8S"], ["3C", "QD"], spit0="6D", spit1="10D")
    assert events(position, Lay(0, card("4H"), 0, 0)) == ("turned-up", "barrier-again")
    free = play(["9C 4H"], ["5S"], ["3C", "QD"], spit0="6D", spit1="10D")
    assert "barrier-again" not in events(free, Lay(0, card("4H"), 0, 0))  # 5S fits on 4H
    ready = GAME.apply(GAME.apply(position, Lay(0, card("4H"), 0, 0)), Spit(0))
    assert "barrier-again" not in events(ready, Spit(1))  # the flip frees 9C: play goes on


@pytest.mark.clause("SP-11")
def test_the_end_of_a_round_is_an_event() -> None:
    position = play(["4H"], ["9S KS"], ["8C 3C", "QD"], spit0="6D", spit1="7D")
    assert "round-over" in events(position, Lay(0, card("4H"), 0, 0))  # out: the slap
    won = play(["4H"], ["9S KS"], ["8C 3C", "QD"], spit1="7D")
    assert "round-over" in events(won, Lay(0, card("4H"), 0, 0))  # out with no spit card
    slap = GAME.apply(GAME.apply(position, Lay(0, card("4H"), 0, 0)), Slap(1, 1))
    assert "round-over" not in events(slap, Slap(0, 0))  # counted once, not at the slaps


@pytest.mark.clause("SP-13")
def test_a_new_layout_is_an_event() -> None:
    state = play(["4H"], ["9S KS"], ["8C 3C", "QD"], spit0="6D", spit1="7D", phase="slap")
    first = GAME.apply(state, Slap(1, 1))
    assert "laid-out-again" not in events(state, Slap(1, 1))
    assert "laid-out-again" in events(first, Slap(0, 0))


@pytest.mark.clause("SP-14")
def test_a_seat_laying_out_with_no_spit_card_is_an_event() -> None:
    short = play(["4H 5H 6H 7H"], ["9S KS"], ["3C 8C", "QD"],
                 spit1="7D 8D 9D 10D JD QC KC AC 2H 3H 4C 5C 6C 7C 8H 9H", phase="slap")
    assert "short-layout" in events(GAME.apply(short, Slap(1, 1)), Slap(0, 0))
    full = attrs.evolve(short, seats=(short.seats[1], short.seats[1]))
    assert "short-layout" not in events(GAME.apply(full, Slap(1, 1)), Slap(0, 0))


@pytest.mark.clause("SP-15")
def test_a_one_pile_round_taken_without_a_slap_is_an_event() -> None:
    single = play(["4H"], ["8S"], ["9D 3C"], spit0="2D", spitters=(0,))
    assert "one-pile" in events(single, Lay(0, card("4H"), 0, 0))
    two = play(["4H"], ["9S KS"], ["8C 3C", "QD"], spit0="6D", spit1="7D")
    assert "one-pile" not in events(two, Lay(0, card("4H"), 0, 0))


def test_simulated_games_count_every_clause_but_the_move_limit() -> None:
    games = [play_arrival(SP, [BOTS["greedy"], BOTS["random"]], seed, ReactionTimes())
             for seed in range(6)]
    rows = clause_coverage(SP, arrival_tally(SP, games))
    assert all(row.counted for row in rows)
    assert [row.clause for row in rows if not row.exercised] == ["SP-17"]
    fired = {row.clause: row.fired for row in rows}
    for clause, event in (("SP-7", "turned-up"), ("SP-9", "stale"), ("SP-10", "barrier-again"),
                          ("SP-11", "round-over"), ("SP-13", "laid-out-again"),
                          ("SP-14", "short-layout"), ("SP-15", "one-pile")):
        assert fired[clause][event] > 0, clause
