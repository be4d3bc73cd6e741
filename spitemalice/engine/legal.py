"""Which moves the seat on turn may make, and why any other move is refused.

:func:`legal_moves` lists every legal move; :func:`check_move` accepts exactly those moves and
refuses every other one with an :class:`~spitemalice.errors.IllegalMove` that names the reason
code and the rule-sheet clause.  The property tests hold the two to agreeing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import chain, compress
from typing import Any

from spitemalice.cards import Card
from spitemalice.errors import IllegalMove
from spitemalice.model import GameState, Pile, Seat, top_ranks
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook
from spitemalice.rules.policies import DiscardRule, MoveFilter

from .refusal import refuse

PASS = Pass()
_NOTHING: frozenset[int] = frozenset()


def legal_moves(rules: RuleBook, state: GameState) -> tuple[Move, ...]:
    """Every legal move of the seat on turn, or ``()`` once the game has ended.

    Plays come first (pay-off tops, discard-pile tops, then hand cards, each onto every build
    pile that accepts it and onto a new pile where the limit allows), then discards.  When no
    play or discard is legal the only move is :class:`Pass` (design notes §5).  Forced-play
    rules (``spitemalice_filter_moves``) narrow the list.
    """
    if state.outcome is not None:
        return ()
    cached = rules.last_legal
    if cached is not None and cached[0] is state:
        return cached[1]
    moves = base_moves(rules, state)
    if rules.filter_calls and moves:
        moves = _filtered(rules, state, moves)
    moves = moves or (PASS,)
    # The usual loop asks for the legal moves and then applies one of them to the same state
    # object: remembering the last answer lets apply_move accept that move without
    # recomputing.  Keyed on identity, so it can never confuse two different states.
    rules.last_legal = (state, moves)
    return moves


def base_moves(rules: RuleBook, state: GameState) -> tuple[Move, ...]:
    """The plays and discards the rules allow before forced-play filters; no pass."""
    seat = state.seats[state.seat]
    builds = state.builds
    removed = state.build_removed
    # Which piles each rank may go on depends only on the ranks the build piles stand at:
    # worked out once per shape (_targets_of) and remembered for the last builds object,
    # which successive states share until a card is played on a build pile.
    last = rules.last_view
    if last is not None and last[0] is builds and last[1] is removed:
        onto_of = last[2]
    else:
        onto_of = _targets_of(rules, builds, removed)
    # Moves are frozen values, so each card's plays from one place onto one set of piles are
    # made once per rule book and reused, keyed by (zone code, pile index, card, targets):
    # cards are interned, so the key hashes in C.  Most cards fit no pile and cost one lookup.
    made = rules.move_cache
    moves: list[Move] = []
    # Listing order: plays from pay-off tops, discard-pile tops, partners' tops, hand cards;
    # then discards.
    for index, pile in enumerate(seat.payoff):
        if pile:
            card = pile[-1]
            onto = onto_of.get(card.rank)
            if onto:
                key = (1, index, card, onto)
                moves += made.get(key) or _plays(rules, key)
    for index, pile in enumerate(seat.discards):
        if pile:
            card = pile[-1]
            onto = onto_of.get(card.rank)
            if onto:
                key = (2, index, card, onto)
                moves += made.get(key) or _plays(rules, key)
    access = rules.teams.access
    partners = access.play_from[state.seat]
    for owner in partners:  # partners' pile tops, where teams share them
        theirs = state.seats[owner]
        for code, piles in ((1, theirs.payoff), (2, theirs.discards)):
            for index, pile in enumerate(piles):
                if pile:
                    card = pile[-1]
                    onto = onto_of.get(card.rank)
                    if onto:
                        owned = (code, index, card, onto, owner)
                        moves += made.get(owned) or _plays(rules, owned)
    hand = seat.hand
    # Equal cards are one object, so dict.fromkeys lists each once, in hand order.
    distinct = dict.fromkeys(hand) if len(hand) > 1 else hand
    for card in distinct:
        onto = onto_of.get(card.rank)
        if onto:
            key = (0, 0, card, onto)
            moves += made.get(key) or _plays(rules, key)
    singles = made.get(_SINGLES)
    if singles is None:
        # (given the discard rule, not the rule book: a cycle would outlive the rule book)
        singles = made[_SINGLES] = _Table(partial(_discards_of, rules.discard))
    moves.extend(chain.from_iterable(map(singles.__getitem__, distinct)))
    if rules.discard.max_cards >= 2:
        for pair in _pairs(hand, rules.discard.forbidden):
            onto_piles = made.get(pair)  # keyed by the pair of (interned) cards
            if onto_piles is None:
                onto_piles = made[pair] = tuple(Discard(pair, pile)
                                                for pile in range(rules.discard.piles))
            moves.extend(onto_piles)
    onto_partners = access.discard_to[state.seat]
    if onto_partners:  # partners' discard piles, where teams share them
        own = [move for move in moves if isinstance(move, Discard)]
        for owner in onto_partners:
            for move in own:
                entry = made.get((id(move), owner))  # the entry keeps `move` alive: ids unique
                if entry is None:
                    entry = made[(id(move), owner)] = (move, Discard(move.cards, move.pile,
                                                                     owner))
                moves.append(entry[1])
    return tuple(moves)


class _Table(dict[Any, Any]):
    """A dict that fills itself: ``table[key]`` is ``make(key)``, made on first use."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


