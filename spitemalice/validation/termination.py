"""Games end: a per-game move cap that turns a game that never ends into a reported fault, and
a forced blocked position that must end the game as "blocked" within one round."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from spitemalice.cards import Card
from spitemalice.engine.apply import apply_move
from spitemalice.engine.copiers import with_fields
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import PASS, legal_moves
from spitemalice.model import GameState, Seat
from spitemalice.rules.book import RuleBook

from .report import Check, skip

MOVES_PER_CARD = 25
"""A game with more moves than this many per card of the deck has stopped making progress:
validate reports it as non-termination.  The longest clean built-in games use under 3 moves
per card, and every rule set also has its own ``turn_limit``."""


GAME_CPU_SECONDS = 20.0
"""CPU seconds one validated game (or one replay of it) may take: a rule that loops inside a
single move never reaches the move cap, so a timer stops it.  Clean games take well under a
tenth of a second."""


class NonTermination(Exception):
    """Raised inside a game that ran out of :data:`GAME_CPU_SECONDS`."""


@contextlib.contextmanager
def cpu_limit(seconds: float | None = None) -> Iterator[None]:
    """Raise :class:`NonTermination` in the block once it has used ``seconds`` of CPU time
    (default :data:`GAME_CPU_SECONDS`).

    Uses the profiling interval timer (``SIGPROF``), so it works only in the main thread of
    a process on systems that have it; elsewhere the block runs unlimited.
    """
    limit = GAME_CPU_SECONDS if seconds is None else seconds
    main = threading.current_thread() is threading.main_thread()
    if not (main and hasattr(signal, "setitimer")):
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise NonTermination(f"it used more than {limit:g} s of CPU time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def move_cap(rules: RuleBook) -> int:
    """The most moves a validated game may take before it counts as not terminating."""
    cards = len(rules.deck.cards) + len(rules.deck.payoff_cards or ())
    return MOVES_PER_CARD * max(cards, 1)


def blocked_position(rules: RuleBook, seed: int = 0) -> GameState | str:
    """A position in which no seat can move, or why the rules admit none.

    Every open build pile (as many as the limit allows) waits for a rank that no card in play
    can stand for; every hand is full of a rank that may not be discarded and cannot open a
    pile; every pay-off pile shows such a card.  The draw pile keeps its cards, so the game
    cannot end as a drawn hand: it must end "blocked" (design notes §5).
    """
    forbidden = sorted(rules.discard.forbidden)
    if not forbidden:
        return "every rank may be discarded, so a seat with cards can always move"
    if not rules.build_limit:
        return "build piles are unlimited, so a pile can always be opened"
    stuck = _stuck_card(rules, forbidden)
    if stuck is None:
        return "every rank that may not be discarded can be played on some build pile"
    card, builds = stuck
    state = deal(rules, seed)
    hand = (card,) * rules.deal.hand_size
    seats = tuple(Seat(tuple((card,) for _ in seat.payoff), hand,
                       tuple(() for _ in seat.discards)) for seat in state.seats)
    return with_fields(state, seats=seats, builds=builds)


def _stuck_card(rules: RuleBook, forbidden: list[int]) -> tuple[Card, tuple] | None:
    """A card of a forbidden rank and full-limit build piles none of which it fits."""
    cards = {c.rank: c for c in (*rules.deck.cards, *(rules.deck.payoff_cards or ()))}
    for rank in forbidden:
        card = cards.get(rank)
        if card is None:
            continue
        accepted = rules.accepts[rank] if rank < len(rules.accepts) else frozenset()
        for height in range(1, rules.ceiling.ceiling - 1):
            if height + 1 in accepted:
                continue
            base = [_fits(cards, rules, r) for r in range(1, height + 1)]
            if None not in base:
                pile = tuple(base)
                return card, (pile,) * rules.build_limit
    return None


def _fits(cards: dict[int, Card], rules: RuleBook, need: int) -> Card | None:
    for rank, card in cards.items():
        if rank < len(rules.accepts) and need in rules.accepts[rank]:
            return card
    return None


def check_blocked_position(rules: RuleBook) -> Check:
    """In a position where no seat can move, each seat may only pass and the game ends
    "blocked" within one round.
    """
    name = "a blocked position ends the game"
    state = blocked_position(rules)
    if isinstance(state, str):
        return skip(name, state)
    try:
        with cpu_limit():
            for _ in range(len(state.seats)):
                if state.outcome is not None:
                    break
                moves = legal_moves(rules, state)
                if moves != (PASS,):
                    return Check(name, False, "", f"seat {state.seat} may still play {moves[0]}")
                state = apply_move(rules, state, PASS)
    except NonTermination as error:
        return Check(name, False, "", f"the passes did not end: {error}")
    except Exception as error:  # a plugin's bug: a finding, not a crash of the validator
        return Check(name, False, "", f"{type(error).__name__}: {error}")
    if state.outcome is None or state.outcome.kind != "blocked":
        got = "no outcome" if state.outcome is None else f"outcome {state.outcome.kind}"
        return Check(name, False, f"{len(state.seats)} passes",
                     f"{got} after every seat passed once; a blocked game must end 'blocked'")
    return Check(name, True, f"ended 'blocked' after {len(state.seats)} passes")
