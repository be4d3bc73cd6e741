"""Scenario tests for the skip-bo rule sheet: one at least per clause (SK-1 ... SK-25)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import attrs
import pytest
from helpers import sheet_checks as check
from helpers.positions import position

import spitemalice as sm
from spitemalice.cards import SKIP_BO, card_text
from spitemalice.engine.invariants import check_state
from spitemalice.formats import (
    describe_position,
    describe_view,
    dumps_state,
    dumps_view,
    format_view,
    loads_state,
    loads_view,
    parse_view,
)
from spitemalice.formats.picture import position_svg
from spitemalice.study.simulate import simulate

NO_STARS = {"draw_pack": 52, "jokers": 0, "wild_ranks": "none"}  # starturn without stars

SK = sm.load("skip-bo")
SB = "SB"


def pile(top: int) -> str:
    return " ".join(str(value) for value in range(1, top + 1))


def pile_bf(top: int) -> str:
    names = {1: "A", 11: "J", 12: "Q"}
    return " ".join(f"{names.get(value, value)}S" for value in range(1, top + 1))


def pile_cards(top: int) -> tuple[sm.Card, ...]:
    return tuple(sm.parse_card(str(value)) for value in range(1, top + 1))


@pytest.mark.clause("SK-1")
def test_162_cards_twelve_of_each_number_and_18_skip_bo_cards() -> None:
    counts = Counter(card.rank for card in SK.deck.cards)
    assert SK.deck.size == 162 and counts[0] == 18
    assert all(counts[number] == 12 for number in range(1, 13)) and max(counts) == 12
    assert Counter(SK.deck.cards)[SKIP_BO] == 18
    assert card_text(SKIP_BO) == "SB" and sm.parse_card("sb") == SKIP_BO
    assert "162 cards" in SK.clause("SK-1").text


@pytest.mark.clause("SK-1")
def test_a_separate_pay_off_pack_is_taken_as_the_base_rules_state_it() -> None:
    # payoff_pack is one of Ruleset's deck values; the deck hook ignored it, and loading
    # refused the rule set's own parameter with a message about plugin internals
    separate = sm.load("skip-bo", payoff_pack=60)
    assert len(separate.deck.cards) == 162 and Counter(separate.deck.cards)[SKIP_BO] == 18
    assert separate.deck.payoff_cards is not None
    assert Counter(card.rank for card in separate.deck.payoff_cards) == {n: 5 for n in
                                                                         range(1, 13)}
    assert "separate pack of 60 numbered cards 1 to 12" in separate.clause("SK-1").text
    assert "separate" not in SK.clause("SK-1").text
    state = sm.deal(separate, 3)
    payoff_cards = [card for seat in state.seats for pile in seat.payoff for card in pile]
    assert len(payoff_cards) == 60 and SKIP_BO not in payoff_cards  # dealt from its own pack
    summary = simulate(separate, ["greedy", "greedy"], games=6, seed=1)
    assert summary.outcomes["win"] + summary.outcomes["drawn"] == 6
    # SK-1: pay-off cards left over join the draw pile (120 cards, 60 dealt)
    larger = sm.load("skip-bo", payoff_pack=120)
    assert "left over after the deal join the draw pile" in larger.clause("SK-1").text
    assert len(sm.deal(larger, 3).draw) == 162 - 2 * 5 + 60  # all of the deck but the hands
    # SK-9: payoff_size 0 shares the pack out
    shared = sm.load("skip-bo", players=3, payoff_pack=60, payoff_size=0, payoff_size_many=0)
    assert "an equal share of the separate pay-off pack (payoff_size" in \
        shared.clause("SK-9").text and "0 cards" not in shared.clause("SK-9").text
    assert [len(pile) for seat in sm.deal(shared, 3).seats for pile in seat.payoff] == [20] * 3
    # a pack too small to share out is refused naming the pack, not the whole deck
    with pytest.raises(sm.RulesetError, match=r"the separate pay-off pack of 2 cards cannot "
                       r"deal each of 3 seats 1 pay-off pile of at least 1 card "
                       r"\(payoff_size\): 3 cards"):
        sm.load("skip-bo", players=3, payoff_pack=2, payoff_size=0, payoff_size_many=0)
    # from 5 seats the size is payoff_size_many's, and the message names it
    with pytest.raises(sm.RulesetError, match=r"1 pay-off pile of 20 cards \(payoff_size_many, "
                       r"from 5 seats\): 120 cards"):
        sm.load("skip-bo", players=6, payoff_pack=5, payoff_size=0)


@pytest.mark.clause("SK-1")
@pytest.mark.parametrize(("given", "packs"), [({"packs": 1}, 1),
                                              ({"packs": 1, "packs_per_seat": True}, 2),
                                              ({"packs": 3, "build_ceiling": 13}, 3)])
def test_standard_packs_a_user_sets_are_dealt_with_skip_bo_cards(given: dict[str, object],
                                                                  packs: int) -> None:
    # the deck hook ignored packs and packs_per_seat, and loading refused the user's values
    # with a message about plugin internals; the jokers given hold as given (SK-26)
    rules = sm.load("skip-bo", draw_pack=0, jokers=18, **given)
    kinds = Counter("SB" if card == SKIP_BO else "suited" if card.suit else "other"
                    for card in rules.deck.cards)
    assert kinds == {"suited": 52 * packs, "SB": 18}
    words = "1 standard pack of" if packs == 1 else f"{packs} standard packs of"
    kings = "" if rules.ruleset.build_ceiling == 13 else \
        "; A to Q are 1 to 12, the kings SKIP-BO cards: SK-26"  # K2
    assert f"The deck is {52 * packs + 18} cards: {words} 52 cards A to K in four suits " \
        f"(packs{kings}) and 18 wild SKIP-BO cards" in rules.clause("SK-1").text
    assert "suits do not exist" not in rules.clause("SK-1").text
    assert "suits do not exist" in SK.clause("SK-1").text
    # jokers the user sets to 0 are not named; jokers_per_pack is named where it adds some
    assert "SKIP-BO cards (jokers" not in sm.load("skip-bo", draw_pack=0, jokers=0,
                                                  payoff_size=20, **given).clause("SK-1").text
    per_pack = sm.load("skip-bo", draw_pack=0, jokers=0, jokers_per_pack=2, payoff_size=20,
                       **given)
    assert f"{2 * packs} wild SKIP-BO cards (jokers, jokers_per_pack)" in \
        per_pack.clause("SK-1").text
    state = sm.deal(rules, 2)
    assert sorted(state.all_cards()) == sorted(rules.deck.cards)
    summary = simulate(rules, ["greedy", "greedy"], games=4, seed=1)
    assert sum(summary.outcomes.values()) == 4


@pytest.mark.clause("SK-1")
def test_skip_bo_cards_read_back_from_every_text_form() -> None:
    state = position(SK, hands=["SB 3 7"], discards=[["SB"]], builds=["SB 2"],
                     payoffs=["5 SB"])
    text = sm.format_position(state)
    assert "SB" in text and sm.parse_position(text, SK) == state
    assert loads_state(dumps_state(state), SK) == state
    assert str(sm.parse_move("D1:SB>B1")) == "D1:SB>B1"


@pytest.mark.clause("SK-2")
def test_two_to_six_players() -> None:
    for players in range(2, 7):
        assert sm.load("skip-bo", players=players).players == players
    with pytest.raises(sm.RulesetError, match="2 to 6 players, not 7"):
        sm.load("skip-bo", players=7)


@pytest.mark.clause("SK-3")
def test_build_piles_rise_by_one_from_1() -> None:
    state = position(SK, hands=["5 4 2"], builds=[pile(3)])
    error = check.refused(SK, state, "5>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "SK-3")
    error = check.refused(SK, state, "2>B+")
    assert (error.reason, error.clause) == ("wrong-rank", "SK-3")
    assert len(check.play(SK, state, "4>B1").builds[0]) == 4


@pytest.mark.clause("SK-4")
def test_a_skip_bo_card_is_wild_and_may_start_a_pile() -> None:
    state = position(SK, hands=["SB SB 9"], builds=[pile(11)])
    moves = sm.legal_moves(SK, state)
    assert sm.parse_move("SB>B+") in moves and sm.parse_move("SB>B1") in moves
    after = check.play(SK, state, "SB>B+")
    assert after.builds[-1] == (SKIP_BO,)
    after = check.play(SK, state, "SB>B1")  # stands for 12 and completes the pile
    assert after.builds == () and len(after.completed) == 12


@pytest.mark.clause("SK-5")
def test_at_most_four_shared_build_piles() -> None:
    four = position(SK, hands=["1 9"], builds=["1", "1 2", "1", "SB"])
    error = check.refused(SK, four, "1>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "SK-5")
    three = position(SK, hands=["", "1 9"], builds=["1", "1 2", "1"], seat=1)
    assert len(check.play(SK, three, "1>B+").builds) == 4  # seat 1 builds where seat 0 did


@pytest.mark.clause("SK-6")
@pytest.mark.clause("SK-7")
def test_completed_piles_set_aside_until_the_draw_pile_runs_out() -> None:
    check.set_aside_then_recycled(SK)


ELECTRONIC = sm.load("skip-bo", recycle_under_tops=True)


@pytest.mark.clause("SK-7")
def test_electronic_edition_recycles_the_cards_under_the_build_pile_tops() -> None:
    assert "recycle_under_tops = false" in SK.clause("SK-7").text
    assert "cards under the top card of every build" in ELECTRONIC.clause("SK-7").text
    state = position(ELECTRONIC, hands=["5"], builds=[pile(4), pile(7)], payoffs=["9", "8"],
                     draw="")
    after = check.play(ELECTRONIC, state, "5>B1")
    # Ten cards lay under the tops (1-4 and 1-6): shuffled into a new draw pile, five drawn.
    assert after.outcome is None and after.seat == 0
    assert [card_text(p[-1]) for p in after.builds] == ["5", "7"] and after.build_tops == (5, 7)
    assert after.builds == (pile_cards(5)[-1:], pile_cards(7)[-1:])
    assert after.build_removed == (4, 6) and len(after.draw) == 5
    assert sorted(after.draw + after.seats[0].hand) == sorted(pile_cards(4) + pile_cards(6))
    # Without the option the same draw finds nothing: the game ends drawn.
    assert check.play(SK, state, "5>B1").outcome.kind == "drawn"  # type: ignore[union-attr]


@pytest.mark.clause("SK-7")
def test_a_recycled_build_pile_goes_on_from_its_rank_and_completes_at_12() -> None:
    state = attrs.evolve(position(ELECTRONIC, hands=["6 2 12 SB"], builds=["5", "11"],
                                  payoffs=["9", "8"]), build_removed=(4, 10))
    assert state.build_tops == (5, 11)
    assert check.refused(ELECTRONIC, state, "2>B1").reason == "wrong-rank"
    after = check.play(ELECTRONIC, state, "6>B1")
    assert after.builds[0] == pile_cards(6)[-2:] and after.build_tops == (6, 11)
    done = check.play(ELECTRONIC, after, "12>B2")  # 10 recycled + 11 + 12: the pile is done
    assert len(done.builds) == 1 and done.build_removed == (4,)
    assert done.completed == pile_cards(12)[-2:]
    wild = check.play(ELECTRONIC, done, "SB>B1")  # a wild stands for 7 on the 6
    assert wild.build_tops == (7,) and wild.build_removed == (4,)
    for text in (sm.format_position(state), dumps_state(state)):
        again = (sm.parse_position(text, ELECTRONIC) if text[0] != "{"
                 else loads_state(text, ELECTRONIC))
        assert again == state and again.build_removed == (4, 10)


@pytest.mark.clause("SK-7")
def test_recycled_counts_in_every_form_that_states_a_position() -> None:
    state = attrs.evolve(position(ELECTRONIC, hands=["6 2 12 SB"], builds=["5", "SB"],
                                  payoffs=["9", "8"]), build_removed=(4, 10))
    text = sm.format_position(state)
    assert " ~4,5|~10,SB " in text
    view = sm.view_of(state, 1)
    assert view.build_removed == (4, 10) and view.build_tops == (5, 11)
    assert parse_view(format_view(view), ELECTRONIC) == view
    assert loads_view(dumps_view(view), ELECTRONIC) == view
    assert json.loads(dumps_view(view))["build_removed"] == [4, 10]
    assert "(4 recycled from under it, next rank 6)" in describe_position(state)
    assert "(10 recycled from under it, next rank 12)" in describe_view(view)
    labels = [t.text for t in ET.fromstring(position_svg(view)).iter(
        "{http://www.w3.org/2000/svg}text")]
    assert "4 recycled" in position_svg(state)
    assert labels[labels.index("B2: 11") + 1] == "(wild)"  # the label's second line
    assert sorted(str(m) for m in sm.legal_moves(ELECTRONIC, state) if str(m).endswith("B2")) == [
        "12>B2", "SB>B2"]
    # Absent when every count is 0, so older documents and texts read and print as before.
    plain = attrs.evolve(state, build_removed=(0, 0))
    assert plain.build_removed == () and "build_removed" not in dumps_state(plain)
    assert "~" not in sm.format_position(attrs.evolve(plain, builds=(pile_cards(5), )))


@pytest.mark.clause("SK-7")
def test_recycled_counts_the_rules_cannot_hold_are_refused() -> None:
    state = attrs.evolve(position(ELECTRONIC, hands=["6"], builds=["5"], payoffs=["9", "8"]),
                         build_removed=(4,))
    text = sm.format_position(state)
    with pytest.raises(sm.SpiteMaliceError, match="does not recycle them"):
        sm.parse_position(text, SK)
    with pytest.raises(sm.SpiteMaliceError, match="stands at rank 1 to 11"):
        sm.parse_position(text.replace("~4,5", "~11,5"), ELECTRONIC)
    with pytest.raises(sm.SpiteMaliceError, match="cannot stand for rank 4"):
        sm.parse_position(text.replace("~4,5", "~3,6"), ELECTRONIC)
    with pytest.raises(sm.SpiteMaliceError, match="not a count of recycled cards"):
        sm.parse_position(text.replace("~4,5", "~x,5"), ELECTRONIC)
    with pytest.raises(sm.SpiteMaliceError,
                       match=r"'~0' is not a count of recycled cards, a whole number of 1 or "
                             r"more; .* \(a pile with nothing recycled is written without '~'"):
        sm.parse_position(text.replace("~4,5", "~0,5"), ELECTRONIC)
    with pytest.raises(sm.SpiteMaliceError, match="'~4' names no pile"):
        sm.parse_position(text.replace("~4,5", "~4,"), ELECTRONIC)
    data = json.loads(dumps_state(state))
    data["build_removed"] = [4, 1]
    with pytest.raises(sm.SpiteMaliceError, match=r"build_removed holds one count per build "
                                                  r"pile, or none: 2 for 1 build pile"):
        loads_state(json.dumps(data), ELECTRONIC)  # (the state's constructor refuses it)
    with pytest.raises(sm.RulesetError, match="option of the rule set skip-bo"):
        sm.load("blackwood-frey", recycle_under_tops=True)


@pytest.mark.clause("SK-8")
def test_empty_draw_pile_and_nothing_set_aside_ends_drawn_with_no_score() -> None:
    after = check.empty_draw_pile_ends_drawn(SK)
    assert after.outcome is not None and after.outcome.scores == (0, 0)
    short = position(SK, hands=["5"], builds=[pile(4)], payoffs=["9", "8"], draw="3 SB")
    after = check.play(SK, short, "5>B1")
    assert after.outcome is None and after.seat == 0 and len(after.seats[0].hand) == 2
    # With the electronic edition's recycle, only when no card lies under a build-pile top.
    bare = attrs.evolve(position(ELECTRONIC, hands=["1"], builds=["4", "7"],
                                 payoffs=["9", "8"], draw=""), build_removed=(3, 6))
    ended = check.play(ELECTRONIC, bare, "1>B+")
    assert ended.outcome is not None and ended.outcome.kind == "drawn"
    assert "and no card under a build-pile top" in ELECTRONIC.clause("SK-8").text


@pytest.mark.clause("SK-9")
def test_pay_off_piles_30_for_2_to_4_players_20_for_5_and_6() -> None:
    for players, size in ((2, 30), (3, 30), (4, 30), (5, 20), (6, 20)):
        state = sm.deal(sm.load("skip-bo", players=players), seed=players)
        assert [seat.payoff_count for seat in state.seats] == [size] * players
    assert sm.load("skip-bo", payoff_size=10).deal.payoff_size == 10
    shared = sm.load("skip-bo", players=6, payoff_size=15, payoff_size_many=0)
    assert shared.deal.payoff_size == 15
    assert sm.load("skip-bo", players=6, payoff_size_many=12).deal.payoff_size == 12


@pytest.mark.clause("SK-9")
def test_only_the_pay_off_top_is_playable() -> None:
    state = position(SK, hands=["9"], builds=[pile(3)], payoffs=["4 7"])
    error = check.refused(SK, state, "P:4>B1")
    assert error.reason == "buried-card"
    empty = position(SK, hands=["9"], builds=[pile(3)], payoffs=[""])
    error = check.refused(SK, empty, "P:4>B1")
    assert (error.reason, error.clause) == ("empty-pile", "SK-9")


@pytest.mark.clause("SK-10")
def test_hand_of_five_and_five_more_when_it_empties() -> None:
    check.refill_at_turn_start(SK)
    check.empty_hand_draws_again(SK)


@pytest.mark.clause("SK-11")
def test_the_seat_after_the_dealer_plays_first() -> None:
    four = sm.load("skip-bo", players=4)
    for dealer in range(4):
        assert sm.deal(four, seed=3, dealer=dealer).seat == (dealer + 1) % 4
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.study.match import play_match

    result = play_match(SK, [GreedyPlayer(0), GreedyPlayer(1)], seed=2, max_games=3)
    assert [g.first_seat for g in result.games] == [(d + 1) % 2 for d in result.dealers]
    assert len(set(result.dealers)) == min(2, len(result.dealers))


@pytest.mark.clause("SK-11")
def test_the_modern_sheet_youngest_player_first() -> None:
    youngest = sm.load("skip-bo", players=3, first_seat="youngest")
    assert {sm.deal(youngest, seed=seed, dealer=seed % 3).seat for seed in range(6)} == {0}
    assert "youngest" in youngest.clause("SK-11").text


@pytest.mark.clause("SK-12")
def test_discard_piles_top_card_only_and_own_only() -> None:
    check.discard_piles_top_only(SK, "SK-12")


@pytest.mark.clause("SK-13")
def test_any_card_may_be_discarded_a_skip_bo_card_included() -> None:
    state = position(SK, hands=["SB 1 12"], discards=[["12 3 SB"]])
    for text in ("SB>D1", "1>D1", "12>D4"):
        assert sm.parse_move(text) in sm.legal_moves(SK, state)
    after = check.play(SK, state, "SB>D1")
    assert after.seats[0].discards[0][-1] == SKIP_BO and len(after.seats[0].discards[0]) == 4


@pytest.mark.clause("SK-14")
def test_a_skip_bo_card_on_a_discard_pile_stays_wild() -> None:
    state = position(SK, hands=["9"], discards=[["4 SB"]], builds=[pile(7)])
    moves = sm.legal_moves(SK, state)
    assert sm.parse_move("D1:SB>B1") in moves and sm.parse_move("D1:SB>B+") in moves
    after = check.play(SK, state, "D1:SB>B1")
    assert sm.build_ranks(after.builds[0])[-1] == 8 and after.builds[0][-1] == SKIP_BO


@pytest.mark.clause("SK-15")
def test_one_discard_ends_the_turn() -> None:
    check.one_card_discard_ends_turn(SK, "SK-15")


@pytest.mark.clause("SK-16")
def test_a_seat_may_discard_though_it_could_play() -> None:
    state = position(SK, hands=["1 9"], payoffs=["5", "6"])
    assert sm.parse_move("1>B+") in sm.legal_moves(SK, state)
    after = check.play(SK, state, "1>D1")
    assert after.seat == 1 and after.builds == ()


@pytest.mark.clause("SK-17")
def test_a_discard_that_empties_the_hand_draws_nothing_until_the_next_turn() -> None:
    state = position(SK, hands=["9", "3"], payoffs=["5", "6"])
    after = check.play(SK, state, "9>D1")
    assert after.seat == 1 and after.seats[0].hand == ()
    back = check.play(SK, after, "3>D1")
    assert back.seat == 0 and len(back.seats[0].hand) == 5


@pytest.mark.clause("SK-18")
def test_the_last_pay_off_card_wins_at_once() -> None:
    check.last_payoff_card_wins(SK)


@pytest.mark.clause("SK-19")
def test_winner_scores_25_plus_5_per_opposing_pay_off_card() -> None:
    three = sm.load("skip-bo", players=3)
    state = position(three, hands=["9"], builds=[pile(3)],
                     payoffs=["4", " ".join(["7"] * 7), " ".join(["8"] * 12)])
    after = check.play(three, state, "P:4>B1")
    assert after.outcome is not None and after.outcome.scores == (25 + 5 * 19, 0, 0)
    check.blocked(SK, (0, 0))


@pytest.mark.clause("SK-20")
def test_match_to_500() -> None:
    check.match_to(SK, 500)


@pytest.mark.clause("SK-21")
def test_only_the_seat_on_turn_moves() -> None:
    check.seat_on_turn(SK, "SK-21")


@pytest.mark.clause("SK-22")
def test_pass_only_when_stuck() -> None:
    check.pass_only_when_stuck(SK, "SK-22")


@pytest.mark.clause("SK-23")
def test_a_round_of_passes_is_blocked() -> None:
    check.blocked(SK, (0, 0))


@pytest.mark.clause("SK-24")
def test_turn_limit() -> None:
    check.turn_limit(SK)


@pytest.mark.clause("SK-25")
def test_no_move_after_the_end() -> None:
    check.game_over(SK, "SK-25")


def test_every_seat_count_plays_to_an_end_with_the_invariants_holding() -> None:
    for players in (2, 5, 6):
        rules = sm.load("skip-bo", players=players)
        state = sm.deal(rules, seed=players)
        assert check_state(rules, state) == []
        result = simulate(rules, ["greedy"], games=2, seed=players)
        assert sum(result.outcomes.values()) == 2
        assert result.players == players


NO_WILD = sm.load("skip-bo", ["no-wild-discards"])
SHORT = sm.load("skip-bo", ["short-payoff"])


@pytest.mark.clause("NW-1")
def test_house_rule_a_skip_bo_card_may_not_be_discarded() -> None:
    state = position(NO_WILD, hands=["SB 9"], payoffs=["5", "6"])
    error = check.refused(NO_WILD, state, "SB>D1")
    assert (error.reason, error.clause) == ("forbidden-discard", "NW-1")
    assert sm.parse_move("9>D1") in sm.legal_moves(NO_WILD, state)
    assert "SKIP-BO card" in NO_WILD.clause("NW-1").text
    bf = sm.load("blackwood-frey", ["no-wild-discards"])
    assert check.refused(bf, position(bf, hands=["KS 9S"]), "KS>D1").reason == "forbidden-discard"
    with pytest.raises(sm.RulesetError, match="starturn has no wild cards"):
        sm.load("starturn", ["no-wild-discards"], draw_pack=52, jokers=0, wild_ranks="none")


@pytest.mark.clause("NW-2")
def test_house_rule_a_hand_it_can_neither_play_nor_discard_passes() -> None:
    bf = sm.load("blackwood-frey", ["no-wild-discards"])
    stuck = position(bf, hands=["KS KH AD", "9C"], payoffs=["9D", "8D"], builds=[])
    assert sm.parse_move("AD>B+") in sm.legal_moves(bf, stuck)
    kings = position(bf, hands=["KS KH", "9C"], payoffs=["9D", "8D"], builds=[])
    assert sm.legal_moves(bf, kings) == (sm.Pass(),)
    busy = position(NO_WILD, hands=["SB SB"], payoffs=["5", "6"])
    assert sm.legal_moves(NO_WILD, busy) == (sm.parse_move("SB>B+"),)
    error = check.refused(NO_WILD, busy, sm.Pass())
    assert (error.reason, error.clause) == ("pass-not-allowed", "SK-22")


ON_WILD = sm.load("skip-bo", ["no-wild-on-wild"])
CEILING = sm.load("skip-bo", ["no-wild-ceiling"])


@pytest.mark.clause("NO-1")
def test_house_rule_no_two_skip_bo_cards_in_a_row() -> None:
    state = position(ON_WILD, hands=["SB 5 9"], builds=["1 2 3 SB", "1 2"],
                     payoffs=["SB", "6"], discards=[["SB"]])
    for move in ("SB>B1", "P1:SB>B1", "D1:SB>B1"):
        error = check.refused(ON_WILD, state, move)
        assert (error.reason, error.clause) == ("wild-on-wild", "NO-1")
        assert "build pile 1 has a wild card on top" in str(error)
    after = check.play(ON_WILD, state, "5>B1", "SB>B1")  # a natural first, then a wild again
    assert after.build_tops[0] == 6
    assert sm.parse_move("SB>B1") in sm.legal_moves(SK, state)  # the rule set alone allows it
    assert "SKIP-BO card" in ON_WILD.clause("NO-1").text
    bf = sm.load("blackwood-frey", ["no-wild-on-wild"])
    kings = position(bf, hands=["KS 9S"], builds=["AS 2S KH"], payoffs=["9D", "8D"])
    assert check.refused(bf, kings, "KS>B1").reason == "wild-on-wild"
    for name, rules in (("starturn has no wild cards", ["no-wild-on-wild"]),
                        ("change nothing with wild-must-be-covered",
                         ["wild-must-be-covered", "no-wild-on-wild"])):
        with pytest.raises(sm.RulesetError, match=name):
            sm.load("starturn" if "starturn" in name else "blackwood-frey", rules,
                    **NO_STARS if "starturn" in name else {})


@pytest.mark.clause("NO-2")
def test_house_rule_a_wild_still_starts_follows_a_number_and_is_discarded() -> None:
    state = position(ON_WILD, hands=["SB SB 9"], builds=["1 2 3", "1 SB"],
                     payoffs=["5", "6"])
    moves = sm.legal_moves(ON_WILD, state)
    for text in ("SB>B+", "SB>B1", "SB>D1"):
        assert sm.parse_move(text) in moves
    assert sm.parse_move("SB>B2") not in moves
    assert check.play(ON_WILD, state, "SB>B+").builds[-1] == (SKIP_BO,)


@pytest.mark.clause("NC-1")
def test_house_rule_a_skip_bo_card_never_stands_for_12() -> None:
    state = position(CEILING, hands=["SB 12"], builds=[pile(11), pile(10)],
                     payoffs=["SB", "6"])
    for move in ("SB>B1", "P1:SB>B1"):
        error = check.refused(CEILING, state, move)
        assert (error.reason, error.clause) == ("wild-excluded", "NC-1")
    assert sm.parse_move("SB>B1") in sm.legal_moves(SK, state)
    after = check.play(CEILING, state, "12>B1")  # a number completes the pile
    assert len(after.builds) == 1 and len(after.completed) == 12
    assert CEILING.ruleset.wild_excluded == frozenset({12})
    assert "may not stand for 12" in CEILING.clause("NC-1").text
    assert "from 1 to 11 (wild_excluded)" in CEILING.clause("SK-4").text
    bf = sm.load("blackwood-frey", ["no-wild-ceiling"])
    assert "may not stand for Q" in bf.clause("NC-1").text
    assert check.refused(bf, position(bf, hands=["KS"], builds=[pile_bf(11)]),
                         "KS>B1").reason == "wild-excluded"
    for name, rules in (("starturn has no wild cards", ["no-wild-ceiling"]),
                        ("change nothing with wild-must-be-covered",
                         ["wild-must-be-covered", "no-wild-ceiling"])):
        with pytest.raises(sm.RulesetError, match=name):
            sm.load("starturn" if "starturn" in name else "blackwood-frey", rules,
                    **NO_STARS if "starturn" in name else {})


@pytest.mark.clause("NC-1")
def test_house_rule_no_wild_ceiling_adds_to_the_parameters_given(tmp_path: Path) -> None:
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.formats import record_from_dict, record_result, record_to_dict, rules_for
    from spitemalice.runs.loop import play_game

    five = sm.load("skip-bo", ["no-wild-ceiling"], wild_excluded="5")
    assert five.ruleset.wild_excluded == frozenset({5, 12})
    state = position(five, hands=["SB 5"], builds=[pile(4), pile(11)], payoffs=["SB", "6"])
    for move in ("SB>B1", "SB>B2"):
        assert check.refused(five, state, move).reason == "wild-excluded"
    ten = sm.load("skip-bo", ["no-wild-ceiling"], build_ceiling=10)
    assert (ten.ruleset.build_ceiling, ten.ruleset.wild_excluded) == (10, frozenset({10}))
    assert "may not stand for 10" in ten.clause("NC-1").text
    nine = position(ten, hands=["SB"], builds=[pile(9)], payoffs=["SB", "6"])
    assert check.refused(ten, nine, "SB>B1").reason == "wild-excluded"
    from spitemalice.cli import main
    for setting in ("wild_excluded=5", "build_ceiling=10"):
        assert main(["simulate", "skip-bo", "--house-rule", "no-wild-ceiling", "--set", setting,
                     "--games", "1"]) == 0
    path = tmp_path / "five.toml"
    path.write_text('title = "T"\nversion = "1"\nbase = "skip-bo"\n'
                    'house_rules = ["no-wild-ceiling"]\n[params]\nwild_excluded = [5]\n')
    assert sm.load(path).ruleset.wild_excluded == frozenset({5, 12})
    for rules in (five, ten):
        data = record_to_dict(record_result(rules, play_game(
            rules, [GreedyPlayer(0), GreedyPlayer(1)], seed=4)))
        assert rules_for(record_from_dict(data)).ruleset == rules.ruleset


@pytest.mark.clause("NC-2")
def test_house_rule_a_skip_bo_card_may_wait_at_11() -> None:
    state = position(CEILING, hands=["SB 5"], builds=[pile(10)], payoffs=["9", "6"])
    after = check.play(CEILING, state, "SB>B1", "5>D1")  # the turn ends with the wild at 11
    assert after.seat == 1 and after.build_tops == (11,) and after.builds[0][-1] == SKIP_BO
    assert "stand for 11 and wait" in CEILING.clause("NC-2").text


@pytest.mark.clause("SP-1")
def test_house_rule_short_pay_off_piles_of_ten() -> None:
    for players in (2, 4, 6):
        state = sm.deal(sm.load("skip-bo", ["short-payoff"], players=players), seed=1)
        assert [seat.payoff_count for seat in state.seats] == [10] * players
    assert "10 cards" in SHORT.clause("SP-1").text
    assert sm.load("blackwood-frey", ["short-payoff"]).deal.payoff_size == 10
    with pytest.raises(sm.RulesetError, match="separate pay-off pack"):
        sm.load("starturn", ["short-payoff"])


@pytest.mark.clause("SP-2")
def test_other_short_lengths_are_set_directly() -> None:
    rules = sm.load("skip-bo", players=5, payoff_size=18, payoff_size_many=18)
    assert [seat.payoff_count for seat in sm.deal(rules, seed=2).seats] == [18] * 5
    with pytest.raises(sm.RulesetError, match="undo"):
        sm.load("skip-bo", ["short-payoff"], payoff_size=20)


# -- SK-26: standard packs (K2) ------------------------------------------------------------

K2 = {"packs": 3, "draw_pack": 0, "jokers": 0, "jokers_per_pack": 2}  # the dossier's K2 deck
THREE = sm.load("skip-bo", **K2)


@pytest.mark.clause("SK-26", "SK-1")
def test_k2_three_packs_with_jokers_make_162_cards_with_18_skip_bo_cards() -> None:
    counts = Counter(card.rank for card in THREE.deck.cards)
    assert THREE.deck.size == 162 and counts == {**{rank: 12 for rank in range(1, 14)}, 0: 6}
    assert Counter(THREE.deck.cards)[SKIP_BO] == 6  # the jokers show Skip-Bo's face
    assert THREE.ruleset.wild_ranks == frozenset({0, 13})
    assert THREE.origin["wild_ranks"] == "plugin skip-bo (spitemalice_wild)"
    wild = [card for card in THREE.deck.cards if card.rank in THREE.ruleset.wild_ranks]
    assert len(wild) == 18  # 12 kings and 6 jokers: Skip-Bo's 18 SKIP-BO cards
    assert all(THREE.accepts[rank] == frozenset({rank}) for rank in range(1, 13))  # A-Q: 1-12
    assert THREE.accepts[13] == THREE.accepts[0] == frozenset(range(1, 13))
    # what is dealt is the stated deck, every card once
    assert THREE.deck == sm.stated_deck(THREE.ruleset, joker=SKIP_BO)
    for seed in (1, 2):
        state = sm.deal(THREE, seed)
        assert Counter(state.all_cards()) == Counter(THREE.deck.cards)
        check_state(THREE, state)
    assert "the kings SKIP-BO cards: SK-26" in THREE.clause("SK-1").text
    assert "Here the wild cards are the kings and the jokers (wild_ranks)." in \
        THREE.clause("SK-26").text
    # two packs without jokers: the 8 kings are the only SKIP-BO cards
    two = sm.load("skip-bo", packs=2, draw_pack=0, jokers=0)
    assert two.ruleset.wild_ranks == frozenset({0, 13}) and two.accepts[13]
    assert "Here the wild cards are the kings (wild_ranks)." in two.clause("SK-26").text


@pytest.mark.clause("SK-26", "SK-1")
def test_standard_packs_hold_two_jokers_a_pack_unless_jokers_is_given(tmp_path: Path) -> None:
    # K2: "three regular decks with jokers", the kings and jokers (12 + 6) the 18 SKIP-BO
    # cards.  The numbered game's 18 jokers came along: --set packs=3 draw_pack=0 dealt 174
    # cards, 30 wild, where K2's deck is 162 with 18.
    plain = sm.load("skip-bo", packs=3, draw_pack=0)
    assert plain.ruleset.jokers == 6 and plain.ruleset.seat_jokers == 6
    assert plain.origin["jokers"] == "plugin skip-bo (spitemalice_deck)"
    assert plain.deck == THREE.deck and plain.deck.size == 162  # K2's deck, as K2 spells it
    assert sum(card.rank in plain.ruleset.wild_ranks for card in plain.deck.cards) == 18
    assert sm.deal(plain, 3) == sm.deal(THREE, 3)
    assert "162 cards" in plain.clause("SK-1").text
    assert "6 wild SKIP-BO cards (jokers)" in plain.clause("SK-1").text
    # two a pack whatever the packs: one a seat, and with the kings numbers (build to 13)
    per_seat = sm.load("skip-bo", packs=1, packs_per_seat=True, draw_pack=0)
    assert per_seat.ruleset.seat_jokers == 4 and per_seat.deck.size == 108
    assert sm.load("skip-bo", packs=3, draw_pack=0, build_ceiling=13).ruleset.seat_jokers == 6
    # jokers_per_pack set: the packs' own jokers are those, and jokers adds none
    one = sm.load("skip-bo", packs=3, draw_pack=0, jokers_per_pack=1)
    assert (one.ruleset.jokers, one.ruleset.seat_jokers) == (0, 3)
    # a jokers given holds as given, on the command line or in a file; the SKIP-BO cards still
    # go last, so a seed deals as it did before the rule set had an answer of its own
    for jokers in (0, 4, 18):
        given = sm.load("skip-bo", packs=3, draw_pack=0, jokers=jokers)
        assert given.ruleset.seat_jokers == jokers  # 18, skip-bo's own, is noted as no change
        assert given.origin.get("jokers", "override") == "override"
        assert given.deck.cards == THREE.deck.cards[:156] + (SKIP_BO,) * jokers
    path = tmp_path / "many.toml"
    path.write_text('title = "Many jokers"\nversion = "1"\nbase = "skip-bo"\n[params]\n'
                    'packs = 3\ndraw_pack = 0\njokers = 12\n', encoding="utf-8")
    assert sm.load(path).ruleset.seat_jokers == 12
    # the numbered cards keep their 18 SKIP-BO cards (K1): nothing changes there
    assert SK.ruleset.jokers == 18 and "jokers" not in SK.origin
    assert Counter(SK.deck.cards)[SKIP_BO] == 18 and SK.deck.size == 162


@pytest.mark.clause("SK-26", "SK-1")
def test_sk26_and_sk1_say_the_kings_are_wild_when_wild_ranks_given_makes_them_so() -> None:
    """With build_ceiling=13 and wild_ranks=0,13 SK-26 said "a king is the number 13, not a
    SKIP-BO card, and wild_ranks is left as it is" with the kings wild; SK-1 counted only the
    6 jokers as wild, not the 12 kings."""
    book = sm.load("skip-bo", packs=3, draw_pack=0, build_ceiling=13, wild_ranks="0,13")
    assert book.ruleset.wild_ranks == frozenset({0, 13})
    sk26 = book.clause("SK-26").text
    assert "the number 13" not in sk26 and "left as it is" not in sk26
    assert "the wild_ranks given makes them wild. Here the wild cards are the kings and the " \
        "jokers (wild_ranks)." in sk26
    wild = sum(card.rank in book.ruleset.wild_ranks for card in book.deck.cards)
    sk1 = book.clause("SK-1").text
    assert wild == 18 and "(packs; the kings wild: wild_ranks)" in sk1
    assert f"With the kings, {wild} cards are wild." in sk1
    assert f"With the kings, {wild} cards are wild." in THREE.clause("SK-1").text
    numbers = sm.load("skip-bo", packs=3, draw_pack=0, build_ceiling=13)
    assert "cards are wild" not in numbers.clause("SK-1").text


@pytest.mark.clause("SK-26")
@pytest.mark.parametrize(("given", "says", "never"), [
    ({}, "This deck has no standard packs.", "wild_ranks gains 13"),
    ({"packs": 3, "draw_pack": 0}, "the kings are SKIP-BO cards, wild like the jokers: "
     "wild_ranks gains 13", "the number 13"),
    ({"packs": 3, "draw_pack": 0, "build_ceiling": 13}, "so a king is the number 13, not a "
     "SKIP-BO card, and wild_ranks is left as it is.", "gains 13"),
])
def test_sk26_says_one_thing_for_each_setting(given: dict[str, object], says: str,
                                              never: str) -> None:
    # with build_ceiling=13 the clause said "wild_ranks gains 13", then "a king is the
    # number 13"
    text = sm.load("skip-bo", **given).clause("SK-26").text
    assert says in text and never not in text, text
    if given:
        assert "It holds 6 jokers (jokers); without jokers given, the rule set's own count is " \
            "two a pack (K2: three packs with their jokers)" in text


@pytest.mark.clause("SK-26", "SK-4")
def test_with_standard_packs_a_king_plays_as_the_next_number() -> None:
    state = position(THREE, hands=["KH 9C"], builds=[pile_bf(4)])
    moves = sm.legal_moves(THREE, state)
    assert sm.parse_move("KH>B1") in moves and sm.parse_move("KH>B+") in moves
    after = check.play(THREE, state, "KH>B1")
    assert after.builds[0][-1] == sm.parse_card("KH") and after.build_tops == (5,)
    started = check.play(THREE, state, "KH>B+")  # as Skip-Bo's 1 (SK-4)
    assert started.build_tops == (4, 1)
    queen = position(THREE, hands=["KH 9C"], builds=[pile_bf(11)])
    done = check.play(THREE, queen, "KH>B1")  # stands for 12 and completes the pile (SK-6)
    assert done.builds == () and len(done.completed) == 12
    # from the pay-off pile and a discard pile too, and a joker the same way
    tops = position(THREE, hands=["9C"], payoffs=["KS"], discards=[["KD"]],
                    builds=[pile_bf(4), pile_bf(7)])
    assert check.play(THREE, tops, "P:KS>B1").build_tops == (5, 7)
    assert check.play(THREE, tops, "D1:KD>B2").build_tops == (4, 8)
    joker = position(THREE, hands=["SB 9C"], builds=[pile_bf(4)])
    assert check.play(THREE, joker, "SB>B1").build_tops == (5,)
    # numbered cards: no king, and the sheet says SK-26 is not in force
    assert 13 not in {card.rank for card in SK.deck.cards}
    assert SK.ruleset.wild_ranks == frozenset({0}) and "wild_ranks" not in SK.origin
    assert SK.clause("SK-26").text.endswith("This deck has no standard packs.")


@pytest.mark.clause("SK-26")
def test_with_standard_packs_games_are_won_again() -> None:
    # Kings were dealt but no build pile took them: 2 of 200 greedy games with 3 packs and
    # no jokers were won, 53 of 200 with 2 packs and 4 jokers more (docs/changelog.md).
    summary = simulate(sm.load("skip-bo", packs=3, draw_pack=0, jokers=0),
                       ["greedy", "greedy"], games=8, seed=1)
    assert summary.outcomes["win"] >= 6


@pytest.mark.clause("SK-26")
def test_a_wild_ranks_the_user_gives_holds_as_given(tmp_path: Path) -> None:
    kings = sm.load("skip-bo", packs=3, draw_pack=0, jokers=0, wild_ranks="K")
    assert kings.ruleset.wild_ranks == frozenset({13}) and kings.origin["wild_ranks"] == "override"
    both = sm.load("skip-bo", **K2, wild_ranks="0,13")
    assert both.ruleset.wild_ranks == frozenset({0, 13}) and both.origin["wild_ranks"] == "override"
    # jokers alone, as given: the kings are not made wild behind the user's back; they would
    # be dead, so the configuration is refused, naming the two ways out
    with pytest.raises(sm.RulesetError, match=r"skip-bo: no build pile can ever take the 12 "
                       r"cards of rank K \(build ceiling 12, wild_ranks = 0\).* make them wild "
                       r"\(wild_ranks = 0,13\) or build up to them \(build_ceiling = 13\)"):
        sm.load("skip-bo", **K2, wild_ranks="0")
    # built up to 13 the kings are numbers, wild_ranks is the rule set's own, and so it holds
    natural = sm.load("skip-bo", **K2, build_ceiling=13)
    assert natural.ruleset.wild_ranks == frozenset({0}) and natural.accepts[13] == {13}
    assert "so a king is the number 13, not a SKIP-BO card" in natural.clause("SK-26").text
    # so does jokers-to-king's (kings natural, build to K), and a rule-set file's value
    assert sm.load("skip-bo", ["jokers-to-king"], packs=3, draw_pack=0).ruleset.wild_ranks \
        == frozenset({0})
    path = tmp_path / "kings.toml"
    path.write_text('title = "Kings only"\nversion = "1"\nbase = "skip-bo"\n[params]\n'
                    'packs = 3\ndraw_pack = 0\njokers = 0\nwild_ranks = ["K"]\n',
                    encoding="utf-8")
    from_file = sm.load(path)
    assert from_file.ruleset.wild_ranks == frozenset({13})
    assert from_file.origin["wild_ranks"] == "file kings.toml"


@pytest.mark.clause("SK-26", "SK-1")
def test_the_jokers_row_says_what_its_value_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """``--set jokers_per_pack=1`` showed "*jokers 0 jokers added to the deck in all" beside
    an SK-1 of 3 jokers: ``jokers`` counts the jokers besides jokers_per_pack's."""
    from spitemalice.cli import main

    one = sm.load("skip-bo", packs=3, draw_pack=0, jokers_per_pack=1)
    assert (one.ruleset.jokers, one.ruleset.seat_jokers) == (0, 3)
    assert "3 wild SKIP-BO cards (jokers, jokers_per_pack)" in one.clause("SK-1").text
    assert main(["rules", "skip-bo", "--set", "packs=3", "--set", "draw_pack=0", "--set",
                 "jokers_per_pack=1"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.startswith(" *jokers "))
    assert "jokers in the deck besides jokers_per_pack's" in row and "in all" not in row


@pytest.mark.clause("SK-26", "SK-1")
def test_with_standard_packs_every_deal_exercises_sk26() -> None:
    """SK-26 named no reason code and no event and declared itself unexercised in every
    setting, so even ``validate skip-bo --set packs=3 --set draw_pack=0`` said it was never
    exercised (intended). In force it is counted as SK-1 is, by each deal of its deck; out
    of force (Skip-Bo's numbered cards) it still declares itself unexercised."""
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.engine.coverage import Tally
    from spitemalice.measures.coverage import clause_coverage, coverage_notes
    from spitemalice.runs.loop import covered_game, play_game

    for rules, in_force in ((THREE, True), (SK, False)):
        tally = Tally()
        for game in range(2):
            players = [GreedyPlayer(seat) for seat in range(rules.players)]
            _, counted = covered_game(rules, lambda on_move, p=players, g=game, r=rules:
                                      play_game(r, p, g, on_move=on_move))
            tally.add(counted)
        rows = {row.clause: row for row in clause_coverage(rules, tally)}
        sk26 = rows["SK-26"]
        notes = [note for note in coverage_notes(rules, list(rows.values()), tally.games)
                 if note.clause == "SK-26"]
        if in_force:
            assert sk26.counted and sk26.exercised and sk26.fired == {"dealt": 2}
            assert not sk26.intended and notes == []
        else:
            assert sk26.intended and not sk26.exercised
            assert [note.level for note in notes] == ["info"]
            assert notes[0].message.endswith("(intended: clause SK-26)")
