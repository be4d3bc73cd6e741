"""What every spitemalice environment shares: the action catalogue, the observation layout,
their gymnasium spaces, and a seat's observation and action mask for a state."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces

from spitemalice.engine.apply import apply_listed, apply_move
from spitemalice.engine.legal import foreign
from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.arguments import catalogue_of, discard_depth_of
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.env.kept import KeptSegments
from spitemalice.env.observation import LIMIT, ObservationLayout
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int
from spitemalice.limits import MAX_INT
from spitemalice.model import AnyState, GameState, require_state
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book

Observation = dict[str, np.ndarray]
_INT8: Final = np.dtype(np.int8)
_INT16: Final = np.dtype(np.int16)

Catalogue = ActionCatalogue | CardCatalogue
"""Either action space: by hand slot or by card."""


def make_catalogue(rules: RuleBook, catalogue: object = "slot") -> Catalogue:
    """The action catalogue ``catalogue`` names for ``rules``: ``"slot"``, an
    :class:`~spitemalice.env.actions.ActionCatalogue` (actions by hand slot), or ``"card"``, a
    :class:`~spitemalice.env.card_actions.CardCatalogue` (actions by card).

    Raises:
        SpiteMaliceError: ``catalogue`` is neither
            (:func:`~spitemalice.env.arguments.catalogue_of`), or ``rules`` is not a
            :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "make_catalogue", SpiteMaliceError)
    kind = catalogue_of(catalogue)
    return CardCatalogue(rules) if kind == "card" else ActionCatalogue(rules)


