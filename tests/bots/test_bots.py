"""The heuristic and mcts bots (spitemalice.bots): each heuristic decides a position made for
it; mcts reads only its seat's view and is reproducible at a fixed play-out budget."""

from collections import Counter

import pytest
from helpers.positions import position
from helpers.twins import searched_state, swap_hidden

import spitemalice as sm
from spitemalice.bots.heuristic import HeuristicPlayer, decide, rank_moves
from spitemalice.bots.mcts import MctsPlayer, find_route
from spitemalice.bots.players import PLAYERS, GreedyPlayer, make_player
from spitemalice.bots.sampling import determinize, hidden_pool
from spitemalice.engine import legal_moves
from spitemalice.engine.views import view_of
from spitemalice.rules.loader import load
from spitemalice.runs.runner import configuration, play_one


@pytest.fixture(scope="module")
def bf() -> sm.RuleBook:
    return load("blackwood-frey", [], {})


def _heuristic(rules: sm.RuleBook, state: sm.GameState) -> str:
    return str(HeuristicPlayer().choose(rules, state, legal_moves(rules, state)))


def test_pay_off_first(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C"], payoffs=["5D", "10C"], builds=["AS 2S 3S 4S"])
    assert _heuristic(bf, state) == "P:5D>B1"


def test_run_to_the_pay_off_card(bf: sm.RuleBook) -> None:
    # Building the lowest card first (3H on B2) is what plain building would do; the run
    # 5H then the pay-off 6D on B1 reaches the pay-off card this turn.
    state = position(bf, hands=["3H 5H 9C"], payoffs=["6D", "10C"],
                     builds=["AS 2S 3S 4S", "AH 2H"])
    assert _heuristic(bf, state) == "5H>B1"


def test_never_hand_an_opponent_its_pay_off_card_counting_its_discard_piles(
        bf: sm.RuleBook) -> None:
    # 5H on B1 would leave a 5: the opponent shows a 6 on a discard pile and a 7 pay-off top.
    state = position(bf, hands=["5H 9C 9D"], payoffs=["QD", "7C"], builds=["AS 2S 3S 4S"],
                     discards=[[], ["6S"]])
    moves = legal_moves(bf, state)
    assert any(str(m) == "5H>B1" for m in moves)
    assert str(GreedyPlayer().choose(bf, state, moves)) == "5H>B1"  # greedy misses it
    assert _heuristic(bf, state) != "5H>B1"


def test_only_the_next_seats_pay_off_card_is_guarded(bf: sm.RuleBook) -> None:
    # Rule 3 at three seats: 5H on B1 leaves a 5 below seat 2's 6 pay-off card (seat 2 moves
    # after seat 1, who may change the piles first), so it is played; with seat 1's 6 it is
    # not.  GUARD_ALL restores the former rule, which guards both.
    from spitemalice.bots import heuristic

    three = load("blackwood-frey", [], {"players": 3})
    later = position(three, hands=["5H 9C 9D"], payoffs=["QD", "10C", "6C"],
                     builds=["AS 2S 3S 4S"])
    assert _heuristic(three, later) == "5H>B1"
    following = position(three, hands=["5H 9C 9D"], payoffs=["QD", "6C", "10C"],
                         builds=["AS 2S 3S 4S"])
    assert _heuristic(three, following) != "5H>B1"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(heuristic, "GUARD_ALL", True)
        assert _heuristic(three, later) != "5H>B1"


def test_hand_cards_build_before_discard_pile_tops(bf: sm.RuleBook) -> None:
    # Rule 5: 2H from the hand and 2C from D1 can both go on B1; the hand card goes first (an
    # emptied hand draws five fresh cards, W6).  HAND_FIRST off restores the former order.
    from spitemalice.bots import heuristic

    state = position(bf, hands=["2H 9C 9D"], payoffs=["QD", "10C"], builds=["AS"],
                     discards=[["2C"]])
    assert _heuristic(bf, state) == "2H>B1"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(heuristic, "HAND_FIRST", False)
        assert _heuristic(bf, state) == "D1:2C>B1"


def test_a_run_takes_hand_cards_before_discard_pile_tops(bf: sm.RuleBook) -> None:
    # Rule 2 with rule 5's order: the run 5, 6 to the pay-off 7D can start with 5H from the
    # hand or 5C from D1; the hand card comes first.
    state = position(bf, hands=["5H 6H 9C"], payoffs=["7D", "10C"],
                     builds=["AS 2S 3S 4S"], discards=[["5C"]])
    assert _heuristic(bf, state) == "5H>B1"


def test_cover_a_pile_an_opponent_could_use(bf: sm.RuleBook) -> None:
    # B1 stops at 5, one below the opponent's 6 pay-off card: covering it with 6H comes before
    # the plainer 2H on B2.
    state = position(bf, hands=["2H 6H 9C"], payoffs=["QD", "6C"],
                     builds=["AS 2S 3S 4S 5S", "AD"])
    assert _heuristic(bf, state) == "6H>B1"


def test_hold_wild_cards_for_the_pay_off_card(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["KH 9S"], payoffs=["QD", "10C"], builds=["AS 2S 3S 4S"])
    assert any(str(m) == "KH>B1" for m in legal_moves(bf, state))
    choice = _heuristic(bf, state)
    assert choice.startswith("9S>D")  # neither plays nor discards the king


def test_discard_in_descending_runs(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9S 8H"], payoffs=["QD", "10C"],
                     discards=[["10C 3D", "10D", "", ""]])
    assert _heuristic(bf, state) == "9S>D2"


def test_do_not_bury_a_card_about_to_be_playable(bf: sm.RuleBook) -> None:
    # D1's 3D plays next on B1 (top 2); D2 holds a jack: bury that one.
    state = position(bf, hands=["9S JH"], payoffs=["QD", "10C"], builds=["AS 2S"],
                     discards=[["3D", "JD", "4C", "6C"]])
    choice = _heuristic(bf, state)
    assert not choice.endswith(">D1")


def test_rank_moves_puts_the_heuristic_choice_first(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["3H 5H 9C"], payoffs=["6D", "10C"],
                     builds=["AS 2S 3S 4S", "AH 2H"])
    moves = legal_moves(bf, state)
    ranked = rank_moves(bf, view_of(state, 0), moves)
    assert ranked[0] == decide(bf, view_of(state, 0), moves)
    assert sorted(map(str, ranked)) == sorted(map(str, moves))


def test_mcts_reads_only_its_view(bf: sm.RuleBook) -> None:
    state = searched_state(bf)
    twin = swap_hidden(state)
    assert twin != state and view_of(twin, state.seat) == view_of(state, state.seat)
    moves = legal_moves(bf, state)
    assert legal_moves(bf, twin) == moves
    for seed in range(3):
        first = MctsPlayer(seed, playouts=12).choose(bf, state, moves)
        assert MctsPlayer(seed, playouts=12).choose(bf, twin, moves) == first


def test_determinizations_agree_with_the_view(bf: sm.RuleBook) -> None:
    import random

    state = searched_state(bf)
    view = view_of(state, state.seat)
    rng = random.Random(3)
    worlds = [determinize(bf, view, rng) for _ in range(5)]
    deck = Counter(bf.deck.cards)
    for world in worlds:
        assert view_of(world, state.seat) == view
        assert Counter(world.all_cards()) == deck  # no card made up, none lost
    assert len({w.draw for w in worlds}) > 1  # the hidden cards really vary
    assert len(hidden_pool(bf, view)) == len(state.draw) + sum(
        len(s.hand) + sum(len(p) - 1 for p in s.payoff if p)
        for i, s in enumerate(state.seats) if i != state.seat) + sum(
        len(p) - 1 for p in state.seats[state.seat].payoff if p)


def test_mcts_finds_a_route_to_its_pay_off_card_the_heuristic_misses(bf: sm.RuleBook) -> None:
    # 3C on B2 would leave a 3 below the opponent's 4 pay-off card, so the heuristic discards;
    # but it uncovers 5H for B1, and the pay-off card 6D follows this turn.
    state = position(bf, hands=["9C 10D JH"], payoffs=["6D", "4C"], discards=[["5H 3C"]],
                     builds=["AS 2S 3S 4S", "AH 2H"])
    moves = legal_moves(bf, state)
    assert str(HeuristicPlayer().choose(bf, state, moves)) != "D1:3C>B2"
    assert str(MctsPlayer(1).choose(bf, state, moves)) == "D1:3C>B2"


def test_the_route_search_never_counts_on_cards_drawn_after_the_hand_empties(
        bf: sm.RuleBook) -> None:
    import random

    # 5H empties the hand: a 6 among the five cards drawn would reach the 7D pay-off card in
    # some determinizations, but the seat cannot know those cards.
    hidden = position(bf, hands=["5H"], payoffs=["7D", "QC"], builds=["AS 2S 3S 4S"])
    view = view_of(hidden, 0)
    assert all(find_route(bf, determinize(bf, view, random.Random(i)), 0) is None
               for i in range(20))
    # The pay-off card itself needs no drawn card: that route is found.
    shown = position(bf, hands=["5H"], payoffs=["6D", "QC"], builds=["AS 2S 3S 4S"])
    world = determinize(bf, view_of(shown, 0), random.Random(0))
    assert str(find_route(bf, world, 0)) == "5H>B1"


def test_mcts_is_reproducible_at_a_fixed_budget() -> None:
    rules = load("blackwood-frey", [], {"payoff_size": 5})
    config = configuration(rules, ["mcts", "heuristic"])
    assert play_one(config, 4, 0) == play_one(config, 4, 0)


def test_mcts_budget_is_checked() -> None:
    with pytest.raises(ValueError, match="budget"):
        MctsPlayer(0, playouts=0)
    with pytest.raises(ValueError, match="budget"):
        MctsPlayer(0, seconds=0)


def test_mcts_with_a_time_budget_plays_a_legal_move(bf: sm.RuleBook) -> None:
    state = searched_state(bf)
    moves = legal_moves(bf, state)
    assert MctsPlayer(1, seconds=0.05).choose(bf, state, moves) in moves


def test_registry_knows_the_bots() -> None:
    assert isinstance(make_player("heuristic", 1), HeuristicPlayer)
    assert isinstance(make_player("mcts", 1), MctsPlayer)


@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_every_bot_refuses_an_empty_list_of_moves(bf: sm.RuleBook, kind: str) -> None:
    # A player is given the legal moves of a live position, never none: every bot of the
    # registry says so plainly (it was an IndexError for all but random).
    state = sm.deal(bf, 3)
    with pytest.raises(ValueError, match="no move to choose from"):
        make_player(kind, 1).choose(bf, state, ())


def test_ismcts_refuses_a_policy_that_is_not_a_player() -> None:
    from spitemalice.bots.ismcts import IsmctsPlayer

    for policy in (None, "greedy"):
        with pytest.raises(ValueError, match=r"^IsmctsPlayer takes policy, a player \(an object "
                           r"with a method choose\(rules, state, moves\)\), not "):
            IsmctsPlayer(1, policy=policy)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"not the class GreedyPlayer: make one, GreedyPlayer"):
        IsmctsPlayer(1, policy=GreedyPlayer)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="an ismcts time budget"):
        IsmctsPlayer(1, seconds=-1.0, policy=make_player("greedy", 1))


def test_a_misspelt_bot_name_is_refused_with_the_closest_name() -> None:
    """Every door that makes a bot by name (play --bots, ladder, a server's seats and
    takeover) goes through make_player: a near miss is named, a far one is not guessed."""
    with pytest.raises(sm.SpiteMaliceError, match='"lerned" \\(did you mean "learned"\\?\\)'):
        make_player("lerned", 1)
    with pytest.raises(sm.SpiteMaliceError, match='unknown player "nobody"; choose from'):
        make_player("nobody", 1)
