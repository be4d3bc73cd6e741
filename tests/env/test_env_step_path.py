"""The environments' per-step path (issue 39 section 2): ``Encoding.play`` makes the move the
engine would, the AEC environment steps through it, and the vectorised environment's batches
are the caller's own."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spitemalice as sm
from spitemalice import env as sm_env
from spitemalice.env.spaces import Encoding


@pytest.mark.parametrize("catalogue", ["slot", "card"])
def test_play_is_apply_move_of_the_actions_move_for_every_action(catalogue: str) -> None:
    rules = sm.load("blackwood-frey")
    encoding = Encoding(rules, 20, catalogue)
    rng = random.Random(5)
    state = sm.deal(rules, 5)
    checked = 0
    while state.outcome is None and checked < 60:
        # The mask asked for first (as a step does), so play takes the listed move; then
        # a fresh Encoding that was never asked decodes every action itself.
        legal = np.flatnonzero(encoding.mask(state, state.seat))
        cold = Encoding(rules, 20, catalogue)
        for action in legal.tolist():
            expected = sm.apply_move(rules, state, encoding.move(state, action))
            assert encoding.play(state, action) == expected
            assert cold.play(state, np.int64(action)) == expected
        allowed = set(legal.tolist())
        for action in range(encoding.catalogue.size):
            if action in allowed:
                continue
            with pytest.raises(sm.IllegalMove):
                encoding.play(state, action)
        with pytest.raises(sm.SpiteMaliceError, match="whole number"):
            encoding.play(state, encoding.catalogue.size)
        with pytest.raises(sm.SpiteMaliceError, match="whole number"):
            encoding.play(state, True)
        state = encoding.play(state, int(legal[rng.randrange(len(legal))]))
        checked += 1
    assert checked >= 20


def test_the_aec_environment_plays_the_engines_games_move_for_move() -> None:
    env = sm_env.make("blackwood-frey", payoff_size=5)
    rules = env.rules
    rng = random.Random(2)
    for seed in (2, 3):
        env.reset(seed=seed)
        state = sm.deal(rules, seed)
        for agent in env.agent_iter(max_iter=2000):
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert agent == f"seat_{state.seat}"
            mask = env.encoding.mask(state, state.seat)
            assert np.array_equal(observation["action_mask"], mask)
            assert np.array_equal(observation["observation"],
                                  env.encoding.layout.encode_state(state, state.seat))
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randrange(len(legal))])
            state = sm.apply_move(rules, state, env.encoding.move(state, action))
            env.step(action)
            assert env.game == state
        assert state.outcome is not None


def test_a_vector_step_leaves_the_arrays_it_handed_out_alone() -> None:
    vec = sm_env.vector_env("blackwood-frey", 6)
    observations, info = vec.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(60):
        kept = (observations, observations.copy(), info["action_mask"],
                info["action_mask"].copy(), info["seat"], info["seat"].copy())
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        observations, _, _, _, info = vec.step(actions)
        assert np.array_equal(kept[0], kept[1])
        assert np.array_equal(kept[2], kept[3])
        assert np.array_equal(kept[4], kept[5])
        assert not np.shares_memory(observations, kept[0])
        assert not np.shares_memory(info["action_mask"], kept[2])
        for i, game in enumerate(vec.games):
            assert np.array_equal(info["action_mask"][i], vec.encoding.mask(game, game.seat))
