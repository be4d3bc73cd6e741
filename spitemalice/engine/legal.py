"""Which moves the seat on turn may make, and why any other move is refused.

:func:`legal_moves` lists every legal move; :func:`check_move` accepts exactly those moves and
refuses every other one with an :class:`~spitemalice.errors.IllegalMove` that names the reason
code and the rule-sheet clause.  The property tests hold the two to agreeing.
"""

from __future__ import annotations

from itertools import compress

from spitemalice.cards import Card
from spitemalice.errors import IllegalMove
from spitemalice.model import GameState, Pile, Seat
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.policies import MoveFilter
from spitemalice.rulebook import RuleBook

from .reasons import refuse

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
    if rules.filters and moves:
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
    # Moves are frozen values, so each one is made once per rule book and reused: a game
    # meets the same few hundred cards, piles and sources again and again.
    made = rules.move_cache
    need_of = made.get(_NEED_OF)
    if need_of is None:
        need_of = made[_NEED_OF] = _natural_needs(rules.accepts)
    on_need: dict[int, list[int]] = {}  # build rank needed -> piles needing it, in order
    tops = state.build_tops  # the rank each pile stands at (cards under it may be recycled)
    for number, top in enumerate(tops):
        on_need.setdefault(top + 1, []).append(number)
    can_open = not rules.build_limit or len(builds) < rules.build_limit
    if can_open:
        on_need.setdefault(1, []).append(NEW_PILE)  # a new pile needs an ace, after the rest
    top_rank = len(need_of)
    moves: list[Move] = []
    # Listing order: plays from pay-off tops, discard-pile tops, hand cards; then discards.
    # Most cards fit no pile: the test below settles them without a call.
    for index, pile in enumerate(seat.payoff):
        if pile:
            rank = pile[-1].rank
            need = need_of[rank] if rank < top_rank else 0
            if need in on_need or not need:
                _plays(rules, made, tops, on_need, moves, Zone.PAYOFF, 1, pile[-1], index)
    for index, pile in enumerate(seat.discards):
        if pile:
            rank = pile[-1].rank
            need = need_of[rank] if rank < top_rank else 0
            if need in on_need or not need:
                _plays(rules, made, tops, on_need, moves, Zone.DISCARD, 2, pile[-1], index)
    access = rules.teams.access
    partners = access.play_from[state.seat]
    for owner in partners:  # partners' pile tops, where teams share them
        theirs = state.seats[owner]
        for index, pile in enumerate(theirs.payoff):
            if pile:
                rank = pile[-1].rank
                need = need_of[rank] if rank < top_rank else 0
                if need in on_need or not need:
                    _plays(rules, made, tops, on_need, moves, Zone.PAYOFF, 1, pile[-1], index,
                           owner)
        for index, pile in enumerate(theirs.discards):
            if pile:
                rank = pile[-1].rank
                need = need_of[rank] if rank < top_rank else 0
                if need in on_need or not need:
                    _plays(rules, made, tops, on_need, moves, Zone.DISCARD, 2, pile[-1],
                           index, owner)
    hand = seat.hand
    discards: list[Move] = []
    get = made.get
    previous = None
    for card in hand:
        rank = card.rank
        # The hand is sorted, so equal cards adjoin; each is listed once.  Compared by fields:
        # Card's own __eq__ and __hash__ are Python calls, the hot loop's largest cost.
        if previous is not None and rank == previous.rank and card.suit == previous.suit:
            continue
        previous = card
        need = need_of[rank] if rank < top_rank else 0
        if need in on_need or not need:
            _plays(rules, made, tops, on_need, moves, Zone.HAND, 0, card, 0)
        # Keyed on the card object (its id; the entry keeps the card alive, so no other object
        # can have that id while the entry stands): a game's cards are the same objects all
        # game long.
        entry = get(id(card))
        if entry is None:
            if len(made) > _CACHE_MOST:  # cards of many loaded states: start afresh
                made.clear()
            entry = made[id(card)] = (card, _discards_of(rules, card))
        discards.extend(entry[1])
    moves.extend(discards)
    if rules.discard.max_cards >= 2:
        for key, cards in _pairs(hand, rules.discard.forbidden):
            onto = get(key)  # keyed by the cards' values: ((rank, suit), (rank, suit))
            if onto is None:
                onto = made[key] = tuple(Discard(cards, pile)
                                         for pile in range(rules.discard.piles))
            moves.extend(onto)
    onto_partners = access.discard_to[state.seat]
    if onto_partners:  # partners' discard piles, where teams share them
        own = [move for move in moves if isinstance(move, Discard)]
        for owner in onto_partners:
            for move in own:
                entry = get((id(move), owner))  # the entry keeps `move` alive: ids stay unique
                if entry is None:
                    entry = made[(id(move), owner)] = (move, Discard(move.cards, move.pile,
                                                                     owner))
                moves.append(entry[1])
    return tuple(moves)


