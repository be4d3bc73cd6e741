"""Whether a move is legal, and the refusal that says why not.

:func:`check_move` accepts exactly the moves :func:`~spitemalice.engine.legal.legal_moves`
lists and refuses every other one with an :class:`~spitemalice.errors.IllegalMove` that names
the reason code and the rule-sheet clause (:func:`~spitemalice.engine.refusal.refuse`).  The
codes themselves are published in :mod:`spitemalice.rules.reasons` (re-exported here as
:data:`REASONS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from spitemalice.cards import Card
from spitemalice.errors import IllegalMove
from spitemalice.guards import check_int, not_a_move
from spitemalice.model import AnyState, GameState, Pile, Seat, require_state
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.policies import MoveFilter
from spitemalice.rules.reasons import REASONS
from spitemalice.wording import a_or_an, count_of, shown

from .configuration import check_configuration, configuration_of, foreign_state
from .hands import missing_card, place_of
from .legal import PASS, base_moves, foreign, legal_moves, not_a_state
from .refusal import refuse
from .refusal_words import discard_count, no_build_pile, not_held
from .simultaneous import check_simultaneous, game_of

__all__ = ["REASONS", "check_move", "decisions", "is_legal", "rank_reason"]

_NOTHING: frozenset[int] = frozenset()
_CHECK_MOVE = "check_move (and so is_legal and apply_move)"


def check_move(rules: RuleBook, state: AnyState, move: Move, seat: object = None) -> None:
    """Return if ``move`` is legal for the seat on turn; otherwise raise.

    Args:
        seat: the seat that claims to move (an ``int``); ``None`` means the seat on turn.

    Raises:
        IllegalMove: with the reason code (see :data:`REASONS`)
            and the clause of the rule sheet that forbids the move; a ``seat`` that is not
            on turn (one that is no seat, ``-1`` or ``10**90``, too) is refused so, naming
            the seats.
        TypeError: ``state`` is not a :class:`GameState` (a seat's view, say: the message
            says what takes one), a move of the wrong type (move text, say: the message
            names :func:`spitemalice.parse_move`), a seat that is not an ``int``
            (a bool, a float, text: the message says so, in either build), or ``rules`` not
            a :class:`~spitemalice.rules.book.RuleBook` (a rule set's name, say: the
            message names :func:`spitemalice.load`).
        PositionError: ``state`` is a state of another configuration: another seat count,
            or a card the deck does not hold moved, or a read of its piles failed (the
            message says what differs).  A move listed for this very state object was
            listed by :func:`~spitemalice.engine.legal.legal_moves`, which refused such a
            state.
    """
    try:
        cached = rules.engine_cache.last_legal
    except AttributeError:  # checked only here: a call with a rule book pays nothing for it
        check_book(rules, "check_move")
        raise
    if seat is None and cached is not None and cached[0] is state:
        for listed in cached[1]:  # the very object listed: made by the engine, shape and all
            if listed is move:
                return
    if type(state) is not GameState:
        game = game_of(rules, state)
        if game is None:
            raise not_a_state(state, _CHECK_MOVE)
        return check_simultaneous(game, rules, state, move, seat)  # type: ignore[arg-type]
    # Types first, always: Play(..., pile=False) equals Play(..., pile=0), so a cache lookup
    # before this check would accept on a warm cache what a cold one refuses.
    if not isinstance(move, Pass):
        _check_shape(move, "check_move")
    if seat is None:
        if cached is not None and cached[0] is state and move in cached[1]:
            return  # a parsed or rebuilt copy of a listed move
        _check_fitting(rules, state, move, None, None, _CHECK_MOVE)
    else:
        _check_fitting(rules, state, move, _seat_number(seat), None, _CHECK_MOVE)


def _check_fitting(rules: RuleBook, state: GameState, move: Move, seat: int | None,
                   trace: list[str] | None, function: str) -> None:
    """:func:`_check` of a state whose seat count is compared and whose moved cards the deck
    holds (else the state is diagnosed: a state of another configuration is refused by
    ``function``'s name), a failed read diagnosed likewise."""
    if len(state.seats) != rules.ruleset.players:  # fewer seats would play on silently
        raise foreign(rules, state, function)
    deck = (rules.engine_cache.configuration or configuration_of(rules))[0]
    if isinstance(move, Play):
        stranger = move.card not in deck
    else:
        stranger = isinstance(move, Discard) and not deck.issuperset(move.cards)
    if stranger:  # no such card here: a state of another deck?
        error = foreign_state(rules, state, function)
        if error is not None:
            raise error
    try:
        _check(rules, state, move, seat, trace, rules.clause_for)
    except (IndexError, KeyError):
        raise foreign(rules, state, function) from None


def _seat_number(seat: object) -> int:
    """``seat`` when it is an ``int`` (not a bool); whether it is a seat on turn is the
    check's question (``not-on-turn``).  ``seat`` is typed ``object`` in the public functions
    so that the compiled build (setup.py) does not refuse it first with its own error.

    Raises:
        TypeError: any other type, naming the parameter and the type it takes.
    """
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    raise TypeError(f"seat is a seat number (int), not {shown(seat)}")


def decisions(rules: RuleBook, state: AnyState, move: Move,
              seat: object = None) -> tuple[str, ...]:
    """The reason keys of the decisions :func:`check_move` makes in accepting ``move``: for
    each check the move passed, the key it would have been refused with (``"wrong-rank"``,
    ``"empty-pile@discard"``, a forced-play filter's code when that filter refused some moves
    of the move's kind, a play or a discard, and allowed this one).
    Rule coverage (:mod:`spitemalice.engine.coverage`) counts the clauses naming these keys
    exercised by a played move.  The checks run afresh, never from the legal-move cache.

    Args:
        seat: the seat that claims to move (an ``int``); ``None`` means the seat on turn.

    Raises:
        IllegalMove: ``move`` is not legal (as :func:`check_move` raises it; a ``seat`` not
            on turn is refused so, naming the seats).
        TypeError: ``move`` is not a move of the right shape (move text, say: the message
            names :func:`spitemalice.parse_move`), ``seat`` is not an ``int`` (a
            bool, a float, text; as :func:`check_move` refuses it), ``state`` not a
            :class:`GameState` or ``rules`` not a :class:`~spitemalice.rules.book.RuleBook`.
        PositionError: ``state`` is a state of another configuration (as
            :func:`check_move` finds it).
    """
    check_book(rules, "decisions")
    state = require_state(state, "decisions",
                          "a view hides cards, so only the whole state can check a move")
    if not isinstance(move, Pass):
        _check_shape(move, "decisions")
    claimed = None if seat is None else _seat_number(seat)
    trace: list[str] = []
    _check_fitting(rules, state, move, claimed, trace, "decisions")
    return tuple(trace)


def _check(rules: RuleBook, state: GameState, move: Move, seat: int | None,
           trace: list[str] | None, why: Mapping[str, str]) -> None:
    """:func:`check_move` past its cache, the move's shape checked; ``trace`` (when not
    ``None``) collects the keys of the checks passed (:func:`decisions`); ``why`` is the
    book's ``clause_for``."""
    if state.outcome is not None:
        raise refuse("game-over", move, why)
    if seat is not None and seat != state.seat:
        raise refuse("not-on-turn", move, why,
                     f"seat {shown(seat)} moved, but seat {state.seat} is on turn (seats "
                     f"are 0 to {len(state.seats) - 1})")
    if trace is not None:
        trace += ("game-over",) if seat is None else ("game-over", "not-on-turn")
    if isinstance(move, Pass):
        if legal_moves(rules, state) != (PASS,):
            example = legal_moves(rules, state)[0]
            raise refuse("pass-not-allowed", move, why, "a seat may pass only when it has no "
                         f"other legal move; {example} is legal")
        if trace is not None:
            trace.append("pass-not-allowed")
        return
    if isinstance(move, Play):
        _check_play(rules, state, move, trace)
    else:
        _check_discard(rules, state.seat, state.seats[state.seat], move, trace, state)
    if rules.filter_moves_hooks:
        _check_filters(rules, state, move, trace)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(move: object, function: str) -> None:
    """Refuse a move built with values of the wrong types (a programming error, so a
    ``TypeError``), before any rule reads them; anything not a move at all (move text, say)
    is refused naming ``function`` (:func:`~spitemalice.guards.not_a_move`)."""
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
        raise not_a_move(move, function)
    if not ok:
        raise TypeError(f"{move!r} does not have the shape {shape}")


def _check_filters(rules: RuleBook, state: GameState, move: Move,
                   trace: list[str] | None = None) -> None:
    offered = base_moves(rules, state)
    answer = _refusing_filters(rules, state, offered).get(move)
    if answer is not None:
        raise refuse(answer.reason, move, rules.clause_for, answer.message)
    if trace is not None:  # a filter decided it when it refused moves of its kind (play, discard)
        for found in filter_answers(rules, state, offered):
            allowed = set(found.allowed)
            if any(type(other) is type(move) for other in offered if other not in allowed):
                trace.append(found.reason)


def _check_play(rules: RuleBook, state: GameState, move: Play,
                trace: list[str] | None = None) -> None:
    why = rules.clause_for
    mover = state.seats[_play_source(rules, state, move)]
    if move.zone is Zone.HAND:
        if move.index != 0:
            raise refuse("no-such-pile", move, why,
                         "a hand card comes from no numbered pile: its index is 0")
        if place_of(mover.hand, move.card) < 0:
            hand = " ".join(map(str, mover.hand)) or "nothing"
            raise refuse("not-in-hand", move, why, f"{move.card} is not in the hand ({hand})")
    else:
        piles = mover.payoff if move.zone is Zone.PAYOFF else mover.discards
        _check_top(piles, move, why)
    if move.pile == NEW_PILE:
        if rules.build_limit and len(state.builds) >= rules.build_limit:
            raise refuse("build-pile-limit", move, why,
                         f"{_open(rules.build_limit)}, the most allowed")
        need = 1
    elif 0 <= move.pile < len(state.builds):
        need = state.build_tops[move.pile] + 1
    else:
        raise refuse("no-such-pile", move, why, no_build_pile(rules, state, move))
    _check_rank(rules, move, need)
    if trace is not None:
        trace += _play_keys(rules, move, need)


def _open(limit: int) -> str:
    """``"4 build piles are open"``; the verb agrees too, for a limit of one pile."""
    return f"{count_of(limit, 'build pile')} {'is' if limit == 1 else 'are'} open"


def _play_keys(rules: RuleBook, move: Play, need: int) -> list[str]:
    """The keys of the checks :func:`_check_play` (with :func:`_play_source` and :func:`_check_top`)
    passed in accepting ``move`` onto a pile needing rank ``need``, in its order."""
    keys = [] if move.owner is None else ["seat-prefix", "not-own-pile"]
    if move.zone is Zone.HAND:
        keys += ["no-such-pile", "not-in-hand"]
    elif move.zone is Zone.PAYOFF:
        keys += ["no-such-pile", "empty-pile@payoff", "buried-card@payoff"]
    else:
        keys += ["no-such-pile", "empty-pile@discard", "buried-card@discard",
                 "not-on-pile@discard"]
    keys.append("build-pile-limit" if move.pile == NEW_PILE else "no-such-pile")
    keys.append(_rank_reason(rules, move.card, need))
    return keys


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


def _check_top(piles: tuple[Pile, ...], move: Play, why: Mapping[str, str]) -> None:
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


def rank_reason(rules: RuleBook, card: Card, need: object) -> str:
    """The reason code that decides whether ``card`` may go on a build pile needing rank
    ``need`` (``1`` for a new pile): ``"wrong-rank"`` for a natural card; for a wild card
    ``"wild-cannot-start"`` on a new pile, else ``"wild-excluded"``.

    Args:
        need: a whole number from 1 to the rule set's build ceiling (``12`` for a queen).

    Raises:
        SpiteMaliceError: ``need`` is not a whole number from 1 to the build ceiling (a
            bool, a float, text...); the message names the bound.
    """
    check_book(rules, "rank_reason")
    return _rank_reason(rules, card, check_int(
        need, "need (the rank a build pile needs; 1 for a new pile)", 1, rules.ceiling.ceiling))


def _rank_reason(rules: RuleBook, card: Card, need: int) -> str:
    """:func:`rank_reason` unchecked, for the ``need`` of a pile on the table."""
    if not rules.wild.is_wild(card):
        return "wrong-rank"
    return "wild-cannot-start" if need == 1 else "wild-excluded"


def _check_rank(rules: RuleBook, move: Play, need: int) -> None:
    card = move.card
    if need in (rules.accepts[card.rank] if card.rank < len(rules.accepts) else _NOTHING):
        return
    reason = _rank_reason(rules, card, need)
    named = a_or_an(rules.deck.rank_name(need))  # A, Q for a standard pack; 1, 12 Skip-Bo's
    message = {"wrong-rank": f"the pile needs {named}, not {card}",
               "wild-excluded": f"a wild card may not stand for {named} here"}
    raise refuse(reason, move, rules.clause_for, message.get(reason, ""))


def _check_discard(rules: RuleBook, state_seat: int, mover: Seat, move: Discard,
                   trace: list[str] | None = None, state: GameState | None = None) -> None:
    why = rules.clause_for
    cards = move.cards
    if not 1 <= len(cards) <= rules.discard.max_cards:
        raise refuse("discard-count", move, why, discard_count(
            rules, move, state, lambda at, alone: _check(rules, at, alone, None, None, why)))
    if len(cards) == 2 and cards[0].rank != cards[1].rank:
        raise refuse("pair-unequal", move, why)
    missing = missing_card(mover.hand, cards)
    if missing is not None:
        raise refuse("not-in-hand", move, why, not_held(missing, missing in mover.hand))
    if cards[0].rank in rules.discard.forbidden:
        raise refuse("forbidden-discard", move, why,
                     f"{a_or_an(str(cards[0]))} may not be discarded")
    if not 0 <= move.pile < rules.discard.piles:
        raise refuse("no-such-pile", move, why,
                     f"discard piles are numbered 1 to {rules.discard.piles}")
    if move.owner is not None:
        _check_discard_owner(rules, state_seat, move)
    if trace is not None:
        trace += ("discard-count", *(("pair-unequal",) if len(cards) == 2 else ()),
                  "not-in-hand", "forbidden-discard", "no-such-pile",
                  *(() if move.owner is None else ("seat-prefix", "not-own-discard-pile")))


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


def is_legal(rules: RuleBook, state: AnyState, move: Move) -> bool:
    """``True`` when :func:`check_move` accepts ``move``.

    Raises:
        TypeError: as :func:`check_move` raises it (``rules`` not a
            :class:`~spitemalice.rules.book.RuleBook`, ``state`` not a :class:`GameState`, a
            move of the wrong shape); move text is refused naming ``is_legal`` and
            :func:`spitemalice.parse_move`.
        PositionError: ``state`` is a state of another configuration (as
            :func:`check_move` refuses it).
    """
    try:
        check_move(rules, state, move)
    except IllegalMove:
        return False
    except TypeError:  # the message names is_legal, not check_move, for a wrong rule book
        check_book(rules, "is_legal")
        if type(state) is GameState and not isinstance(move, Play | Discard | Pass):
            raise not_a_move(move, "is_legal") from None
        raise
    return True


def _refusing_filters(
    rules: RuleBook, state: GameState, moves: tuple[Move, ...]
) -> dict[Move, MoveFilter]:
    """For each of ``moves`` that some forced-play filter refuses, the first filter in hook
    order that refuses it (its reason is the one cited); a move must pass every filter."""
    refused_by: dict[Move, MoveFilter] = {}
    ruleset = rules.ruleset
    for hook in rules.filter_moves_hooks:
        answer = hook(ruleset, state, moves)
        if answer is None:
            continue
        allowed = set(answer.allowed)
        for move in moves:
            if move not in allowed:
                refused_by.setdefault(move, answer)
    return refused_by


def filter_answers(rules: RuleBook, state: AnyState,
                   moves: Sequence[Move]) -> list[MoveFilter]:
    """The answers of the forced-play filters that narrow ``moves`` (the moves the other
    rules allow in ``state``, a tuple or any other sequence: the filters are given a tuple),
    in hook order.

    Raises:
        TypeError: ``state`` is not a :class:`GameState`, or ``rules`` not a
            :class:`~spitemalice.rules.book.RuleBook` (the message names ``filter_answers``).
        PositionError: ``state`` is a state of another configuration
            (:func:`~spitemalice.engine.configuration.check_configuration`).
    """
    try:
        ruleset = rules.ruleset
    except AttributeError:
        check_book(rules, "filter_answers")
        raise
    state = require_state(state, "filter_answers")
    check_configuration(rules, state, "filter_answers")
    # Typed Sequence, not tuple: the compiled build (setup.py) would refuse a list first.
    if type(moves) is not tuple:
        moves = tuple(moves)
    answers = (hook(ruleset, state, moves) for hook in rules.filter_moves_hooks)
    return [answer for answer in answers if answer is not None]