class LegalDiscrete(spaces.Discrete):
    """A :class:`gymnasium.spaces.Discrete` whose ``sample()`` with no mask draws one of the
    actions that are legal now for its seat (any action when the seat is not on turn).

    A sample with an explicit ``mask`` or ``probability`` is gymnasium's own, so seeded
    sampling stays reproducible; the legal default only spares random baselines and test
    kits that sample without a mask from an illegal move.

    Args:
        n: the number of actions, a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`.
        legal_mask: gives the mask of the actions legal now (``None`` when there is none).

    Raises:
        SpiteMaliceError: ``n`` is not a whole number from 1 to ``MAX_INT`` (a bool, a float,
            text...), naming the bound.
    """

    def __init__(self, n: object, legal_mask: Callable[[], np.ndarray | None]) -> None:
        # ``n`` is typed ``object`` so that the compiled build (setup.py) does not refuse a
        # wrong type first with its own error: it is checked here, in either build.
        super().__init__(check_int(n, "n (the number of actions)", 1, MAX_INT))
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

    Args:
        rules: the configuration.
        discard_depth: discard-pile cards shown per pile.
        catalogue: ``"slot"`` (actions by hand slot) or ``"card"`` (actions by card).

    Attributes:
        rules: the :class:`~spitemalice.rules.book.RuleBook`.
        catalogue: the :class:`~spitemalice.env.actions.ActionCatalogue` or
            :class:`~spitemalice.env.card_actions.CardCatalogue`.
        layout: the :class:`~spitemalice.env.observation.ObservationLayout`.
        observation_space: ``Dict(observation=Box(0, 32767, (size,), int16),
            action_mask=Box(0, 1, (actions,), int8))``.

    Raises:
        SpiteMaliceError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
            ``discard_depth`` is not a whole number from 1 to the deck's size (a bool, a
            float, text, ``None``...), naming the bound
            (:func:`~spitemalice.env.arguments.discard_depth_of`); or ``catalogue`` is
            neither ``"slot"`` nor ``"card"``; or ``rules``' seats move at once (Spit).

    Every method that takes a state refuses one of another seat count than the rule book's
    with :class:`~spitemalice.errors.PositionError` (a length compare); a state of another
    deck is refused where the catalogue lists the legal moves (the mask of the seat on turn,
    :meth:`move`, :meth:`play`), as :meth:`CardCatalogue.legal_list
    <spitemalice.env.card_actions.CardCatalogue.legal_list>` refuses it.  The observation of a
    seat not on turn reads no rule, so a state of another deck with the rule book's seats and
    piles is encoded as it is.
    """

    def __init__(self, rules: RuleBook, discard_depth: object,
                 catalogue: object = "slot") -> None:
        # ``discard_depth`` is typed ``object`` so that the compiled build (setup.py) does not
        # refuse a wrong type first with its own error: discard_depth_of checks it, in
        # either build, as the environments' contract says (spitemalice.env.arguments).
        check_book(rules, "Encoding", SpiteMaliceError)
        discard_depth = discard_depth_of(rules, discard_depth)
        self.rules = rules
        self._players = rules.players
        self.catalogue: Catalogue = make_catalogue(rules, catalogue)
        c = self.catalogue
        self.layout = ObservationLayout(c.hand, c.payoff, c.discard, c.builds, rules.players,
                                        discard_depth)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, LIMIT, (self.layout.size,), np.int16),
            "action_mask": spaces.Box(0, 1, (c.size,), np.int8),
        })
        # The legal actions of the last state asked about and the moves they stand for: a
        # step asks for the mask (observing) and then for the move (stepping).
        self._last: tuple[GameState | None, list[int], Sequence[Move]] = (None, [], ())
        # Per seat, the last state observed and its encoded observation and mask: observing
        # the same state again (PettingZoo's last(), then observe()) encodes nothing.
        self._observed: dict[int, tuple[GameState, bytes, bytes]] = {}
        self._kept = [KeptSegments(self.layout) for _ in range(rules.players)]

    def mask(self, state: AnyState, seat: object) -> np.ndarray:
        """``int8`` array of shape ``(actions,)``: 1 for each action that is legal for
        ``seat`` in ``state``, all 0 when the seat is not on turn or the game has ended.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            SpiteMaliceError: ``seat`` is not one of the state's seats (a whole number from 0
                to the seats less one; not a bool, a float or text), naming the bound.
        """
        state = require_state(state, "Encoding.mask", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # fewer seats would encode silently
            raise foreign(self.rules, state, "Encoding.mask")
        return np.frombuffer(self._mask_bytes(state, _seat_of(state, seat)), _INT8)

    def _mask_bytes(self, state: GameState, seat: int) -> bytearray:
        legal = bytearray(self.catalogue.size)
        if state.outcome is None and seat == state.seat:
            for action in self._legal(state)[0]:  # quicker than numpy's indexing by a list
                legal[action] = 1
        return legal

    def move(self, state: AnyState, action: object) -> Move:
        """The move ``action`` stands for in ``state``: the engine's own legal-move object
        when the action is legal (so applying it is quick), else the catalogue's decoding.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            SpiteMaliceError, IllegalMove: as :meth:`ActionCatalogue.move` (an action that is
                not a whole number from 0 to ``size - 1``, a bool, a float or text among
                them, is refused with :class:`SpiteMaliceError` naming the bound).
        """
        state = require_state(state, "Encoding.move", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # fewer seats would encode silently
            raise foreign(self.rules, state, "Encoding.move")
        # ``action`` is typed ``object`` so that the compiled build (setup.py) does not
        # refuse a wrong type first with its own error; anything but an int (numpy's
        # integers, a bool, text) goes through the catalogue's check before the lookup,
        # where True would find action 1.
        number = action if type(action) is int else self.catalogue.number(action)
        if state.outcome is None:
            actions, moves = self._legal(state)
            try:
                return moves[actions.index(number)]
            except ValueError:  # not legal now: the catalogue says why
                pass
        return self.catalogue.move(state, number)

    def play(self, state: AnyState, action: object) -> GameState:
        """The state after the seat on turn makes the move ``action`` stands for: the
        environments' step, ``apply_move(rules, state, self.move(state, action))`` in one
        call.  An action legal in the state whose legal actions were asked for last (the
        mask an observation showed) is applied as the engine listed it, with no check again.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState`, or
                ``action`` is not an action of the catalogue (as :meth:`move`).
            IllegalMove: the action is not legal in ``state``; nothing changed.
        """
        state = require_state(state, "Encoding.play", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # fewer seats would encode silently
            raise foreign(self.rules, state, "Encoding.play")
        number = action if type(action) is int else self.catalogue.number(action)
        last = self._last
        if last[0] is state and state.outcome is None:
            try:
                move = last[2][last[1].index(number)]
            except ValueError:  # not legal now: apply_move refuses it with the reason
                pass
            else:
                return apply_listed(self.rules, state, move)
        return apply_move(self.rules, state, self.move(state, number))

    def _legal(self, state: GameState) -> tuple[list[int], Sequence[Move]]:
        """The legal actions of the seat on turn and the moves they stand for, kept for the
        last state."""
        last = self._last
        if last[0] is not state:
            last = (state, *self.catalogue.legal_list(state))
            self._last = last
        return last[1], last[2]

    def observe(self, state: AnyState, seat: object) -> Observation:
        """The observation of ``seat``: its view encoded (read from the state's visible
        fields, :meth:`~spitemalice.env.observation.ObservationLayout.encode_state`), and its
        action mask.  The encoding of the last state each seat observed is kept, so asking
        again for the same state encodes nothing; each call still returns new arrays, the
        caller's own.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            SpiteMaliceError: ``seat`` is not one of the state's seats (a whole number from 0
                to the seats less one; not a bool, a float or text), naming the bound; or
                the state does not fit the layout
                (:meth:`~spitemalice.env.observation.ObservationLayout.encode_state`).
        """
        state = require_state(state, "Encoding.observe", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # fewer seats would encode silently
            raise foreign(self.rules, state, "Encoding.observe")
        # Checked before the lookup: True would find seat 1's kept encoding.
        number = _seat_of(state, seat)
        kept = self._observed.get(number)
        if kept is None or kept[0] is not state:
            # each seat's segments encoded again only where the state changed since that
            # seat last looked (spitemalice.env.kept: the same bytes as encode_bytes)
            kept = (state, self._kept[number].encode(state, number),
                    bytes(self._mask_bytes(state, number)))
            self._observed[number] = kept
        return {"observation": np.frombuffer(bytearray(kept[1]), _INT16),
                "action_mask": np.frombuffer(bytearray(kept[2]), _INT8)}


def _seat_of(state: GameState, seat: object) -> int:
    """``seat`` when it is one of ``state``'s seats (an int in range costs no call); typed
    ``object`` so that the compiled build (setup.py) does not refuse a wrong type first with
    its own error.

    Raises:
        SpiteMaliceError: naming the bound.
    """
    n = len(state.seats)
    return seat if type(seat) is int and 0 <= seat < n else check_int(seat, "seat", 0, n - 1)
