"""Position notation: round trips for every rule set, the grammar by example, bad input."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.positions import position, run
from helpers.walks import RULESETS, book, configs_of, picks, seeds, states_of
from hypothesis import given, settings
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.cards import parse_cards
from spitemalice.cli import main
from spitemalice.engine.views import view_of
from spitemalice.errors import NotationError, PositionError
from spitemalice.formats import (
    describe_position,
    describe_view,
    format_position,
    format_view,
    parse_position,
    parse_view,
)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12)
@given(data=st.data(), seed=seeds, choices=picks, finish=st.booleans())
def test_printing_and_parsing_a_state_gives_an_equal_state(ruleset, data, seed, choices,
                                                            finish) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    states = states_of(rules, seed, choices, finish)
    for state in states[:: max(1, len(states) // 30)] + states[-1:]:
        text = format_position(state)
        again = parse_position(text, rules)
        assert again == state and hash(again) == hash(state)
        assert format_position(again) == text


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12)
@given(data=st.data(), seed=seeds, choices=picks)
def test_printing_and_parsing_a_view_gives_an_equal_view(ruleset, data, seed, choices) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    for state in states_of(rules, seed, choices)[::5]:
        for seat in range(rules.players):
            view = view_of(state, seat)
            text = format_view(view)
            assert parse_view(text, rules) == view
            assert "seed=" not in text and "shuffles=" not in text


def test_a_parsed_position_keeps_its_future(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 21)
    for _ in range(40):
        state = sm.apply_move(bf, state, sm.legal_moves(bf, state)[-1])
    again = parse_position(format_position(state), bf)
    for _ in range(40):
        move = sm.legal_moves(bf, state)[0]
        state, again = sm.apply_move(bf, state, move), sm.apply_move(bf, again, move)
        assert again == state


# -- the grammar by example ----------------------------------------------------------------

SMALL = ("AS,9H:5H,KC:-|4S|-|-/2S:-:-|-|-|- AH,2H|AC - - "
         "on=1 turn=3 moves=2 idle=0 seed=5 shuffles=1")


def test_a_small_position_reads_as_written(bf: sm.RuleBook) -> None:
    state = parse_position(SMALL, bf)
    assert state.seats[0].payoff == (parse_cards("AS 9H"),)
    assert state.seats[0].hand == parse_cards("5H KC")
    assert state.seats[0].discards == ((), parse_cards("4S"), (), ())
    assert state.seats[1].payoff == (parse_cards("2S"),)
    assert state.seats[1].hand == ()
    assert state.builds == (parse_cards("AH 2H"), parse_cards("AC"))
    assert state.draw == () and state.completed == ()
    assert (state.seat, state.turn, state.turn_moves, state.idle_turns) == (1, 3, 2, 0)
    assert (state.seed, state.shuffles, state.outcome) == (5, 1, None)
    assert format_position(state) == SMALL


def test_counters_default_to_zero_and_whitespace_may_wrap(bf: sm.RuleBook) -> None:
    state = parse_position("AS:5H:-|-|-|-/2S:-:-|-|-|-\n  -  -  -\n on=0", bf)
    assert (state.turn, state.turn_moves, state.idle_turns, state.seed, state.shuffles) == (
        0, 0, 0, 0, 0)


def test_rest_fills_the_draw_pile_with_the_cards_not_placed(bf: sm.RuleBook) -> None:
    state = parse_position("AS:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0", bf)
    expected = position(bf, hands=["5H"], payoffs=["AS", "2S"])
    assert Counter(state.draw) == Counter(expected.draw)
    assert Counter(state.all_cards()) == Counter(bf.deck.cards)
    assert state.draw[-1].rank == 13, "the highest card lies on top"


def test_an_outcome_round_trips(bf: sm.RuleBook) -> None:
    text = "-:5H:-|-|-|-/2S:-:-|-|-|- - - - on=1 turn=9 end=win:0:6,0"
    state = parse_position(text, bf)
    assert state.outcome == sm.Outcome("win", 0, (6, 0))
    assert parse_position(format_position(state), bf) == state
    drawn = parse_position("AS:-:-|-|-|-/2S:-:-|-|-|- - - - on=0 end=drawn:-:0,0", bf)
    assert drawn.outcome == sm.Outcome("drawn", None, (0, 0))


def test_misery_writes_two_pay_off_piles_per_seat() -> None:
    misery = sm.load("misery")
    state = parse_position("AS|9H,2S:-:-|-|-|-/3C|4C:-:-|-|-|- - - - on=0", misery)
    assert state.seats[0].payoff == (parse_cards("AS"), parse_cards("9H 2S"))
    assert state.seats[1].payoff == (parse_cards("3C"), parse_cards("4C"))


def test_a_wild_card_in_a_build_pile_keeps_its_identity(bf: sm.RuleBook) -> None:
    state = parse_position(f"AS:-:-|-|-|-/2S:-:-|-|-|- {run(3).replace(' ', ',')},KH - - on=0",
                           bf)
    assert state.builds[0][-1] == sm.Card(13, "H")


def test_a_view_shows_hidden_piles_as_counts(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 3)
    text = format_view(view_of(state, 0))
    seat0, seat1 = text.split()[0].split("/")
    assert seat0.startswith("?25,") and seat1.startswith("?25,")
    assert seat1.split(":")[1] == f"?{len(state.seats[1].hand)}"
    assert f"?{len(state.draw)}" in text.split()
    assert "view=0" in text


def test_describe_lays_out_a_position_and_a_view(bf: sm.RuleBook) -> None:
    state = parse_position(SMALL, bf)
    text = describe_position(state)
    assert "seat 1 (on turn)" in text
    assert "9H (2 cards)" in text
    assert "1: AH 2H  (next rank 3)" in text
    assert "seed 5" in text
    view = describe_view(view_of(state, 0))
    assert "5H KC" in view and "seed" not in view


# -- bad input -----------------------------------------------------------------------------

SEAT1 = "2S:-:-|-|-|-"


@pytest.mark.parametrize(("text", "words"), [
    ("AS:5H:-|-|-|-", "four sections"),
    (f"AS:5H/{SEAT1} - - -", "on=<seat>"),
    (f"AS:XX:-|-|-|-/{SEAT1} - - - on=0", "seat 0 hand"),
    ("AS:5H:-|-|-|-/2S:-:-|-|?3|- - - - on=0", "seat 1 discard pile 3"),
    (f"?25,AS:5H:-|-|-|-/{SEAT1} - - - on=0", "seat 0 pay-off pile 1"),
    (f"AS:5H:-|-|-|-/{SEAT1} - ?80 - on=0", "draw pile"),
    (f"AS:5H/{SEAT1} - - - on=0", "'<pay-off piles>:<hand>:<discard piles>'"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 shufles=2", "did you mean \"shuffles\""),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 on=1", "given twice"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=x", "whole number"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=won:0:1,0", "the kind is one of"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=win:0", "end=<kind>"),
    # an Outcome's own fields disagree (the Outcome class refuses them; the parser says where)
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=drawn:1:0,0",
     "end='drawn:1:0,0': Outcome.winner is a seat when kind is \"win\" and None otherwise"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=win:-:0,0", "not None with kind \"win\""),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=win:2:0,0", "below 2 (one score per seat), not 2"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 turn", "key=value"),
    (f"AS:5H,,6H:-|-|-|-/{SEAT1} - - - on=0", "seat 0 hand: '' is not a card"),
    (f"AS::-|-|-|-/{SEAT1} - - - on=0", "write '-' for an empty pile"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 view=0", "read it with parse_view"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 foo=1", "'foo' is unknown; the fields are on, turn, "
     "moves, idle, seed, shuffles, end, teams (and view, in a seat's view)"),
])
def test_text_outside_the_grammar_is_refused_naming_the_part(bf, text, words) -> None:
    with pytest.raises(NotationError) as caught:
        parse_position(text, bf)
    assert words in str(caught.value)


@pytest.mark.parametrize(("text", "words"), [
    (f"AS:5H:-|-|-|-/{SEAT1} AS,3H - - on=0", "build pile 1 card 2 is 3H"),
    (f"AS:5H:-|-|-|-/{SEAT1} KS - - on=0", "build pile 1 card 1 is KS"),
    (f"AS:5H:-|-|-|-/{SEAT1} AS,2S,3S,4S,5S,6S,7S,8S,9S,10S,JS,QS - - on=0", "rank A to J"),
    (f"AS:5H:-|-|-|-/{SEAT1} AH|AH|AH|AC|AD - - on=0", "allows 4"),
    (f"AS:AS,AS,AS:-|-|-|-/{SEAT1} - - - on=0", "4 x AS"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - * on=0", "1 x *; the blackwood-frey deck holds 0"),
    (f"AS:2H,3H,4H,5H,6H,7H:-|-|-|-/{SEAT1} - - - on=0", "hand holds 6 cards"),
    (f"AS|2C:5H:-|-|-|-/{SEAT1} - - - on=0", "2 pay-off piles"),
    (f"AS:5H:-|-|-/{SEAT1} - - - on=0", "3 discard piles"),
    (f"AS:5H:-|AC|-|-/{SEAT1} - - - on=0", "may not be discarded"),
    (f"AS:5H:-|-|-|-/{SEAT1}/{SEAT1} - - - on=0", "players=3"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=2", "seats are 0 to 1"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=win:3:0,0,0,0", "names the winning seat, 0 to 1"),
    (f"AS:5H:-|-|-|-/{SEAT1} - - - on=0 end=blocked:-:0", "one each"),
])
def test_a_position_that_breaks_the_rule_set_is_refused(bf, text, words) -> None:
    with pytest.raises(PositionError) as caught:
        parse_position(text, bf)
    assert words in str(caught.value)


@pytest.mark.parametrize(("text", "words"), [
    ("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - ?80 - on=0", "'view=<seat>'"),
    ("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - ?80 - view=0 on=0 seed=4", "a view has no seed"),
    ("?3,AS:5H:-|-|-|-/?2,2S:3H:-|-|-|- - ?80 - view=0 on=0", "seat 1 hand"),
    ("?3,AS:5H:-|-|-|-/2S,?2:?5:-|-|-|- - ?80 - view=0 on=0", "top card of a pay-off pile"),
    ("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - rest - view=0 on=0", "not 'rest'"),
    ("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - 9C - view=0 on=0", "only as a count"),
    ("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - ?80 - view=2 on=0", "view=2"),
    ("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - ?80 - view=0 foo=1", "'foo' is unknown; the "
     "fields are view, on, turn, moves, idle, end, teams"),
])
def test_a_bad_view_is_refused(bf, text, words) -> None:
    with pytest.raises(NotationError) as caught:
        parse_view(text, bf)
    assert words in str(caught.value)


def test_a_view_with_more_cards_than_the_deck_is_refused(bf: sm.RuleBook) -> None:
    with pytest.raises(PositionError, match="the position holds 157 cards"):
        parse_view("?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - ?144 - view=0 on=0", bf)
    with pytest.raises(PositionError, match="hand holds 7 cards"):
        parse_view("AS:5H:-|-|-|-/2S:?7:-|-|-|- - - - view=0 on=0", bf)


def test_a_view_text_is_refused_as_a_full_position(bf: sm.RuleBook) -> None:
    text = format_view(view_of(sm.deal(bf, 1), 0))
    with pytest.raises(NotationError, match="read it with parse_view"):
        parse_position(text, bf)
    with pytest.raises(NotationError, match="hides cards"):
        parse_position(text.replace("view=0 ", ""), bf)


def test_the_errors_are_value_errors(bf: sm.RuleBook) -> None:
    for bad in ("", "AS", f"AS:5H:-|-|-|-/{SEAT1} KS - - on=0"):
        with pytest.raises(ValueError):
            parse_position(bad, bf)


def test_the_example_in_the_grammar_parses(bf: sm.RuleBook) -> None:
    import spitemalice.formats.notation as notation

    doc = notation.__doc__ or ""
    example = doc.split("seat 1 is on turn::", 1)[1].split("\n\n")[1]
    state = parse_position(example, bf)
    assert state.seats[0].payoff[0][-1] == sm.Card(9, "H") and state.seat == 1
    assert state.seats[0].discards[1] == parse_cards("4S")
    assert state.builds == (parse_cards("AS 2H"), parse_cards("AH"))


POSITION = "AS:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0"


@pytest.mark.parametrize("text", [POSITION, POSITION + " view=0", "x"])
def test_a_rule_set_whose_seats_move_at_once_has_no_position_text(
        text: str, capsys: pytest.CaptureFixture[str]) -> None:
    spit = sm.load("spit")
    for parse in (sm.parse_position, parse_view):
        with pytest.raises(sm.NotationError, match="spit's seats move at once") as caught:
            parse(text, spit)
        assert caught.value.reason == "no-notation"
    # show says so before any fault of the text (which the notation would name otherwise).
    assert main(["show", "--ruleset", "spit", text]) == 2
    assert "replay --seat N RECORD" in capsys.readouterr().err
