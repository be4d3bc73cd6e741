"""The learning environments (spitemalice.env): PettingZoo's own test kit for every built-in
rule set, the action catalogue against the engine's legal moves, privacy of observations,
illegal actions, rewards, seeding and the Gymnasium single-agent form."""

from __future__ import annotations

import random
import types
import warnings

import attrs
import numpy as np
import pytest
from helpers.walks import CONFIGS, book, config_id, hidden_twin
from pettingzoo.test import api_test, max_cycles_test, seed_test

import spitemalice as sm
from spitemalice import env as sm_env
from spitemalice.env.observation import HEADER, ObservationLayout
from spitemalice.rules.loader import turn_based_rulesets

RULESETS = turn_based_rulesets()  # spit is refused: tests/env/test_env.py
CATALOGUES = ("slot", "card")  # both action spaces: by hand slot (-v0) and by card (-v1)


@pytest.fixture(autouse=True)
def _quiet_kit() -> None:
    # The kit warns that a Dict observation (observation + action_mask) is not a plain
    # array; that is PettingZoo's own convention for action masks.
    warnings.filterwarnings("ignore", module="pettingzoo.test")


@pytest.mark.parametrize("catalogue", CATALOGUES)
@pytest.mark.parametrize("name", RULESETS)
def test_pettingzoo_api_test(name: str, catalogue: str) -> None:
    api_test(sm_env.make(name, catalogue=catalogue), num_cycles=150)


@pytest.mark.parametrize("catalogue", CATALOGUES)
@pytest.mark.parametrize("name", RULESETS)
def test_pettingzoo_seed_test(name: str, catalogue: str) -> None:
    seed_test(lambda: sm_env.make(name, catalogue=catalogue), num_cycles=60)


@pytest.mark.parametrize("catalogue", CATALOGUES)
@pytest.mark.parametrize("name", RULESETS)
def test_pettingzoo_max_cycles_test(name: str, catalogue: str) -> None:
    kit = types.SimpleNamespace(
        env=lambda max_cycles: sm_env.make(name, max_cycles=max_cycles, catalogue=catalogue),
        parallel_env=lambda max_cycles: sm_env.parallel_env(name, max_cycles=max_cycles,
                                                            catalogue=catalogue))
    max_cycles_test(kit)


def test_the_rule_sets_are_all_here() -> None:
    assert {"blackwood-frey", "uspcc", "g4a", "misery", "starturn"} <= set(RULESETS)


# -- the action catalogue ------------------------------------------------------------------

CATALOGUE_CONFIGS = [c for c in CONFIGS if not c[2] or dict(c[2]).get("players", 0) > 2] + [
    ("blackwood-frey", ("partnerships",), ()),
    ("blackwood-frey", ("partnerships",), (("partner_piles", "share"),)),
    ("skip-bo", ("partnerships",), (("partner_piles", "share"),)),
]


def test_teams_that_share_piles_have_actions_for_a_partners_piles() -> None:
    env = sm_env.make("skip-bo", house_rules=["partnerships"])
    assert env.catalogue.owners == 2
    own = sm.load("skip-bo", ["partnerships"], partner_piles="own")
    assert sm_env.make(own).catalogue.owners == 1


def _states(rules: sm.RuleBook, seed: int, moves: int = 150) -> list[sm.GameState]:
    rng = random.Random(seed)
    state = sm.deal(rules, seed)
    states = [state]
    while state.outcome is None and len(states) < moves:
        options = sm.legal_moves(rules, state)
        state = sm.apply_move(rules, state, options[rng.randrange(len(options))])
        states.append(state)
    return states


