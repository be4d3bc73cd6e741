"""The action space named by card (spitemalice.env.card_actions, issue 39 section 1): masks
exact on both spaces for every configuration (property tests), the card space the same
whatever the hand's order and its other cards, the documented catalogue, and the
catalogue option of every environment."""

from __future__ import annotations

import random

import attrs
import numpy as np
import pytest
from helpers.walks import CONFIGS, book, config_id, configs, picks, seeds, states_of
from hypothesis import given, settings

import spitemalice as sm
from spitemalice import env as sm_env
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.env.spaces import Encoding, make_catalogue

CATALOGUES = ("slot", "card")


def _exact(rules: sm.RuleBook, catalogue: str, state: sm.GameState) -> None:
    """The mask allows exactly the legal moves: under "card" every legal move has exactly
    one action (under "slot", one per hand slot holding its card), every action the mask
    allows stands for a legal move, and the engine refuses every other action."""
    encoding = Encoding(rules, 20, catalogue)
    c = encoding.catalogue
    mask = encoding.mask(state, state.seat)
    legal = sm.legal_moves(rules, state)
    allowed = set(np.flatnonzero(mask).tolist())
    for move in legal:
        numbers = c.actions(state, move)
        if catalogue == "card":
            assert len(numbers) == 1, move
        assert numbers and set(numbers) <= allowed, move
    for action in range(c.size):
        try:
            move = c.move(state, action)
        except sm.IllegalMove:
            assert action not in allowed
            continue
        if action in allowed:
            assert move in legal, (c.describe(action), move)
            assert encoding.move(state, action) in legal
        else:
            with pytest.raises(sm.IllegalMove):
                sm.check_move(rules, state, move)


@settings(derandomize=True, max_examples=60)
@given(config=configs, seed=seeds, choices=picks)
def test_masks_are_exact_on_both_spaces(config: object, seed: int, choices: list[int]) -> None:
    rules = book(config)  # type: ignore[arg-type]
    for state in states_of(rules, seed, choices, finish=False)[::4]:
        if state.outcome is not None:
            continue
        for catalogue in CATALOGUES:
            _exact(rules, catalogue, state)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_configurations_moves_have_card_actions(config: object) -> None:
    # Every built-in turn-based rule set at every seat count, each house rule stacked on it
    # and a short game (helpers.walks.CONFIGS): every move listed along a game maps to one
    # action, and that action maps back to a legal move.
    rules = book(config)  # type: ignore[arg-type]
    c = CardCatalogue(rules)
    rng = random.Random(7)
    state, steps = sm.deal(rules, 7), 0
    while state.outcome is None and steps < 120:
        moves = sm.legal_moves(rules, state)
        actions, stand_for = c.action_list(state, moves)
        assert len(set(actions)) == len(actions) and set(stand_for) <= set(moves)
        for move in moves:
            (number,) = c.actions(state, move)
            assert number in actions and 0 <= number < c.size
            assert c.move(state, number) in moves
        state = sm.apply_move(rules, state, moves[rng.randrange(len(moves))])
        steps += 1


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_grouped_listing_gives_the_listings_actions(config: object) -> None:
    # CardCatalogue.legal_list joins the actions kept per engine move group; it must give
    # exactly action_list(state, legal_moves(...)): the same actions in the same order, each
    # standing for the same move object, with a catalogue that has seen the game (its group
    # table warm) and with a fresh one, up to and including the ended game.  The hand-slot
    # catalogue's legal_list is its action_list of the listing.
    rules = book(config)  # type: ignore[arg-type]
    warm, slots = CardCatalogue(rules), make_catalogue(rules, "slot")
    rng = random.Random(11)
    state, steps = sm.deal(rules, 11), 0
    while True:
        moves = sm.legal_moves(rules, state)
        expected = warm.action_list(state, moves)
        for catalogue in (warm, CardCatalogue(rules)):
            actions, stand_for = catalogue.legal_list(state)
            assert (actions, list(stand_for)) == (expected[0], list(expected[1]))
            assert list(map(id, stand_for)) == list(map(id, expected[1]))
        assert slots.legal_list(state) == slots.action_list(state, moves)
        if state.outcome is not None or steps == 150:
            break
        state = sm.apply_move(rules, state, moves[rng.randrange(len(moves))])
        steps += 1


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_the_legal_list_refuses_a_view(catalogue: str) -> None:
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 3)
    with pytest.raises(sm.SpiteMaliceError, match=r"legal_list.*GameState"):
        make_catalogue(rules, catalogue).legal_list(sm.view_of(state, 0))  # type: ignore[arg-type]


