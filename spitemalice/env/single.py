"""A Gymnasium single-agent environment: one seat learns, built-in bots play the others.

The learner's observation and actions are those of the AEC environment
(:mod:`spitemalice.env.aec`).  After each of its moves the other seats move with the bots
given (any kind :func:`spitemalice.bots.players.make_player` knows) until the learner is on turn
again or the game ends.  The reward is 0 until the game ends, then the learner's reward under
the ``reward`` option (:mod:`spitemalice.env.rewards`: its score by default, or win/loss, or
the zero-sum score difference); ``terminated`` is true at the end.  ``info["action_mask"]``
repeats the mask, and :meth:`SingleAgentEnv.action_masks` gives it as booleans (the
convention of sb3-contrib's MaskablePPO).

An illegal action raises :class:`~spitemalice.errors.IllegalMove` by default
(``illegal="raise"``) and changes nothing.  With ``illegal="penalty"`` it changes nothing
either, and the step returns the same position, the reward ``illegal_penalty`` (default
-1.0), ``terminated`` and ``truncated`` false, and ``info["illegal"]`` the engine's reason
code: the form Gymnasium's ``check_env`` and learners without action masks expect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from spitemalice.bots.players import Player, make_player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.shuffle import derive_seed
from spitemalice.engine.views import view_of
from spitemalice.env.arguments import (
    illegal_of,
    opponents_of,
    penalty_of,
    render_mode_of,
    reset_arguments,
    seat_of,
)
from spitemalice.env.others import bots_move
from spitemalice.env.rewards import checked_reward, final_rewards
from spitemalice.env.seeds import EpisodeSeeds, sequence_seed
from spitemalice.env.spaces import Encoding, LegalDiscrete, Observation
from spitemalice.errors import IllegalMove, SpiteMaliceError
from spitemalice.formats.layout import describe_view
from spitemalice.formats.picture import position_svg
from spitemalice.model import GameState
from spitemalice.rules.book import RuleBook, check_book

REDEALS = 100
"""Deals :meth:`SingleAgentEnv.reset` makes again at most when the bots end a game before the
learner's first move."""


