"""The words of :func:`~spitemalice.engine.check.check_move`'s refusals that say where a card
may go instead (``no-such-pile`` for a build pile that is not there, ``discard-count``,
``not-in-hand`` for a discard), and of a table's refusal of a discard from a pile
(:func:`parsed_move`, for :meth:`~spitemalice.play.session.Session.play`): they name only
moves legal in the state, so that a person never retries a move the rules refuse too.  A step
behind the check's and the table's doors, not API.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from spitemalice.cards import Card
from spitemalice.errors import IllegalMove, NotationError
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone, parse_move
from spitemalice.rules.reasons import REASONS
from spitemalice.wording import count_of

from .legal import legal_moves

if TYPE_CHECKING:
    from spitemalice.model import GameState
    from spitemalice.rules.book import RuleBook

__all__ = ["discard_count", "no_build_pile", "not_held", "parsed_move"]


def no_build_pile(rules: RuleBook, state: GameState, move: Play) -> str:
    """Why ``move``, a play onto a build pile, is refused when there is no such pile: which
    piles are open (none yet, or which), and where the same card from the same place may go
    now (onto an open pile, or opening a new one), only as legal moves; else that it may go
    nowhere now."""
    pile, open_now, limit = move.pile + 1, len(state.builds), rules.build_limit
    there = ("no build pile is open yet" if not open_now else "only build pile 1 is open"
             if open_now == 1 else f"build piles 1 to {open_now} are open")
    full = bool(limit) and open_now >= limit
    said = f"there is no build pile {pile}{' yet' if not open_now else ''}: {there}" + (
        ", the most allowed" if full else "")
    same = [other for other in legal_moves(rules, state) if isinstance(other, Play)
            and (other.zone, other.index, other.owner, other.card)
            == (move.zone, move.index, move.owner, move.card)]
    onto = [str(other) for other in same if other.pile != NEW_PILE]
    opens = [str(other) for other in same if other.pile == NEW_PILE]
    ways = ([f"goes on as {_either(onto)}"] if onto else []) + (
        [f"opens a new one as {opens[0]}"] if opens else [])
    if ways:
        return f"{said}; {move.card} {' or '.join(ways)}"
    if not open_now:
        return f"{said}; {move.card} cannot open one now"
    return f"{said}; {move.card} goes on none of them now" + (
        "" if full else ", and cannot open a new one")


def discard_count(rules: RuleBook, move: Discard, state: GameState | None,
                  check: Callable[[GameState, Discard], object]) -> str:
    """A discard of more cards than one may hold (``KH+KH>D1`` where a discard is one card),
    in words; given the ``state`` it is made in, with the legal discards of the most of its
    cards that one may hold onto the same pile (``discard KH>D1``) or, where none is legal,
    why the discard of its first card alone is refused too (``check(state, move)`` raises
    the :class:`~spitemalice.errors.IllegalMove` of a move refused)."""
    most = rules.discard.max_cards
    said = ("a discard here is one hand card" if most == 1 else
            f"a discard here is 1 to {count_of(most, 'hand card')}") + f", not {len(move.cards)}"
    return said if state is None or not move.cards else said + _fewer(rules, state, move, check)


def _fewer(rules: RuleBook, state: GameState, move: Discard,
           check: Callable[[GameState, Discard], object]) -> str:
    """:func:`discard_count`'s legal discards of fewer cards, or why there are none."""
    named = Counter(move.cards)
    order = {card: place for place, card in reversed(list(enumerate(move.cards)))}
    fits: dict[tuple[Card, ...], Discard] = {}
    for other in legal_moves(rules, state):
        if (isinstance(other, Discard) and (other.pile, other.owner) == (move.pile, move.owner)
                and not Counter(other.cards) - named):
            cards = tuple(sorted(other.cards, key=order.__getitem__))  # in the move's order
            fits.setdefault(cards, Discard(cards, other.pile, other.owner))
    most = max(map(len, fits), default=0)
    if most:
        return f"; discard {_either([str(fit) for fit in fits.values() if len(fit.cards) == most])}"
    alone = Discard(move.cards[:1], move.pile, move.owner)
    try:
        check(state, alone)
    except IllegalMove as error:
        return f"; {alone} is not legal either: {REASONS.get(error.reason, error.reason)}"
    return ""  # not reached: a legal discard is listed above


