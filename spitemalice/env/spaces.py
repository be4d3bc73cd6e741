"""What every spitemalice environment shares: the action catalogue, the observation layout,
their gymnasium spaces, and a seat's observation and action mask for a state."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from spitemalice.engine import legal_moves
from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.observation import LIMIT, ObservationLayout
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rulebook import RuleBook
from spitemalice.views import view_of

Observation = dict[str, np.ndarray]


class LegalDiscrete(spaces.Discrete):
    """A :class:`gymnasium.spaces.Discrete` whose ``sample()`` with no mask draws one of the
    actions that are legal now for its seat (any action when the seat is not on turn).

    A sample with an explicit ``mask`` or ``probability`` is gymnasium's own, so seeded
    sampling stays reproducible; the legal default only spares random baselines and test
    kits that sample without a mask from an illegal move.
    """

    def __init__(self, n: int, legal_mask: Callable[[], np.ndarray | None]) -> None:
        super().__init__(n)
        self._legal_mask = legal_mask

    def __deepcopy__(self, memo: dict[int, Any]) -> LegalDiscrete:
        # A copy still asks the same environment (copying the environment would freeze it).
        copied = LegalDiscrete(int(self.n), self._legal_mask)
        copied._np_random = copy.deepcopy(self._np_random, memo)
        return copied

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """One action: legal for the seat on turn when no mask is given."""
        if mask is None and probability is None:
            mask = self._legal_mask()
            if mask is not None and not mask.any():
                mask = None
        return super().sample(mask=mask, probability=probability)


class Encoding:
    """The action catalogue and observation layout of one configuration, their spaces, and
    the encoding of a state for one seat.

    Attributes:
        rules: the :class:`~spitemalice.rulebook.RuleBook`.
        catalogue: the :class:`~spitemalice.env.actions.ActionCatalogue`.
        layout: the :class:`~spitemalice.env.observation.ObservationLayout`.
        observation_space: ``Dict(observation=Box(0, 32767, (size,), int16),
            action_mask=Box(0, 1, (actions,), int8))``.
    """

    def __init__(self, rules: RuleBook, discard_depth: int) -> None:
        if not isinstance(discard_depth, int) or isinstance(discard_depth, bool) \
                or discard_depth < 1:
            raise SpiteMaliceError(f"discard_depth is the discard-pile cards shown per pile, "
                                   f"a whole number of 1 or more, not {discard_depth!r}")
        self.rules = rules
        self.catalogue = ActionCatalogue(rules)
        c = self.catalogue
        self.layout = ObservationLayout(c.hand, c.payoff, c.discard, c.builds, rules.players,
                                        discard_depth)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, LIMIT, (self.layout.size,), np.int16),
            "action_mask": spaces.Box(0, 1, (c.size,), np.int8),
        })
        self._last: tuple[GameState | None, dict[int, Move], np.ndarray] = (
            None, {}, np.zeros(c.size, np.int8))

    def mask(self, state: GameState, seat: int) -> np.ndarray:
        """``int8`` array of shape ``(actions,)``: 1 for each action that is legal for
        ``seat`` in ``state``, all 0 when the seat is not on turn or the game has ended."""
        if state.outcome is not None or seat != state.seat:
            return np.zeros(self.catalogue.size, np.int8)
        return self._legal(state)[1].copy()

    def move(self, state: GameState, action: int) -> Move:
        """The move ``action`` stands for in ``state``: the engine's own legal-move object
        when the action is legal (so applying it is quick), else the catalogue's decoding.

        Raises:
            SpiteMaliceError, IllegalMove: as :meth:`ActionCatalogue.move`.
        """
        legal = self._legal(state)[0] if state.outcome is None else {}
        found = legal.get(action)
        return found if found is not None else self.catalogue.move(state, action)

    def _legal(self, state: GameState) -> tuple[dict[int, Move], np.ndarray]:
        """The legal actions of the seat on turn and their mask, kept for the last state."""
        if self._last[0] is not state:
            actions = self.catalogue.legal_actions(state, legal_moves(self.rules, state))
            mask = np.zeros(self.catalogue.size, np.int8)
            mask[list(actions)] = 1
            self._last = (state, actions, mask)
        return self._last[1], self._last[2]

    def observe(self, state: GameState, seat: int) -> Observation:
        """The observation of ``seat``: its view encoded, and its action mask."""
        return {"observation": self.layout.encode(view_of(state, seat)),
                "action_mask": self.mask(state, seat)}