class SingleAgentEnv(gymnasium.Env):
    """One seat of a configuration against built-in bots.

    Args:
        rules: the configuration.
        seat: the learner's seat (0-based).
        opponents: one player kind for every other seat, or one per other seat in seat
            order (``"greedy"``, ``"random"``, ...).
        discard_depth: as for :class:`~spitemalice.env.aec.SpiteMaliceEnv`.
        render_mode: ``"ansi"``, ``"svg"`` or ``None``.
        reward: ``"score"``, ``"win-loss"`` or ``"zero-sum"`` (:mod:`spitemalice.env.rewards`).
        illegal: ``"raise"`` or ``"penalty"`` (module docstring).
        illegal_penalty: the reward of an illegal action under ``illegal="penalty"``.
        catalogue: the action space, ``"slot"`` (actions by hand slot,
            :mod:`spitemalice.env.actions`) or ``"card"`` (actions by card,
            :mod:`spitemalice.env.card_actions`).

    Raises:
        SpiteMaliceError: a seat outside the game, an unknown player kind, a number of
            opponents that is not one per other seat, or an unknown ``reward``, ``illegal``,
            ``render_mode`` or ``catalogue``; ``rules`` that are not a
            :class:`~spitemalice.rules.book.RuleBook`.
    """

    # render_fps: gymnasium asks every rendering environment for one; a position drawn as
    # text or SVG has no frame rate, so it is the pace of a person reading moves.
    metadata = {"render_modes": ["ansi", "svg"], "render_fps": 2}  # noqa: RUF012

    def __init__(self, rules: RuleBook, *, seat: int = 0,
                 opponents: str | Sequence[str] = "greedy", discard_depth: int = 20,
                 render_mode: str | None = None, reward: str = "score",
                 illegal: str = "raise", illegal_penalty: float = -1.0,
                 catalogue: str = "slot") -> None:
        check_book(rules, "SingleAgentEnv", SpiteMaliceError)
        seat = seat_of(rules, seat)
        kinds = opponents_of(rules, opponents)
        render_mode = render_mode_of(render_mode)
        self.reward = checked_reward(reward)
        self.illegal, self.illegal_penalty = illegal_of(illegal), penalty_of(illegal_penalty)
        self.rules, self.seat, self.render_mode = rules, seat, render_mode
        self.kinds = {other: kind for other, kind in
                      zip([s for s in range(rules.players) if s != seat], kinds, strict=True)}
        self.encoding = Encoding(rules, discard_depth, catalogue)
        self.catalogue = self.encoding.catalogue
        self.observation_space = self.encoding.observation_space
        self.action_space = LegalDiscrete(self.catalogue.size, self._mask)
        self.game: GameState | None = None
        self._bots: dict[int, Player] = {}
        self._seeds = EpisodeSeeds()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """Deal a game (the one ``seed`` deals, or the next of the seeded sequence, or
        ``options={"state": GameState}``) and let the bots move until the learner's turn.

        A dealt game that the bots end before the learner's first move (a short pay-off pile
        played out by the seats before it) is dealt again, from seeds derived from the first
        (``derive_seed(seed, "redeal", n)``), up to :data:`REDEALS` times: Gymnasium's
        ``reset`` hands back a position to act in.

        Raises:
            SpiteMaliceError: a seed that is not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_SEED`, options that are not a dict, a state
                that is not a GameState or has another seat count than the rules' (nothing
                changed), or :data:`REDEALS` deals in a row ended before the learner's turn.
            PositionError: a given state the rule set cannot hold (the checks
                :func:`~spitemalice.formats.serialize.loads_state` runs)."""
        seed, start = reset_arguments(self.rules, seed, options)
        # gymnasium's own generator (action sampling) takes 64 bits at most; the game's seed
        # comes from spitemalice.env.seeds, as every environment's does.
        super().reset(seed=None if seed is None else seed % 2**64)
        game_seed = self._seeds.next(seed)
        for redeal in range(REDEALS + 1):
            dealt_seed = game_seed if redeal == 0 else sequence_seed(game_seed, redeal)
            self.game = start if start is not None else deal(self.rules, dealt_seed)
            self._bots = {other: make_player(kind, derive_seed(dealt_seed, "opponent", other))
                          for other, kind in self.kinds.items()}
            self._others_move()
            if start is not None or self._live().outcome is None:
                break
        else:
            raise SpiteMaliceError(f"{REDEALS + 1} deals in a row ended before seat "
                                   f"{self.seat} could move; use a longer pay-off pile")
        observation = self._observe()
        return observation, {"action_mask": observation["action_mask"]}

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Make the learner's move, then the bots' until the learner is on turn again.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; ``info`` holds
            ``"action_mask"`` and, for an illegal action under ``illegal="penalty"``,
            ``"illegal"``: the reason code.

        Raises:
            IllegalMove: the action is not legal now (under ``illegal="raise"``); nothing
                changed.
            SpiteMaliceError: not an action of the catalogue (0 to ``size - 1``), the game
                is over, or :meth:`reset` was not called.
        """
        game = self._live()
        if game.outcome is not None:
            raise SpiteMaliceError("the game is over: call reset() for a new one")
        number = self.catalogue.number(action)
        try:
            after = apply_move(self.rules, game, self.encoding.move(game, number))
        except IllegalMove as refused:
            if self.illegal == "raise":
                raise
            observation = self._observe()
            return observation, self.illegal_penalty, False, False, {
                "action_mask": observation["action_mask"], "illegal": refused.reason}
        self.game = after
        self._others_move()
        final = self._live().outcome
        reward = 0.0 if final is None else final_rewards(self.rules, final,
                                                         self.reward)[self.seat]
        observation = self._observe()
        return observation, reward, final is not None, False, {
            "action_mask": observation["action_mask"]}

    def _others_move(self) -> None:
        self.game = bots_move(self.rules, self._live(),
                              lambda seat: None if seat == self.seat else self._bots[seat])

    def _observe(self) -> Observation:
        return self.encoding.observe(self._live(), self.seat)

    def action_masks(self) -> np.ndarray:
        """``bool`` array of shape ``(actions,)``: ``True`` for each action legal for the
        learner now (sb3-contrib's ``MaskablePPO`` asks for it by this name).  After the
        game has ended every entry is ``False``: no action is legal then, and the next call
        is :meth:`reset`.

        Raises:
            SpiteMaliceError: :meth:`reset` was not called.
        """
        return self.encoding.mask(self._live(), self.seat).view(np.bool_)

    def _mask(self) -> Any:
        return None if self.game is None else self.encoding.mask(self.game, self.seat)

    def render(self) -> str | None:
        """The learner's view as text (``"ansi"``) or an SVG picture (``"svg"``)."""
        if self.render_mode == "ansi":
            return describe_view(view_of(self._live(), self.seat))
        if self.render_mode == "svg":
            return position_svg(self._live(), viewer=self.seat, caption=self.rules.name)
        return None

    def _live(self) -> GameState:
        if self.game is None:
            raise SpiteMaliceError("call reset() before using the environment")
        return self.game