def _either(texts: Sequence[str]) -> str:
    """``"a"``, ``"a or b"``, ``"a, b or c"``."""
    return texts[-1] if len(texts) < 2 else f"{', '.join(texts[:-1])} or {texts[-1]}"


def not_held(card: object, held_once: bool) -> str:
    """A discard naming ``card`` the hand lacks, in words; ``held_once``: the pair names it
    twice."""
    if not held_once:
        return f"{card} is not in the hand"
    return (f"the pair names {card} twice, but the hand holds only one {card}: a pair is "
            "two hand cards of equal rank, such as 9H+9S")


def parsed_move(rules: RuleBook, state: GameState, seat: int, text: str) -> Move:
    """``text`` parsed as a move (:func:`~spitemalice.moves.parse_move`) for ``seat`` at a
    table (:meth:`~spitemalice.play.session.Session.play`); a form no rule of
    ``rules`` allows (a discard from a pile, ``D1:9C>D2``) is refused naming the moves of
    that pile's card and onto that discard pile that are legal in ``state`` for ``seat``
    (when it is on turn), and citing the clause of the sheet that states the rule (the
    clause of discards: they come from the hand).

    Raises:
        NotationError: ``text`` is not a move, or a discard from a pile (with the clause).
    """
    try:
        return parse_move(text)
    except NotationError as error:
        if error.reason != "discard-from-pile":
            raise
        clause = rules.clause_for.get("discard-count", "")
        cited = f" (rule {clause}: {rules.clause(clause).text})" if clause else ""
        raise NotationError(f"{error}{_legal_instead(rules, state, seat, text)}{cited}",
                            error.reason) from None


def _legal_instead(rules: RuleBook, state: GameState, seat: int, text: str) -> str:
    """For a discard from a pile (``D1:9C>D2``): the legal moves now of the card that pile
    shows and onto that discard pile (``; legal now: D1:9C>B1 from discard pile 1; 5H>D2
    onto discard pile 2``), or that there are none; ``""`` when ``seat`` is not on turn."""
    if state.outcome is not None or state.seat != seat:
        return ""
    source, _, target = text.partition(">")
    try:
        taken = parse_move(f"{source.partition(':')[0]}:AS>B+")
        onto = parse_move(f"AS>{target}")
    except NotationError:
        return ""
    if not isinstance(taken, Play) or not isinstance(onto, Discard):
        return ""
    legal = legal_moves(rules, state)
    plays = [str(move) for move in legal if isinstance(move, Play)
             and (move.zone, move.index, move.owner) == (taken.zone, taken.index, taken.owner)]
    discards: dict[tuple[str, ...], str] = {}
    for move in legal:
        if isinstance(move, Discard) and (move.pile, move.owner) == (onto.pile, onto.owner):
            discards.setdefault(tuple(sorted(map(str, move.cards))), str(move))  # a pair once
    kind = "pay-off" if taken.zone is Zone.PAYOFF else "discard"
    where = f"{_whose(taken.owner)}{kind} pile {taken.index + 1}"
    there = f"{_whose(onto.owner)}discard pile {onto.pile + 1}"
    from_pile = f"{_either(plays)} from {where}" if plays else f"nothing from {where}"
    to_pile = (f"{_either(list(discards.values()))} onto {there}" if discards
               else f"no discard onto {there}")
    return f"; legal now: {from_pile}; {to_pile}"


def _whose(owner: int | None) -> str:
    return "" if owner is None else f"seat {owner}'s "
