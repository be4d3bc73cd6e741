"""Scenario tests for the spit rule sheet: one at least per clause (SP-1 ... SP-18), and the
engine's simultaneous doors that carry them (each move names its seat, barriers are state)."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spitemalice_variants.spit import (
    Fill,
    Lay,
    Slap,
    Spit,
    SpitSeat,
    SpitState,
    parse_spit_move,
)

import spitemalice as sm
from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival

SP = sm.load("spit")
POINTS = sm.load("spit", params={"points_per_card": 1})
BOTS = game_bots(SP.simultaneous)  # type: ignore[arg-type]


def cards(text: str) -> tuple[sm.Card, ...]:
    return sm.parse_cards(text) if text else ()


def seat(stock: list[str], spit: str = "") -> SpitSeat:
    piles = [cards(pile) for pile in stock] + [()] * (5 - len(stock))
    return SpitSeat(piles, cards(spit))


def play(stock0: list[str], stock1: list[str], centre: list[str], spit0: str = "",
         spit1: str = "", **fields: object) -> SpitState:
    """A position in free play, spit piles 1 and 2 spat by seats 0 and 1 (or one pile)."""
    piles = tuple(cards(pile) for pile in centre)
    spitters = fields.pop("spitters", (0, 1)[: len(piles)])
    phase = fields.pop("phase", "play")
    return SpitState((seat(stock0, spit0), seat(stock1, spit1)), piles, spitters, phase,
                     **fields)  # type: ignore[arg-type]


def refused(state: SpitState, move: object, seat_: int | None = None) -> sm.IllegalMove:
    with pytest.raises(sm.IllegalMove) as caught:
        sm.apply_move(SP, state, move, seat_)  # type: ignore[arg-type]
    return caught.value


@pytest.mark.clause("SP-1")
def test_one_pack_dealt_26_to_each_seat_by_the_seed() -> None:
    state = sm.deal(SP, 7)
    assert [s.held for s in state.seats] == [26, 26]
    every = [c for s in state.seats for pile in (*s.stock, s.spit) for c in pile]
    assert len(set(every)) == 52 and Counter(c.rank for c in every) == {r: 4 for r in range(1, 14)}
    assert sm.deal(SP, 7) == state and sm.deal(SP, 8) != state
    assert refused(state, Spit(2)).reason == "no-such-seat"
    assert refused(state, Spit(2)).clause == "SP-1"


@pytest.mark.clause("SP-2")
def test_five_stock_piles_of_one_to_five_and_only_a_top_card_moves() -> None:
    state = sm.deal(SP, 3)
    assert [len(pile) for pile in state.seats[0].stock] == [1, 2, 3, 4, 5]
    position = play(["5H", "9C 2D"], ["KS"], ["3C", "QD"])
    buried = Lay(0, sm.parse_card("9C"), 1, 0)
    error = refused(position, buried)
    assert (error.reason, error.clause) == ("not-on-pile", "SP-2")
    assert refused(position, Lay(0, sm.parse_card("4H"), 3, 0)).reason == "empty-pile"
    assert refused(position, Lay(0, sm.parse_card("4H"), 7, 0)).reason == "no-such-pile"


@pytest.mark.clause("SP-3")
def test_eleven_spit_cards_face_down_and_no_view_shows_them() -> None:
    state = sm.deal(SP, 5)
    assert [len(s.spit) for s in state.seats] == [11, 11]
    other = attrs.evolve(state, seats=tuple(
        SpitSeat(s.stock, tuple(reversed(s.spit))) for s in state.seats))
    assert other != state
    for at in (0, 1):  # the views do not depend on the hidden cards' order
        assert sm.view_of(other, at) == sm.view_of(state, at)
        assert sm.view_of(state, at).spit_cards == (11, 11)


@pytest.mark.clause("SP-4")
def test_the_spit_barrier_waits_for_both_seats_then_both_flip() -> None:
    state = sm.deal(SP, 2)
    assert SP.simultaneous.barrier(state) == "spit"
    assert SP.simultaneous.to_move(state) == (0, 1)
    half = sm.apply_move(SP, state, Spit(1), 1)
    assert half.centre == () and half.ready == (1,)
    assert SP.simultaneous.to_move(half) == (0,)
    error = refused(half, Spit(1), 1)
    assert (error.reason, error.clause) == ("already-answered", "SP-4")
    both = sm.apply_move(SP, half, Spit(0), 0)
    assert both.centre == ((state.seats[0].spit[-1],), (state.seats[1].spit[-1],))
    assert [len(s.spit) for s in both.seats] == [10, 10] and both.spitters == (0, 1)
    no_card = play(["5H"], ["KS"], ["3C"], spit1="2C", phase="spit", spitters=(1,))
    assert refused(no_card, Spit(0)).reason == "no-spit-card"


@pytest.mark.clause("SP-5")
def test_no_turns_each_move_names_its_seat() -> None:
    position = play(["4H"], ["2S"], ["3C", "QD"])
    assert SP.simultaneous.to_move(position) == (0, 1)
    assert sm.legal_moves(SP, position, 0) == (Lay(0, sm.parse_card("4H"), 0, 0),)
    assert sm.legal_moves(SP, position, 1) == (Lay(1, sm.parse_card("2S"), 0, 0),)
    error = refused(position, Lay(1, sm.parse_card("2S"), 0, 0), 0)
    assert (error.reason, error.clause) == ("wrong-seat", "SP-5")
    after = sm.apply_move(SP, position, Lay(1, sm.parse_card("2S"), 0, 0), 1)
    assert after.moves == 1 and after.centre[0][-1] == sm.parse_card("2S")


@pytest.mark.clause("SP-6")
def test_one_rank_above_or_below_round_the_corner() -> None:
    position = play(["2H", "KD", "7C"], ["JS"], ["AS", "QD"])
    fits = {str(move) for move in sm.legal_moves(SP, position, 0)}
    assert fits == {"S0.P1:2H>C1", "S0.P2:KD>C1", "S0.P2:KD>C2"}
    error = refused(position, Lay(0, sm.parse_card("7C"), 2, 0))
    assert (error.reason, error.clause) == ("not-adjacent", "SP-6")


@pytest.mark.clause("SP-7")
def test_the_card_under_a_laid_card_is_turned_up_at_once() -> None:
    position = play(["9C 4H"], ["KS"], ["3C", "QD"])
    after = sm.apply_move(SP, position, Lay(0, sm.parse_card("4H"), 0, 0))
    assert sm.view_of(after, 1).stock[0][0] == (1, sm.parse_card("9C"))


@pytest.mark.clause("SP-8")
def test_an_empty_stock_pile_is_filled_from_a_pile_of_two_or_more() -> None:
    position = play(["", "9C 7H", "5D"], ["KS"], ["3C", "2D"])
    fills = [move for move in sm.legal_moves(SP, position, 0) if isinstance(move, Fill)]
    assert [str(move) for move in fills] == [f"S0.P2:7H>P{n}" for n in (1, 4, 5)]
    after = sm.apply_move(SP, position, fills[0])
    assert after.seats[0].stock[:2] == ((sm.parse_card("7H"),), (sm.parse_card("9C"),))
    error = refused(position, Fill(0, sm.parse_card("5D"), 2, 0))
    assert (error.reason, error.clause) == ("fill-single", "SP-8")
    assert refused(position, Fill(0, sm.parse_card("7H"), 1, 2)).reason == "slot-not-empty"


@pytest.mark.clause("SP-9")
def test_the_first_card_to_arrive_on_a_pile_lays_and_the_late_one_is_refused() -> None:
    position = play(["9C 4H"], ["9D 4S"], ["3C", "QD"])
    first = sm.apply_move(SP, position, Lay(1, sm.parse_card("4S"), 0, 0), 1)
    late = refused(first, Lay(0, sm.parse_card("4H"), 0, 0), 0)
    assert (late.reason, late.clause) == ("not-adjacent", "SP-6")
    assert first.centre[0][-1] == sm.parse_card("4S")  # a card laid stays
    game = play_arrival(SP, [game_bots(SP.simultaneous)["greedy"]] * 2, 4, ReactionTimes())
    assert game.final.outcome is not None and game.stale > 0
    assert [order for order, *_ in game.log] == list(range(len(game.log)))


@pytest.mark.clause("SP-10")
def test_when_nobody_can_move_both_spit_again_onto_their_own_piles() -> None:
    position = play(["9C 4H"], ["6S", "8S"], ["3C", "QD"], spit0="6D", spit1="10D")
    stuck = sm.apply_move(SP, position, Lay(0, sm.parse_card("4H"), 0, 0))
    assert SP.simultaneous.barrier(stuck) == "spit"
    assert SP.simultaneous.to_move(stuck) == (0, 1)
    error = refused(stuck, Lay(0, sm.parse_card("9C"), 0, 0))
    assert (error.reason, error.clause) == ("not-now", "SP-4")
    flipped = sm.apply_move(SP, sm.apply_move(SP, stuck, Spit(0)), Spit(1))
    assert flipped.centre == (cards("3C 4H 6D"), cards("QD 10D"))
    assert SP.simultaneous.barrier(flipped) == "" and flipped.seats[0].spit == ()
    assert sm.legal_moves(SP, flipped, 0) == (Lay(0, sm.parse_card("9C"), 0, 1),)
    assert sm.legal_moves(SP, flipped, 1) == ()


@pytest.mark.clause("SP-11")
@pytest.mark.clause("SP-12")
def test_a_seat_out_ends_the_round_and_the_first_slap_takes_its_pile() -> None:
    position = play(["4H"], ["9S KS"], ["8C 3C", "QD"], spit0="6D", spit1="7D")
    over = sm.apply_move(SP, position, Lay(0, sm.parse_card("4H"), 0, 0))
    assert over.phase == "slap" and over.out == 0 and over.outcome is None
    assert sm.legal_moves(SP, over, 1) == (Slap(1, 0), Slap(1, 1))
    first = sm.apply_move(SP, over, Slap(1, 1), 1)
    assert sm.legal_moves(SP, first, 0) == (Slap(0, 0),)
    error = refused(first, Slap(0, 1), 0)
    assert (error.reason, error.clause) == ("pile-taken", "SP-12")
    nxt = sm.apply_move(SP, first, Slap(0, 0), 0)
    assert nxt.round == 1 and nxt.phase == "spit"
    assert [s.held for s in nxt.seats] == [1 + 3, 3 + 1]  # stock and spit cards + pile taken


@pytest.mark.clause("SP-13")
def test_a_new_round_gathers_shuffles_and_lays_out_again() -> None:
    state = play(["4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C 3D 4D 5D 6D"], ["9S KS"],
                 ["3C 8C", "QD"], spit0="", spit1="7D")
    state = attrs.evolve(state, phase="slap", out=None)
    after = sm.apply_move(SP, sm.apply_move(SP, state, Slap(0, 1)), Slap(1, 0))
    assert [len(p) for p in after.seats[0].stock] == [1, 2, 3, 4, 5]
    assert len(after.seats[0].spit) == 17 - 15 and after.shuffles == state.shuffles + 2


@pytest.mark.clause("SP-14")
@pytest.mark.clause("SP-15")
def test_fewer_than_15_cards_no_spit_one_pile_and_the_seat_out_takes_nothing() -> None:
    state = play(["4H 5H 6H 7H"], ["9S KS"], ["3C 8C", "QD"],
                 spit1="7D 8D 9D 10D JD QC KC AC 2H 3H 4C 5C 6C 7C 8H 9H")
    state = attrs.evolve(state, phase="slap")
    after = sm.apply_move(SP, sm.apply_move(SP, state, Slap(1, 1)), Slap(0, 0))
    assert [len(p) for p in after.seats[0].stock] == [1, 2, 3, 0, 0]  # 6 cards, in order
    assert after.seats[0].spit == () and SP.simultaneous.to_move(after) == (1,)
    one = sm.apply_move(SP, after, Spit(1))
    assert len(one.centre) == 1 and one.spitters == (1,)
    assert len(one.seats[1].spit) == 3


@pytest.mark.clause("SP-15")
def test_with_one_pile_the_seat_out_first_takes_nothing() -> None:
    single = play(["4H"], ["8S"], ["9D 3C"], spit0="2D", spitters=(0,))
    out = sm.apply_move(SP, single, Lay(0, sm.parse_card("4H"), 0, 0))
    assert out.round == 1 and [s.held for s in out.seats] == [1, 1 + 3]


@pytest.mark.clause("SP-16")
def test_out_with_no_spit_card_wins_the_standard_game() -> None:
    position = play(["4H"], ["9S KS"], ["3C", "QD"], spit1="7D")
    won = sm.apply_move(SP, position, Lay(0, sm.parse_card("4H"), 0, 0))
    assert won.outcome == sm.Outcome("win", 0, (3, 0))
    assert "no spit card wins" in SP.clause("SP-16").text


@pytest.mark.clause("SP-16")
def test_the_points_game_scores_cards_held_and_the_lowest_wins_at_the_target() -> None:
    position = play(["4H"], ["9S KS"], ["3C", "QD"], spit0="5C", spit1="7D",
                    scores=(40, 98))
    game = POINTS.simultaneous
    ended = game.apply(position, Lay(0, sm.parse_card("4H"), 0, 0))
    assert ended.outcome == sm.Outcome("win", 0, (41, 101))
    assert "lowest score wins" in POINTS.clause("SP-16").text


@pytest.mark.clause("SP-17")
def test_the_move_limit_ends_a_game_with_no_winner() -> None:
    short = sm.load("spit", params={"turn_limit": 10})
    game = play_arrival(short, [game_bots(short.simultaneous)["random"]] * 2, 1,
                        ReactionTimes())
    assert game.outcome.kind == "turn-limit" and game.outcome.winner is None
    assert len(game.log) == 10


@pytest.mark.clause("SP-18")
def test_no_move_once_the_game_has_ended() -> None:
    won = attrs.evolve(play(["4H"], ["9S"], ["3C"]), outcome=sm.Outcome("win", 0, (1, 0)))
    assert sm.legal_moves(SP, won) == ()
    error = refused(won, Lay(0, sm.parse_card("4H"), 0, 0))
    assert (error.reason, error.clause) == ("game-over", "SP-18")


def test_move_texts_read_back() -> None:
    for move in (Lay(0, sm.parse_card("10H"), 2, 1), Fill(1, sm.parse_card("AS"), 4, 0),
                 Spit(1), Slap(0, 1)):
        assert parse_spit_move(str(move)) == move
    with pytest.raises(sm.NotationError, match="not a Spit move"):
        parse_spit_move("9H>B1")


@pytest.mark.parametrize(("text", "move"), [
    ("S0 . P3 : 9H > C1", "S0.P3:9H>C1"),
    ("  S0.P3:10H >P1\t", "S0.P3:10H>P1"),
    ("S1 :\tspit", "S1:spit"),
    ("S1 : slap > C2", "S1:slap>C2"),
])
def test_spaces_around_the_parts_of_a_spit_move_are_read_as_absent(text: str,
                                                                   move: str) -> None:
    """``S0 . P3 : 9H > C1`` was refused as "not a Spit move", where the main parser reads
    ``S2 . D3 : 9H > B1``; both now read spaces around the parts alike, the server's table
    and a game's record through the rule set's parser too."""
    assert str(parse_spit_move(text)) == move
    assert str(SP.simultaneous.parse_move(text)) == move  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "words"), [
    ("S 0.P3:9H>C1", "'S 0': no space inside a part; write S0"),
    ("S0.P 3:9H>C1", "'P 3': no space inside a part; write P3"),
    ("S0.P3:9 H>C1", "'9 H': no space inside a part; write 9H"),
    ("S0.P3:10 H>C1", "'10 H': no space inside a part; write 10H"),
    ("S0.P3:9H>C 1", "'C 1': no space inside a part; write C1"),
    ("S1:sl ap>C2", "'sl ap': no space inside a part; write slap"),
    ("S0.P3:9H 9S>C1", "'9H 9S': no space inside a part; write one card, 9H or 9S"),
    # joined by a spaced '+' this was read as the card '9H+9S' and refused as no card
    ("S0.P3:9H + 9S>C1", "'9H+9S': a move here names one card; write one card, 9H or 9S"),
    # text after a whole move was joined to its last part ("write C1S1")
    ("S0.P3:9H>C1\nS1:spit", "unexpected text 'S1:spit' after the move 'S0.P3:9H>C1': "
                             "write one move at a time"),
    ("S1:spit now", "unexpected text 'now' after the move 'S1:spit'"),
])
def test_spaces_inside_a_part_of_a_spit_move_are_refused_naming_the_part(
        text: str, words: str) -> None:
    with pytest.raises(sm.NotationError) as refused:
        parse_spit_move(text)
    assert words in str(refused.value) and refused.value.reason == "not-a-move"


def test_a_spit_move_too_long_is_refused_before_it_is_read() -> None:
    with pytest.raises(sm.NotationError, match=r"is 100 characters long; a move has at most "
                       r"64, as 'S0.P3:9H>C1'") as refused:
        parse_spit_move("S0.P3:9H>C1" + " " * 89)
    assert refused.value.reason == "too-long"


def test_spit_refuses_parameters_it_does_not_read_and_house_rules() -> None:
    with pytest.raises(sm.RulesetError, match="does not read packs"):
        sm.load("spit", params={"packs": 2})
    with pytest.raises(sm.RulesetError, match=r"spit's seats move at once, and no plugin can "
                       r"stack on it \(plugins change the turn-based game, which it does not "
                       r"play\): mandatory-aces given"):
        sm.load("spit", ["mandatory-aces"])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), lineup=st.lists(st.sampled_from(sorted(BOTS)), min_size=2,
                                                  max_size=2))
def test_random_games_end_with_a_declared_outcome(seed: int, lineup: list[str]) -> None:
    # SP-16..SP-18: every game ends won, drawn (the points game) or at the move limit, and
    # the end is the final state's; no move follows it.
    game = play_arrival(SP, [BOTS[name] for name in lineup], seed, ReactionTimes())
    outcome = game.outcome
    assert outcome.kind in ("win", "drawn", "turn-limit")
    assert (outcome.winner is not None) == (outcome.kind == "win")
    assert game.final.outcome == outcome  # type: ignore[attr-defined]
    assert sm.legal_moves(SP, game.final) == ()  # type: ignore[arg-type]
    assert len(game.log) <= SP.ruleset.turn_limit


def test_a_view_from_a_seat_past_any_bound_is_refused_in_the_librarys_words() -> None:
    # issue 38 class 7: a huge seat number is named, never printed in full
    state = sm.deal(SP, 1)
    with pytest.raises(sm.SpiteMaliceError, match="not a whole number of about 5,001 digits"):
        state.view(10**5000)  # type: ignore[attr-defined]
