"""What one seat may see: a per-seat view, and the legal moves computed from it alone.

A :class:`SeatView` holds everything a player at that seat sees at the table and nothing
else: its own hand; for every seat the count and the top card of each pay-off pile, the
number of cards in hand and every discard pile (discard piles lie face up); the build piles;
how many cards the draw pile and the completed cards hold; whose turn it is, the turn
counters, and the outcome with its scores once the game has ended.  It never holds the
seed or the shuffle counter (they decide the hidden cards), the order of the draw pile, the
cards under a pay-off top or another seat's hand.

So two states that differ only in cards a seat cannot see give that seat equal views, and a
bot written against the view cannot cheat.  :func:`view_legal_moves` gives exactly the moves the
engine allows the seat on turn, from its view alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from spitemalice.cards import HIDDEN_MARK, HIDDEN_RANK, Card
from spitemalice.engine.configuration import check_configuration
from spitemalice.engine.legal import legal_moves as engine_legal_moves
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, int_field, ints_field, not_a_position
from spitemalice.model import (
    GameState,
    Outcome,
    Pile,
    Seat,
    notation_repr,
    removed_counts,
    require_state,
    sort_hand,
    top_ranks,
)
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.rules.simultaneous import SimultaneousState
from spitemalice.wording import shown


def _piles(piles: Iterable[Iterable[Card]]) -> tuple[Pile, ...]:
    return tuple(tuple(pile) for pile in piles)


def _payoff_views(piles: Iterable[PayoffView]) -> tuple[PayoffView, ...]:
    return tuple(piles)


def _public_seats(seats: Iterable[PublicSeat]) -> tuple[PublicSeat, ...]:
    return tuple(seats)


@attrs.frozen
class PayoffView:
    """One pay-off pile as every seat sees it.

    Attributes:
        count: cards in the pile (the top one included).
        top: the face-up top card, or ``None`` when the pile is empty.
    """

    count: int = attrs.field(validator=int_field())
    top: Card | None

    def __attrs_post_init__(self) -> None:
        if (self.count == 0) != (self.top is None):
            raise SpiteMaliceError(
                f"a pay-off pile of {self.count} card(s) has "
                f"{'no top card' if self.top is None else f'top card {self.top}'}; "
                "an empty pile has no top and a pile with cards shows its top"
            )


@attrs.frozen
class PublicSeat:
    """What every seat sees of one seat.

    Attributes:
        payoff: the seat's pay-off piles: count and top of each.
        hand_count: cards the seat holds in hand.
        discards: the seat's discard piles, each bottom to top (they lie face up).
    """

    payoff: tuple[PayoffView, ...] = attrs.field(converter=_payoff_views)
    hand_count: int = attrs.field(validator=int_field())
    discards: tuple[Pile, ...] = attrs.field(converter=_piles)


@attrs.frozen
class SeatView:
    """Everything seat ``viewer`` may see, and nothing else.

    Attributes:
        viewer: the seat whose view this is (0-based).
        hand: the viewer's own hand, sorted.
        seats: :class:`PublicSeat` for every seat, the viewer's included, in seat order.
        builds: the open build piles, bottom to top (the card at position ``i`` of pile ``n``
            stands for rank ``build_removed[n] + i + 1``).
        draw_count: cards in the draw pile.
        completed_count: completed build-pile cards set aside.
        seat: the seat on turn.
        turn, turn_moves, idle_turns: the state's counters (all public).
        outcome: how the game ended, with the scores, or ``None`` while it is live.
        build_removed: :attr:`GameState.build_removed`: ``()``, or per build pile the cards
            recycled from under its top (public: every seat sees where a pile stands).

    Raises:
        SpiteMaliceError: a number of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits (whether the view is possible is
            :func:`~spitemalice.formats.position_check.check_view`'s question).
    """

    viewer: int = attrs.field(validator=int_field())
    hand: Pile = attrs.field(converter=sort_hand)
    seats: tuple[PublicSeat, ...] = attrs.field(converter=_public_seats)
    builds: tuple[Pile, ...] = attrs.field(converter=_piles)
    draw_count: int = attrs.field(validator=int_field())
    completed_count: int = attrs.field(validator=int_field())
    seat: int = attrs.field(validator=int_field())
    turn: int = attrs.field(default=0, validator=int_field())
    turn_moves: int = attrs.field(default=0, validator=int_field())
    idle_turns: int = attrs.field(default=0, validator=int_field())
    outcome: Outcome | None = None
    build_removed: tuple[int, ...] = attrs.field(default=(), converter=removed_counts,
                                                 validator=ints_field())

    @property
    def build_tops(self) -> tuple[int, ...]:
        """The rank each open build pile's top card stands for, pile 1 first."""
        return top_ranks(self.builds, self.build_removed)

    @property
    def on_turn(self) -> bool:
        """``True`` when the game is live and the viewer is the seat on turn."""
        return self.outcome is None and self.seat == self.viewer

    @property
    def own(self) -> PublicSeat:
        """The viewer's own public seat (pay-off piles and discard piles)."""
        return self.seats[self.viewer]

    def __repr__(self) -> str:
        """``SeatView('<view notation>')``: what the viewer sees, hidden cards as counts
        (``?12``); ``parse_view(text, rules)`` reads it back."""
        return notation_repr(self)


def require_view(view: object, function: str, other: str = "",
               error: Callable[[str], Exception] = TypeError) -> None:
    """Refuse ``view`` unless it is a :class:`SeatView`: the public functions that take a
    seat's view call this at their start, or, on the per-move paths, only once reading the
    view has failed.

    Args:
        function: the public name called, as the message names it.
        other: what to call with a whole state instead (``"format a state with
            spitemalice.format_position(state)"``); the message adds how to take a seat's
            view of a state.
        error: the error class raised (the environments raise ``SpiteMaliceError``).

    Raises:
        TypeError: (or ``error``) ``view`` is not a SeatView; the message names
            ``function``, what was given and what would be right
            (:func:`~spitemalice.guards.not_a_position`).
    """
    if not isinstance(view, SeatView):
        raise not_a_position(view, function, "SeatView", other, error) from None


def view_of(state: GameState, seat: int) -> SeatView:
    """The view of ``state`` from ``seat``.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a view, say:
            it is a seat's view already).
        SpiteMaliceError: ``seat`` is not a seat of the state (0 to seats - 1; for a rule
            set whose seats move at once, a whole number from 0 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS` less one before the rule set's own
            check).
    """
    if type(state) is not GameState:  # one type test: cheap beside the view it makes
        if isinstance(state, SimultaneousState):  # a rule set whose seats move at once
            return state.view(check_int(seat, "a view's seat", 0, MAX_SEATS - 1))
        require_state(state, "view_of", "it is a seat's view already")
    if not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise SpiteMaliceError(f"a view is from a seat 0 to {len(state.seats) - 1}, "
                               f"not {shown(seat)}")
    public = tuple(
        PublicSeat(
            tuple(PayoffView(len(pile), pile[-1] if pile else None) for pile in s.payoff),
            len(s.hand),
            s.discards,
        )
        for s in state.seats
    )
    return SeatView(
        seat, state.seats[seat].hand, public, state.builds, len(state.draw),
        len(state.completed), state.seat, state.turn, state.turn_moves, state.idle_turns,
        state.outcome, state.build_removed,
    )


HIDDEN = Card(HIDDEN_RANK, HIDDEN_MARK)
"""The stand-in for a face-down card in :func:`stand_in_state`; no rule accepts it."""


def stand_in_state(view: SeatView) -> GameState:
    """A state the viewer cannot tell from the real one: every card it cannot see is
    :data:`HIDDEN`, every count is right, and the seed and shuffle counter are 0.

    Use it to ask engine functions about the visible position (never to continue the game:
    its future is not the real one).
    """
    require_view(view, "stand_in_state")
    seats = []
    for index, public in enumerate(view.seats):
        payoff = tuple(
            (HIDDEN,) * (pile.count - 1) + (pile.top,) if pile.top is not None else ()
            for pile in public.payoff
        )
        hand = view.hand if index == view.viewer else (HIDDEN,) * public.hand_count
        seats.append(Seat(payoff, hand, public.discards))
    return GameState(
        tuple(seats), view.builds, (HIDDEN,) * view.draw_count,
        (HIDDEN,) * view.completed_count, view.seat, view.turn, view.turn_moves,
        view.idle_turns, 0, 0, view.outcome, view.build_removed,
    )


def view_legal_moves(rules: RuleBook, view: SeatView) -> tuple[Move, ...]:
    """The viewer's legal moves, equal to the engine's for the real state, or ``()`` when
    the viewer is not on turn or the game has ended.

    Legal moves depend only on what the seat on turn can see (its hand, the pay-off tops, the
    discard piles, the build piles and the public counters), so they are computed on
    :func:`stand_in_state`.  A forced-play plugin that read a face-down card would break this;
    the test suite checks the equality for every installed rule set and house rule.
    """
    check_book(rules, "view_legal_moves")
    require_view(view, "view_legal_moves",
                 "list a whole state's moves with spitemalice.legal_moves(rules, state)")
    if not view.on_turn:
        return ()
    return engine_legal_moves(rules, stand_in_state(view))


class ViewPlayer:
    """A bot that decides from its seat's view alone: the one way to write one.

    Subclass it and define :meth:`choose_from_view` (every built-in bot does), or wrap a bot
    that is a function ``bot(rules, view) -> Move``, which lists its own moves with
    :func:`view_legal_moves`: ``ViewPlayer(bot)``.  Either way it is a
    :class:`~spitemalice.bots.base.Player` too, so it plays in
    :func:`~spitemalice.runs.loop.play_game`, :func:`~spitemalice.study.match.play_match`
    and the environments like any built-in player: :meth:`choose` hands it
    ``view_of(state, state.seat)``, never the state.  A table (the terminal game, the play
    server, ``spitemalice bot --connect``) holds only the seat's view and asks
    :meth:`choose_from_view` directly (:func:`spitemalice.bots.base.move_from_view`).

    Raises:
        TypeError: ``ViewPlayer()`` with no function, from a class that does not define
            :meth:`choose_from_view`.
    """

    bot: Callable[[RuleBook, SeatView], Move] | None = None
    """The wrapped function, or ``None`` in a subclass that defines :meth:`choose_from_view`."""

    def __init__(self, bot: Callable[[RuleBook, SeatView], Move] | None = None) -> None:
        if bot is None and type(self).choose_from_view is ViewPlayer.choose_from_view:
            raise TypeError(f"{type(self).__name__}() needs a bot: wrap a function "
                            "bot(rules, view) -> Move, ViewPlayer(bot), or subclass ViewPlayer "
                            "and define choose_from_view(rules, view, moves)")
        self.bot = bot

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        """The bot's move, chosen from the mover's view of ``state`` alone:
        ``choose_from_view(rules, view_of(state, state.seat), moves)``.

        Raises:
            PositionError: ``state`` is a state of another configuration (another seat
                count, pile counts, a card the deck does not hold), named
                (:func:`~spitemalice.engine.configuration.check_configuration`).
        """
        check_book(rules, "ViewPlayer.choose")
        if type(state) is not GameState:
            require_state(state, "ViewPlayer.choose",
                          "choose from a view with choose_from_view(rules, view, moves)")
        check_configuration(rules, state, "ViewPlayer.choose")
        return self.choose_from_view(rules, view_of(state, state.seat), moves)

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The move for the seat on turn of ``view`` among its legal ``moves``: what a subclass
        defines.  Here, the wrapped function's move (``moves`` is not shown to it: it lists its
        own with :func:`view_legal_moves`).
        """
        check_book(rules, "ViewPlayer.choose_from_view")
        require_view(view, "ViewPlayer.choose_from_view",
                     "choose from a whole state with ViewPlayer.choose(rules, state, moves)")
        assert self.bot is not None, "__init__ refuses a ViewPlayer without one"
        return self.bot(rules, view)
