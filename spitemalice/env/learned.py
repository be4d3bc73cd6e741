"""Bots from trained policies: :class:`PolicyPlayer` (any policy function) and the ``learned``
bot (:class:`LearnedPlayer`, a network trained by ``bench/train.py`` and shipped as weights).

Both decide from their seat's view alone (:class:`~spitemalice.engine.views.ViewPlayer`):
the view is encoded as the learning environments' observation
(:meth:`~spitemalice.env.observation.ObservationLayout.encode`, ``int16``, shape ``(size,)``)
and its legal moves as the action mask (``bool``, shape ``(actions,)``) of the environments'
action catalogue (``catalogue="card"`` by default, the ``-v1`` ids); the policy returns an
action number and the bot plays the legal move it stands for.  So a policy trained on
``spitemalice.env`` plays at every table (``play``, ``serve``, ``tournament``, ``ladder``,
``balance``) without change.

Both need the ``rl`` extra (numpy and the environments' encoding: ``pip install
'spitemalice[rl]'``), not torch: the ``learned`` bot's inference is numpy alone.  The
registry (:data:`~spitemalice.bots.players.PLAYERS`) finds ``learned`` through the
``spitemalice.players`` entry point and imports this module only when one is made; without
the extra, making one says which extra is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import attrs
import numpy as np

from spitemalice.engine.views import SeatView, ViewPlayer, require_view, stand_in_state
from spitemalice.env.arguments import catalogue_of
from spitemalice.env.observation import ObservationLayout
from spitemalice.env.spaces import make_catalogue
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_moves, check_seed
from spitemalice.limits import MAX_DECK_CARDS
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.loader import load
from spitemalice.wording import count_of, shown

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""``policy(observation, mask) -> action``: ``observation`` the seat's view encoded (``int16``,
shape ``(size,)``), ``mask`` ``bool`` of shape ``(actions,)``, ``True`` for each legal action;
it returns an action number (an ``int`` or a numpy integer) whose mask entry is ``True``."""

WEIGHTS = "learned.npz"
"""The shipped weights, a file of the :mod:`spitemalice.env` package (numpy ``.npz``)."""

_LOADED: dict[str, dict[str, Any]] = {}  # the weights file, read once per process


