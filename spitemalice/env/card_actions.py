"""The action space named by card (``catalogue="card"``, the Gymnasium ``-v1`` ids).

An action names where a card comes from, which card it is and where it goes, never a place
in the hand: two hands that hold the same ranks offer the same action numbers, and the
action of a hand card's move is the same in every hand that holds the card.  With ``R`` the
ranks of the deck (every distinct rank of its cards, jokers and other rank-0 wild cards
included, in increasing order), and ``P``, ``D``, ``B``, ``O`` and ``Q`` as in
:mod:`spitemalice.env.actions`, the actions are, in this order:

1. **plays**, ``(R + O P + O D) * (B + 1)``: a source and a target.  Sources are a hand
   card of rank ``r`` (``0 .. R-1``, the rank's place among the deck's ranks), then each
   owner's pay-off piles ``0 .. P-1`` and discard piles ``0 .. D-1`` (their top cards: a
   pile offers only its top, so its rank is not named again).  Targets are build pile
   ``0 .. B-1`` (in the order opened) and, last, a new build pile.  Action
   ``source * (B + 1) + target``.
2. **discards**, ``R * Q D``: a hand card of rank ``r`` onto discard pile ``d`` of owner
   ``q``, action ``plays + r * Q D + q D + d``.
3. **pair discards**, ``R * Q D``, only under a rule set that allows two cards at once
   (``max_discard_cards = 2``): two hand cards of rank ``r`` onto one discard pile.
4. **pass**, the last action.

A wild card is named by its own rank (a king, a joker): where it lands decides the rank it
stands for (the next rank of the build pile, or the first on a new pile), so no rule set
needs the action to say more.  Suits are not named, as no rule reads them: the moves of two
cards of one rank and different suits are one action, which stands for the first such move
the engine lists (the lower suit, as the hand is sorted); for a pair the same.
An action whose card the hand does not hold, or whose pile is empty, is illegal like any
move the rules refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spitemalice.cards import Card
from spitemalice.engine.configuration import decoded
from spitemalice.engine.legal import foreign, legal_moves, move_groups
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
from spitemalice.env.legal_sets import Listed, action_bits, listed_sets
from spitemalice.errors import IllegalMove, SpiteMaliceError
from spitemalice.model import AnyState, GameState, Pile, require_state
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book, require_turn_based

_KNOWN_MOST = 50_000  # moves per seat before the table of known moves is emptied
_GROUPS_MOST = 10_000  # move groups per seat before the table of known groups is emptied

_Group = tuple[tuple[Move, ...], tuple[int, ...], int, dict[int, Move]]
"""A move group's entry: the group, its moves' actions, those actions as bits, and each
action's first move in the group."""