@pytest.mark.parametrize("catalogue_kind", CATALOGUES)
@pytest.mark.parametrize("config", CATALOGUE_CONFIGS, ids=config_id)
def test_the_mask_allows_exactly_the_legal_moves(config: object, catalogue_kind: str) -> None:
    rules = book(config)  # type: ignore[arg-type]
    env = sm_env.make(rules, catalogue=catalogue_kind)
    catalogue = env.catalogue
    for state in _states(rules, 5)[::3]:
        if state.outcome is not None:
            continue
        mask = env.encoding.mask(state, state.seat)
        allowed = np.flatnonzero(mask)
        decoded = {catalogue.move(state, int(a)) for a in allowed}
        legal = set(sm.legal_moves(rules, state))
        assert decoded <= legal
        for move in legal:  # by card, one action for the moves of one rank's suits
            numbers = catalogue.actions(state, move)
            assert numbers and set(numbers) <= set(allowed.tolist())
        if catalogue_kind == "slot":
            assert decoded == legal
        for action in range(catalogue.size):  # every other action is refused by the engine
            if mask[action]:
                continue
            with pytest.raises(sm.SpiteMaliceError):
                sm.check_move(rules, state, catalogue.move(state, action))


def test_the_catalogue_size_follows_the_documented_formula() -> None:
    rules = sm.load("blackwood-frey")
    c = sm_env.make(rules).catalogue
    assert (c.hand, c.payoff, c.discard, c.builds) == (5, 1, 4, 4)
    assert c.size == (5 + 1 + 4) * (4 + 1) + 5 * 4 + 1 == 71
    assert c.describe(0) == "hand slot 1 > build pile 1"
    assert c.describe(4) == "hand slot 1 > a new build pile"
    assert c.describe(5 * 5) == "pay-off pile 1 > build pile 1"
    assert c.describe(50) == "hand slot 1 > discard pile 1"
    assert c.describe(70) == "pass"
    pairs = sm_env.make("blackwood-frey", house_rules=["pair-discards"]).catalogue
    assert pairs.size == 71 + 5 * 4 * 4  # ordered pairs: the second card lies on top
    assert pairs.describe(70) == "hand slots 1+2 > discard pile 1"
    assert pairs.describe(70 + 4 * 4) == "hand slots 2+1 > discard pile 1"
    assert pairs.describe(pairs.size - 1) == "pass"
    misery = sm_env.make("misery").catalogue
    assert misery.payoff == 2 and misery.hand == 6
    assert misery.describe(7 * 5) == "pay-off pile 2 > build pile 1"
    teams = sm_env.make("blackwood-frey", house_rules=["partnerships"]).catalogue
    assert (teams.owners, teams.discard_owners) == (2, 1)
    assert teams.size == (5 + 2 * 1 + 2 * 4) * 5 + 5 * 4 + 1
    assert teams.describe(6 * 5) == "partner 1's pay-off pile 1 > build pile 1"
    shared = sm_env.make("blackwood-frey", house_rules=["partnerships"],
                         partner_piles="share").catalogue
    assert shared.discard_owners == 2 and shared.size == 15 * 5 + 5 * 8 + 1
    assert shared.describe(75 + 4) == "hand slot 1 > partner 1's discard pile 1"
    unlimited = sm_env.make("blackwood-frey", house_rules=["unlimited-build-piles"]).catalogue
    assert unlimited.builds == 12  # the aces of three packs: kings may not start a pile


# -- observations ----------------------------------------------------------------------------


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_hidden_cards_do_not_change_an_observation(catalogue: str) -> None:
    rules = sm.load("blackwood-frey", players=3)
    env = sm_env.make(rules, catalogue=catalogue)
    rng = random.Random(8)
    compared = 0
    for state in _states(rules, 2)[::5]:
        for seat in range(3):
            twin = hidden_twin(state, seat, rng)
            assert twin != state
            env.reset(options={"state": state})
            seen = env.observe(f"seat_{seat}")
            env.reset(options={"state": twin})
            again = env.observe(f"seat_{seat}")
            assert np.array_equal(seen["observation"], again["observation"])
            assert np.array_equal(seen["action_mask"], again["action_mask"])
            compared += 1
    assert compared >= 30


