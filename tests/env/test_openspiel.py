"""The OpenSpiel games (spitemalice.openspiel, issue 22 section 2): OpenSpiel's own random
simulation checks on every rule set, information from the seat's view only, resampling, and
OpenSpiel's information-set MCTS bot playing our bots."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from helpers.walks import hidden_twin  # noqa: E402

import spitemalice as sm  # noqa: E402
from spitemalice import openspiel as so  # noqa: E402
from spitemalice.bots.players import make_player  # noqa: E402
from spitemalice.rules.loader import turn_based_rulesets  # noqa: E402

RULESETS = turn_based_rulesets()  # spit is refused: tests/env/test_env.py
CATALOGUES = ("card", "slot")  # the game's action space: by card (the default) or hand slot


def _dealt(game: object, seed: int) -> object:
    """A state just after the deal, its seed bytes drawn from ``seed``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    return state


def _walk(state: object, moves: int, seed: int) -> object:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():  # type: ignore[attr-defined]
            break
        legal = state.legal_actions()  # type: ignore[attr-defined]
        state.apply_action(legal[rng.randrange(len(legal))])  # type: ignore[attr-defined]
    return state


def test_every_installed_turn_based_rule_set_has_a_game() -> None:
    assert sorted(so.GAMES.values()) == sorted(RULESETS)
    assert set(so.GAMES) <= set(pyspiel.registered_names())
    # SP-1: spit's seats move at once; OpenSpiel's sequential games take turns.
    assert "spit" not in so.GAMES.values()
    assert so.game_name("spit") not in pyspiel.registered_names()


@pytest.mark.parametrize("catalogue", CATALOGUES)
@pytest.mark.parametrize("name", RULESETS)
def test_openspiels_random_simulation_checks_pass(name: str, catalogue: str) -> None:
    game = so.load_game(name, payoff_size=4, catalogue=catalogue)
    assert game.num_distinct_actions() == so.config_of(game).catalogue.size
    assert so.config_of(game).catalogue.kind == catalogue
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_random_simulation_checks_pass_with_house_rules_and_more_seats(catalogue: str) -> None:
    game = so.load_game("blackwood-frey", players=3,
                        house_rules=["mandatory-aces", "pair-discards"], payoff_size=3,
                        catalogue=catalogue)
    assert game.num_players() == 3
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_string_names_the_configuration_and_loads_it_again() -> None:
    game = so.load_game("skip-bo", players=4, house_rules=["partnerships"], payoff_size=5)
    again = pyspiel.load_game(str(game))
    rules = so.config_of(again).rules
    assert rules.players == 4 and "partnerships" in rules.plugins
    assert rules.ruleset.payoff_size == 5
    assert again.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM  # two teams of two
    assert again.num_distinct_actions() == so.config_of(game).catalogue.size


def test_bad_parameters_are_refused_naming_the_fault() -> None:
    with pytest.raises(sm.RulesetError, match="payof"):
        so.load_game("g4a", payof_size=3)
    with pytest.raises(sm.SpiteMaliceError, match="catalogue is 'slot'"):
        so.load_game("g4a", catalogue="hand")
    with pytest.raises(sm.SpiteMaliceError, match="catalogue is 'slot'"):
        pyspiel.load_game("python_spitemalice_g4a", {"catalogue": "hand"})
    with pytest.raises(sm.SpiteMaliceError, match="key:value"):
        pyspiel.load_game("python_spitemalice_g4a", {"settings": "payoff_size"})


def test_the_deal_is_the_engines_deal_of_the_seed_bytes() -> None:
    game = so.load_game("g4a")
    state = _dealt(game, 3)
    drawn = [action for action in state.history()]
    assert len(drawn) == so.SEED_STEPS and state.chance_outcomes == state.chance_outcomes
    rules = so.config_of(game).rules
    assert state.game_state == sm.deal(rules, int.from_bytes(bytes(drawn)))


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_information_comes_from_the_seats_view_only(catalogue: str) -> None:
    game = so.load_game("blackwood-frey", players=3, catalogue=catalogue)
    state = _walk(_dealt(game, 1), 60, 1)
    rng = random.Random(2)
    for seat in range(3):
        twin = state.clone()
        twin._at = so.Progress(state._at.seed_bytes, hidden_twin(state.game_state, seat, rng),
                               state._at.moves)
        assert twin.game_state != state.game_state
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.observation_string(seat) == state.observation_string(seat)
        assert np.array_equal(twin.observation_tensor(seat), state.observation_tensor(seat))
        others = [other for other in range(3) if other != seat]
        assert any(twin.observation_string(o) != state.observation_string(o) for o in others)


def test_the_information_state_lists_the_moves_in_notation_then_the_view() -> None:
    game = so.load_game("g4a")
    state = _walk(_dealt(game, 4), 12, 4)
    lines = state.information_state_string(0).splitlines()
    assert lines[:len(state.moves)] == state.moves
    assert all(text.split(":", 1)[0].isdigit() for text in state.moves)
    assert state.observation_string(0) in state.information_state_string(0)


def test_a_resampled_state_has_the_same_information_state_for_that_seat() -> None:
    game = so.load_game("blackwood-frey")
    state = _walk(_dealt(game, 5), 30, 5)
    seat = state.current_player()
    differs = 0
    for _ in range(5):
        sampled = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0., 1.))
        assert sampled.information_state_string(seat) == state.information_state_string(seat)
        assert sampled.legal_actions() == state.legal_actions()
        differs += sampled.game_state != state.game_state
    assert differs  # hidden cards are dealt afresh, not copied


def _our_move(state: object, player: object) -> int:
    config = so.config_of(state.get_game())  # type: ignore[attr-defined]
    world = state.game_state  # type: ignore[attr-defined]
    moves = sm.legal_moves(config.rules, world)
    move = player.choose(config.rules, world, moves)  # type: ignore[attr-defined]
    return config.catalogue.actions(world, move)[0]


@pytest.mark.parametrize(("ours", "seat"), [("greedy", 0), ("random", 1)])
def test_openspiels_ismcts_bot_plays_our_bots(ours: str, seat: int) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = so.load_game("blackwood-frey", payoff_size=2)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(
        random_state=np.random.RandomState(seat)), uct_c=2.0, max_simulations=8,
        random_state=np.random.RandomState(seat))
    player = make_player(ours, seat)
    for game_number in range(2):
        state = _dealt(game, 10 * seat + game_number)
        while not state.is_terminal():
            if state.current_player() == seat:
                action = bot.step(state)
                assert action in state.legal_actions()
            else:
                action = _our_move(state, player)
            state.apply_action(action)
        returns = state.returns()
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
        outcome = state.game_state.outcome
        assert returns[0] == (0.0 if outcome.winner is None else 1.0 if outcome.winner == 0
                              else -1.0)