def _plays(rules: RuleBook, made: dict[object, object], tops: tuple[int, ...],
           on_need: dict[int, list[int]], moves: list[Move], zone: Zone, code: int, card: Card,
           index: int, owner: int | None = None) -> None:
    """Add the plays of ``card`` (from ``zone``, pile ``index`` of seat ``owner``'s piles,
    ``None`` for the mover's own) to ``moves``: onto every build pile that takes it
    (``tops``: the rank each pile stands at), then onto a new pile.  ``code`` stands for the
    zone in cache keys (enums hash slowly)."""
    rank = card.rank
    accepted = rules.accepts[rank] if rank < len(rules.accepts) else _NOTHING
    if len(accepted) == 1:
        targets = on_need.get(next(iter(accepted)), _NO_PILES)
    else:  # a wild card (or a card no pile takes: nothing)
        targets = [number for number, top in enumerate(tops) if top + 1 in accepted]
        if 1 in accepted and NEW_PILE in on_need.get(1, _NO_PILES):
            targets.append(NEW_PILE)
    for number in targets:
        key = (code, card, number, index) if owner is None else (code, card, number, index,
                                                                  owner)
        move = made.get(key)
        if move is None:
            move = made[key] = Play(zone, card, number, index, owner)
        moves.append(move)  # type: ignore[arg-type]


def _discards_of(rules: RuleBook, card: Card) -> tuple[Discard, ...]:
    """Discards of ``card`` alone onto each discard pile; none if its rank is forbidden."""
    if card.rank in rules.discard.forbidden:
        return ()
    return tuple(Discard((card,), pile) for pile in range(rules.discard.piles))


_CACHE_MOST = 50_000  # entries of RuleBook.move_cache before it is emptied (bounds memory)
_NEED_OF = "natural needs"  # move_cache key of the table below
_NO_PILES: list[int] = []


def _natural_needs(accepts: list[frozenset[int]]) -> list[int]:
    """``table[rank]``: the one build rank a card of ``rank`` may stand for, or 0 when it may
    stand for several (a wild card) or none."""
    return [next(iter(ranks)) if len(ranks) == 1 else 0 for ranks in accepts]


def _pairs(
    hand: Pile, forbidden: frozenset[int]
) -> list[tuple[tuple[tuple[int, str], tuple[int, str]], tuple[Card, Card]]]:
    """Distinct pairs of equal-rank hand cards, in both orders when the cards differ (the
    second card ends on top, so the order is the seat's choice), each with its key of card
    values.  The hand is sorted, so equal ranks adjoin.  Told apart by (rank, suit) keys,
    hashed in C, rather than by the cards' own Python-level hashes."""
    pairs: dict[tuple[tuple[int, str], tuple[int, str]], tuple[Card, Card]] = {}
    last = len(hand) - 1
    for i in range(last):
        first = hand[i]
        rank = first.rank
        if hand[i + 1].rank != rank or rank in forbidden:
            continue  # most cards have no equal neighbour: no pair starts here
        one = (rank, first.suit)
        for j in range(i + 1, last + 1):
            second = hand[j]
            if second.rank != rank:
                break
            other = (rank, second.suit)
            pairs.setdefault((one, other), (first, second))
            pairs.setdefault((other, one), (second, first))
    return list(pairs.items())


def _filtered(rules: RuleBook, state: GameState, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """The moves every filter allows (what :func:`_refusing_filters` lets through), without
    finding out which filter refused what."""
    kept = moves
    ruleset = rules.ruleset
    for hook in rules.filters:
        answer = hook(ruleset=ruleset, state=state, moves=moves)
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
        IllegalMove: with the reason code (see :data:`~spitemalice.engine.reasons.REASONS`)
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