def test_an_observation_states_the_visible_position() -> None:
    rules = sm.load("blackwood-frey", players=3)
    env = sm_env.make(rules, discard_depth=3)
    state = _states(rules, 4, moves=120)[-1]
    env.reset(options={"state": state})
    seat = 2
    observation = env.observe(f"seat_{seat}")["observation"]
    layout = env.encoding.layout
    assert observation.shape == (layout.size,) and observation.dtype == np.int16
    assert env.observation_space("seat_2").contains(env.observe("seat_2"))
    assert observation[0] == (state.seat - seat) % 3
    assert observation[3] == len(state.draw)
    hand = [card.rank + 1 for card in state.seats[seat].hand]
    assert list(observation[HEADER:HEADER + len(hand)]) == hand
    for number, pile in enumerate(state.builds):
        at = layout.builds_at + 2 * number
        assert list(observation[at:at + 2]) == [len(pile), pile[-1].rank + 1]
    for offset in range(3):  # seat blocks start with the viewer
        public = state.seats[(seat + offset) % 3]
        at = layout.seats_at + offset * layout.seat_block
        assert observation[at] == len(public.hand)
        assert list(observation[at + 1:at + 3]) == [len(public.payoff[0]),
                                                    public.payoff[0][-1].rank + 1]
        for number, pile in enumerate(public.discards):
            start = at + 3 + number * 4
            top = [card.rank + 1 for card in reversed(pile[-3:])]
            assert list(observation[start:start + 1 + len(top)]) == [len(pile), *top]


def _documented(state: sm.GameState, viewer: int, layout: ObservationLayout) -> list[int]:
    """The layout table of spitemalice.env.observation's docstring, written out plainly."""
    n = len(state.seats)
    values = [(state.seat - viewer) % n, state.turn_moves, state.idle_turns, len(state.draw),
              len(state.completed), int(state.outcome is not None), state.turn]
    hand = [card.rank + 1 for card in state.seats[viewer].hand]
    values += hand + [0] * (layout.hand - len(hand))
    removed = state.build_removed or (0,) * len(state.builds)
    for pile, taken in zip(state.builds, removed, strict=True):
        values += [len(pile) + taken, pile[-1].rank + 1]
    values += [0, 0] * (layout.builds - len(state.builds))
    for offset in range(n):
        seat = state.seats[(viewer + offset) % n]
        values.append(len(seat.hand))
        for pile in seat.payoff:
            values += [len(pile), pile[-1].rank + 1 if pile else 0]
        for pile in seat.discards:
            shown = [card.rank + 1 for card in reversed(pile)][:layout.depth]
            values += [len(pile), *shown, *[0] * (layout.depth - len(shown))]
    return values


@pytest.mark.parametrize("name, params", [
    ("blackwood-frey", {}), ("misery", {}), ("skip-bo", {"recycle_under_tops": True})])
def test_observations_follow_the_documented_layout_from_deal_to_end(
        name: str, params: dict[str, object]) -> None:
    rules = sm.load(name, players=3, **params)
    env = sm_env.make(rules, discard_depth=4)
    layout = env.encoding.layout
    states = _states(rules, 6, moves=10_000)
    assert states[-1].outcome is not None  # the end, with an emptied pay-off pile
    assert not any(states[0].seats[0].discards)  # the deal, with empty discard piles
    if params:  # build piles whose recycled cards still count
        assert any(state.build_removed for state in states)
    for state in states[:40] + states[-40:] + states[::5]:
        for seat in range(3):
            env.reset(options={"state": state})
            observed = env.observe(f"seat_{seat}")["observation"]
            assert observed.tolist() == _documented(state, seat, layout)


@pytest.mark.parametrize("config", CATALOGUE_CONFIGS, ids=config_id)
def test_the_state_encoding_equals_the_encoding_of_the_view(config: object) -> None:
    # encode_state, the environments' quick way, reads the state; encode reads view_of's
    # view.  Equal arrays for every seat of whole games: it reads nothing the view lacks.
    rules = book(config)  # type: ignore[arg-type]
    states: list[sm.GameState] = []
    seed = 0
    while len(states) < 300:  # whole games, finished ones included
        seed += 1
        states += _states(rules, seed, moves=300)
    for depth, every in ((3, 1), (20, 4)):  # depth 3: deep discard piles are cut short
        layout = sm_env.make(rules, discard_depth=depth).encoding.layout
        for state in states[::every]:
            for seat in range(rules.players):
                assert np.array_equal(layout.encode_state(state, seat),
                                      layout.encode(sm.view_of(state, seat)))
    assert any(state.outcome is not None for state in states)


