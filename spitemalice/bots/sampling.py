"""Determinization: full states that agree with everything one seat sees.

A search bot that must decide from its seat's view alone (:func:`spitemalice.engine.views.view_of`)
samples the cards it cannot see: the other hands, the cards under each pay-off top, the draw
pile and the completed cards, dealt at random from the cards the view does not show.  Every
sample agrees with the view (the counts of each hidden pile and every face-up card), so a
search over samples never peeks at the real state (Cowling, Powley and Whitehouse, "Information
Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012, section III: a determinization is a state
of the information set, sampled uniformly).

:class:`Sampler` does the work that depends on the view once (which cards are hidden, where each
goes) so that each further sample costs a shuffle and the building of one state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from spitemalice.bots.inference import check_other_seat
from spitemalice.cards import Card
from spitemalice.engine.copiers import with_fields
from spitemalice.engine.views import SeatView, require_view
from spitemalice.model import GameState, Pile, Seat, new_seat, sort_hand
from spitemalice.rules.book import RuleBook, check_book


def hidden_pool(rules: RuleBook, view: SeatView) -> list[Card]:
    """The cards ``view`` does not show: the deck minus every face-up card and the own hand,
    sorted (so the pool depends on the view alone).

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "hidden_pool")
    require_view(view, "hidden_pool")
    return _hidden_pool(rules, view)


def _hidden_pool(rules: RuleBook, view: SeatView) -> list[Card]:
    """:func:`hidden_pool`, its arguments checked already."""
    pool = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    seen: Counter[Card] = Counter(view.hand)
    for public in view.seats:
        seen.update(p.top for p in public.payoff if p.top is not None)
        for pile in public.discards:
            seen.update(pile)
    for pile in view.builds:
        seen.update(pile)
    pool.subtract(seen)
    return sorted(pool.elements())


class HandConstraint(Protocol):
    """What is known of one other seat's hand beyond its size
    (:class:`spitemalice.bots.inference.LastMoverHands`)."""

    seat: int

    def allows(self, hand: Sequence[Card]) -> bool:
        """``True`` when ``seat`` may hold ``hand``."""
        ...


TRIES = 24
"""Hands dealt to a constrained seat per sample before the last one is kept as it is."""