class PolicyPlayer(ViewPlayer):
    """A player made from a policy function over the environments' observation and mask.

    Args:
        policy: ``policy(observation, mask) -> action`` (:data:`Policy`): a trained agent's
            forward pass, say ``lambda obs, mask: model.predict(obs, action_masks=mask,
            deterministic=True)[0]`` for sb3-contrib's MaskablePPO.
        catalogue: the action catalogue the policy was trained on, ``"card"`` (the ``-v1``
            ids, the default) or ``"slot"`` (``-v0``).
        discard_depth: the discard-pile cards the observation shows per pile, as the
            environment's ``discard_depth`` (default 20, the environments' default).

    Raises:
        SpiteMaliceError: a ``policy`` that is not callable, or a catalogue or depth the
            environments refuse.
    """

    def __init__(self, policy: Policy, *, catalogue: str = "card",
                 discard_depth: int = 20) -> None:
        if not callable(policy):
            raise SpiteMaliceError(f"policy is a function policy(observation, mask) -> action,"
                                   f" not {shown(policy)}")
        self.policy = policy
        self.catalogue_kind = catalogue_of(catalogue)
        self.discard_depth = check_int(discard_depth, "discard_depth", 1, MAX_DECK_CARDS,
                                       constant="spitemalice.limits.MAX_DECK_CARDS")
        self._encodings: dict[int, tuple[RuleBook, Any, Any]] = {}

    def _encoding(self, rules: RuleBook) -> tuple[Any, Any]:
        """The observation layout and action catalogue of ``rules`` (kept per rule book):
        :class:`~spitemalice.env.observation.ObservationLayout` and the catalogue."""
        kept = self._encodings.get(id(rules))
        if kept is None or kept[0] is not rules:
            catalogue = make_catalogue(rules, self.catalogue_kind)
            layout = ObservationLayout(catalogue.hand, catalogue.payoff, catalogue.discard,
                                       catalogue.builds, rules.players, self.discard_depth)
            kept = self._encodings[id(rules)] = (rules, layout, catalogue)
        return kept[1], kept[2]

    def _observe(self, rules: RuleBook, view: SeatView,
                moves: Sequence[Move]) -> tuple[np.ndarray, np.ndarray, list[int],
                                                Sequence[Move]]:
        """``(observation, mask, actions, stand_for)``: the view encoded (``int16``, shape
        ``(size,)``), the mask (``bool``, shape ``(actions,)``), the legal actions and the
        move each stands for, in the same order (the environments' encoding)."""
        layout, catalogue = self._encoding(rules)
        observation = layout.encode(view)
        actions, stand_for = catalogue.action_list(stand_in_state(view), moves)
        mask = np.zeros(catalogue.size, bool)
        mask[actions] = True
        return observation, mask, actions, stand_for

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The legal move the policy's action stands for, from the view alone.

        Raises:
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
                ``view`` not a :class:`~spitemalice.engine.views.SeatView`.
            SpiteMaliceError: ``moves`` is empty, or the policy returned something other
                than one of the legal actions (the message names it and the legal ones).
        """
        check_book(rules, f"{type(self).__name__}.choose_from_view")
        require_view(view, f"{type(self).__name__}.choose_from_view",
                     f"choose from a whole state with {type(self).__name__}.choose(rules, "
                     "state, moves)")
        check_moves(moves)
        observation, mask, actions, stand_for = self._observe(rules, view, moves)
        action = self.policy(observation, mask)
        try:
            return stand_for[actions.index(self._encoding(rules)[1].number(action))]
        except (ValueError, SpiteMaliceError):
            raise SpiteMaliceError(
                f"the policy chose action {shown(action)}, not a legal one here; the mask "
                f"allows {sorted(actions)}") from None


class LearnedPlayer(PolicyPlayer):
    """The ``learned`` bot: the network ``bench/train.py`` trained, run with numpy alone.

    The network (weights in :data:`WEIGHTS`) is a multilayer perceptron with ``tanh`` hidden
    layers over :func:`features` of the ``-v1`` observation (every value clipped at 63 and
    scaled to 0..1, beside the cards of the hand, the build piles, the pay-off tops and the
    top three cards of each discard pile one-hot); it plays the legal action of highest
    score (no sampling, so ``seed`` changes nothing: it is taken for the registry's sake).
    It was trained for one configuration (blackwood-frey, 2 seats, no house rules;
    ``trained_for``) and refuses any other rule set, seat count, house rule or parameter
    (:meth:`check_rules`); other pay-off pile sizes of blackwood-frey it plays with the same
    network (trained at 26, the rule set's own).

    Raises:
        SpiteMaliceError: a seed out of range, or (when choosing) a rule book it was not
            trained for.
    """

    def __init__(self, seed: int = 0) -> None:
        check_seed(seed)
        super().__init__(self._forward)
        weights = _weights()
        self.layers = [(weights[f"w{i}"], weights[f"b{i}"])
                       for i in range(int(weights["layers"]))]
        self.clip = float(weights["clip"])
        self.codes = int(weights["codes"])
        self.positions = weights["card_positions"]
        self.trained_for = str(weights["ruleset"])
        self.seats = int(weights["players"])
        self.plugins = tuple(str(name) for name in weights["plugins"])
        self.discard_depth = int(weights["discard_depth"])
        self._accepted: RuleBook | None = None

    def _forward(self, observation: np.ndarray, mask: np.ndarray) -> int:
        x = features(observation[None, :], self.positions, self.codes, self.clip)[0]
        for weight, bias in self.layers[:-1]:
            x = np.tanh(x @ weight + bias)
        weight, bias = self.layers[-1]
        scores = x @ weight + bias
        return int(np.flatnonzero(mask)[np.argmax(scores[mask])])

    def check_rules(self, rules: RuleBook) -> None:
        """Refuse a rule book the network was not trained for: another rule set, seat
        count, house rules, or any parameter but the pay-off pile size
        (:func:`~spitemalice.bots.players.check_player` calls it before a table or run
        starts).

        Raises:
            SpiteMaliceError: naming what differs and what it was trained for.
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        """
        check_book(rules, "LearnedPlayer.check_rules")
        if rules is self._accepted:  # checked once per rule book: a table asks every move
            return
        trained = load(self.trained_for, players=self.seats)
        differs = [count_of(rules.players, "seat")] if rules.players != self.seats else []
        if rules.name != self.trained_for:  # a rule-set file is a rule set of its own name
            differs.append(f"rule set {rules.name} (a rule-set file is its own rule set, "
                           f"even one based on {self.trained_for})")
        elif extra := sorted(set(rules.plugins) - set(self.plugins) - {rules.name}):
            differs.append(f"house rules {', '.join(extra)}")
        elif not differs:
            ours = attrs.evolve(rules.ruleset, payoff_size=trained.ruleset.payoff_size)
            differs = [f"{field.name} {shown(getattr(ours, field.name))}"
                       for field in attrs.fields(type(ours))
                       if getattr(ours, field.name) != getattr(trained.ruleset, field.name)]
        if differs:
            raise SpiteMaliceError(
                f"the learned bot was trained for {self.trained_for} with "
                f"{count_of(self.seats, 'seat')}, "
                f"no house rules and its own parameters (any pay-off pile size), not "
                f"{'; '.join(differs)}; choose another bot (heuristic, mcts) here")
        self._accepted = rules

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The network's move from the view alone (:meth:`PolicyPlayer.choose_from_view`).

        Raises:
            SpiteMaliceError: a rule book it was not trained for (:meth:`check_rules`), or
                ``moves`` empty.
            TypeError: as :meth:`PolicyPlayer.choose_from_view`.
        """
        check_book(rules, "LearnedPlayer.choose_from_view")
        self.check_rules(rules)
        return super().choose_from_view(rules, view, moves)


def _weights() -> dict[str, Any]:
    """The shipped weights file's arrays, read once per process."""
    if WEIGHTS not in _LOADED:
        path = resources.files("spitemalice.env").joinpath(WEIGHTS)
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as archive:
            _LOADED[WEIGHTS] = {key: archive[key] for key in archive.files}
    return _LOADED[WEIGHTS]


def card_positions(layout: ObservationLayout, top: int = 3) -> np.ndarray:
    """The observation indices that hold a card (``int64``, shape ``(n,)``): the hand, each
    build pile's rank reached and top card, and per seat block each pay-off top and the top
    ``top`` cards of each discard pile (``layout`` an
    :class:`~spitemalice.env.observation.ObservationLayout`; module docstring there)."""
    found = list(range(layout.builds_at - layout.hand, layout.seats_at))
    for seat in range(layout.seats):
        at = layout.seats_at + seat * layout.seat_block + 1
        found += [at + 2 * pile + 1 for pile in range(layout.payoff)]
        at += 2 * layout.payoff
        for pile in range(layout.discard):
            first = at + pile * (1 + layout.depth) + 1
            found += range(first, first + min(top, layout.depth))
    return np.array(found, np.int64)


def features(observations: np.ndarray, positions: np.ndarray, codes: int,
             clip: float) -> np.ndarray:
    """The network's input (``float32``, shape ``(batch, size + len(positions) * codes)``)
    from a batch of observations (``int16``, shape ``(batch, size)``): every value clipped
    to ``clip`` and scaled to 0..1, then each card at ``positions`` (:func:`card_positions`)
    one-hot over the codes ``0 .. codes - 1`` (0 no card; higher codes clipped)."""
    scaled = np.minimum(observations, clip).astype(np.float32) / np.float32(clip)
    cards = np.minimum(observations[:, positions], codes - 1)
    onehot = cards[:, :, None] == np.arange(codes, dtype=cards.dtype)
    return np.concatenate([scaled, onehot.reshape(len(observations), -1).astype(np.float32)],
                          axis=1)