def test_a_position_larger_than_the_layout_is_refused_naming_what_does_not_fit() -> None:
    rules = sm.load("blackwood-frey")
    env = sm_env.make(rules)
    state = sm.deal(rules, 1)
    seat = state.seats[state.seat]
    big = attrs.evolve(seat, hand=seat.hand + state.draw[:1])  # six cards in a hand of five
    seats = tuple(big if s is seat else s for s in state.seats)
    big_state = attrs.evolve(state, seats=seats)
    with pytest.raises(sm.SpiteMaliceError, match=r"hand cards do not fit.*6, at most 5"):
        env.encoding.layout.encode_state(big_state, state.seat)
    with pytest.raises(sm.SpiteMaliceError, match="hand holds 6 cards"):  # the rules' check
        env.reset(options={"state": big_state})



def test_a_given_state_gets_the_loaders_position_checks_and_names_a_wrong_seat_count() -> None:
    from spitemalice.formats import dumps_state, loads_state

    recycling = sm.load("skip-bo", players=3, recycle_under_tops=True)
    plain = sm.load("skip-bo", players=3)
    state = next(s for s in _states(recycling, 6, moves=10_000) if any(s.build_removed))
    with pytest.raises(sm.SpiteMaliceError, match="recycle_under_tops = false") as loaded:
        loads_state(dumps_state(state), plain)
    for env in (sm_env.make(plain), sm_env.single_agent(plain)):
        with pytest.raises(sm.SpiteMaliceError) as refused:
            env.reset(options={"state": state})
        assert str(refused.value) == str(loaded.value)
        assert env.game is None
    sm_env.make(recycling).reset(options={"state": state})  # where the rules recycle
    six = sm.deal(sm.load("skip-bo", players=6), 1)
    for env in (sm_env.make("skip-bo", players=4), sm_env.single_agent("skip-bo", players=4)):
        with pytest.raises(sm.PositionError) as refused:  # as every door refuses one
            env.reset(options={"state": six})
        message = str(refused.value)
        assert message == ("options['state'] has 6 seats; skip-bo is loaded for 4: a state "
                           "from another configuration")
        assert "GameState(" not in message
    with pytest.raises(sm.SpiteMaliceError, match="a GameState, not a dict"):
        sm_env.make("g4a").reset(options={"state": {"seats": []}})


# -- stepping --------------------------------------------------------------------------------


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = sm_env.make("blackwood-frey")
    env.reset(seed=3)
    agent = env.agent_selection
    before = (env.game, agent, dict(env.rewards), dict(env._cumulative_rewards),
              dict(env.steps))
    mask = env.observe(agent)["action_mask"]
    illegal = [a for a in range(env.catalogue.size) if not mask[a]]
    assert env.catalogue.pass_action in illegal
    for action in (illegal[0], env.catalogue.pass_action, illegal[-2]):
        with pytest.raises(sm.IllegalMove) as refused:
            env.step(action)
        assert refused.value.reason
        assert (env.game, env.agent_selection, dict(env.rewards),
                dict(env._cumulative_rewards), dict(env.steps)) == before
    with pytest.raises(sm.IllegalMove) as passing:
        env.step(env.catalogue.pass_action)
    assert passing.value.reason == "pass-not-allowed" and passing.value.clause == "BF-20"
    for bad in (-1, env.catalogue.size, None, "3", True):
        with pytest.raises(sm.SpiteMaliceError):
            env.step(bad)
    assert env.game is before[0]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.game is not before[0]


