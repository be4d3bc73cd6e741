"""The PettingZoo parallel form of the environment, for tools that want it.

Spite and Malice is turn-based: in each parallel step every live agent submits an action,
only the seat on turn's is played, and the others' are ignored (their action masks are all
0).  ``max_cycles`` counts parallel steps: after that many every agent is truncated.
Everything else (observations, rewards, seeding, illegal actions) is the AEC environment's
(:mod:`spitemalice.env.aec`), which this wraps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pettingzoo import ParallelEnv

from spitemalice.env.aec import SpiteMaliceEnv
from spitemalice.env.arguments import agent_of
from spitemalice.env.spaces import Observation
from spitemalice.errors import SpiteMaliceError
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import shown


class SpiteMaliceParallelEnv(ParallelEnv):
    """The parallel environment of one configuration (see the module docstring).

    Args:
        rules: the configuration.
        discard_depth: discard-pile cards shown per pile in observations.
        max_cycles: parallel steps before every agent is truncated, or ``None``.
        render_mode: as for :class:`~spitemalice.env.aec.SpiteMaliceEnv`.
        reward: as for :class:`~spitemalice.env.aec.SpiteMaliceEnv`.
        catalogue: as for :class:`~spitemalice.env.aec.SpiteMaliceEnv`.

    Raises:
        SpiteMaliceError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook` (a rule
            set's name, say: the message names :func:`spitemalice.load`), or a bad argument
            as :class:`~spitemalice.env.aec.SpiteMaliceEnv` refuses it.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "spitemalice_parallel_v0",
                                          "render_modes": ["ansi", "svg"]}

    def __init__(self, rules: RuleBook, *, discard_depth: int = 20,
                 max_cycles: int | None = None, render_mode: str | None = None,
                 reward: str = "score", catalogue: str = "slot") -> None:
        check_book(rules, "SpiteMaliceParallelEnv", SpiteMaliceError)
        self.aec = SpiteMaliceEnv(rules, discard_depth=discard_depth, max_cycles=max_cycles,
                                  render_mode=render_mode, reward=reward, catalogue=catalogue)
        self.aec.max_cycles = None  # parallel steps are counted here, not per seat
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        self.cycles = 0

    def observation_space(self, agent: str) -> Any:
        """As :meth:`SpiteMaliceEnv.observation_space`."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> Any:
        """As :meth:`SpiteMaliceEnv.action_space`."""
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new game (as :meth:`SpiteMaliceEnv.reset`); the observations and infos."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return ({agent: self.aec.observe(agent) for agent in self.agents},
                {agent: {} for agent in self.agents})

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Observation],
                                                     dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, Any]]:
        """Play the action of the seat on turn; the others' actions are ignored.

        Raises:
            IllegalMove: the seat on turn's action is not legal now; nothing changed.
            SpiteMaliceError: ``actions`` is not a dict from agents to actions, names an
                unknown agent or has no action for the seat on turn, or the game is over.
        """
        if not self.agents:
            raise SpiteMaliceError("the game is over: call reset() for a new one")
        if not isinstance(actions, Mapping):
            raise SpiteMaliceError(f"actions is a dict from agent to action, not "
                                   f"{type(actions).__name__} {shown(actions)}")
        for agent in actions:
            agent_of(self.possible_agents, agent)
        mover = self.aec.agent_selection
        if mover not in actions:
            raise SpiteMaliceError(f"{mover} is on turn, but actions has none for it")
        self.aec.step(actions[mover])
        self.cycles += 1
        agents = self.agents
        over = self.aec.game is not None and self.aec.game.outcome is not None
        truncated = self.max_cycles is not None and self.cycles >= self.max_cycles
        rewards = {agent: float(self.aec.rewards.get(agent, 0.0)) for agent in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated and not over)
        observations = {agent: self.aec.observe(agent) for agent in agents}
        infos: dict[str, Any] = {agent: {} for agent in agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """As :meth:`SpiteMaliceEnv.render`."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""
