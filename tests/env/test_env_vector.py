"""The vectorised self-play environment (spitemalice.env.vector) and observation reuse
(issue 22 section 4)."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

import spitemalice as sm
from spitemalice import env as sm_env
from spitemalice.env.kept import KeptSegments
from spitemalice.env.rewards import final_rewards


def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_reset_deals_seed_plus_index_and_batches_each_seats_view() -> None:
    vec = sm_env.vector_env("g4a", 5, payoff_size=5)
    observations, info = vec.reset(seed=7)
    rules = vec.rules
    assert observations.shape == (5, vec.encoding.layout.size) and observations.dtype == np.int16
    assert info["action_mask"].shape == (5, vec.catalogue.size)
    for i in range(5):
        game = sm.deal(rules, 7 + i)
        assert vec.games[i] == game and info["seat"][i] == game.seat
        assert np.array_equal(observations[i], vec.encoding.layout.encode_state(game, game.seat))
        assert np.array_equal(info["action_mask"][i], vec.encoding.mask(game, game.seat))
    assert np.array_equal(vec.action_masks(), info["action_mask"].astype(bool))
    assert vec.observation_space.shape == observations.shape


@pytest.mark.parametrize(("catalogue", "name", "options"), [
    ("slot", "blackwood-frey", {}),
    ("card", "blackwood-frey", {}),
    # pair discards (two cards of one rank in one action), and partners' piles
    ("card", "misery", {"house_rules": ["pair-discards"]}),
    ("slot", "misery", {"house_rules": ["pair-discards"]}),
    ("card", "blackwood-frey", {"players": 4, "house_rules": ["partnerships"]}),
])
def test_each_step_is_the_engines_move_in_every_game_and_ended_games_are_dealt_again(
        catalogue: str, name: str, options: dict[str, object]) -> None:
    # the masks are the catalogue's legal actions at every step, and each action makes the
    # move the catalogue names (for two cards of one rank: the first the engine lists)
    vec = sm_env.vector_env(name, 4, payoff_size=2, reward="win-loss", catalogue=catalogue,
                            **options)
    _, info = vec.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        before = list(vec.games)
        actions = _random_actions(rng, info["action_mask"])
        observations, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for i, state in enumerate(before):
            move = vec.encoding.move(state, int(actions[i]))
            after = sm.apply_move(vec.rules, state, move)
            if terminated[i]:
                ended += 1
                paid = final_rewards(vec.rules, after.outcome, "win-loss")
                assert rewards[i] == paid[state.seat]
                assert tuple(info["rewards"][i]) == paid
                assert info["_final_obs"][i]
                assert np.array_equal(info["final_obs"][i],
                                      vec.encoding.layout.encode_state(after, state.seat))
                assert vec.games[i].outcome is None and vec.games[i].turn == 0
            else:
                assert rewards[i] == 0 and vec.games[i] == after
            game = vec.games[i]
            assert np.array_equal(observations[i],
                                  vec.encoding.layout.encode_state(game, game.seat))
            assert np.array_equal(info["action_mask"][i], vec.encoding.mask(game, game.seat))
    assert ended >= 2


@pytest.mark.parametrize(("name", "players"),
                         [("blackwood-frey", 3), ("misery", 3), ("skip-bo", 4), ("uspcc", 2)])
def test_kept_segments_give_the_whole_encoding_whatever_came_before(name: str,
                                                                    players: int) -> None:
    """KeptSegments encodes only what changed; whatever its segments came from (the state
    one move back, another viewer, another game, cards taken from under a build pile's top),
    it gives encode_bytes' bytes.  Three and four seats: every block moves when the viewer
    changes."""
    rules = sm.load(name, players=players)
    layout = sm_env.spaces.Encoding(rules, 20).layout
    kept = KeptSegments(layout)
    games = [sm.deal(rules, seed) for seed in (1, 2)]
    rng = np.random.default_rng(3)
    recycled = 0
    for step in range(1500):
        which = int(rng.integers(2)) if step % 7 == 0 else 0
        state = games[which]
        if state.outcome is not None:
            state = games[which] = sm.deal(rules, step)
        viewer = state.seat if step % 5 else int(rng.integers(players))
        if step % 11 == 0 and state.builds and max(map(len, state.builds)) < rules.ceiling.ceiling:
            # the same build piles with a card taken from under each top (skip-bo's
            # recycle_under_tops, too rare in random play to meet): then back without
            under = attrs.evolve(state, build_removed=(1,) * len(state.builds))
            assert (kept.encode(under, viewer)
                    == layout.encode_bytes(under, viewer))
            recycled += 1
        assert kept.encode(state, viewer) == layout.encode_bytes(state, viewer)
        moves = sm.legal_moves(rules, state)
        games[which] = sm.apply_move(rules, state, moves[int(rng.integers(len(moves)))])
    assert recycled >= 10


def test_a_state_that_does_not_fit_is_refused_and_leaves_the_kept_segments_true() -> None:
    layout = sm_env.spaces.Encoding(sm.load("blackwood-frey"), 20).layout  # hands of 5
    kept = KeptSegments(layout)
    state = sm.deal(sm.load("blackwood-frey"), 4)
    assert kept.encode(state, 0) == layout.encode_bytes(state, 0)
    wide = sm.deal(sm.load("misery"), 4)  # hands of 6
    with pytest.raises(sm.SpiteMaliceError, match="hand cards do not fit"):
        kept.encode(wide, wide.seat)
    for viewer in (1, 0):
        assert kept.encode(state, viewer) == layout.encode_bytes(state, viewer)


def test_an_illegal_action_in_one_game_moves_no_game_and_names_the_game() -> None:
    vec = sm_env.vector_env("g4a", 3)
    _, info = vec.reset(seed=2)
    actions = _random_actions(np.random.default_rng(2), info["action_mask"])
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    before = list(vec.games)
    with pytest.raises(sm.IllegalMove, match=r"^game 1: "):
        vec.step(actions)
    assert vec.games == before
    legal = [int(np.flatnonzero(row)[0]) for row in info["action_mask"]]
    for beyond in (vec.catalogue.size, 2**62, -1):  # no action at all: refused, nothing moved
        with pytest.raises(sm.SpiteMaliceError, match=rf"^game 2: .*{beyond}"):
            vec.step([*legal[:2], beyond])
        assert vec.games == before
    with pytest.raises(sm.SpiteMaliceError, match="3 whole numbers"):
        vec.step(actions[:2])
    with pytest.raises(sm.SpiteMaliceError, match="3 whole numbers"):
        vec.step(actions.astype(float))
    with pytest.raises(sm.SpiteMaliceError, match="num_envs"):
        sm_env.vector_env("g4a", 0)


def test_repeated_observe_encodes_once_and_returns_the_callers_own_arrays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    env = sm_env.make("blackwood-frey")
    env.reset(seed=3)
    layout = env.encoding.layout
    calls = []
    real = layout._hand_codes  # a new state's hand is encoded once: when it is first seen
    monkeypatch.setattr(layout, "_hand_codes", lambda hand: calls.append(hand) or real(hand))
    agent = env.agent_selection
    first = env.observe(agent)
    again = env.observe(agent)
    last = env.last()[0]
    assert len(calls) == 1
    for other in (again, last):
        assert np.array_equal(other["observation"], first["observation"])
        assert not np.shares_memory(other["observation"], first["observation"])
        assert not np.shares_memory(other["action_mask"], first["action_mask"])
    first["observation"][0] = 99  # the caller's own: changing it changes no later answer
    assert env.observe(agent)["observation"][0] != 99
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    env.observe(env.agent_selection)
    assert len(calls) == 2  # a new state is encoded


def test_a_bool_among_the_actions_is_refused_not_read_as_0_or_1() -> None:
    # numpy turns [True, 94] into int64 [1, 94]; the AEC environment and the catalogues
    # refuse True, and so does the vectorised step, moving no game.
    vec = sm_env.vector_env("blackwood-frey", 2, catalogue="card")
    _, info = vec.reset(seed=3)
    before = list(vec.games)
    legal = [int(np.flatnonzero(row)[0]) for row in info["action_mask"]]
    for first in (True, np.True_):
        with pytest.raises(sm.SpiteMaliceError, match="a bool is no action"):
            vec.step([first, legal[1]])
        assert vec.games == before
    vec.step(legal)  # the same actions as whole numbers are taken
    assert vec.games != before
