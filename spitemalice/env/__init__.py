"""Learning environments: PettingZoo (AEC and parallel) and Gymnasium (one seat against bots).

Needs the ``rl`` extra: ``pip install 'spitemalice[rl]'`` (PettingZoo, Gymnasium, numpy).

::

    from spitemalice import env as sm_env

    env = sm_env.make("blackwood-frey", players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(
            observation["action_mask"])
        env.step(action)

* :mod:`spitemalice.env.actions`: the fixed integer action catalogue of a configuration,
  by hand slot (``catalogue="slot"``, the default and the ``-v0`` Gymnasium ids).
* :mod:`spitemalice.env.card_actions`: the catalogue by card (``catalogue="card"``, the
  ``-v1`` ids): the same actions whatever the order of the hand.
* :mod:`spitemalice.env.observation`: the observation array and its layout.
* :mod:`spitemalice.env.aec`: the AEC environment (illegal actions, rewards, seeding,
  ``max_cycles``).
* :mod:`spitemalice.env.parallel`: the parallel form.
* :mod:`spitemalice.env.single`: the Gymnasium single-agent form.
* :mod:`spitemalice.env.vector`: many games stepped at once, batched (self-play).
* :mod:`spitemalice.env.learned`: a policy function as a player at any table
  (:class:`PolicyPlayer`), and the ``learned`` bot (:class:`LearnedPlayer`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from spitemalice.errors import SpiteMaliceError

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - the rl extra is in the test extra
    raise SpiteMaliceError(f"spitemalice.env needs the rl extra ({error.name} is missing): "
                           "pip install 'spitemalice[rl]'") from None

from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.aec import SpiteMaliceEnv
from spitemalice.env.arguments import rules_of
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.env.learned import LearnedPlayer, PolicyPlayer
from spitemalice.env.observation import ObservationLayout
from spitemalice.env.parallel import SpiteMaliceParallelEnv
from spitemalice.env.registration import gym_id, register_rulesets
from spitemalice.env.single import SingleAgentEnv
from spitemalice.env.vector import SelfPlayVectorEnv
from spitemalice.rules.book import RuleBook

RulesArg = str | os.PathLike[str] | RuleBook


def make(ruleset: RulesArg, players: int | None = None, house_rules: Iterable[str] = (), *,
         discard_depth: int = 20, max_cycles: int | None = None, fallback: str = "greedy",
         render_mode: str | None = None, reward: str = "score", catalogue: str = "slot",
         **params: Any) -> SpiteMaliceEnv:
    """The PettingZoo AEC environment of a configuration.

    Args:
        ruleset: an installed rule set's name, a custom rule-set file, or a
            :class:`~spitemalice.rules.book.RuleBook`.
        players: seats (default the rule set's).
        house_rules: house rules to stack, by name.
        discard_depth: discard-pile cards shown per pile in observations, 1 to the deck's
            size (no pile holds more).
        max_cycles: steps per seat before it is truncated (see
            :class:`~spitemalice.env.aec.SpiteMaliceEnv`), or ``None``.
        fallback: the player kind that moves for a truncated seat.
        render_mode: ``"ansi"``, ``"svg"`` or ``None``.
        reward: ``"score"`` (each seat's score), ``"win-loss"`` (+1, -1, 0 for a game
            nobody won) or ``"zero-sum"`` (the score less the other seats' mean):
            :mod:`spitemalice.env.rewards`.
        catalogue: the action space: ``"slot"`` (actions by hand slot,
            :mod:`spitemalice.env.actions`; the default, as before) or ``"card"`` (actions
            by card, :mod:`spitemalice.env.card_actions`).
        **params: rule-set parameter overrides (``payoff_size=13``), as
            :func:`spitemalice.load` takes them.

    Raises:
        RulesetError: the configuration cannot be loaded.
        SpiteMaliceError: a bad environment option: every argument is checked
            (:mod:`spitemalice.env.arguments`), the message names it and what is right.
    """
    return SpiteMaliceEnv(rules_of(ruleset, players, house_rules, params),
                          discard_depth=discard_depth, max_cycles=max_cycles,
                          fallback=fallback, render_mode=render_mode, reward=reward,
                          catalogue=catalogue)


def parallel_env(ruleset: RulesArg, players: int | None = None,
                 house_rules: Iterable[str] = (), *, discard_depth: int = 20,
                 max_cycles: int | None = None, render_mode: str | None = None,
                 reward: str = "score", catalogue: str = "slot",
                 **params: Any) -> SpiteMaliceParallelEnv:
    """The PettingZoo parallel environment of a configuration (arguments as :func:`make`).

    Raises:
        RulesetError: the configuration cannot be loaded.
        SpiteMaliceError: a bad environment option.
    """
    return SpiteMaliceParallelEnv(rules_of(ruleset, players, house_rules, params),
                                  discard_depth=discard_depth, max_cycles=max_cycles,
                                  render_mode=render_mode, reward=reward,
                                  catalogue=catalogue)


def single_agent(ruleset: RulesArg, players: int | None = None,
                 house_rules: Iterable[str] = (), *, seat: int = 0,
                 opponents: str | Sequence[str] = "greedy", discard_depth: int = 20,
                 render_mode: str | None = None, reward: str = "score",
                 illegal: str = "raise", illegal_penalty: float = -1.0,
                 catalogue: str = "slot", **params: Any) -> SingleAgentEnv:
    """The Gymnasium environment of one seat against built-in bots (arguments as
    :func:`make`; ``seat``, ``opponents``, ``reward``, ``illegal`` and ``illegal_penalty`` as
    :class:`~spitemalice.env.single.SingleAgentEnv`).  The registered ids make the same
    environment: ``gymnasium.make("spitemalice/BlackwoodFrey-v0", players=3, ...)``, and
    ``-v1`` with ``catalogue="card"`` (:mod:`spitemalice.env.registration`; registered, an
    id answers an illegal action with a penalty unless given ``illegal="raise"``).

    Raises:
        RulesetError: the configuration cannot be loaded.
        SpiteMaliceError: a bad environment option.
    """
    return SingleAgentEnv(rules_of(ruleset, players, house_rules, params), seat=seat,
                          opponents=opponents, discard_depth=discard_depth,
                          render_mode=render_mode, reward=reward, illegal=illegal,
                          illegal_penalty=illegal_penalty, catalogue=catalogue)


def vector_env(ruleset: RulesArg, num_envs: int, players: int | None = None,
               house_rules: Iterable[str] = (), *, discard_depth: int = 20,
               reward: str = "score", catalogue: str = "slot",
               **params: Any) -> SelfPlayVectorEnv:
    """``num_envs`` games of a configuration stepped at once, one learner in every seat, with
    batched observations and masks (:class:`~spitemalice.env.vector.SelfPlayVectorEnv`;
    other arguments as :func:`make`).

    Raises:
        RulesetError: the configuration cannot be loaded.
        SpiteMaliceError: a bad environment option.
    """
    return SelfPlayVectorEnv(rules_of(ruleset, players, house_rules, params), num_envs,
                             discard_depth=discard_depth, reward=reward,
                             catalogue=catalogue)


GYM_IDS = register_rulesets()
"""``{Gymnasium id: rule-set name}``, one id per installed rule set, registered on import
(:mod:`spitemalice.env.registration`)."""

__all__ = [
    "GYM_IDS",
    "ActionCatalogue",
    "CardCatalogue",
    "LearnedPlayer",
    "ObservationLayout",
    "PolicyPlayer",
    "SelfPlayVectorEnv",
    "SingleAgentEnv",
    "SpiteMaliceEnv",
    "SpiteMaliceParallelEnv",
    "gym_id",
    "make",
    "parallel_env",
    "single_agent",
    "vector_env",
]