@pytest.mark.parametrize("catalogue", CATALOGUES)
@pytest.mark.parametrize("given", ["9H>B2", None, 42])
def test_a_catalogue_refuses_what_is_no_move(catalogue: str, given: object) -> None:
    # Text, None or a number given as a legal move is refused by name (each was taken for
    # a pass), and the string given as the list of moves is not read a character at a time.
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 5)
    c = make_catalogue(rules, catalogue)
    with pytest.raises(sm.SpiteMaliceError, match=r"maps the engine's moves.*not"):
        c.actions(state, given)  # type: ignore[arg-type]
    with pytest.raises(sm.SpiteMaliceError, match="parse_move"):
        c.action_list(state, ("9H>B2",))  # type: ignore[arg-type]
    with pytest.raises(sm.SpiteMaliceError, match="parse_move"):
        c.action_list(state, "9H>B2")  # type: ignore[arg-type]


# -- hand-order independence -----------------------------------------------------------------


def _with_hand(state: sm.GameState, hand: tuple[sm.Card, ...]) -> sm.GameState:
    seat = state.seats[state.seat]
    seats = tuple(attrs.evolve(s, hand=hand) if s is seat else s for s in state.seats)
    return attrs.evolve(state, seats=seats)


def _hand_actions(rules: sm.RuleBook, catalogue: str) -> dict[tuple[int, int], set[int]]:
    """For each (rank, build target) of a hand card's play met along random games, the action
    numbers that named it."""
    c = make_catalogue(rules, catalogue)
    seen: dict[tuple[int, int], set[int]] = {}
    for seed in range(4):
        rng = random.Random(seed)
        state = sm.deal(rules, seed)
        while state.outcome is None:
            moves = sm.legal_moves(rules, state)
            for move in moves:
                if isinstance(move, sm.Play) and move.zone is sm.Zone.HAND:
                    seen.setdefault((move.card.rank, move.pile), set()).update(
                        c.actions(state, move))
            state = sm.apply_move(rules, state, moves[rng.randrange(len(moves))])
    return seen


def test_a_hand_cards_action_depends_on_its_rank_and_target_only() -> None:
    rules = sm.load("blackwood-frey", payoff_size=8)
    by_card = _hand_actions(rules, "card")
    assert len(by_card) > 20
    assert all(len(numbers) == 1 for numbers in by_card.values())
    # The hand-slot space names the same play by where the card lies: many numbers.
    by_slot = _hand_actions(rules, "slot")
    assert any(len(numbers) > 1 for numbers in by_slot.values())


def test_two_hands_with_the_same_cards_offer_the_same_actions() -> None:
    rules = sm.load("blackwood-frey", payoff_size=8)
    rng = random.Random(3)
    compared = 0
    for state in states_of(rules, 3, list(range(0, 400, 7)), finish=False):
        if state.outcome is not None:
            continue
        hand = list(state.seats[state.seat].hand)
        rng.shuffle(hand)
        twin = _with_hand(state, tuple(hand))  # given in another order
        # the same ranks in other suits: the card space cannot tell them apart
        suits = _with_hand(state, tuple(sm.Card(c.rank, "SHDC"[(n + 1) % 4]) if c.suit in
                                        "SHDC" and c.suit else c for n, c in enumerate(hand)))
        for other in (twin, suits):
            masks = [Encoding(rules, 20, "card").mask(s, s.seat) for s in (state, other)]
            assert np.array_equal(*masks)
        compared += 1
    assert compared > 20


def test_an_equal_rank_in_two_suits_is_one_card_action_and_two_slot_actions() -> None:
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 1)
    hand = tuple(sm.parse_card(text) for text in ("2S", "9H", "9S", "QD", "KC"))
    state = _with_hand(state, hand)
    moves = sm.legal_moves(rules, state)
    nines = [m for m in moves if isinstance(m, sm.Discard) and m.pile == 0
             and m.cards[0].rank == 9]
    assert len(nines) == 2  # 9H>D1 and 9S>D1: two moves the rules do not tell apart
    card, slot = make_catalogue(rules, "card"), make_catalogue(rules, "slot")
    assert card.actions(state, nines[0]) == card.actions(state, nines[1])
    assert card.describe(card.actions(state, nines[0])[0]) == "hand 9 > discard pile 1"
    assert slot.actions(state, nines[0]) != slot.actions(state, nines[1])
    actions, stand_for = card.action_list(state, moves)
    assert set(stand_for) <= set(moves) and nines[0] in stand_for  # 9H, listed first
    assert len(actions) == len(set(actions)) == len(moves) - 4  # one per discard pile
    assert card.move(state, card.actions(state, nines[0])[0]) == sm.parse_move("9H>D1")


# -- the documented catalogue ------------------------------------------------------------------


