"""The fixed integer action space of one game configuration.

Every action is an integer ``0 <= a < size``; the catalogue is the same for every position
of a configuration (rule set, house rules, parameters, seats), so a learner's output layer
has a fixed width.  With ``H`` the hand size, ``P`` the pay-off piles per seat, ``D`` the
discard piles per seat, ``B`` the most build piles that can be open, ``O`` the seats whose
piles a seat may play from (1, its own, unless partners share piles) and ``Q`` the seats onto
whose discard piles it may discard (1 unless partners share discard piles), the actions are,
in this order:

1. **plays**, ``(H + O P + O D) * (B + 1)`` of them: a source and a target.  Sources are hand
   slot ``0 .. H-1`` (the card at that place of the sorted hand), then each owner's pay-off
   piles ``0 .. P-1`` (their top cards), then each owner's discard piles ``0 .. D-1``; owner
   0 is the seat itself, owners 1 .. O-1 its partners in the order the rules list them.
   Targets are build pile ``0 .. B-1`` (in the order opened) and, last, a new build pile.
   Action ``source * (B + 1) + target``.
2. **discards**, ``H * Q D``: hand slot ``i`` onto discard pile ``d`` of owner ``q``, action
   ``plays + i * Q D + q D + d``.
3. **pair discards**, only under a rule set that allows two cards at once
   (``max_discard_cards = 2``): each ordered pair of hand slots ``(i, j)``, ``i != j``
   (slot ``j``'s card lies on top), onto each discard pile, ``Q D`` per pair.
4. **pass**, the last action.

An action that names an empty hand slot, an empty pile, a build pile that is not open or a
partner's pile the rules do not share is simply illegal, like any move the rules refuse.
``B`` is the rule set's build-pile limit; without one (unlimited build piles) it is the
number of cards in the deck that may start a pile, which no game can exceed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from spitemalice.cards import Card
from spitemalice.engine.configuration import decoded
from spitemalice.engine.legal import foreign, legal_moves
from spitemalice.engine.refusal import refuse
from spitemalice.env.action_numbers import (
    Shared,
    action_number,
    most_build_piles,
    not_a_listed_move,
    owner_index,
    owner_seat,
    pile_owners,
    pile_top,
    pile_words,
)
from spitemalice.errors import IllegalMove, SpiteMaliceError
from spitemalice.model import AnyState, GameState, Pile, require_state
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book, require_turn_based

# What a move stands for, worked out once (ActionCatalogue._learn): the move itself, an action
# number or base, the card number of a hand card's move (0 for one fixed action, -1 for a
# pair discard), and the stride between the actions of successive hand slots.
_Entry = tuple[Move, int, int, int]
_KNOWN_MOST = 50_000  # entries per seat before the table of known moves is emptied


class ActionCatalogue:
    """The actions of one configuration and the moves they stand for.

    Attributes:
        hand: ``H`` of the module docstring, and so on for ``payoff`` (``P``),
            ``discard`` (``D``), ``builds`` (``B``), ``owners`` (``O``) and
            ``discard_owners`` (``Q``).
        pairs: the ordered hand-slot pairs ``(i, j)`` of pair discards (``j``'s card on
            top), empty when the rule set allows one card per discard.
        size: the number of actions.
        pass_action: the action that passes (``size - 1``).
        kind: ``"slot"`` (the card-named catalogue's is ``"card"``).

    A state of another configuration is refused with
    :class:`~spitemalice.errors.PositionError` (:mod:`spitemalice.engine.configuration`):
    by every method for its seat count, and where ``legal_list`` and ``move`` read it for a
    card or pile it does not have; ``action_list`` maps the moves given.  A seat's view is
    refused with ``SpiteMaliceError``, not ``TypeError``: the environments refuse every bad
    argument so (docs/api/index.md).

    Raises:
        SpiteMaliceError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
            its seats move at once (Spit), which no environment plays.
    """

    kind = "slot"

    def __init__(self, rules: RuleBook) -> None:
        check_book(rules, "ActionCatalogue", SpiteMaliceError)
        require_turn_based(rules, "ActionCatalogue (as each environment)")
        ruleset = rules.ruleset
        self.hand = ruleset.hand_size
        self.payoff = ruleset.payoff_piles
        self.discard = ruleset.discard_piles
        self.builds = most_build_piles(rules)
        self._play_from, self._discard_to, self.owners, self.discard_owners = pile_owners(rules)
        self.targets = self.builds + 1
        self.payoff_at = self.hand
        self.discard_at = self.hand + self.owners * self.payoff
        self.sources = self.discard_at + self.owners * self.discard
        self.plays = self.sources * self.targets
        self.places = self.discard_owners * self.discard  # discard piles a hand card may go on
        self.singles = self.hand * self.places
        pairs = rules.discard.max_cards >= 2
        self.pairs = tuple(itertools.permutations(range(self.hand), 2)) if pairs else ()
        self.pair_base = self.plays + self.singles
        self.pass_action = self.pair_base + len(self.pairs) * self.places
        self.size = self.pass_action + 1
        self._pair_index = {pair: n for n, pair in enumerate(self.pairs)}
        self._why = rules.clause_for
        self._rules = rules
        self._players = rules.players
        self._known: list[dict[int, _Entry]] = [{} for _ in range(rules.players)]
        self._numbers: dict[tuple[int, str], int] = {(-1, "no card"): 0}  # see _number
        self._card_numbers: dict[int, tuple[Card, int]] = {}  # see _card_number
        self._hands: list[tuple[Pile | None, list[int | None], dict[int, list[int]]]] = [
            (None, [0], {})] * rules.players

    # -- action -> move ------------------------------------------------------------------

    def move(self, state: AnyState, action: object) -> Move:
        """The move ``action`` stands for in ``state`` (for the seat on turn).

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            SpiteMaliceError: ``action`` is not an integer (``int`` or a numpy integer, not a
                bool) from 0 to ``size - 1``.
            IllegalMove: the action names an empty hand slot, an empty pile or a partner's
                pile the rules do not share (reasons ``not-in-hand``, ``empty-pile``,
                ``not-own-pile``); whether the move is legal is the engine's question.
            PositionError: ``state`` is a state of another configuration (the class
                docstring): another seat count, the move's card is none of the deck's, or
                decoding failed and the state is diagnosed so.
        """
        state = require_state(state, "ActionCatalogue.move", error=SpiteMaliceError)
        action = self._checked(action)
        if len(state.seats) != self._players:  # fewer seats would decode silently
            raise foreign(self._rules, state, "ActionCatalogue.move")
        try:
            move = self._decode(state, action)
        except (IndexError, KeyError, IllegalMove):  # diagnosed only once decoding failed
            raise foreign(self._rules, state, "ActionCatalogue.move") from None
        return decoded(self._rules, state, move, "ActionCatalogue.move")

    def _decode(self, state: GameState, action: int) -> Move:
        """:meth:`move` of a checked action."""
        if action == self.pass_action:
            return Pass()
        if action < self.plays:
            return self._play(state, *divmod(action, self.targets), action)
        hand = state.seats[state.seat].hand
        if action < self.pair_base:
            slot, place = divmod(action - self.plays, self.places)
            owner, pile = self._discard_owner(state, place, action)
            return Discard((self._slot(hand, slot, action),), pile, owner)
        pair, place = divmod(action - self.pair_base, self.places)
        first, second = self.pairs[pair]
        owner, pile = self._discard_owner(state, place, action)
        cards = (self._slot(hand, first, action), self._slot(hand, second, action))
        return Discard(cards, pile, owner)

    def _play(self, state: GameState, source: int, target: int, action: int) -> Play:
        pile = NEW_PILE if target == self.builds else target
        if source < self.payoff_at:
            return Play(Zone.HAND, self._slot(state.seats[state.seat].hand, source, action),
                        pile)
        if source < self.discard_at:
            who, index = divmod(source - self.payoff_at, self.payoff)
            zone = Zone.PAYOFF
        else:
            who, index = divmod(source - self.discard_at, self.discard)
            zone = Zone.DISCARD
        seat = self._owner_seat(self._play_from, state.seat, who, action)
        card = pile_top(state.seats[seat], zone, index, action, self._why)
        return Play(zone, card, pile, index, None if who == 0 else seat)

    def _discard_owner(self, state: GameState, place: int, action: int) -> tuple[int | None,
                                                                                   int]:
        who, pile = divmod(place, self.discard)
        seat = self._owner_seat(self._discard_to, state.seat, who, action)
        return (None if who == 0 else seat), pile



    def _owner_seat(self, shared: Shared, seat: int, who: int, action: int) -> int:
        """:func:`~spitemalice.env.action_numbers.owner_seat` citing these rules (a method:
        the validation tests put a faulty one in its place)."""
        return owner_seat(shared, seat, who, action, self._why)

    def number(self, action: object) -> int:
        """``action`` as an action number of this catalogue: an ``int`` or a numpy integer
        (``operator.index``, not ``int()``: 2.7 is no action number) from 0 to ``size - 1``
        (:func:`~spitemalice.env.action_numbers.action_number`).

        Raises:
            SpiteMaliceError: ``action`` is ``None``, a bool, not a whole number, or not
                from 0 to ``size - 1``; the message names the bound.
        """
        return action_number(action, self.size)

    def _checked(self, action: object) -> int:
        """:meth:`number`, with no call for an int in range (the usual action)."""
        if type(action) is int and 0 <= action < self.size:
            return action
        return action_number(action, self.size)

    # -- move -> actions -----------------------------------------------------------------

    def actions(self, state: AnyState, move: Move) -> list[int]:
        """Every action that stands for ``move`` in ``state``: one, or several when the
        hand holds equal cards (each slot holding the card is an action for it).

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "ActionCatalogue.actions", error=SpiteMaliceError)
        return list(self.legal_actions(state, (move,)))

    def legal_actions(self, state: AnyState, moves: Iterable[Move]) -> dict[int, Move]:
        """Each action that stands for one of ``moves`` (the legal moves of ``state``), with
        the move itself (in the order of :meth:`action_list`).

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "ActionCatalogue.legal_actions", error=SpiteMaliceError)
        actions, stand_for = self.action_list(state, tuple(moves))
        return dict(zip(actions, stand_for, strict=True))

    def action_list(self, state: AnyState, moves: Sequence[Move]
                    ) -> tuple[list[int], Sequence[Move]]:
        """The actions that stand for ``moves`` (the legal moves of ``state``), and in the
        same order the move each action stands for, so a caller finds an action's move by
        its place in the list.  Without pair discards, action ``i`` stands for ``moves[i]``
        (through its card's first hand slot), and the actions through further slots of
        equal cards come after them.

        Written for speed: it runs once per environment step.  The engine makes each move
        object once per rule book and hands out the same object again, so what a move
        stands for is worked out once (per seat on turn) and kept, keyed on the move's
        identity; a step then only looks up which hand slot holds the card moved.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "ActionCatalogue.action_list", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # fewer seats would map silently
            raise foreign(self._rules, state, "ActionCatalogue.action_list")
        try:
            return self._mapped(state, moves)
        except (IndexError, KeyError):  # read only once it failed: another configuration?
            raise foreign(self._rules, state, "ActionCatalogue.action_list") from None

    def _mapped(self, state: GameState, moves: Sequence[Move]
                ) -> tuple[list[int], Sequence[Move]]:
        """:meth:`action_list` of a checked state."""
        seat = state.seat
        hand = state.seats[seat].hand
        known = self._known[seat]
        try:
            entries = list(map(known.__getitem__, map(id, moves)))
        except KeyError:  # a move not met before
            entries = [known.get(id(move)) or self._learn(known, seat, move) for move in moves]
        where, more = self._slots_of(seat, hand)
        if not self.pairs:
            try:
                actions = [entry[1] + where[entry[2]] * entry[3]  # type: ignore[operator]
                           for entry in entries]
            except (TypeError, IndexError):  # a card the hand does not hold: no action
                pass
            else:
                if not more:
                    return actions, moves
                stand_for = list(moves)
                for move, (_, base, card, stride) in zip(moves, entries, strict=True):
                    for slot in more.get(card, ()):  # further slots holding equal cards
                        actions.append(base + slot * stride)
                        stand_for.append(move)
                return actions, stand_for
        return self._general(hand, moves, entries, where, more)

    def legal_list(self, state: AnyState) -> tuple[list[int], Sequence[Move]]:
        """The legal actions of the seat on turn in ``state`` and the move each stands for:
        ``action_list(state, legal_moves(rules, state))`` (the card catalogue's
        :meth:`~spitemalice.env.card_actions.CardCatalogue.legal_list` is faster; this one
        has no quicker path, as a hand slot's action depends on the whole hand).

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a
                seat's view, say).
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "ActionCatalogue.legal_list", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # named here rather than by legal_moves
            raise foreign(self._rules, state, "ActionCatalogue.legal_list")
        return self.action_list(state, legal_moves(self._rules, state))

    def _general(self, hand: Pile, moves: Sequence[Move], entries: list[_Entry],
                 where: list[int | None], more: dict[int, list[int]]
                 ) -> tuple[list[int], list[Move]]:
        """:meth:`action_list` move by move: pair discards, and moves of cards the hand
        does not hold (which no action stands for)."""
        actions: list[int] = []
        stand_for: list[Move] = []
        for move, (_, action, card, stride) in zip(moves, entries, strict=True):
            if card == 0:
                numbers = [action]
            elif card > 0:  # each slot holding the card (equal cards are one move)
                first = where[card] if card < len(where) else None
                slots = [] if first is None else [first, *more.get(card, ())]
                numbers = [action + slot * stride for slot in slots]
            else:  # a pair discard: which slot pairs hold its cards
                numbers = self._pair_actions(hand, move, action)  # type: ignore[arg-type]
            actions += numbers
            stand_for += [move] * len(numbers)
        return actions, stand_for

    def _slots_of(self, seat: int, hand: Pile) -> tuple[list[int | None],
                                                        dict[int, list[int]]]:
        """For ``hand``, indexed by card number (:meth:`_number`): the first slot holding
        that card, ``None`` for a card it does not hold, and 0 at index 0 (so a fixed
        action adds nothing); and for each card the hand holds more than once, its further
        slots.  Kept for each seat's last hand, which many steps do not change."""
        last = self._hands[seat]
        if last[0] is hand:
            return last[1], last[2]
        known = self._card_numbers
        numbers = [(known.get(id(card)) or self._card_number(card))[1] for card in hand]
        where: list[int | None] = [None] * len(self._numbers)
        where[0] = 0
        more: dict[int, list[int]] = {}
        for slot, number in enumerate(numbers):
            if where[number] is None:
                where[number] = slot
            else:  # an equal card: one more slot for the same moves
                more.setdefault(number, []).append(slot)
        self._hands[seat] = (hand, where, more)
        return where, more

    def _card_number(self, card: Card) -> tuple[Card, int]:
        """``card`` and its card number, kept under ``id(card)``: a game's cards are the same
        objects all game long (the entry holds the card, so its id stays its own)."""
        if len(self._card_numbers) > _KNOWN_MOST:
            self._card_numbers.clear()
        entry = self._card_numbers[id(card)] = (card, self._number(card))
        return entry

    def _number(self, card: Card) -> int:
        """The card number of ``card``'s value (rank and suit; 1, 2, ...): equal cards
        share one, and a small integer is quicker to look up than the value."""
        key = (card.rank, card.suit)
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = len(self._numbers)
        return number

    def _learn(self, known: dict[int, _Entry], seat: int, move: Move) -> _Entry:
        """What ``move`` stands for when ``seat`` makes it: ``(move, action, 0, 0)`` for
        one fixed action; ``(move, base, card, stride)`` for a hand card's move, whose
        action is ``base + slot * stride`` for each hand slot holding the card numbered
        ``card``; ``(move, place, -1, 0)`` for a pair discard onto discard place
        ``place``.  The entry holds the move, so no other object can take its id while the
        entry stands."""
        if len(known) > _KNOWN_MOST:  # moves of many rule-book caches: start afresh
            known.clear()
        entry: _Entry
        if isinstance(move, Discard):
            place = owner_index(self._discard_to, seat, move.owner) * self.discard \
                + move.pile
            if len(move.cards) == 1:
                entry = (move, self.plays + place, self._number(move.cards[0]), self.places)
            else:
                entry = (move, place, -1, 0)
        elif isinstance(move, Play):
            target = self.builds if move.pile == NEW_PILE else move.pile
            if move.zone is Zone.HAND:
                entry = (move, target, self._number(move.card), self.targets)
            else:
                who = owner_index(self._play_from, seat, move.owner)
                if move.zone is Zone.PAYOFF:
                    source = self.payoff_at + who * self.payoff + move.index
                else:
                    source = self.discard_at + who * self.discard + move.index
                entry = (move, source * self.targets + target, 0, 0)
        elif isinstance(move, Pass):
            entry = (move, self.pass_action, 0, 0)
        else:
            raise not_a_listed_move(move)
        known[id(move)] = entry
        return entry


    def _pair_actions(self, hand: Pile, move: Discard, place: int) -> list[int]:
        return [self.pair_base + self._pair_index[(i, j)] * self.places + place
                for i, j in self.pairs
                if i < len(hand) and j < len(hand) and (hand[i], hand[j]) == move.cards]

    # -- words ---------------------------------------------------------------------------

    def describe(self, action: object) -> str:
        """The action in words: ``"hand slot 2 > build pile 1"``, ``"pass"``; piles and
        slots counted from 1 as in move texts, partners' piles as ``partner 1's``.

        Raises:
            SpiteMaliceError: ``action`` is not an integer (``int`` or a numpy integer, not a
                bool) from 0 to ``size - 1``.
        """
        action = self._checked(action)
        if action == self.pass_action:
            return "pass"
        if action < self.plays:
            source, target = divmod(action, self.targets)
            where = "a new build pile" if target == self.builds else f"build pile {target + 1}"
            return f"{self._source(source)} > {where}"
        if action < self.pair_base:
            slot, place = divmod(action - self.plays, self.places)
            return f"hand slot {slot + 1} > {pile_words('discard', place, self.discard)}"
        pair, place = divmod(action - self.pair_base, self.places)
        first, second = self.pairs[pair]
        return (f"hand slots {first + 1}+{second + 1} > "
                f"{pile_words('discard', place, self.discard)}")

    def _source(self, source: int) -> str:
        if source < self.payoff_at:
            return f"hand slot {source + 1}"
        if source < self.discard_at:
            return pile_words("pay-off", source - self.payoff_at, self.payoff)
        return pile_words("discard", source - self.discard_at, self.discard)


    # -- checks --------------------------------------------------------------------------


    def _slot(self, hand: Pile, slot: int, action: int) -> Card:
        if slot >= len(hand):
            raise refuse("not-in-hand", f"action {action}", self._why,
                         f"hand slot {slot + 1} is empty (the hand holds {len(hand)} card(s))")
        return hand[slot]
