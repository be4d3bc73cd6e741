"""The PettingZoo AEC environment: one agent per seat, one step per move.

Agents are ``"seat_0"``, ``"seat_1"``, ...; the agent selected is always the seat on turn, so
a seat takes several steps in a row while it plays cards and its turn ends with a discard
(or a pass).  Each observation is a dict: ``"observation"``, the seat's view encoded
(:mod:`spitemalice.env.observation`), and ``"action_mask"``, 1 for each action of the
catalogue (:mod:`spitemalice.env.actions`) that is legal now.

* **Illegal actions** are refused with :class:`~spitemalice.errors.IllegalMove` (reason
  code and clause, as the engine gives them) and change nothing: the state, the agent
  selected and every reward stay as they were, so the caller may try another action.
* **Rewards** are 0 until the game ends; then each seat's reward is its score for the game
  under the rule set's scoring (``Outcome.scores``), or under ``reward="win-loss"`` +1, -1
  or 0, or under ``reward="zero-sum"`` its score less the others' mean
  (:mod:`spitemalice.env.rewards`), and every agent is terminated.
* **Seeding**: ``reset(seed=s)`` deals the game :func:`spitemalice.deal` deals with seed
  ``s``, so it is the game a record with seed ``s`` replays; ``reset()`` without a seed
  deals the next game of the sequence the last seed started (an unguessable one if no seed
  was ever given).  ``reset(options={"state": state})`` starts from a given position.
* **max_cycles** (optional): each seat takes at most ``max_cycles`` steps.  A seat that has
  taken them is truncated, and its later moves are made by the ``fallback`` bot (a
  built-in player kind, ``"greedy"`` unless given) while the other seats play on, until
  every seat is truncated or the game ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from spitemalice.bots.players import Player, make_player
from spitemalice.engine.deal import deal
from spitemalice.engine.shuffle import derive_seed
from spitemalice.env.arguments import (
    RENDER_MODES,
    agent_of,
    max_cycles_of,
    player_kind,
    render_mode_of,
    reset_arguments,
)
from spitemalice.env.others import bots_move
from spitemalice.env.rewards import checked_reward, final_rewards
from spitemalice.env.seeds import EpisodeSeeds
from spitemalice.env.spaces import Encoding, LegalDiscrete, Observation
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats.layout import describe_position
from spitemalice.formats.picture import position_svg
from spitemalice.model import GameState
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import shown


class SpiteMaliceEnv(AECEnv):
    """An AEC environment for one configuration (see the module docstring).

    Args:
        rules: the configuration.
        discard_depth: discard-pile cards shown per pile in observations.
        max_cycles: steps per seat before it is truncated; ``None`` for no limit (the rule
            set's turn limit still ends every game).
        fallback: the player kind that moves for a truncated seat.
        render_mode: ``"ansi"`` (:meth:`render` returns the position laid out as text),
            ``"svg"`` (an SVG picture) or ``None``.
        reward: ``"score"``, ``"win-loss"`` or ``"zero-sum"`` (:mod:`spitemalice.env.rewards`).
        catalogue: the action space, ``"slot"`` (actions by hand slot,
            :mod:`spitemalice.env.actions`) or ``"card"`` (actions by card,
            :mod:`spitemalice.env.card_actions`).

    Raises:
        SpiteMaliceError: a bad ``discard_depth``, ``max_cycles``, ``fallback``,
            ``render_mode``, ``reward`` or ``catalogue``, or ``rules`` that are not a
            :class:`~spitemalice.rules.book.RuleBook` (a rule set's name, say: the message
            names :func:`spitemalice.load`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "spitemalice_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}
    agent_selection: str  # the seat on turn's agent (PettingZoo's attribute)

    def __init__(self, rules: RuleBook, *, discard_depth: int = 20,
                 max_cycles: int | None = None, fallback: str = "greedy",
                 render_mode: str | None = None, reward: str = "score",
                 catalogue: str = "slot") -> None:
        super().__init__()
        check_book(rules, "SpiteMaliceEnv", SpiteMaliceError)
        max_cycles = max_cycles_of(max_cycles)
        fallback = player_kind(fallback, "fallback")
        render_mode = render_mode_of(render_mode)
        self.reward = checked_reward(reward)
        self.rules = rules
        self.encoding = Encoding(rules, discard_depth, catalogue)
        self.catalogue = self.encoding.catalogue
        self.max_cycles = max_cycles
        self.fallback = fallback
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(rules.players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = self.encoding.observation_space
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: LegalDiscrete(self.catalogue.size, self._mask_for(agent))
                              for agent in self.possible_agents}
        self._seeds = EpisodeSeeds()
        self.game: GameState | None = None
        self._bots: dict[int, Player] = {}
        self._truncated = False

    def observation_space(self, agent: str) -> Any:
        """``agent``'s observation space.

        Raises:
            SpiteMaliceError: ``agent`` is not one of the agents.
        """
        return self.observation_spaces[agent_of(self.possible_agents, agent)]

    def action_space(self, agent: str) -> Any:
        """``agent``'s action space.

        Raises:
            SpiteMaliceError: ``agent`` is not one of the agents.
        """
        return self.action_spaces[agent_of(self.possible_agents, agent)]

    # -- reset and step ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: the one ``seed`` deals, or the next of the seeded sequence, or
        (``options={"state": GameState}``) the given position.  Other options are ignored.

        Raises:
            SpiteMaliceError: a seed that is not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_SEED`, options that are not a dict of known
                keys, or a state that is not a GameState or has another seat count than the
                rules'; nothing changed.
            PositionError: a given state the rule set cannot hold (the checks
                :func:`~spitemalice.formats.serialize.loads_state` runs).
        """
        seed, start = reset_arguments(self.rules, seed, options)
        game_seed = self._seeds.next(seed)  # seeds: spitemalice.env.seeds
        self.game = start if start is not None else deal(self.rules, game_seed)
        self._bots = {}
        self._fallback_seed = derive_seed(game_seed, "fallback")
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.steps = dict.fromkeys(self.agents, 0)
        self._truncated = False  # whether any seat is truncated yet
        self._settle()

    def step(self, action: Any) -> None:
        """Make the move ``action`` stands for, for the selected agent (``None`` for an agent
        that is terminated or truncated).

        Raises:
            IllegalMove: the action is not legal now; nothing changed.
            SpiteMaliceError: ``action`` is not an action of the catalogue (a float such as
                ``2.0`` is not), the game is over and every agent is done, or :meth:`reset`
                was not called.
        """
        game = self._live()
        if not self.agents:
            raise SpiteMaliceError("the game is over and every agent is done: call reset() "
                                   "for a new one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise SpiteMaliceError(f"{agent} is done: its only action is None, not "
                                       f"{shown(action)}")
            self._was_dead_step(action)
            return
        # checks the action, then applies the move it stands for (unchecked when the mask
        # just shown listed it): Encoding.play
        after = self.encoding.play(game, action)
        self._cumulative_rewards[agent] = 0.0
        self.game = after
        self.steps[agent] += 1
        if self.max_cycles is not None and self.steps[agent] >= self.max_cycles:
            self.truncations[agent] = True
            self._truncated = True
        elif after.outcome is None and not self._truncated:
            # The usual step (_settle's first case, inline): nobody is done, so no bot
            # moves and every reward stays 0; the seat on turn is selected.
            self.agent_selection = self.possible_agents[after.seat]
            return
        self._settle()

    def _settle(self) -> None:
        """After a deal or a move: let the fallback bot move for truncated seats, pay the
        scores at the end, and select the seat on turn (dead agents first)."""
        game = self._live()
        if game.outcome is None and not self._truncated:
            # The usual step: nobody is done, so no bot moves, every reward stays 0 and
            # every agent is still there: the seat on turn is selected, nothing else.
            self.agent_selection = self.possible_agents[game.seat]
            return
        self._fallback_moves()
        game = self._live()
        for agent in self.rewards:
            self.rewards[agent] = 0.0
        if game.outcome is not None:
            paid = final_rewards(self.rules, game.outcome, self.reward)
            for agent in self.agents:
                self.rewards[agent] = paid[self.seat_of[agent]]
                self.terminations[agent] = True
        self.agent_selection = self.possible_agents[game.seat]
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()
        if any(self.terminations.values()) or any(self.truncations.values()):
            self._deads_step_first()

    def _fallback_moves(self) -> None:
        """Moves for truncated seats while some seat still plays and the game is live."""
        game = self._live()
        playing = {a for a in self.agents if not self.truncations[a]}
        if playing:
            game = bots_move(self.rules, game, lambda seat: self._fallback_bot(seat, playing))
        self.game = game

    def _fallback_bot(self, seat: int, playing: set[str]) -> Player | None:
        """The bot that moves for ``seat`` when its agent was truncated (made the first time
        it is needed), or ``None`` when the seat's agent still plays."""
        if self.possible_agents[seat] in playing:
            return None
        bot = self._bots.get(seat)
        if bot is None:
            bot = make_player(self.fallback, derive_seed(self._fallback_seed, seat))
            self._bots[seat] = bot
        return bot

    # -- observing ---------------------------------------------------------------------

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its view encoded and its action mask (all 0 unless it is
        on turn).

        Raises:
            SpiteMaliceError: ``agent`` is not one of the agents, or :meth:`reset` was not
                called.
        """
        game = self._live()
        # an agent's name finds its seat at once; anything else is checked (agent_of)
        seat = self.seat_of.get(agent) if type(agent) is str else None
        if seat is None:
            seat = self.seat_of[agent_of(self.possible_agents, agent)]
        return self.encoding.observe(game, seat)

    def _mask_for(self, agent: str) -> Any:
        seat = self.seat_of[agent]

        def mask() -> Any:
            if self.game is None or agent not in self.agents:
                return None
            return self.encoding.mask(self.game, seat)

        return mask

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``) or as an SVG picture (``"svg"``);
        ``None`` without a render mode."""
        if self.render_mode == "ansi":
            return describe_position(self._live())
        if self.render_mode == "svg":
            return position_svg(self._live(), caption=self.rules.name)
        return None

    def close(self) -> None:
        """Nothing to release."""

    def _live(self) -> GameState:
        if self.game is None:
            raise SpiteMaliceError("call reset() before using the environment")
        return self.game