def test_the_card_catalogue_follows_the_documented_formula() -> None:
    c = sm_env.make("blackwood-frey", catalogue="card").catalogue
    assert isinstance(c, CardCatalogue) and c.kind == "card"
    assert c.ranks == tuple(range(1, 14)) and (c.payoff, c.discard, c.builds) == (1, 4, 4)
    assert c.size == (13 + 1 + 4) * (4 + 1) + 13 * 4 + 1 == 143
    assert c.describe(0) == "hand A > build pile 1"
    assert c.describe(4) == "hand A > a new build pile"
    assert c.describe(12 * 5 + 3) == "hand K > build pile 4"
    assert c.describe(13 * 5) == "pay-off pile 1 > build pile 1"
    assert c.describe(14 * 5 + 4) == "discard pile 1 > a new build pile"
    assert c.describe(90) == "hand A > discard pile 1"
    assert c.describe(90 + 8 * 4 + 1) == "hand 9 > discard pile 2"
    assert c.describe(142) == "pass" and c.pass_action == 142
    pairs = sm_env.make("blackwood-frey", house_rules=["pair-discards"],
                        catalogue="card").catalogue
    assert pairs.size == 143 + 13 * 4
    assert pairs.describe(142 + 8 * 4) == "hand pair of 9 > discard pile 1"
    jokers = sm_env.make("blackwood-frey", house_rules=["jokers-to-king"],
                         catalogue="card").catalogue
    assert jokers.ranks[0] == 0 and jokers.describe(0) == "hand * > build pile 1"
    starturn = sm_env.make("starturn", catalogue="card").catalogue
    assert starturn.ranks[1:] == tuple(range(1, 16))  # its wild cards are rank 0
    shared = sm_env.make("blackwood-frey", house_rules=["partnerships"],
                         partner_piles="share", catalogue="card").catalogue
    assert (shared.owners, shared.discard_owners) == (2, 2)
    assert shared.size == (13 + 2 + 8) * 5 + 13 * 8 + 1
    assert shared.describe(23 * 5 + 4) == "hand A > partner 1's discard pile 1"
    assert shared.describe(14 * 5) == "partner 1's pay-off pile 1 > build pile 1"


def test_a_card_action_the_hand_cannot_make_is_refused_with_the_reason() -> None:
    rules = sm.load("blackwood-frey")
    state = _with_hand(sm.deal(rules, 1), tuple(sm.parse_card(t) for t in ("2S", "9H")))
    c = make_catalogue(rules, "card")
    with pytest.raises(sm.IllegalMove) as refused:
        c.move(state, 2 * 5)  # a three onto build pile 1: the hand holds none
    assert refused.value.reason == "not-in-hand" and "rank 3" in str(refused.value)
    with pytest.raises(sm.IllegalMove, match="empty"):
        c.move(state, 14 * 5)  # discard pile 1 is empty after the deal
    for bad in (-1, c.size, 1.0, True, "3", None):
        with pytest.raises(sm.SpiteMaliceError, match="whole number from 0 to 142"):
            c.move(state, bad)



def test_a_numbered_deck_catalogue_names_ranks_as_its_cards_do() -> None:
    """Skip-Bo's 1 is no ace and its wild card is SB: the words said ``hand A``, ``hand *``
    and ``card of rank A``, where the deck's cards (and refusals) say 1 and SB."""
    rules = sm.load("skip-bo")
    c = make_catalogue(rules, "card")
    assert isinstance(c, CardCatalogue) and c.ranks[:2] == (0, 1)
    assert c.describe(0) == "hand SB > build pile 1"
    assert c.describe(c.targets) == "hand 1 > build pile 1"
    state = _with_hand(sm.deal(rules, 1), tuple(sm.parse_card(t) for t in ("2", "9")))
    with pytest.raises(sm.IllegalMove) as refused:
        c.move(state, c.targets)  # a 1 onto build pile 1: the hand holds none
    assert "the hand holds no card of rank 1" in str(refused.value)


# -- the catalogue option ------------------------------------------------------------------------


def test_every_environment_takes_the_catalogue_option_and_defaults_to_slots() -> None:
    made = [sm_env.make("g4a"), sm_env.parallel_env("g4a").aec, sm_env.single_agent("g4a"),
            sm_env.vector_env("g4a", 2)]
    assert {env.catalogue.kind for env in made} == {"slot"}
    made = [sm_env.make("g4a", catalogue="card"),
            sm_env.parallel_env("g4a", catalogue="card").aec,
            sm_env.single_agent("g4a", catalogue="card"),
            sm_env.vector_env("g4a", 2, catalogue="card")]
    assert {env.catalogue.kind for env in made} == {"card"}
    assert made[0].action_space("seat_0").n == made[0].catalogue.size == 125
    for bad in ("hand", 1, None, ["card"]):
        with pytest.raises(sm.SpiteMaliceError, match=r"catalogue is 'slot'.*or 'card'"):
            sm_env.make("g4a", catalogue=bad)


def test_the_card_vector_environment_steps_the_engines_moves() -> None:
    env = sm_env.vector_env("blackwood-frey", 3, catalogue="card", payoff_size=4)
    _, info = env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(200):
        before = list(env.games)
        actions = [int(rng.choice(np.flatnonzero(row))) for row in info["action_mask"]]
        _, _, terminated, _, info = env.step(np.array(actions))
        for i, action in enumerate(actions):
            if not terminated[i]:
                move = env.catalogue.move(before[i], action)
                assert env.games[i] == sm.apply_move(env.rules, before[i], move)