def test_a_float_action_is_refused_not_truncated_and_numpy_integers_are_taken() -> None:
    env = sm_env.make("blackwood-frey")
    env.reset(seed=3)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    before = env.game
    for bad in (float(legal[0]) + 0.5, float(legal[0]), np.float64(legal[0])):
        with pytest.raises(sm.SpiteMaliceError, match="whole number"):
            env.step(bad)
        assert env.game is before
    env.step(legal[0])                                   # a numpy integer
    assert env.game is not before
    catalogue, state = env.catalogue, env.game
    number = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for given in (np.int64(number), np.int32(number), np.int32(catalogue.pass_action)):
        assert catalogue.describe(given) == catalogue.describe(int(given))
        assert catalogue.move(state, given) == catalogue.move(state, int(given))
    for bad in (True, 2.0, np.float64(number), "3", None, np.int64(-1),
                np.int32(catalogue.size)):
        for call in (lambda a: catalogue.describe(a), lambda a: catalogue.move(state, a)):
            with pytest.raises(sm.SpiteMaliceError,
                               match=f"an action is a whole number from 0 to "
                                     f"{catalogue.size - 1}, not"):
                call(bad)
    single = sm_env.single_agent("g4a")
    _, info = single.reset(seed=2)
    before = single.game
    with pytest.raises(sm.SpiteMaliceError, match="whole number"):
        single.step(float(np.flatnonzero(info["action_mask"])[0]))
    assert single.game is before


def test_stepping_a_finished_game_or_observing_an_unknown_agent_is_a_library_error() -> None:
    env = sm_env.make("blackwood-frey", payoff_size=5)
    with pytest.raises(sm.SpiteMaliceError, match="reset"):
        env.step(0)
    _play_out(env, seed=4)
    assert env.agents == []
    with pytest.raises(sm.SpiteMaliceError, match="game is over"):
        env.step(0)
    with pytest.raises(sm.SpiteMaliceError, match='unknown agent "seat_9"'):
        env.observe("seat_9")