class Sampler:
    """Samples states of the information set of ``view``, uniformly over the hidden cards.

    Args:
        rules: the rule book (its deck says which cards exist).
        view: the seat's view; every sample ``s`` has ``view_of(s, view.viewer) == view``.
        constraint: a constraint on one other seat's hand, or ``None``.  Its hand is then
            dealt by rejection: uniformly among the hands the constraint allows, the rest of
            the hidden cards uniformly given that hand.  After :data:`TRIES` refused hands the
            last one is kept (a constraint that the real hand breaks, when the seat did not
            play as inferred, must not stall the search).

    Raises:
        SpiteMaliceError: (a ``ValueError``) a constraint on no other seat of ``view``.
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.

    When the pool does not match the hidden counts (a plugin that adds or removes cards in
    play), missing cards are taken from the pool again and surplus cards are left out: a
    sample is then only approximately consistent, never a peek at the real state.
    """

    def __init__(self, rules: RuleBook, view: SeatView,
                 constraint: HandConstraint | None = None) -> None:
        check_book(rules, "Sampler")
        require_view(view, "Sampler")
        if constraint is not None:
            check_other_seat(view, constraint.seat)
        self._take_in(rules, view, constraint)

    @classmethod
    def _trusted(cls, rules: RuleBook, view: SeatView,
                 constraint: HandConstraint | None = None) -> Sampler:
        """A sampler made without the constructor's checks: for the library's own calls
        (:func:`determinize`, the ``ismcts`` bot), whose door checked the arguments already."""
        sampler = cls.__new__(cls)
        sampler._take_in(rules, view, constraint)
        return sampler

    def _take_in(self, rules: RuleBook, view: SeatView,
                 constraint: HandConstraint | None) -> None:
        """Do the work that depends on the view alone (the arguments are checked)."""
        self.view = view
        self.pool = _hidden_pool(rules, view)
        self._base: list[Card] | None = None
        self._layout = _Layout(view, len(self.pool))
        self.constraint = constraint
        self._block = (0, 0)  # where in a quick sample's pool the constrained hand lies
        if constraint is not None:
            start = sum(self._layout.hands[:constraint.seat])
            self._block = (start, start + self._layout.hands[constraint.seat])

    def sample(self, rng: random.Random) -> GameState:
        """One state of the information set; draws shuffles and a seed from ``rng``."""
        constraint = self.constraint
        for _ in range(TRIES):
            pool = self.pool[:]
            rng.shuffle(pool)
            state = self._deal(pool, rng.getrandbits(48))
            if constraint is None or constraint.allows(state.seats[constraint.seat].hand):
                break
        return state

    def quick_sample(self, rng: random.Random) -> GameState:
        """One state of the information set, as :meth:`sample` but cheaper when sampled often.

        The first call shuffles the pool once; each call then reshuffles only the cards a
        search meets first (the other hands, the card under each pay-off top, the top of the
        draw pile: :data:`QUICK_DEPTH` positions) by Fisher-Yates steps over the whole
        pool.  A uniformly random order followed by any independent reordering is uniformly
        random, so each sample alone is exactly as :meth:`sample`'s; samples of one sampler
        share the order of the cards deeper down (the far end of the draw pile, deeper
        pay-off cards), which a short search rarely reaches.  With a constraint, the
        constrained seat's hand is dealt again from the cards not yet placed while it is
        refused (at most :data:`TRIES` deals), as :meth:`sample` does.
        """
        layout = self._layout
        if not layout.fits:
            return self.sample(rng)
        if self._base is None:
            self._base = self.pool[:]
            rng.shuffle(self._base)
        pool = self._base[:]
        size, rand = len(pool), rng.random
        start, stop = self._block
        # Positions before the constrained hand, then its hand (dealt again while refused:
        # each deal is a uniform draw from the cards not yet placed), then the rest.
        for i in range(min(stop, size - 1)):
            j = i + int(rand() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
        constraint = self.constraint
        if constraint is not None:
            tries = 1
            while tries < TRIES and not constraint.allows(pool[start:stop]):
                for i in range(start, min(stop, size - 1)):
                    j = i + int(rand() * (size - i))
                    pool[i], pool[j] = pool[j], pool[i]
                tries += 1
        for i in range(stop, min(layout.quick, size - 1)):
            j = i + int(rand() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
        return layout.state(pool, rng.getrandbits(48))

    def _deal(self, pool: list[Card], seed: int) -> GameState:
        view = self.view
        at = 0
        size = len(pool)

        def take(count: int) -> Pile:
            nonlocal at
            if at + count <= size:
                cards = tuple(pool[at:at + count])
            else:
                cards = tuple(pool[(at + i) % size] for i in range(count)) if pool else ()
            at += count
            return cards

        seats = []
        for index, public in enumerate(view.seats):
            payoff = tuple(take(p.count - 1) + (p.top,) if p.top is not None else ()
                           for p in public.payoff)
            hand = view.hand if index == view.viewer else take(public.hand_count)
            seats.append(Seat(payoff, hand, public.discards))
        draw, completed = take(view.draw_count), take(view.completed_count)
        return GameState(tuple(seats), view.builds, draw, completed, view.seat, view.turn,
                         view.turn_moves, view.idle_turns, seed, 0, None, view.build_removed)


QUICK_DEPTH = 40
"""Cards from the top of the draw pile that :meth:`Sampler.quick_sample` reshuffles."""


class _Layout:
    """Where :meth:`Sampler.quick_sample` puts the shuffled pool: the other hands first, then
    the card under each pay-off top, then the top of the draw pile, then the rest (deeper
    pay-off cards, the bottom of the draw pile, the completed cards)."""

    def __init__(self, view: SeatView, pool: int) -> None:
        self.view = view
        self.template = GameState((), view.builds, (), (), view.seat, view.turn,
                                  view.turn_moves, view.idle_turns, 0, 0, None,
                                  view.build_removed)
        seats = view.seats
        self.hands = [0 if s == view.viewer else p.hand_count for s, p in enumerate(seats)]
        self.unders = [[max(pile.count - 1, 0) for pile in p.payoff] for p in seats]
        firsts = sum(1 for piles in self.unders for under in piles if under)
        hidden = (sum(self.hands) + sum(map(sum, self.unders)) + view.draw_count
                  + view.completed_count)
        self.fits = hidden == pool
        self.quick = sum(self.hands) + firsts + min(view.draw_count, QUICK_DEPTH)

    def state(self, pool: list[Card], seed: int) -> GameState:
        view = self.view
        at = 0
        hands = []
        for count in self.hands:
            hands.append(tuple(pool[at:at + count]))
            at += count
        firsts = []
        for piles in self.unders:
            for under in piles:
                firsts.append(pool[at] if under else None)
                at += 1 if under else 0
        top = min(view.draw_count, QUICK_DEPTH)
        draw_top = tuple(pool[at:at + top])
        at += top
        seats = []
        first = iter(firsts)
        for index, public in enumerate(view.seats):
            payoff: list[Pile] = []
            for pile, under in zip(public.payoff, self.unders[index], strict=True):
                below = next(first)
                if below is None or pile.top is None:
                    payoff.append(() if pile.top is None else (pile.top,))
                    continue
                deeper = tuple(pool[at:at + under - 1])
                at += under - 1
                payoff.append((*deeper, below, pile.top))
            hand = view.hand if index == view.viewer else sort_hand(hands[index])
            seats.append(new_seat(tuple(payoff), hand, public.discards))
        bottom = view.draw_count - top
        draw = tuple(pool[at:at + bottom]) + draw_top
        at += bottom
        completed = tuple(pool[at:at + view.completed_count])
        # Copied from a template without conversions: every value is already a tuple and
        # each hand is sorted.
        return with_fields(self.template, seats=tuple(seats), draw=draw, completed=completed,
                           seed=seed)


def determinize(rules: RuleBook, view: SeatView, rng: random.Random) -> GameState:
    """A full state agreeing with everything ``view`` shows, its hidden cards dealt at random
    from :func:`hidden_pool` (its seed drawn from ``rng`` too): one :meth:`Sampler.sample`.

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "determinize")
    require_view(view, "determinize")
    return _determinize(rules, view, rng)


def _determinize(rules: RuleBook, view: SeatView, rng: random.Random) -> GameState:
    """:func:`determinize`, its arguments checked already (the ``mcts`` bot's search)."""
    return Sampler._trusted(rules, view).sample(rng)
