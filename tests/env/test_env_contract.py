"""The environments' input contract (issue 20, class 6): every argument of every environment
form (the factories, the AEC, parallel and Gymnasium classes, and each of their public
methods) refuses a bad value with SpiteMaliceError, and a refused call changes nothing.

The arguments are found by walking the signatures of ``spitemalice.env``'s environment
forms; test_every_argument_has_bad_values fails when one appears without a row here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import spitemalice as sm
from spitemalice import env as sm_env
from spitemalice.errors import SpiteMaliceError
from spitemalice.wording import shown

FORMS = ["make", "parallel_env", "single_agent", "vector_env", "SpiteMaliceEnv",
         "SpiteMaliceParallelEnv", "SingleAgentEnv", "SelfPlayVectorEnv"]
HUGE = 10**5000
BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, 3)


def arguments() -> set[str]:
    """``"form(param)"`` and ``"form.method(param)"`` for every argument of every form."""
    found = set()
    for name in FORMS:
        obj = getattr(sm_env, name)
        members = [(name, obj)]
        if inspect.isclass(obj):
            members = [(name, obj.__init__)] + [
                (f"{name}.{member}", value) for member, value in vars(obj).items()
                if inspect.isfunction(value) and not member.startswith("_")]
        for label, func in members:
            for param in inspect.signature(func).parameters.values():
                if param.name != "self" and param.kind is not param.VAR_KEYWORD:
                    found.add(f"{label}({param.name})")
    return found


# Bad values of each kind of argument; each must be refused.
NOT_INTS = [1.5, "3", True, None, [1], HUGE, -HUGE]
BAD: dict[str, list[Any]] = {
    "ruleset": [3, None, b"blackwood-frey", ["blackwood-frey"], "no-such-rules"],
    "rules": ["blackwood-frey", 3, None],
    "players": [1, 9, 1.5, True, [2], HUGE],
    "house_rules": [3, [3], b"x", {"partnerships": 1}, ["no-such-rule"]],
    "discard_depth": [0, -1, 10**6, 1.5, True, None, "5", HUGE],
    "max_cycles": [0, -1, 1.5, True, "5", HUGE],
    "fallback": [3, None, "genius", ["greedy"]],
    "render_mode": ["human", 3, ["ansi"], np.array([1, 2])],
    "seat": [-1, 2, 1.5, True, "0", None, HUGE],
    "opponents": [3, None, ["greedy"] * 5, [3], "genius", [["greedy"]]],
    "seed": [-1, 1.5, True, "1", [1], HUGE, 10**80],
    "options": [("state",), "state", 3, ["state"], {"state": 3}, {"state": "x"},
                {"state": sm.deal(sm.load("blackwood-frey", players=3), 1)}],
    "action": [-1, 10**6, 1.5, "1", True, [0], HUGE, np.array([1, 2])],
    "actions": [3, ["seat_0"], {"seat_9": 0}, {}, None, {"seat_0": "x", "seat_1": "x"},
                [[1], [1, 2]], ["a", "b"], [HUGE, 1], [1.5, 2.5], [-1, -1], [10**6, 0]],
    "reward": ["points", 3, None, ["score"]],
    "illegal": ["ignore", 3, None, True],
    "illegal_penalty": ["x", float("nan"), float("inf"), None, 1e300, True, [1]],
    "num_envs": [0, -1, 10**6, 1.5, True, None, HUGE],
    "agent": [3, "seat_9", None, ["seat_0"], np.array([1])],
    "catalogue": ["hand", "Card", 3, None, True, ["card"], ("slot",)],
}
UNIT_RULES = BF
DEFAULTS = {"make": {"ruleset": "blackwood-frey"}, "parallel_env": {"ruleset": "blackwood-frey"},
            "single_agent": {"ruleset": "blackwood-frey"},
            "vector_env": {"ruleset": "blackwood-frey", "num_envs": 2},
            "SpiteMaliceEnv": {"rules": BF}, "SpiteMaliceParallelEnv": {"rules": BF},
            "SingleAgentEnv": {"rules": BF}, "SelfPlayVectorEnv": {"rules": BF, "num_envs": 2}}


def _fresh(form: str) -> Any:
    """A live environment of ``form`` (a class's or factory's), reset with seed 3."""
    made = getattr(sm_env, form)(**DEFAULTS[form])
    made.reset(seed=3)
    return made


def _call(label: str, value: Any) -> tuple[Any, Callable[[], Any]]:
    """The environment (or None) and the call of ``label`` with ``value`` for its argument."""
    head, _, param = label.partition("(")
    param = param.rstrip(")")
    form, _, method = head.partition(".")
    if not method:
        return None, lambda: getattr(sm_env, form)(**{**DEFAULTS[form], param: value})
    made = _fresh(form)
    bound = getattr(made, method)
    if method == "step" and param in ("action", "actions"):
        return made, lambda: bound(value)
    return made, lambda: bound(**{param: value})


def _cases() -> list[tuple[str, Any]]:
    cases = []
    for label in sorted(arguments()):
        param = label.partition("(")[2].rstrip(")")
        cases += [(label, value) for value in BAD.get(param, [])]
    return cases


def test_every_argument_has_bad_values() -> None:
    missing = {label for label in arguments()
               if label.partition("(")[2].rstrip(")") not in BAD}
    assert missing == set(), f"add bad values for: {sorted(missing)}"


@pytest.mark.parametrize(("label", "value"), _cases(),
                         ids=lambda x: x if isinstance(x, str) else shown(x)[:30])
def test_a_bad_argument_is_refused_and_changes_nothing(label: str, value: Any) -> None:
    made, call = _call(label, value)
    before = _snapshot(made)
    with pytest.raises(SpiteMaliceError):
        call()
    assert _snapshot(made) == before


def _snapshot(made: Any) -> Any:
    """What a refused call must leave as it was: the game and, per form, the agents."""
    if made is None:
        return None
    inner = getattr(made, "aec", made)
    return (getattr(inner, "game", None), list(getattr(inner, "games", [])),
            list(getattr(made, "agents", [])),
            getattr(inner, "agent_selection", None),
            dict(getattr(inner, "rewards", {})), getattr(inner, "_seeds", None).__dict__.copy())


def test_the_issue_example() -> None:
    with pytest.raises(SpiteMaliceError, match="options"):
        sm_env.make("blackwood-frey").reset(options=("state",))


def test_a_done_agent_takes_only_none() -> None:
    env = sm_env.make("blackwood-frey", payoff_size=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(SpiteMaliceError, match="only action is None"):
                env.step(0)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
