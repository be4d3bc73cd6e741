"""Many games stepped at once, with batched numpy observations and masks (self-play).

:class:`SelfPlayVectorEnv` is a :class:`gymnasium.vector.VectorEnv` over ``num_envs`` games
of one configuration, in which one learner plays every seat: each step makes one move in
every game, for the seat on turn there.

* **Observations**: ``int16`` array of shape ``(num_envs, size)``, row ``i`` the view of the
  seat on turn in game ``i``, encoded as the other environments encode it
  (:mod:`spitemalice.env.observation`).  ``info["seat"]`` (``int64``, ``(num_envs,)``) says
  which seat that is.
* **Masks**: ``info["action_mask"]``, ``int8`` of shape ``(num_envs, actions)``, 1 for each
  action legal for that seat; :meth:`SelfPlayVectorEnv.action_masks` gives them as ``bool``.
* **Actions**: one action of the catalogue (:mod:`spitemalice.env.actions`) per game.  If
  any is illegal the step raises :class:`~spitemalice.errors.IllegalMove` naming the game,
  and no game moves.
* **Rewards**: 0 until a game ends; then ``reward[i]`` is the reward of the seat that made the
  last move, and ``info["rewards"]`` (``float64``, ``(num_envs, seats)``) every seat's, under
  the ``reward`` option (:mod:`spitemalice.env.rewards`).
* **Autoreset** in the same step (``AutoresetMode.SAME_STEP``): a game that ends is dealt
  again at once, so every row always holds a live game; ``terminated[i]`` marks it, and
  ``info["final_obs"]`` holds the ended game's last observation (for the seat that moved)
  where ``info["_final_obs"]`` is true.
* **Arrays handed out** (observations, masks, rewards, flags and every array in ``info``)
  are new at each step and shared with nothing: the caller may keep or change them, and no
  later step changes them.
* **Seeding**: ``reset(seed=s)`` deals game ``i`` the deal ``spitemalice.deal(rules, s + i)``;
  later games are dealt the sequence ``s`` started, 128 bits each
  (:mod:`spitemalice.env.seeds`); without a seed every game is dealt from an unguessable one
  (:func:`spitemalice.engine.deal.new_seed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from spitemalice.engine.check import check_move
from spitemalice.engine.deal import deal
from spitemalice.env.batch import (
    chosen_moves,
    listing,
    make_moves,
    mask_bits,
    observations,
    seats_on_turn,
)
from spitemalice.env.kept import KeptSegments
from spitemalice.env.legal_sets import Listed
from spitemalice.env.rewards import checked_reward, final_rewards
from spitemalice.env.seeds import EpisodeSeeds
from spitemalice.env.spaces import Encoding
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_seed
from spitemalice.limits import MAX_SEED, MAX_VECTOR_ENVS
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import shown

_INT8 = np.dtype(np.int8)
_UINT8 = np.dtype(np.uint8)
_INT16 = np.dtype(np.int16)


class SelfPlayVectorEnv(VectorEnv):
    """``num_envs`` games of ``rules``, one move in each per step (module docstring).

    Args:
        rules: the configuration.
        num_envs: games stepped at once, 1 to :data:`~spitemalice.limits.MAX_VECTOR_ENVS`
            (memory is linear in it).
        discard_depth: discard-pile cards shown per pile in observations.
        reward: ``"score"``, ``"win-loss"`` or ``"zero-sum"``.
        catalogue: the action space, ``"slot"`` (actions by hand slot,
            :mod:`spitemalice.env.actions`) or ``"card"`` (actions by card,
            :mod:`spitemalice.env.card_actions`).

    Raises:
        SpiteMaliceError: a ``num_envs`` out of range, a bad ``discard_depth``, ``reward`` or
            ``catalogue``, or ``rules`` that are not a RuleBook.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - gymnasium's class attribute
        "autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, rules: RuleBook, num_envs: int, *, discard_depth: int = 20,
                 reward: str = "score", catalogue: str = "slot") -> None:
        check_book(rules, "SelfPlayVectorEnv", SpiteMaliceError)
        num_envs = check_int(num_envs, "num_envs", 1, MAX_VECTOR_ENVS,
                             constant="spitemalice.limits.MAX_VECTOR_ENVS")
        self.rules = rules
        self.reward = checked_reward(reward)
        self.encoding = Encoding(rules, discard_depth, catalogue)
        self.catalogue = self.encoding.catalogue
        self.num_envs = num_envs
        self.single_observation_space = self.encoding.observation_space["observation"]
        self.single_action_space = spaces.Discrete(self.catalogue.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.games: list[GameState] = []
        self._legal: list[Listed] = []  # per game: its legal actions and their moves
        self._width = (self.catalogue.size + 7) // 8  # bytes of one game's mask bits
        self._mask_bits = b""  # per game: its legal actions as bits, self._width bytes
        self._seeds = EpisodeSeeds()
        # per game: its observation's segments, encoded again where a move changed them
        self._kept = [KeptSegments(self.encoding.layout) for _ in range(num_envs)]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game afresh (module docstring, seeding); ``options`` (``None`` or a
        dict) are not read, but a ``"state"`` there is refused (the other environments start
        from it).

        Raises:
            SpiteMaliceError: a seed that is not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_SEED` less ``num_envs - 1`` (game ``i`` is
                dealt ``seed + i``), or options that are not a dict; nothing changed.
        """
        if options is not None and not isinstance(options, Mapping):
            raise SpiteMaliceError(f"options is None or a dict, not {shown(options)}")
        if options and "state" in options:
            raise SpiteMaliceError("options['state'] starts one game from a position; the "
                                   "vectorised environment deals every game itself")
        if seed is not None:
            seed = check_int(check_seed(seed), "seed", 0, MAX_SEED - (self.num_envs - 1))
            self._seeds.next(seed)  # later games: the sequence this seed starts
            self.games = [deal(self.rules, seed + i) for i in range(self.num_envs)]
        else:
            self.games = [deal(self.rules, self._seeds.next(None))
                          for _ in range(self.num_envs)]
        self._legal = [listing(self.catalogue, game) for game in self.games]
        self._mask_bits = mask_bits(self._legal, self._width)
        return self._observations(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One move in every game: ``actions[i]`` for the seat on turn in game ``i``.

        Raises:
            IllegalMove: some action is not legal in its game (the message names the game);
                no game moved.
            SpiteMaliceError: :meth:`reset` was not called, or ``actions`` is not one action
                number per game.
        """
        if not self.games:
            raise SpiteMaliceError("call reset() before using the environment")
        chosen = self._moves(actions)
        rules, games, legal = self.rules, self.games, self._legal
        movers = seats_on_turn(games)
        # the batch's loops (spitemalice.env.batch): every move made and every live game's
        # legal actions listed; the games that ended are left here
        ended = make_moves(rules, games, chosen, legal, self.catalogue)
        rewards = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, np.bool_)
        paid = np.zeros((self.num_envs, rules.players))
        final = None
        for i in ended:
            over = games[i]
            if final is None:
                final = np.zeros((self.num_envs, self.encoding.layout.size), _INT16)
            assert over.outcome is not None  # make_moves ends a game only so
            paid[i] = final_rewards(rules, over.outcome, self.reward)
            rewards[i] = paid[i][movers[i]]
            terminated[i] = True
            final[i] = self.encoding.layout.encode_state(over, movers[i])
            games[i] = deal(rules, self._seeds.next(None))
            legal[i] = listing(self.catalogue, games[i])
        self._mask_bits = mask_bits(legal, self._width)
        info = self._info()
        info["rewards"] = paid
        if final is not None:
            info["final_obs"], info["_final_obs"] = final, terminated.copy()
        return (self._observations(), rewards, terminated,
                np.zeros(self.num_envs, np.bool_), info)

    def action_masks(self) -> np.ndarray:
        """``bool`` array of shape ``(num_envs, actions)``: the legal actions of the seat on
        turn in each game (the name sb3-contrib's maskable algorithms ask for).

        Raises:
            SpiteMaliceError: :meth:`reset` was not called.
        """
        if not self.games:
            raise SpiteMaliceError("call reset() before using the environment")
        return self._masks().view(np.bool_)

    # -- the batch -----------------------------------------------------------------------

    def _moves(self, actions: Any) -> list[Move]:
        """The engine's move for each game's action, all checked before any is made."""
        try:
            numbers = np.asarray(actions)
        except (ValueError, TypeError, OverflowError):  # ragged, or not numbers at all
            raise SpiteMaliceError(f"actions are {self.num_envs} whole numbers, one per game, "
                                   f"not {shown(actions)}") from None
        if numbers.shape != (self.num_envs,) or numbers.dtype.kind not in "iu":
            raise SpiteMaliceError(f"actions are {self.num_envs} whole numbers, one per game, "
                                   f"not an array of shape {numbers.shape} and dtype "
                                   f"{numbers.dtype}")
        if not isinstance(actions, np.ndarray) and any(
                isinstance(action, bool | np.bool_) for action in actions):
            # numpy made the bools 0 and 1 among the ints; every other door refuses True
            raise SpiteMaliceError(f"actions are {self.num_envs} whole numbers, one per game, "
                                   f"not {shown(actions)} (a bool is no action)")
        listed = numbers.tolist()
        chosen, wrong = chosen_moves(self._legal, listed, self.catalogue.size)
        if wrong >= 0:
            self._refuse(wrong, listed[wrong])
        return chosen

    def _refuse(self, game: int, action: int) -> None:
        """Raise the refusal of ``action`` in game ``game`` (the engine's, or the catalogue's
        of a number no action has), naming the game."""
        state = self.games[game]
        try:
            check_move(self.rules, state, self.catalogue.move(state, action))
        except SpiteMaliceError as refusal:  # IllegalMove, or no action number at all
            refusal.args = (f"game {game}: {refusal.args[0]}", *refusal.args[1:])
            raise
        raise SpiteMaliceError(f"game {game}: action {action} stands for a move the engine "
                               "accepts but does not list; this is a bug")

    def _observations(self) -> np.ndarray:
        joined = bytearray(observations(self.games, self._kept))
        return np.frombuffer(joined, _INT16).reshape(self.num_envs, -1)

    def _masks(self) -> np.ndarray:
        """The mask rows, a new array (the caller's own), unpacked from their bits."""
        packed = np.frombuffer(self._mask_bits, _UINT8).reshape(self.num_envs, self._width)
        return np.unpackbits(packed, axis=1, count=self.catalogue.size,
                             bitorder="little").view(_INT8)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._masks(),
                "seat": np.array(seats_on_turn(self.games), np.int64)}
