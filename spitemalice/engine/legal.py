"""Which moves the seat on turn may make.

:func:`legal_moves` lists every legal move; :func:`~spitemalice.engine.check.check_move`
accepts exactly those moves and refuses every other one.  The property tests hold the two to
agreeing.  Moves are frozen values, made once per rule book and reused: the tables live in
the rule book's :attr:`~spitemalice.rules.book.RuleBook.engine_cache`, which the engine alone
uses.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from itertools import chain, compress
from typing import Any

from spitemalice.cards import Card
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, not_a_position
from spitemalice.model import AnyState, GameState, Pile, Seat, top_ranks
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.engine_cache import EngineCache, PlayKey, Targets
from spitemalice.rules.policies import DiscardRule

from .configuration import ForeignCard, configuration_of, foreign_state
from .hands import distinct_cards
from .simultaneous import game_of, seat_moves

PASS = Pass()


def legal_moves(rules: RuleBook, state: AnyState, seat: object = None) -> tuple[Move, ...]:
    """Every legal move of the seat on turn, or ``()`` once the game has ended.

    Plays come first (pay-off tops, discard-pile tops, then hand cards, each onto every build
    pile that accepts it and onto a new pile where the limit allows), then discards.  When no
    play or discard is legal the only move is :class:`Pass` (design notes §5).  Forced-play
    rules (``spitemalice_filter_moves``) narrow the list.

    Args:
        seat: one seat (an ``int``) whose moves are wanted: a turn-based seat not on turn has
            none.  In a rule set whose seats move at once (a simultaneous state), the moves of
            that seat; ``None`` there lists those of every seat that may move
            (:mod:`spitemalice.engine.simultaneous`).

    Raises:
        TypeError: ``state`` is not a :class:`GameState`; for a seat's view the message names
            :func:`spitemalice.view_legal_moves`, which takes one.  Or ``rules`` is not a
            :class:`~spitemalice.rules.book.RuleBook` (a rule set's name, say: the message
            names :func:`spitemalice.load`).
        SpiteMaliceError: ``seat`` is not a seat of the rules.
        PositionError: ``state`` is a state of another configuration (another seat count,
            pile counts, a card the deck does not hold: the message says which).  A state's
            seat count is compared on every call; the rest is found where the engine meets a
            pile or card for the first time, or once reading the state failed
            (:mod:`spitemalice.engine.configuration`).
    """
    try:
        cache = rules.engine_cache
    except AttributeError:  # checked only here: a call with a rule book pays nothing for it
        check_book(rules, "legal_moves")
        raise
    if type(state) is not GameState:  # after the rule book: (state, rules) is told as swapped
        game = game_of(rules, state)
        if game is None:
            raise not_a_state(state, "legal_moves")
        return seat_moves(game, rules, state, seat)  # type: ignore[arg-type]
    if len(state.seats) != rules.ruleset.players:  # fewer seats would play on silently
        raise foreign(rules, state, "legal_moves")
    if state.outcome is not None:
        return ()
    if seat is not None and check_int(seat, "seat", 0, rules.players - 1) != state.seat:
        return ()
    cached = cache.last_legal
    if cached is not None and cached[0] is state:
        return cached[1]
    try:
        moves = tuple(list(chain.from_iterable(move_groups(rules, state))))
    except (IndexError, KeyError):  # read only once it failed: a state of another configuration?
        raise foreign(rules, state, "legal_moves") from None
    if rules.filter_moves_hooks and moves:
        moves = _filtered(rules, state, moves)
    moves = moves or (PASS,)
    # The usual loop asks for the legal moves and then applies one of them to the same state
    # object: remembering the last answer lets apply_move accept that move without
    # recomputing.  Keyed on identity, so it can never confuse two different states.
    cache.last_legal = (state, moves)
    return moves


def base_moves(rules: RuleBook, state: AnyState) -> tuple[Move, ...]:
    """The plays and discards the rules allow before forced-play filters; no pass.

    Raises:
        TypeError: ``state`` is not a :class:`GameState` (a seat's view, say: the message
            names :func:`spitemalice.view_legal_moves`).
        PositionError: ``state`` is a state of another configuration (as
            :func:`legal_moves` finds it).
    """
    if type(state) is not GameState:
        raise not_a_state(state, "base_moves")
    if len(state.seats) != rules.ruleset.players:
        raise foreign(rules, state, "base_moves")
    # Through a list: a tuple built from an iterator of unknown length keeps its grown
    # allocation, and the interpreter's free lists then hold those larger blocks (the
    # memory test of simulate saw 2.6 MiB more over 140 games).
    try:
        return tuple(list(chain.from_iterable(move_groups(rules, state))))
    except (IndexError, KeyError):
        raise foreign(rules, state, "base_moves") from None


def move_groups(rules: RuleBook, state: GameState) -> list[tuple[Move, ...]]:
    """:func:`base_moves` in groups, in listing order: the tuples the engine keeps per card
    and source (made once per rule book, so the same tuple objects come again), which
    joined are the listing.  :func:`~spitemalice.engine.sample.random_move` draws from the
    groups without joining them, and
    :meth:`~spitemalice.env.card_actions.CardCatalogue.legal_list` keeps each group's action
    numbers.  For the engine and the environments: no pass, no forced-play filters, and the
    state is not checked (the caller has checked it is a live :class:`GameState` with the
    rules' seat count).  A card or pile the engine meets here for the first time that the
    configuration does not have raises ``KeyError``
    (:class:`~spitemalice.engine.configuration.ForeignCard`), as reading the piles of a
    state of another configuration may raise ``IndexError``: the caller diagnoses either
    with :func:`~spitemalice.engine.configuration.foreign_state`."""
    cache = rules.engine_cache
    seat = state.seats[state.seat]
    builds, removed = state.builds, state.build_removed
    # Which piles each rank may go on depends only on the ranks the build piles stand at:
    # worked out once per shape (_targets_of) and remembered for the last builds object,
    # which successive states share until a card is played on a build pile.
    last = cache.last_view
    if last is not None and last[0] is builds and last[1] is removed:
        onto_of = last[2]
    else:
        onto_of = _targets_of(rules, cache, builds, removed)
    # Each card's plays from one place onto one set of piles are made once per rule book and
    # reused, keyed by (owner, pile index, card, targets): cards are interned, so the key
    # hashes in C.  Most cards fit no pile and cost one lookup.
    groups: list[tuple[Move, ...]] = []
    # Listing order: plays from pay-off tops, discard-pile tops, partners' tops, hand cards;
    # then discards.
    _add_top_plays(cache, None, seat, onto_of, groups)
    access = rules.teams.access
    for owner in access.play_from[state.seat]:  # partners' pile tops, where teams share them
        _add_top_plays(cache, owner, state.seats[owner], onto_of, groups)
    hand = seat.hand
    distinct = distinct_cards(hand)  # each card once, in hand order
    hand_made = cache.hand_plays
    for card in distinct:
        onto = onto_of.get(card.rank)
        if onto:
            key = (None, 0, card, onto)
            groups.append(hand_made.get(key) or _plays(cache, hand_made, key, Zone.HAND))
    _add_discards(rules, cache, state.seat, distinct, hand, groups)
    return groups


def _add_top_plays(cache: EngineCache, owner: int | None, seat: Seat,
                   onto_of: dict[int, Targets], groups: list[tuple[Move, ...]]) -> None:
    """Append the plays of the top cards of ``seat``'s pay-off piles, then of its discard
    piles, a group per card: the mover's own (``owner`` None) or a partner's (``owner`` its
    seat number)."""
    payoff_made, discard_made = cache.payoff_plays, cache.discard_plays
    for index, pile in enumerate(seat.payoff):
        if pile:
            card = pile[-1]
            onto = onto_of.get(card.rank)
            if onto:
                key = (owner, index, card, onto)
                groups.append(payoff_made.get(key)
                              or _plays(cache, payoff_made, key, Zone.PAYOFF))
    for index, pile in enumerate(seat.discards):
        if pile:
            card = pile[-1]
            onto = onto_of.get(card.rank)
            if onto:
                key = (owner, index, card, onto)
                groups.append(discard_made.get(key)
                              or _plays(cache, discard_made, key, Zone.DISCARD))


def _add_discards(rules: RuleBook, cache: EngineCache, mover: int, distinct: Pile,
                  hand: Pile, groups: list[tuple[Move, ...]]) -> None:
    """Append the discards, a group per card or pair: each of the ``distinct`` hand cards
    alone, pairs where the rules allow them, then all of those again onto partners' piles
    where teams share them."""
    singles = cache.single_discards
    if singles is None:
        # (given the discard rule, not the rule book: a cycle would outlive the rule book)
        singles = cache.single_discards = _Table(partial(_discards_of, rules.discard,
                                                         configuration_of(rules)[0]))
    own_from = len(groups)
    for card in distinct:  # (a loop: map() with a bound method is a Python-level call each)
        groups.append(singles[card])
    if rules.discard.max_cards >= 2:
        _add_pairs(rules.discard, cache, hand, groups)
    partners = rules.teams.access.discard_to[mover]
    if partners:  # partners' discard piles, where teams share them
        own = [move for group in groups[own_from:] for move in group
               if isinstance(move, Discard)]  # all of them: the type for the checker
        _add_partner_discards(cache, partners, own, groups)


def _add_pairs(rule: DiscardRule, cache: EngineCache, hand: Pile,
               groups: list[tuple[Move, ...]]) -> None:
    """Append the discards of pairs of equal-rank hand cards onto each discard pile, a group
    per pair."""
    made = cache.pair_discards
    for pair in _pairs(hand, rule.forbidden):
        onto_piles = made.get(pair)  # keyed by the pair of (interned) cards
        if onto_piles is None:
            onto_piles = made[pair] = tuple(Discard(pair, pile) for pile in range(rule.piles))
        groups.append(onto_piles)


def _add_partner_discards(cache: EngineCache, partners: tuple[int, ...], own: list[Discard],
                          groups: list[tuple[Move, ...]]) -> None:
    """Append each of the mover's ``own`` discards again, onto each partner's pile (one group
    per partner)."""
    made = cache.partner_discards
    for owner in partners:
        onto: list[Move] = []
        for move in own:
            entry = made.get((id(move), owner))  # the entry keeps `move` alive: ids unique
            if entry is None:
                entry = made[(id(move), owner)] = (move, Discard(move.cards, move.pile, owner))
            onto.append(entry[1])
        groups.append(tuple(onto))


class _Table(dict[Any, Any]):
    """A dict that fills itself: ``table[key]`` is ``make(key)``, made on first use."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


def _targets_of(rules: RuleBook, cache: EngineCache, builds: tuple[Pile, ...],
                removed: tuple[int, ...]) -> dict[int, Targets]:
    """``{rank: build piles a card of that rank may go on}`` for open build piles ``builds``
    with ``removed`` cards recycled from under their tops (:attr:`GameState.build_removed`);
    ranks that fit nowhere are left out.  The piles come in order, then :data:`NEW_PILE`
    where a new pile may open.  Kept per rule book for the most recent shapes."""
    shapes = cache.targets_by_shape
    tops = top_ranks(builds, removed)  # the rank each pile stands at
    onto_of = shapes.get(tops)
    if onto_of is None:
        if len(shapes) >= _SHAPES_MOST:  # many shapes met: start afresh (bounds memory)
            shapes.clear()
        onto_of = shapes[tops] = _targets_for(rules, cache, tops)
    cache.last_view = (builds, removed, onto_of)
    return onto_of


def _targets_for(rules: RuleBook, cache: EngineCache, tops: tuple[int, ...]) -> dict[int, Targets]:
    """:func:`_targets_of` for build piles standing at ranks ``tops``, worked out."""
    if cache.rank_kinds is None:
        cache.rank_kinds = _rank_kinds(rules.accepts)
        configuration_of(rules)  # for the first-met checks of _plays
    natural_by_need, wilds = cache.rank_kinds
    can_open = not rules.build_limit or len(tops) < rules.build_limit
    on_need: dict[int, list[int]] = {}  # build rank needed -> piles needing it, in order
    for number, top in enumerate(tops):
        on_need.setdefault(top + 1, []).append(number)
    if can_open:
        on_need.setdefault(1, []).append(NEW_PILE)  # a new pile needs an ace, after the rest
    onto_of: dict[int, Targets] = {}
    one = cache.targets  # one tuple per value, shared by the shapes (memory)
    for need, piles in on_need.items():
        ranks = natural_by_need.get(need)
        if ranks:
            targets = one.setdefault(tuple(piles), tuple(piles))
            for rank in ranks:
                onto_of[rank] = targets
    for accepted, ranks in wilds:
        onto = [number for number, top in enumerate(tops) if top + 1 in accepted]
        if can_open and 1 in accepted:
            onto.append(NEW_PILE)
        if onto:
            targets = one.setdefault(tuple(onto), tuple(onto))
            for rank in ranks:
                onto_of[rank] = targets
    return onto_of


def _rank_kinds(
    accepts: tuple[frozenset[int], ...],
) -> tuple[dict[int, list[int]], list[tuple[frozenset[int], list[int]]]]:
    """The ranks of the accept table sorted for :func:`_targets_of`: natural ranks by the one
    build rank they stand for, and the ranks that may stand for several (wild cards) by the
    set of build ranks they may stand for."""
    natural_by_need: dict[int, list[int]] = {}
    wilds: dict[frozenset[int], list[int]] = {}
    for rank, accepted in enumerate(accepts):
        if len(accepted) == 1:
            natural_by_need.setdefault(next(iter(accepted)), []).append(rank)
        elif accepted:
            wilds.setdefault(accepted, []).append(rank)
    return natural_by_need, list(wilds.items())


def _plays(cache: EngineCache, made: dict[PlayKey, tuple[Play, ...]], key: PlayKey,
           zone: Zone) -> tuple[Play, ...]:
    """The plays of ``key`` (owner, pile index, card, target piles) from ``zone``, made and
    kept in ``made``, the table of that zone.

    Raises:
        ForeignCard: the card, or the pile it lies on, is none the configuration has (a
            state of another configuration): checked here, where a key is met for the first
            time, so that a play of the engine's tables is always one of the configuration.
    """
    owner, index, card, onto = key
    known = cache.configuration
    if known is not None and (card not in known[0] or index >= (
            known[1] if zone is Zone.PAYOFF else known[2] if zone is Zone.DISCARD else 1)):
        raise ForeignCard(card)
    if len(made) > _PLAYS_MOST:  # cards of many loaded states: start afresh
        made.clear()
    plays = made[key] = tuple(Play(zone, card, number, index, owner) for number in onto)
    return plays


def _discards_of(rule: DiscardRule, deck: frozenset[Card], card: Card) -> tuple[Discard, ...]:
    """Discards of ``card`` alone onto each discard pile; none if its rank is forbidden.

    Raises:
        ForeignCard: ``deck`` does not hold ``card``: every hand card is looked up here, and
            a card met for the first time comes here, so a hand card of another deck is
            refused at no cost to the usual path.
    """
    if card not in deck:
        raise ForeignCard(card)
    if card.rank in rule.forbidden:
        return ()
    return tuple(Discard((card,), pile) for pile in range(rule.piles))


_PLAYS_MOST = 50_000  # entries of one play table before it is emptied (bounds memory)
_SHAPES_MOST = 4096  # shapes of build piles kept before they are all dropped (bounds memory)


def _pairs(hand: Pile, forbidden: frozenset[int]) -> list[tuple[Card, Card]]:
    """Distinct pairs of equal-rank hand cards, in both orders when the cards differ (the
    second card ends on top, so the order is the seat's choice).  The hand is sorted, so equal
    ranks adjoin; cards are interned, so a dict of pairs tells them apart, hashing in C."""
    pairs: dict[tuple[Card, Card], None] = {}
    last = len(hand) - 1
    for i in range(last):
        first = hand[i]
        rank = first.rank
        if hand[i + 1].rank != rank or rank in forbidden:
            continue  # most cards have no equal neighbour: no pair starts here
        for j in range(i + 1, last + 1):
            second = hand[j]
            if second.rank != rank:
                break
            pairs[first, second] = None  # a pair met again keeps its first place
            pairs[second, first] = None
    return list(pairs)


def _filtered(rules: RuleBook, state: GameState, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """The moves every filter allows (what
    :func:`~spitemalice.engine.check.refusing_filters` lets through), without finding out which
    filter refused what."""
    kept = moves
    ruleset = rules.ruleset
    for hook in rules.filter_moves_hooks:
        answer = hook(ruleset, state, moves)
        if answer is None:
            continue
        allowed = answer.allowed
        if _picked_in_order(allowed, kept):
            kept = allowed  # the usual answer: listed objects, in listing order
            continue
        # Told by identity where the filter picked listed objects (listed moves are distinct
        # values, and hashing moves is a Python call), by value where it made copies.
        ids = set(map(id, allowed))
        if ids <= set(map(id, moves)):
            kept = tuple(compress(kept, map(ids.__contains__, map(id, kept))))
        else:
            equal = set(allowed)
            kept = tuple(move for move in kept if move in equal)
    return kept


def _picked_in_order(allowed: tuple[Move, ...], kept: tuple[Move, ...]) -> bool:
    """Whether ``allowed`` is made of objects of ``kept``, each once, in ``kept``'s order; then
    they are exactly the moves of ``kept`` it allows.  One pass, by identity."""
    rest = iter(kept)
    for move in allowed:
        for other in rest:
            if other is move:
                break
        else:
            return False
    return True


def foreign(rules: RuleBook, state: GameState, function: str) -> Exception:
    """The error for ``function`` given ``state``, whose seat count or piles differ from the
    configuration of ``rules`` or whose reading failed: the
    :class:`~spitemalice.errors.PositionError` of
    :func:`~spitemalice.engine.configuration.foreign_state`, raised ``from None``; when it
    finds nothing (a bug, not a foreign state) the exception being handled, if any, is
    re-raised as it was.  Call it inside the ``except`` that caught the failed read."""
    error = foreign_state(rules, state, function)
    if error is not None:
        # marked here too: compiled by mypyc, ``raise ... from None`` may leave the mark
        # unset when the handler is the caller's (as model._alone says)
        error.__suppress_context__ = True
        return error
    caught = sys.exc_info()[1]
    if isinstance(caught, Exception):
        return caught
    return SpiteMaliceError(f"{function}: the state does not fit {rules.name}")


def not_a_state(given: object, functions: str) -> Exception:
    """The error for an engine function given something other than a state; for a seat's
    view (a ``SeatView``) it names what takes one (:func:`~spitemalice.guards.not_a_position`).
    """
    hint = ("list a view's moves with spitemalice.view_legal_moves(rules, view)"
            if functions == "legal_moves" else
            "a view hides cards, so only the whole state can check or make a move; list "
            "a view's legal moves with spitemalice.view_legal_moves(rules, view)")
    return not_a_position(given, functions, "GameState", hint)