class CardCatalogue:
    """The card-named actions of one configuration and the moves they stand for.

    The interface is :class:`~spitemalice.env.actions.ActionCatalogue`'s (``move``,
    ``number``, ``actions``, ``legal_actions``, ``action_list``, ``describe``), so every
    environment takes either.

    Attributes:
        kind: ``"card"`` (the hand-slot catalogue's is ``"slot"``).
        ranks: ``R`` of the module docstring, the deck's ranks in increasing order.
        hand, payoff, discard, builds, owners, discard_owners: as in
            :class:`~spitemalice.env.actions.ActionCatalogue` (``hand`` sizes the
            observation, not the actions).
        pairs: whether pair discards have actions.
        size: the number of actions.
        pass_action: the action that passes (``size - 1``).

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

    kind = "card"

    def __init__(self, rules: RuleBook) -> None:
        check_book(rules, "CardCatalogue", SpiteMaliceError)
        require_turn_based(rules, "CardCatalogue (as each environment)")
        ruleset = rules.ruleset
        cards = (*rules.deck.cards, *(rules.deck.payoff_cards or ()))
        self.ranks = tuple(sorted({card.rank for card in cards}))
        self._rank_index = {rank: n for n, rank in enumerate(self.ranks)}
        self.hand = ruleset.hand_size
        self.payoff = ruleset.payoff_piles
        self.discard = ruleset.discard_piles
        self.builds = most_build_piles(rules)
        self._play_from, self._discard_to, self.owners, self.discard_owners = pile_owners(rules)
        self.targets = self.builds + 1
        self.payoff_at = len(self.ranks)
        self.discard_at = self.payoff_at + self.owners * self.payoff
        self.sources = self.discard_at + self.owners * self.discard
        self.plays = self.sources * self.targets
        self.places = self.discard_owners * self.discard
        self.pair_base = self.plays + len(self.ranks) * self.places
        self.pairs = rules.discard.max_cards >= 2
        self.pass_action = self.pair_base + (len(self.ranks) * self.places if self.pairs else 0)
        self.size = self.pass_action + 1
        self._why = rules.clause_for
        self._rules = rules
        self._players = rules.players
        # Per seat: id(move) -> its action, and the moves themselves (so no other object can
        # take a known move's id while the entry stands).  The engine makes each move once
        # per rule book, so a step's mapping is one lookup per move: a gather.
        self._known: list[dict[int, int]] = [{} for _ in range(rules.players)]
        self._held: list[list[Move]] = [[] for _ in range(rules.players)]
        # Per seat: id(group) -> its _Group, for the engine's move groups (per card and
        # source, made once per rule book): a listing's actions are then joined a group at
        # a time.  The entry holds the group, so its id stays its own.
        self._groups: list[dict[int, _Group]] = [{} for _ in range(rules.players)]

    # -- action -> move ------------------------------------------------------------------

    def move(self, state: AnyState, action: object) -> Move:
        """The move ``action`` stands for in ``state`` (for the seat on turn): a hand
        card's action takes the first card of its rank in the sorted hand (for a pair, the
        first two).

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState`, or
                ``action`` is not an integer (``int`` or a numpy integer, not a bool) from 0
                to ``size - 1``.
            IllegalMove: the hand holds no card (for a pair, not two) of the rank, the pile
                is empty, or a partner's pile the rules do not share (reasons
                ``not-in-hand``, ``empty-pile``, ``not-own-pile``); whether the move is legal
                is the engine's question.
            PositionError: ``state`` is a state of another configuration (the class
                docstring): another seat count, the move's card is none of the deck's, or
                decoding failed and the state is diagnosed so.
        """
        state = require_state(state, "CardCatalogue.move", error=SpiteMaliceError)
        action = self._checked(action)
        if len(state.seats) != self._players:  # fewer seats would decode silently
            raise foreign(self._rules, state, "CardCatalogue.move")
        try:
            move = self._decode(state, action)
        except (IndexError, KeyError, IllegalMove):  # diagnosed only once decoding failed
            raise foreign(self._rules, state, "CardCatalogue.move") from None
        return decoded(self._rules, state, move, "CardCatalogue.move")

    def _decode(self, state: GameState, action: int) -> Move:
        """:meth:`move` of a checked action."""
        if action == self.pass_action:
            return Pass()
        hand = state.seats[state.seat].hand
        if action < self.plays:
            source, target = divmod(action, self.targets)
            pile = NEW_PILE if target == self.builds else target
            if source < self.payoff_at:
                return Play(Zone.HAND, self._in_hand(hand, source, 1, action)[0], pile)
            if source < self.discard_at:
                who, index = divmod(source - self.payoff_at, self.payoff)
                zone = Zone.PAYOFF
            else:
                who, index = divmod(source - self.discard_at, self.discard)
                zone = Zone.DISCARD
            seat = self._owner_seat(self._play_from, state.seat, who, action)
            card = pile_top(state.seats[seat], zone, index, action, self._why)
            return Play(zone, card, pile, index, None if who == 0 else seat)
        count = 1 if action < self.pair_base else 2
        rank, place = divmod(action - (self.plays if count == 1 else self.pair_base),
                             self.places)
        who, pile = divmod(place, self.discard)
        seat = self._owner_seat(self._discard_to, state.seat, who, action)
        return Discard(self._in_hand(hand, rank, count, action), pile,
                       None if who == 0 else seat)

    def _in_hand(self, hand: Pile, rank: int, count: int, action: int) -> tuple[Card, ...]:
        wanted = self.ranks[rank]
        cards = tuple(card for card in hand if card.rank == wanted)[:count]
        if len(cards) < count:
            held = "no" if not cards else "only one"
            raise refuse("not-in-hand", f"action {action}", self._why,
                         f"the hand holds {held} card of rank "
                         f"{self._rules.deck.rank_name(wanted)}")
        return cards

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

    # -- move -> action ------------------------------------------------------------------

    def actions(self, state: AnyState, move: Move) -> list[int]:
        """The one action that names ``move`` in ``state`` (a list, as the hand-slot
        catalogue's, where equal cards in several slots give several).

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState`.
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "CardCatalogue.actions", error=SpiteMaliceError)
        return self.action_list(state, (move,))[0]

    def legal_actions(self, state: AnyState, moves: Iterable[Move]) -> dict[int, Move]:
        """Each action that names one of ``moves`` (the legal moves of ``state``), with the
        first of them it names.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState`.
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "CardCatalogue.legal_actions", error=SpiteMaliceError)
        actions, stand_for = self.action_list(state, tuple(moves))
        return dict(zip(actions, stand_for, strict=True))

    def action_list(self, state: AnyState, moves: Sequence[Move]
                    ) -> tuple[list[int], Sequence[Move]]:
        """The actions that name ``moves`` (the legal moves of ``state``), each once, and in
        the same order the move each stands for (the first of ``moves`` it names).  When no
        two moves share an action, action ``i`` names ``moves[i]``; when some do (two suits
        of one rank in the hand), each action comes where it first comes in the listing.

        Written for speed: the action of each move object is worked out once per seat and
        kept (the engine hands out the same move objects again), so the mapping is a
        lookup per move, whatever the hand.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState`.
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "CardCatalogue.action_list", error=SpiteMaliceError)
        if len(state.seats) != self._players:  # fewer seats would map silently
            raise foreign(self._rules, state, "CardCatalogue.action_list")
        seat = state.seat
        try:
            known = self._known[seat]
            try:
                actions = list(map(known.__getitem__, map(id, moves)))
            except KeyError:  # a move not met before
                actions = [self._action(seat, move) for move in moves]
        except (IndexError, KeyError):  # a card of no rank of the deck: another deck's?
            raise foreign(self._rules, state, "CardCatalogue.action_list") from None
        if len(set(actions)) == len(actions):  # the usual case: the lists as they are
            return actions, moves
        return _distinct(actions, list(moves), self.size)

    def legal_list(self, state: AnyState) -> tuple[list[int], Sequence[Move]]:
        """The legal actions of the seat on turn in ``state`` and the move each stands for:
        ``action_list(state, legal_moves(rules, state))``, the same lists, made faster.

        The engine keeps its moves in groups (per card and source, the same tuple objects
        again for as long as the rule book lives,
        :func:`~spitemalice.engine.legal.move_groups`); the actions of each group are worked
        out once per seat and kept, so the actions of a listing are joined a group at a
        time.  Where the engine's listing is
        not the groups joined (the game is over, forced-play rules narrow it, or no card can
        move and the one move is a pass) it maps ``legal_moves`` as :meth:`action_list`.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a
                seat's view, say).
            PositionError: ``state`` is a state of another configuration (the class
                docstring).
        """
        state = require_state(state, "CardCatalogue.legal_list", error=SpiteMaliceError)
        rules = self._rules
        if len(state.seats) != self._players:  # fewer seats would list silently
            raise foreign(rules, state, "CardCatalogue.legal_list")
        if state.outcome is None and not rules.filter_moves_hooks:
            seat = state.seat
            known = self._groups[seat]
            actions: list[int] = []
            moves: list[Move] = []
            try:
                for group in move_groups(rules, state):
                    entry = known.get(id(group))
                    if entry is None or entry[0] is not group:
                        entry = self._learn_group(seat, group)
                    actions.extend(entry[1])  # (extend: a C call where += was not)
                    moves.extend(group)
            except (IndexError, KeyError):  # read only once it failed: another configuration?
                raise foreign(rules, state, "CardCatalogue.legal_list") from None
            if actions:  # (none: every group is empty, and the one move is a pass)
                # Two groups name one action only through two hand cards of one rank and
                # different suits (a group's actions name its source pile or its card's
                # rank): only then is the listing made distinct.
                if _one_card_per_rank(state.seats[seat].hand):
                    return actions, moves
                return _distinct(actions, moves, self.size)
        return self.action_list(state, legal_moves(rules, state))

    def _learn_group(self, seat: int, group: tuple[Move, ...]) -> _Group:
        """The actions of the moves of ``group`` made by ``seat``, learnt and kept."""
        known = self._groups[seat]
        if len(known) > _GROUPS_MOST:  # groups of many rule-book caches: start afresh
            known.clear()
        actions = tuple(self._action(seat, move) for move in group)
        first: dict[int, Move] = {}
        for action, move in zip(actions, group, strict=True):
            first.setdefault(action, move)
        entry = (group, actions, action_bits(actions), first)
        known[id(group)] = entry
        return entry

    def _legal_sets(self, state: GameState) -> Listed:
        """:meth:`legal_list` as :data:`~spitemalice.env.legal_sets.Listed`, for a state of
        this configuration, unchecked (the environments' fast path).  Where the engine's
        groups are the listing (as in :meth:`legal_list`) each group's bits and dict are
        kept, so a listing is OR-ed and gathered a group at a time: nothing is joined and no
        repeated action looked for."""
        rules = self._rules
        if state.outcome is None and not rules.filter_moves_hooks:
            seat = state.seat
            known = self._groups[seat]
            bits = 0
            firsts: list[dict[int, Move]] = []
            for group in move_groups(rules, state):
                entry = known.get(id(group))
                if entry is None or entry[0] is not group:
                    entry = self._learn_group(seat, group)
                if entry[2]:
                    bits |= entry[2]
                    firsts.append(entry[3])
            if bits:
                return bits, firsts
        return listed_sets(self.legal_list(state))

    def _action(self, seat: int, move: Move) -> int:
        """The action of ``move`` made by ``seat``, learnt and kept on first use."""
        known = self._known[seat]
        found = known.get(id(move))
        if found is not None:
            return found
        if len(known) > _KNOWN_MOST:  # moves of many rule-book caches: start afresh
            known.clear()
            self._held[seat].clear()
        action = self._work_out(seat, move)
        known[id(move)] = action
        self._held[seat].append(move)
        return action

    def _work_out(self, seat: int, move: Move) -> int:
        if isinstance(move, Discard):
            place = owner_index(self._discard_to, seat, move.owner) * self.discard + move.pile
            rank = self._rank_index[move.cards[0].rank]
            base = self.plays if len(move.cards) == 1 else self.pair_base
            return base + rank * self.places + place
        if isinstance(move, Play):
            target = self.builds if move.pile == NEW_PILE else move.pile
            if move.zone is Zone.HAND:
                source = self._rank_index[move.card.rank]
            else:
                who = owner_index(self._play_from, seat, move.owner)
                if move.zone is Zone.PAYOFF:
                    source = self.payoff_at + who * self.payoff + move.index
                else:
                    source = self.discard_at + who * self.discard + move.index
            return source * self.targets + target
        if isinstance(move, Pass):
            return self.pass_action
        raise not_a_listed_move(move)

    # -- words ---------------------------------------------------------------------------

    def describe(self, action: object) -> str:
        """The action in words: ``"hand 7 > build pile 1"``, ``"hand pair of 9 > discard
        pile 2"``, ``"pay-off pile 1 > a new build pile"``, ``"pass"``; piles counted from 1
        as in move texts, partners' piles as ``partner 1's``.

        Raises:
            SpiteMaliceError: ``action`` is not an integer from 0 to ``size - 1``.
        """
        action = self._checked(action)
        if action == self.pass_action:
            return "pass"
        if action < self.plays:
            source, target = divmod(action, self.targets)
            where = "a new build pile" if target == self.builds else f"build pile {target + 1}"
            if source < self.payoff_at:
                return f"hand {self._rules.deck.rank_name(self.ranks[source])} > {where}"
            if source < self.discard_at:
                return f"{pile_words('pay-off', source - self.payoff_at, self.payoff)} > {where}"
            return f"{pile_words('discard', source - self.discard_at, self.discard)} > {where}"
        pair = action >= self.pair_base
        rank, place = divmod(action - (self.pair_base if pair else self.plays), self.places)
        what = f"hand pair of {self._rules.deck.rank_name(self.ranks[rank])}" if pair else \
            f"hand {self._rules.deck.rank_name(self.ranks[rank])}"
        return f"{what} > {pile_words('discard', place, self.discard)}"


def _one_card_per_rank(hand: Pile) -> bool:
    """Whether no two cards of ``hand`` share a rank but for equal cards (one object: the
    engine lists their moves once).  The hand is sorted by rank (:class:`Seat`), so two
    cards of one rank sit side by side."""
    for k in range(1, len(hand)):
        if hand[k].rank == hand[k - 1].rank and hand[k] is not hand[k - 1]:
            return False
    return True


def _distinct(actions: list[int], moves: list[Move], size: int
              ) -> tuple[list[int], list[Move]]:
    """Each of ``actions`` (each less than ``size``) once, where it first comes, standing for
    the first of ``moves`` listed that it names (two suits of one rank); the lists are new.

    One pass with a flag per action: about half the time of a set to find whether any
    action repeats and a dict to keep the first, in either build."""
    seen = [False] * size
    kept_actions: list[int] = []
    kept_moves: list[Move] = []
    for k in range(len(actions)):
        action = actions[k]
        if not seen[action]:
            seen[action] = True
            kept_actions.append(action)
            kept_moves.append(moves[k])
    return kept_actions, kept_moves
