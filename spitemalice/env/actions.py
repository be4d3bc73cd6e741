"""The fixed integer action space of one game configuration.

Every action is an integer ``0 <= a < size``; the catalogue is the same for every position
of a configuration (rule set, house rules, parameters, seats), so a learner's output layer
has a fixed width.  With ``H`` the hand size, ``P`` the pay-off piles per seat, ``D`` the
discard piles per seat and ``B`` the most build piles that can be open, the actions are, in
this order:

1. **plays**, ``(H + P + D) * (B + 1)`` of them: a source and a target.  Sources are hand
   slot ``0 .. H-1`` (the card at that place of the sorted hand), then pay-off pile
   ``0 .. P-1`` (its top card), then discard pile ``0 .. D-1`` (its top card); targets are
   build pile ``0 .. B-1`` (in the order opened) and, last, a new build pile.  Action
   ``source * (B + 1) + target``.
2. **discards**, ``H * D``: hand slot ``i`` onto discard pile ``d``, action
   ``plays + i * D + d``.
3. **pair discards**, only under a rule set that allows two cards at once
   (``max_discard_cards = 2``): each ordered pair of hand slots ``(i, j)``, ``i != j``
   (slot ``j``'s card lies on top), onto discard pile ``d``.
4. **pass**, the last action.

An action that names an empty hand slot, an empty pile or a build pile that is not open is
simply illegal, like any move the rules refuse.  ``B`` is the rule set's build-pile limit;
without one (unlimited build piles) it is the number of cards in the deck that may start a
pile, which no game can exceed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from spitemalice.cards import Card
from spitemalice.engine.reasons import refuse
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import GameState, Pile
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rulebook import RuleBook


class ActionCatalogue:
    """The actions of one configuration and the moves they stand for.

    Attributes:
        hand, payoff, discard, builds: ``H``, ``P``, ``D`` and ``B`` of the module docstring.
        pairs: the ordered hand-slot pairs ``(i, j)`` of pair discards (``j``'s card on
            top), empty when the rule set allows one card per discard.
        size: the number of actions.
        pass_action: the action that passes (``size - 1``).
    """

    def __init__(self, rules: RuleBook) -> None:
        """Raises:
            SpiteMaliceError: the configuration lets seats use a partner's piles (teams), for
                which the catalogue has no actions yet.
        """
        access = rules.teams.access
        if any(access.play_from) or any(access.discard_to):
            raise SpiteMaliceError(
                f"{rules.name} with teams lets a seat use its partner's piles, and the "
                "environment's action catalogue has no actions for them yet; load it with "
                "--set partner_piles=own, or without the partnerships house rule")
        ruleset = rules.ruleset
        self.hand = ruleset.hand_size
        self.payoff = ruleset.payoff_piles
        self.discard = ruleset.discard_piles
        self.builds = rules.build_limit or _starters(rules)
        self.targets = self.builds + 1
        self.sources = self.hand + self.payoff + self.discard
        self.plays = self.sources * self.targets
        self.singles = self.hand * self.discard
        pairs = rules.discard.max_cards >= 2
        self.pairs = tuple(itertools.permutations(range(self.hand), 2)) if pairs else ()
        self.pair_base = self.plays + self.singles
        self.pass_action = self.pair_base + len(self.pairs) * self.discard
        self.size = self.pass_action + 1
        self._pair_index = {pair: n for n, pair in enumerate(self.pairs)}
        self._why = rules.clause_for

    # -- action -> move ------------------------------------------------------------------

    def move(self, state: GameState, action: int) -> Move:
        """The move ``action`` stands for in ``state`` (for the seat on turn).

        Raises:
            SpiteMaliceError: ``action`` is not an integer from 0 to ``size - 1``.
            IllegalMove: the action names an empty hand slot or an empty pile (reasons
                ``not-in-hand``, ``empty-pile``); whether the move is legal is the engine's
                question, not this one's.
        """
        if not 0 <= action < self.size:
            raise SpiteMaliceError(f"an action is a whole number from 0 to {self.size - 1}, "
                                   f"not {action!r}")
        if action == self.pass_action:
            return Pass()
        seat = state.seats[state.seat]
        if action < self.plays:
            source, target = divmod(action, self.targets)
            pile = NEW_PILE if target == self.builds else target
            if source < self.hand:
                return Play(Zone.HAND, self._slot(seat.hand, source, action), pile)
            if source < self.hand + self.payoff:
                index = source - self.hand
                return Play(Zone.PAYOFF, self._top(seat.payoff, index, action, "pay-off"), pile,
                            index)
            index = source - self.hand - self.payoff
            return Play(Zone.DISCARD, self._top(seat.discards, index, action, "discard"), pile,
                        index)
        if action < self.pair_base:
            slot, pile = divmod(action - self.plays, self.discard)
            return Discard((self._slot(seat.hand, slot, action),), pile)
        pair, pile = divmod(action - self.pair_base, self.discard)
        first, second = self.pairs[pair]
        cards = (self._slot(seat.hand, first, action), self._slot(seat.hand, second, action))
        return Discard(cards, pile)

    # -- move -> actions -----------------------------------------------------------------

    def actions(self, state: GameState, move: Move) -> list[int]:
        """Every action that stands for ``move`` in ``state``: one, or several when the
        hand holds equal cards (each slot holding the card is an action for it)."""
        return list(self.legal_actions(state, (move,)))

    def legal_actions(self, state: GameState, moves: Iterable[Move]) -> dict[int, Move]:
        """Each action that stands for one of ``moves`` (the legal moves of ``state``), with
        the move itself, in the order of ``moves``.

        Written for speed: it runs once per environment step.
        """
        hand = state.seats[state.seat].hand
        slots: dict[Card, list[int]] = {}
        for slot, card in enumerate(hand):
            slots.setdefault(card, []).append(slot)
        targets, builds, discard = self.targets, self.builds, self.discard
        payoff_at, discard_at = self.hand * targets, (self.hand + self.payoff) * targets
        found: dict[int, Move] = {}
        for move in moves:
            if isinstance(move, Discard):
                if len(move.cards) == 1:
                    base = self.plays + move.pile
                    for slot in slots.get(move.cards[0], ()):
                        found[base + slot * discard] = move
                else:
                    for action in self._pair_actions(hand, move):
                        found[action] = move
            elif isinstance(move, Play):
                target = builds if move.pile == NEW_PILE else move.pile
                if move.zone is Zone.HAND:
                    for slot in slots.get(move.card, ()):
                        found[slot * targets + target] = move
                elif move.zone is Zone.PAYOFF:
                    found[payoff_at + move.index * targets + target] = move
                else:
                    found[discard_at + move.index * targets + target] = move
            else:
                found[self.pass_action] = move
        return found

    def _pair_actions(self, hand: Pile, move: Discard) -> list[int]:
        return [self.pair_base + self._pair_index[(i, j)] * self.discard + move.pile
                for i, j in self.pairs
                if i < len(hand) and j < len(hand) and (hand[i], hand[j]) == move.cards]

    def describe(self, action: int) -> str:
        """The action in words: ``"hand slot 2 > build pile 1"``, ``"pass"``; piles and
        slots counted from 1 as in move texts.

        Raises:
            SpiteMaliceError: ``action`` is not an integer from 0 to ``size - 1``.
        """
        if not 0 <= action < self.size:
            raise SpiteMaliceError(f"an action is a whole number from 0 to {self.size - 1}, "
                                   f"not {action!r}")
        if action == self.pass_action:
            return "pass"
        if action < self.plays:
            source, target = divmod(action, self.targets)
            where = "a new build pile" if target == self.builds else f"build pile {target + 1}"
            return f"{self._source(source)} > {where}"
        if action < self.pair_base:
            slot, pile = divmod(action - self.plays, self.discard)
            return f"hand slot {slot + 1} > discard pile {pile + 1}"
        pair, pile = divmod(action - self.pair_base, self.discard)
        first, second = self.pairs[pair]
        return f"hand slots {first + 1}+{second + 1} > discard pile {pile + 1}"

    def _slot(self, hand: Pile, slot: int, action: int) -> Card:
        if slot >= len(hand):
            raise refuse("not-in-hand", f"action {action}", self._why,
                         f"hand slot {slot + 1} is empty (the hand holds {len(hand)} card(s))")
        return hand[slot]

    def _top(self, piles: tuple[Pile, ...], index: int, action: int, kind: str) -> Card:
        if not piles[index]:
            raise refuse("empty-pile", f"action {action}", self._why,
                         f"{kind} pile {index + 1} is empty", where=kind.replace("-", ""))
        return piles[index][-1]

    def _source(self, source: int) -> str:
        if source < self.hand:
            return f"hand slot {source + 1}"
        if source < self.hand + self.payoff:
            return f"pay-off pile {source - self.hand + 1}"
        return f"discard pile {source - self.hand - self.payoff + 1}"


def _starters(rules: RuleBook) -> int:
    """Cards of the deck that may start a build pile: no game opens more piles."""
    cards = (*rules.deck.cards, *(rules.deck.payoff_cards or ()))
    return sum(1 for card in cards if 1 in rules.accepts[card.rank])