def _play_out(env: sm_env.SpiteMaliceEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return final


def test_rewards_are_the_rule_sets_scores_at_the_end() -> None:
    env = sm_env.make("blackwood-frey", payoff_size=4)
    kinds = set()
    for seed in range(12):
        final = _play_out(env, seed)
        outcome = env.game.outcome
        assert outcome is not None and not env.agents
        assert final == {f"seat_{s}": float(p) for s, p in enumerate(outcome.scores)}
        kinds.add(outcome.kind)
        if outcome.kind == "win":
            assert final[f"seat_{outcome.winner}"] > 0
    assert "win" in kinds


def test_reset_with_a_seed_deals_that_seed_and_replays_the_same_game() -> None:
    rules = sm.load("g4a")
    env = sm_env.make(rules)
    env.reset(seed=11)
    assert env.game == sm.deal(rules, 11)
    first = _play_out(env, 11), env.game
    second = _play_out(env, 11), env.game
    assert first == second
    env.reset(seed=5)
    env.reset()
    after_five = env.game
    env.reset(seed=5)
    env.reset()
    assert env.game == after_five
    assert after_five != sm.deal(rules, 5)


def test_max_cycles_truncates_each_seat_and_the_fallback_plays_it() -> None:
    env = sm_env.make("blackwood-frey", max_cycles=3)
    env.reset(seed=2)
    order = []
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        order.append((agent, truncated))
        env.step(None if terminated or truncated else env.action_space(agent).sample())
    taken = {a: sum(1 for b, t in order if b == a and not t) for a in env.possible_agents}
    assert taken == {"seat_0": 3, "seat_1": 3}
    assert env.game.turn >= 1


def test_unsampled_spaces_draw_legal_actions_for_the_seat_on_turn() -> None:
    env = sm_env.make("uspcc")
    env.reset(seed=1)
    for _ in range(200):
        agent = env.agent_selection
        if env.game.outcome is not None:
            break
        mask = env.observe(agent)["action_mask"]
        action = env.action_space(agent).sample()
        assert mask[action] == 1
        env.step(action)


def test_bad_options_are_refused() -> None:
    with pytest.raises(sm.SpiteMaliceError, match="max_cycles"):
        sm_env.make("g4a", max_cycles=0)
    with pytest.raises(sm.SpiteMaliceError, match="unknown player"):
        sm_env.make("g4a", fallback="genius")
    with pytest.raises(sm.SpiteMaliceError, match="render_mode"):
        sm_env.make("g4a", render_mode="human")
    with pytest.raises(sm.SpiteMaliceError, match="discard_depth"):
        sm_env.make("g4a", discard_depth=0)
    with pytest.raises(sm.RulesetError):
        sm_env.make("blackwood-frey", players=9)
    with pytest.raises(sm.SpiteMaliceError, match="reset"):
        sm_env.make("g4a").observe("seat_0")
    env = sm_env.make("g4a")
    with pytest.raises(sm.SpiteMaliceError, match="seed"):
        env.reset(seed=-1)


def test_make_takes_house_rules_and_parameters() -> None:
    env = sm_env.make("blackwood-frey", players=3, house_rules=["mandatory-aces"],
                      payoff_size=13)
    assert env.rules.players == 3 and env.rules.ruleset.payoff_size == 13
    assert "mandatory-aces" in env.rules.plugins
    assert env.possible_agents == ["seat_0", "seat_1", "seat_2"]


def test_render_shows_the_position() -> None:
    env = sm_env.make("g4a", render_mode="ansi")
    env.reset(seed=1)
    assert "build piles" in (env.render() or "")
    svg = sm_env.make("g4a", render_mode="svg")
    svg.reset(seed=1)
    assert (svg.render() or "").startswith("<svg")


def test_the_parallel_form_plays_only_the_seat_on_turn() -> None:
    env = sm_env.parallel_env("blackwood-frey", payoff_size=4)
    observations, _ = env.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
        assert sum(1 for a in env.agents if observations[a]["action_mask"].any()) == 1
        observations, rewards, terminations, _, _ = env.step(actions)
        steps += 1
    assert all(terminations.values()) and steps > 10
    assert env.aec.game.outcome is not None
    assert rewards == {f"seat_{s}": float(p)
                       for s, p in enumerate(env.aec.game.outcome.scores)}


# -- the Gymnasium single-agent form ----------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_a_single_agent_game_against_bots_ends_with_the_learners_score(name: str) -> None:
    env = sm_env.single_agent(name, seat=1, opponents="greedy", payoff_size=5)
    _, info = env.reset(seed=4)
    assert env.game.seat == 1
    rng = random.Random(4)
    total, terminated = 0.0, False
    for _ in range(5000):
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, truncated, info = env.step(
            int(legal[rng.randrange(len(legal))]))
        total += reward
        assert not truncated
        if terminated:
            break
        assert env.game.seat == 1
    assert terminated
    assert total == env.game.outcome.scores[1]


def test_the_single_agent_env_refuses_bad_set_ups_and_illegal_actions() -> None:
    with pytest.raises(sm.SpiteMaliceError, match="seat"):
        sm_env.single_agent("g4a", seat=2)
    with pytest.raises(sm.SpiteMaliceError, match="opponents"):
        sm_env.single_agent("blackwood-frey", players=3, opponents=["greedy"])
    with pytest.raises(sm.SpiteMaliceError, match="unknown player"):
        sm_env.single_agent("g4a", opponents="genius")
    env = sm_env.single_agent("g4a")
    _, info = env.reset(seed=2)
    before = env.game
    with pytest.raises(sm.IllegalMove):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert env.game is before


# -- a rule set whose seats move at once ----------------------------------------------------


@pytest.mark.parametrize("door", ["make", "parallel_env", "single_agent"])
def test_every_environment_refuses_spit_by_name(door: str) -> None:
    # SP-1: spit's seats move at once; the environments take turns.
    with pytest.raises(sm.SpiteMaliceError, match="spit's seats move at once"):
        getattr(sm_env, door)("spit")


def test_the_vector_environment_refuses_spit_by_name() -> None:
    with pytest.raises(sm.SpiteMaliceError, match="spit's seats move at once"):
        sm_env.vector_env("spit", 2)


def test_spit_has_no_gymnasium_id_and_the_turn_based_rule_sets_have_one() -> None:
    assert "spit" not in sm_env.GYM_IDS.values()
    assert "spit" in {info.name for info in sm.installed() if info.kind == "ruleset"}
    assert sorted(sm_env.GYM_IDS.values()) == sorted(RULESETS * 2)  # -v0 and -v1 each
