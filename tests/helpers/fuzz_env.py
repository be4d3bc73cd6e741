"""Fuzz targets for the environments' input contract (issue 20, class 6): every argument of
every environment form and method, fed values of every kind (valid ones, numbers past every
bound, wrong types, numpy scalars and arrays, states of other configurations and mutated
states).  Only ``SpiteMaliceError`` may come out.

An input is a recipe (plain data: which form, which call, which values by their index in the
pools), so a failing one prints short and replays exactly; ``run`` builds and calls it.
:data:`ENV_TARGETS` joins ``fuzz_targets.TARGETS`` (the suite's bounded fuzz test and
``bench/fuzz.py``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

import spitemalice as sm
from spitemalice import env

FORMS = ("make", "parallel_env", "single_agent")
CONFIGS = (("blackwood-frey", {}), ("skip-bo", {"players": 3}), ("misery", {}),
           ("blackwood-frey", {"players": 4, "payoff_size": 5}))

# Values of every kind; recipes name them by index.
ODD: list[Any] = [None, True, False, 1.5, float("nan"), float("inf"), "1", "", "x" * 300,
                  "\x1b[2J", b"x", [], [1], {}, (), {"state": 1}, object(), np.int64(3),
                  np.int64(-1), np.float64(2.0), np.array([1, 2]), np.bool_(True),
                  complex(1, 1), 0, 1, 2, 3, 5, 20, 162, 163, 10**6, -1, 2**31, 2**63,
                  10**80 - 1, 10**80, 10**4300, -(10**4300)]
GOOD: dict[str, list[Any]] = {
    "players": [None, 2, 3, 4, 6],
    "house_rules": [(), ["mandatory-aces"], "partnerships", ["no-such-rule"]],
    "discard_depth": [1, 5, 20, 100],
    "max_cycles": [None, 1, 5, 100],
    "fallback": ["greedy", "random"],
    "render_mode": [None, "ansi", "svg"],
    "seat": [0, 1],
    "opponents": ["greedy", "random", ["greedy", "random"]],
    "payoff_size": [3, 13, "13", "share"],
    "ruleset": ["blackwood-frey", "skip-bo", "misery", "no-such-rules"],
}
ARGUMENTS = {"make": ("players", "house_rules", "discard_depth", "max_cycles", "fallback",
                      "render_mode", "payoff_size", "ruleset"),
             "parallel_env": ("players", "house_rules", "discard_depth", "max_cycles",
                              "render_mode", "payoff_size", "ruleset"),
             "single_agent": ("players", "house_rules", "discard_depth", "seat", "opponents",
                              "render_mode", "payoff_size", "ruleset")}


def _value(rng: random.Random, name: str) -> tuple[str, int]:
    """A value for argument ``name``: ("good", i) or ("odd", i)."""
    if name in GOOD and rng.random() < 0.6:
        return ("good", rng.randrange(len(GOOD[name])))
    return ("odd", rng.randrange(len(ODD)))


def _pick(name: str, ref: tuple[str, int]) -> Any:
    return GOOD[name][ref[1]] if ref[0] == "good" else ODD[ref[1]]


# -- making environments -------------------------------------------------------------------


def gen_make(rng: random.Random) -> tuple[Any, ...]:
    form = rng.choice(FORMS)
    names = rng.sample(ARGUMENTS[form], rng.randint(1, 3))
    return form, tuple((name, _value(rng, name)) for name in names)


def run_make(recipe: tuple[Any, ...]) -> object:
    form, given = recipe
    kwargs = {name: _pick(name, ref) for name, ref in given}
    ruleset = kwargs.pop("ruleset", "blackwood-frey")
    made = getattr(env, form)(ruleset, **kwargs)
    made.reset(seed=1)
    return made.render()


# -- reset(seed, options) ------------------------------------------------------------------


@functools.cache
def _environment(form: str, config: int) -> Any:
    name, params = CONFIGS[config]
    return getattr(env, form)(name, **params)


@functools.cache
def _states(config: int) -> tuple[sm.GameState, ...]:
    name, params = CONFIGS[config]
    rules = sm.load(name, **params)
    state, found = sm.deal(rules, 7), []
    for step in range(60):
        found.append(state)
        if state.outcome is not None:
            break
        moves = sm.legal_moves(rules, state)
        state = sm.apply_move(rules, state, moves[step % len(moves)])
    return tuple(found)


_FIELDS = [field.name for field in attrs.fields(sm.GameState)]


def gen_reset(rng: random.Random) -> tuple[Any, ...]:
    form, config = rng.choice(FORMS), rng.randrange(len(CONFIGS))
    seed = ("none",) if rng.random() < 0.3 else _value(rng, "seed")
    kind = rng.random()
    if kind < 0.25:
        options: tuple[Any, ...] = ("none",)
    elif kind < 0.4:
        options = ("odd", rng.randrange(len(ODD)))
    else:  # a state: of this or another configuration, perhaps with a field changed
        options = ("state", rng.randrange(len(CONFIGS)), rng.randrange(60),
                   rng.choice(_FIELDS) if rng.random() < 0.6 else None,
                   rng.randrange(len(ODD)))
    return form, config, seed, options


def _options(options: tuple[Any, ...]) -> Any:
    if options[0] == "none":
        return None
    if options[0] == "odd":
        return ODD[options[1]]
    _, config, index, field, value = options
    states = _states(config)
    state = states[index % len(states)]
    if field is not None:
        try:
            state = attrs.evolve(state, **{field: ODD[value]})
        except (TypeError, sm.SpiteMaliceError):
            # The state's own constructor refused the value (a TypeError for a wrong type is
            # its documented answer to a programming error): reset gets the raw value.
            return {"state": ODD[value]}
    return {"state": state}


def run_reset(recipe: tuple[Any, ...]) -> object:
    form, config, seed, options = recipe
    made = _environment(form, config)
    chosen = None if seed[0] == "none" else _pick("seed", seed)
    return made.reset(seed=chosen, options=_options(options))


# -- step, observe and the spaces ----------------------------------------------------------

CALLS = ("step", "observe", "observation_space", "action_space", "render")


def gen_step(rng: random.Random) -> tuple[Any, ...]:
    form, config = rng.choice(FORMS), rng.randrange(len(CONFIGS))
    call = rng.choice(CALLS)
    if rng.random() < 0.3:
        value: tuple[Any, ...] = ("legal",)
    elif rng.random() < 0.2:
        value = ("agent", rng.randrange(4))
    elif form == "parallel_env" and call == "step" and rng.random() < 0.5:
        value = ("dict", rng.randrange(4), rng.randrange(len(ODD)))
    else:
        value = ("odd", rng.randrange(len(ODD)))
    return form, config, rng.randrange(1000), call, value


def _argument(made: Any, form: str, value: tuple[Any, ...]) -> Any:
    inner = getattr(made, "aec", made)
    if value[0] == "legal":
        mask = inner.encoding.mask(inner.game, inner.game.seat)
        legal = np.flatnonzero(mask)
        action = int(legal[0]) if legal.size else 0
        if form == "parallel_env":
            return {agent: action for agent in made.agents}
        return action
    if value[0] == "agent":
        return f"seat_{value[1]}"
    if value[0] == "dict":
        return {f"seat_{value[1]}": ODD[value[2]]}
    return ODD[value[1]]


def run_step(recipe: tuple[Any, ...]) -> object:
    form, config, seed, call, value = recipe
    made = _environment(form, config)
    made.reset(seed=seed)
    argument = _argument(made, form, value)
    if call == "render":
        return made.render()
    if form == "single_agent" and call in ("observe", "observation_space", "action_space"):
        return made.step(argument)  # the single-seat form has no agents: step instead
    if form == "parallel_env" and call == "observe":
        return made.step(argument)  # the parallel form observes in step
    return getattr(made, call)(argument)


# -- the OpenSpiel game's parameters (a reader of text: house rules and settings) ------------

SETTING_TOKENS = ["payoff_size", "players", "hand_size", "turn_limit", ":", "+", "=", ",", "3",
                  "13", "-1", "9" * 100, "x", "\x1b[2J", " ", "true", "share", "mandatory-aces",
                  "partnerships", "(", ")"]


def gen_openspiel(rng: random.Random) -> tuple[Any, ...]:
    def text() -> str:
        return "".join(rng.choice(SETTING_TOKENS) for _ in range(rng.randint(0, 8)))

    players = rng.choice([0, 2, 3, 4, 9, -1, 10**4300, "x", None, 1.5])
    # an unknown game name is OpenSpiel's to refuse (it prints its whole list of games)
    return rng.choice(("blackwood-frey", "skip-bo", "misery")), players, text(), text()


def run_openspiel(recipe: tuple[Any, ...]) -> object:
    """A whole number of players goes to OpenSpiel's own loader with the house rules and
    settings as text (our parser of them, ``openspiel.rules_of``, reads them there); any other
    ``players`` goes to our ``load_game``, which refuses it before OpenSpiel sees it.
    OpenSpiel's refusal of its own parameters (``SpielError``) is its answer."""
    import pyspiel

    from spitemalice import openspiel

    ruleset, players, house_rules, settings = recipe
    try:
        if isinstance(players, int) and -2**31 <= players < 2**31:
            game = pyspiel.load_game(openspiel.game_name(ruleset), {
                "players": players, "house_rules": house_rules, "settings": settings})
        else:
            game = openspiel.load_game(ruleset, players)
        return game.new_initial_state().legal_actions()
    except pyspiel.SpielError:
        return None


ENV_TARGETS: tuple[tuple[str, Callable[[random.Random], Any], Callable[[Any], object]], ...] = (
    ("env arguments", gen_make, run_make),
    ("env reset", gen_reset, run_reset),
    ("env step/observe", gen_step, run_step),
    ("openspiel parameters", gen_openspiel, run_openspiel),
)