def _targets_of(rules: RuleBook, builds: tuple[Pile, ...],
                removed: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """``{rank: build piles a card of that rank may go on}`` for open build piles ``builds``
    with ``removed`` cards recycled from under their tops (:attr:`GameState.build_removed`);
    ranks that fit nowhere are left out.  The piles come in order, then :data:`NEW_PILE`
    where a new pile may open.  Kept per rule book for the most recent shapes."""
    made = rules.move_cache
    views = made.get(_VIEW)
    if views is None:
        views = made[_VIEW] = {}
        made[_RANKS] = _rank_kinds(rules.accepts)
        made[_TARGETS] = {}
    tops = top_ranks(builds, removed)  # the rank each pile stands at
    onto_of = views.get(tops)
    if onto_of is None:
        if len(views) >= _VIEWS_MOST:  # many shapes met: start afresh (bounds memory)
            views.clear()
        natural_by_need, wilds = made[_RANKS]
        can_open = not rules.build_limit or len(tops) < rules.build_limit
        on_need: dict[int, list[int]] = {}  # build rank needed -> piles needing it, in order
        for number, top in enumerate(tops):
            on_need.setdefault(top + 1, []).append(number)
        if can_open:
            on_need.setdefault(1, []).append(NEW_PILE)  # a new pile needs an ace, after the rest
        onto_of = {}
        one = made[_TARGETS]  # one tuple per value, shared by the shapes (memory)
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
        views[tops] = onto_of
    rules.last_view = (builds, removed, onto_of)
    return onto_of


def _rank_kinds(
    accepts: list[frozenset[int]],
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


def _plays(rules: RuleBook, key: tuple[Any, ...]) -> tuple[Play, ...]:
    """The plays of ``key``: (zone code, pile index, card, target piles), and the owner of
    the pile when it is a partner's (team rules); made and kept."""
    code, index, card, onto = key[:4]
    owner = key[4] if len(key) > 4 else None
    made = rules.move_cache
    if len(made) > _CACHE_MOST:  # cards of many loaded states: start afresh
        made.clear()
    plays = made[key] = tuple(Play(_ZONES[code], card, number, index, owner) for number in onto)
    return plays


_ZONES = (Zone.HAND, Zone.PAYOFF, Zone.DISCARD)


def _discards_of(rule: DiscardRule, card: Card) -> tuple[Discard, ...]:
    """Discards of ``card`` alone onto each discard pile; none if its rank is forbidden."""
    if card.rank in rule.forbidden:
        return ()
    return tuple(Discard((card,), pile) for pile in range(rule.piles))


_CACHE_MOST = 50_000  # entries of RuleBook.move_cache before it is emptied (bounds memory)
_SINGLES = "single discards"  # move_cache key of the table card -> its discards
_VIEW = "build views"  # move_cache key of the dict: ranks the piles stand at -> targets
_VIEWS_MOST = 4096  # shapes of build piles kept before they are all dropped (bounds memory)
_RANKS = "rank kinds"  # move_cache key of _rank_kinds' answer
_TARGETS = "targets"  # move_cache key of the dict that keeps one tuple of target piles per value


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
    """The moves every filter allows (what :func:`_refusing_filters` lets through), without
    finding out which filter refused what."""
    kept = moves
    ruleset = rules.ruleset
    for hook in rules.filter_calls:  # rules.filters, called by position
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


def _refusing_filters(
    rules: RuleBook, state: GameState, moves: tuple[Move, ...]
) -> dict[Move, MoveFilter]:
    """For each of ``moves`` that some forced-play filter refuses, the first filter in hook
    order that refuses it (its reason is the one cited); a move must pass every filter."""
    refused_by: dict[Move, MoveFilter] = {}
    for hook in rules.filters:
        answer = hook(ruleset=rules.ruleset, state=state, moves=moves)
        if answer is None:
            continue
        allowed = set(answer.allowed)
        for move in moves:
            if move not in allowed:
                refused_by.setdefault(move, answer)
    return refused_by


def check_move(rules: RuleBook, state: GameState, move: Move, seat: int | None = None) -> None:
    """Return if ``move`` is legal for the seat on turn; otherwise raise.

    Args:
        seat: the seat that claims to move; ``None`` means the seat on turn.

    Raises:
        IllegalMove: with the reason code (see :data:`~spitemalice.engine.refusal.REASONS`)
            and the clause of the rule sheet that forbids the move.
    """
    cached = rules.last_legal
    if seat is None and cached is not None and cached[0] is state:
        for listed in cached[1]:  # the very object listed: made by the engine, shape and all
            if listed is move:
                return
    why = rules.clause_for
    # Types first, always: Play(..., pile=False) equals Play(..., pile=0), so a cache lookup
    # before this check would accept on a warm cache what a cold one refuses.
    if not isinstance(move, Pass):
        _check_shape(move)
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise TypeError(f"seat is a seat number (int), not {seat!r}")
    if seat is None and cached is not None and cached[0] is state and move in cached[1]:
        return  # a parsed or rebuilt copy of a listed move
    if state.outcome is not None:
        raise refuse("game-over", move, why)
    if seat is not None and seat != state.seat:
        raise refuse("not-on-turn", move, why,
                     f"seat {seat} moved, but seat {state.seat} is on turn")
    if isinstance(move, Pass):
        if legal_moves(rules, state) != (PASS,):
            example = legal_moves(rules, state)[0]
            raise refuse("pass-not-allowed", move, why, "a seat may pass only when it has no "
                         f"other legal move; {example} is legal")
        return
    if isinstance(move, Play):
        _check_play(rules, state, move)
    else:
        _check_discard(rules, state.seat, state.seats[state.seat], move)
    if rules.filters:
        _check_filters(rules, state, move)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(move: object) -> None:
    """Refuse a move built with values of the wrong types (a programming error, so a
    ``TypeError``), before any rule reads them."""
    if isinstance(move, Play):
        ok = (isinstance(move.zone, Zone) and isinstance(move.card, Card)
              and _is_int(move.pile) and _is_int(move.index)
              and (move.owner is None or _is_int(move.owner)))
        shape = "Play(zone: Zone, card: Card, pile: int, index: int, owner: int | None)"
    elif isinstance(move, Discard):
        ok = (all(isinstance(card, Card) for card in move.cards) and _is_int(move.pile)
              and (move.owner is None or _is_int(move.owner)))
        shape = "Discard(cards: tuple[Card, ...], pile: int, owner: int | None)"
    else:
        raise TypeError(f"a move is a Play, Discard or Pass, not {type(move).__name__}")
    if not ok:
        raise TypeError(f"{move!r} does not have the shape {shape}")


def _check_filters(rules: RuleBook, state: GameState, move: Move) -> None:
    answer = _refusing_filters(rules, state, base_moves(rules, state)).get(move)
    if answer is not None:
        raise refuse(answer.reason, move, rules.clause_for, answer.message)


def _check_play(rules: RuleBook, state: GameState, move: Play) -> None:
    why = rules.clause_for
    mover = state.seats[_play_source(rules, state, move)]
    if move.zone is Zone.HAND:
        if move.index != 0:
            raise refuse("no-such-pile", move, why,
                         "a hand card comes from no numbered pile: its index is 0")
        if move.card not in mover.hand:
            hand = " ".join(map(str, mover.hand)) or "nothing"
            raise refuse("not-in-hand", move, why, f"{move.card} is not in the hand ({hand})")
    else:
        piles = mover.payoff if move.zone is Zone.PAYOFF else mover.discards
        _check_top(piles, move, why)
    if move.pile == NEW_PILE:
        if rules.build_limit and len(state.builds) >= rules.build_limit:
            raise refuse("build-pile-limit", move, why,
                         f"{rules.build_limit} build piles are open, the most allowed")
        need = 1
    elif 0 <= move.pile < len(state.builds):
        need = state.build_tops[move.pile] + 1
    else:
        raise refuse("no-such-pile", move, why, f"there is no build pile {move.pile + 1}")
    _check_rank(rules, move, need)


def _play_source(rules: RuleBook, state: GameState, move: Play) -> int:
    """The seat whose pile ``move`` plays from: the mover, or a partner whose pay-off and
    discard piles the rules let the mover play from (:attr:`RuleBook.teams`)."""
    if move.owner is None:
        return state.seat
    why = rules.clause_for
    if move.owner == state.seat:
        raise refuse("seat-prefix", move, why)
    allowed = rules.teams.access.play_from[state.seat]
    if move.owner not in allowed or move.zone is Zone.HAND:
        also = "".join(f" and seat {seat}'s" for seat in allowed)
        hand = "; no seat plays from another's hand" if move.zone is Zone.HAND else ""
        raise refuse("not-own-pile", move, why, f"seat {state.seat} may play only from its "
                     f"own pay-off and discard piles{also}, not from seat {move.owner}'s{hand}")
    return move.owner


def _check_top(piles: tuple[Pile, ...], move: Play, why: dict[str, str]) -> None:
    if not 0 <= move.index < len(piles):
        kind = "pay-off" if move.zone is Zone.PAYOFF else "discard"
        have = f"only {kind} pile 1" if len(piles) == 1 else f"{kind} piles 1 to {len(piles)}"
        raise refuse("no-such-pile", move, why,
                     f"there is no {kind} pile {move.index + 1}; there are {have}")
    pile = piles[move.index]
    where = "payoff" if move.zone is Zone.PAYOFF else "discard"
    if not pile:
        raise refuse("empty-pile", move, why, f"{where} pile {move.index + 1} is empty",
                     where=where)
    if pile[-1] != move.card:
        # Below its top a pay-off pile is face down, even to its owner: whether the card is
        # buried there must not change the answer, or a seat could map its pile for free.
        # Discard piles are face up, so there the answer may say which it is.
        reason = "buried-card" if where == "payoff" or move.card in pile else "not-on-pile"
        raise refuse(reason, move, why, f"{_REASON_TEXT[where, reason]}; its top card is "
                     f"{pile[-1]}", where=where)


_REASON_TEXT = {
    ("payoff", "buried-card"): "only the top card of a pay-off pile may be played",
    ("discard", "buried-card"): "only the top card of a pile may be played",
    ("discard", "not-on-pile"): "that card is not on that pile",
}


def _check_rank(rules: RuleBook, move: Play, need: int) -> None:
    card = move.card
    accepted = rules.accepts[card.rank] if card.rank < len(rules.accepts) else _NOTHING
    if need in accepted:
        return
    why = rules.clause_for
    if not rules.wild.is_wild(card):
        raise refuse("wrong-rank", move, why, f"the pile needs rank {need}, not {card}")
    if need == 1:
        raise refuse("wild-cannot-start", move, why)
    raise refuse("wild-excluded", move, why, f"a wild card may not stand for rank {need} here")


def _check_discard(rules: RuleBook, state_seat: int, mover: Seat, move: Discard) -> None:
    why = rules.clause_for
    cards = move.cards
    if not 1 <= len(cards) <= rules.discard.max_cards:
        raise refuse("discard-count", move, why, f"a discard here holds 1 to "
                     f"{rules.discard.max_cards} card(s), not {len(cards)}")
    if len(cards) == 2 and cards[0].rank != cards[1].rank:
        raise refuse("pair-unequal", move, why)
    hand = list(mover.hand)
    for card in cards:
        if card not in hand:
            raise refuse("not-in-hand", move, why, f"{card} is not in the hand")
        hand.remove(card)
    if cards[0].rank in rules.discard.forbidden:
        raise refuse("forbidden-discard", move, why, f"a {cards[0]} may not be discarded")
    if not 0 <= move.pile < rules.discard.piles:
        raise refuse("no-such-pile", move, why,
                     f"discard piles are numbered 1 to {rules.discard.piles}")
    if move.owner is not None:
        _check_discard_owner(rules, state_seat, move)


def _check_discard_owner(rules: RuleBook, seat: int, move: Discard) -> None:
    """A discard onto another seat's discard pile is legal only onto a partner's, where the
    rules share discard piles (:attr:`RuleBook.teams`)."""
    why = rules.clause_for
    if move.owner == seat:
        raise refuse("seat-prefix", move, why)
    allowed = rules.teams.access.discard_to[seat]
    if move.owner not in allowed:
        also = "".join(f" and seat {other}'s" for other in allowed)
        raise refuse("not-own-discard-pile", move, why, f"seat {seat} discards only onto its "
                     f"own discard piles{also}, not onto seat {move.owner}'s")


def is_legal(rules: RuleBook, state: GameState, move: Move) -> bool:
    """``True`` when :func:`check_move` accepts ``move``."""
    try:
        check_move(rules, state, move)
    except IllegalMove:
        return False
    return True
