"""Checking that a position is one the rule set allows.

Positions that come from outside the engine (position notation, JSON, a view sent by a
server) are checked here before anything is built from them, so a position that breaks the
rule set is refused whole with a message naming the pile and what would be valid.  The checks
are those a rule set fixes by itself; they do not ask whether the position can be reached
by play from a deal.

* the seat count is the rule set's, each seat has the rule set's number of pay-off and
  discard piles, and no hand holds more than the hand size;
* no more build piles are open than the limit allows; each holds 1 to ``ceiling - 1`` cards
  and its card at position ``i`` (0-based) may stand for rank ``i + 1`` (the RuleBook's
  ``accepts`` table, so wild cards are checked too);
* no discard pile holds a card of a rank that may not be discarded;
* no card appears more often than the deck holds it (a position may leave cards out, as a
  scenario test does; it may never invent one);
* the seat on turn exists, the counters are whole numbers >= 0, and an outcome names a kind,
  a winner exactly for a win, and one score per seat;
* a full position then passes every invariant of :mod:`spitemalice.invariants` (the checks
  ``validate`` runs after every move): a winner holds no pay-off card, the scores are those the
  rule set's scoring gives for the position, a live game has fewer idle turns in a row than
  seats and has not reached the turn limit.  Card conservation is asked only of a position
  that holds the whole deck; one that leaves cards out is checked for everything else.  A
  view is checked for what it shows: its winner's pay-off piles and its counters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from spitemalice.cards import Card, card_text
from spitemalice.errors import SpiteMaliceError
from spitemalice.invariants import STATE_CHECKS, card_conservation, live_counter_problems
from spitemalice.model import OUTCOME_KINDS, GameState, Outcome, Pile
from spitemalice.rulebook import RuleBook
from spitemalice.views import SeatView


class PositionError(SpiteMaliceError):
    """A position the rule set cannot hold; the message names the pile and what is valid."""


def check_position(rules: RuleBook, state: GameState) -> None:
    """Return if ``state`` is a position ``rules`` allows (see the module docstring).

    Raises:
        PositionError: the first problem found, naming the seat, pile or field.
    """
    check_layout(rules, len(state.seats),
                 [(len(s.payoff), len(s.hand), s.discards) for s in state.seats])
    check_builds(rules, state.builds)
    check_card_counts(rules, state.all_cards())
    check_counters(rules, state.seat, state.turn, state.turn_moves, state.idle_turns)
    for name, value in (("seed", state.seed), ("shuffles", state.shuffles)):
        _whole(name, value)
    check_outcome(rules, state.outcome)
    whole_deck = len(state.all_cards()) == rules.deck.size
    for check in STATE_CHECKS:
        if check is card_conservation and not whole_deck:
            continue  # a scenario may leave cards out; check_card_counts refused extra ones
        problems = check(rules, state)
        if problems:
            raise PositionError(f"an impossible position: {problems[0]}")


def check_view(rules: RuleBook, view: SeatView) -> None:
    """Return if ``view`` is a seat's view of a position ``rules`` allows: the checks of
    :func:`check_position` on the visible cards, with face-down cards counted toward the
    deck's size.

    Raises:
        PositionError: the first problem found, naming the seat, pile or field.
    """
    if not isinstance(view.viewer, int) or not 0 <= view.viewer < rules.players:
        raise PositionError(f"the view is from seat {view.viewer!r}; seats are 0 to "
                            f"{rules.players - 1}")
    check_layout(rules, len(view.seats), [
        (len(p.payoff), len(view.hand) if i == view.viewer else p.hand_count, p.discards)
        for i, p in enumerate(view.seats)
    ])
    for index, public in enumerate(view.seats):
        _whole(f"seat {index} hand count", public.hand_count)
        for number, pile in enumerate(public.payoff, 1):
            _whole(f"seat {index} pay-off pile {number} count", pile.count)
    if view.own.hand_count != len(view.hand):
        raise PositionError(f"seat {view.viewer} holds {len(view.hand)} card(s) but its "
                            f"hand count says {view.own.hand_count}")
    check_builds(rules, view.builds)
    _whole("draw pile count", view.draw_count)
    _whole("completed cards count", view.completed_count)
    visible: list[Card] = [*view.hand, *(card for pile in view.builds for card in pile)]
    hidden = view.draw_count + view.completed_count
    for index, public in enumerate(view.seats):
        visible += [card for pile in public.discards for card in pile]
        visible += [pile.top for pile in public.payoff if pile.top is not None]
        hidden += sum(max(pile.count - 1, 0) for pile in public.payoff)
        if index != view.viewer:
            hidden += public.hand_count
    check_card_counts(rules, visible, hidden)
    check_counters(rules, view.seat, view.turn, view.turn_moves, view.idle_turns)
    check_outcome(rules, view.outcome)
    _check_view_progress(rules, view)


def _check_view_progress(rules: RuleBook, view: SeatView) -> None:
    """What a view shows of the invariants: a winner's pay-off piles are empty, and a live
    game's counters are below the bounds that would have ended it."""
    outcome = view.outcome
    if outcome is None:
        problems = live_counter_problems(rules, len(view.seats), view.turn, view.turn_moves,
                                         view.idle_turns)
        if problems:
            raise PositionError(f"an impossible position: {problems[0]}")
    elif outcome.winner is not None and any(
            pile.count for pile in view.seats[outcome.winner].payoff):
        raise PositionError(f"an impossible position: seat {outcome.winner} won but still has "
                            "pay-off cards")


def check_layout(rules: RuleBook, seats: int,
                 piles: Iterable[tuple[int, int, tuple[Pile, ...]]]) -> None:
    """Seat count, and per seat (pay-off pile count, hand size, discard piles).

    Raises:
        PositionError: a wrong seat or pile count, a hand over the hand size, or a discard
            pile holding a rank that may not be discarded.
    """
    if seats != rules.players:
        raise PositionError(
            f"the position has {seats} seat(s); {rules.name} is loaded for {rules.players} "
            f"(load it with players={seats} to read this position)"
        )
    forbidden = rules.discard.forbidden
    for index, (payoff_piles, hand, discards) in enumerate(piles):
        if payoff_piles != rules.deal.payoff_piles:
            raise PositionError(f"seat {index} has {payoff_piles} pay-off pile(s); "
                                f"{rules.name} deals {rules.deal.payoff_piles}")
        if hand > rules.deal.hand_size:
            raise PositionError(f"seat {index} hand holds {hand} cards; the hand size is "
                                f"{rules.deal.hand_size}")
        if len(discards) != rules.discard.piles:
            raise PositionError(f"seat {index} has {len(discards)} discard pile(s); "
                                f"{rules.name} has {rules.discard.piles}")
        for number, pile in enumerate(discards, 1):
            for card in pile:
                if card.rank in forbidden:
                    raise PositionError(f"seat {index} discard pile {number} holds "
                                        f"{card_text(card)}; that rank may not be discarded")


def check_builds(rules: RuleBook, builds: tuple[Pile, ...]) -> None:
    """Build piles: within the pile limit, each 1 to ``ceiling - 1`` cards, in sequence.

    Raises:
        PositionError: naming the build pile (1-based) and the card out of sequence.
    """
    limit, ceiling = rules.build_limit, rules.ceiling.ceiling
    if limit and len(builds) > limit:
        raise PositionError(f"{len(builds)} build piles are open; {rules.name} allows {limit}")
    accepts = rules.accepts
    for number, pile in enumerate(builds, 1):
        if not 0 < len(pile) < ceiling:
            raise PositionError(
                f"build pile {number} holds {len(pile)} cards; an open build pile holds 1 to "
                f"{ceiling - 1} (a pile that reaches the build ceiling leaves the table)"
            )
        for rank, card in enumerate(pile, 1):
            accepted = accepts[card.rank] if 0 <= card.rank < len(accepts) else frozenset()
            if rank not in accepted:
                raise PositionError(
                    f"build pile {number} card {rank} is {card_text(card)}, which cannot stand "
                    f"for rank {rank}: a build pile rises from 1 by one rank at a time"
                )


def check_card_counts(rules: RuleBook, cards: Iterable[Card], hidden: int = 0) -> None:
    """No card more often than the deck holds it; ``hidden`` face-down cards of unknown
    identity count toward the deck's size.

    Raises:
        PositionError: naming the card, how many the position holds and the deck holds.
    """
    deck = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    have = Counter(cards)
    for card, count in sorted(have.items(), key=lambda item: (item[0].rank, item[0].suit)):
        if count > deck[card]:
            raise PositionError(f"the position holds {count} x {card_text(card)}; the "
                                f"{rules.name} deck holds {deck[card]}")
    total = sum(have.values()) + hidden
    if total > rules.deck.size:
        raise PositionError(f"the position holds {total} cards; the {rules.name} deck holds "
                            f"{rules.deck.size}")


def check_counters(rules: RuleBook, seat: int, turn: int, turn_moves: int,
                   idle_turns: int) -> None:
    """The seat on turn exists and the turn counters are whole numbers >= 0.

    Raises:
        PositionError: naming the counter.
    """
    _whole("seat on turn", seat)
    if seat >= rules.players:
        raise PositionError(f"seat {seat} is on turn; seats are 0 to {rules.players - 1}")
    for name, value in (("turn", turn), ("turn moves", turn_moves), ("idle turns", idle_turns)):
        _whole(name, value)


def check_outcome(rules: RuleBook, outcome: Outcome | None) -> None:
    """An outcome of a known kind, a winner seat exactly for a win, one score per seat.

    Raises:
        PositionError: naming what is wrong with the outcome.
    """
    if outcome is None:
        return
    if outcome.kind not in OUTCOME_KINDS:
        raise PositionError(f"outcome {outcome.kind!r} is not one of {', '.join(OUTCOME_KINDS)}")
    if outcome.kind == "win":
        if outcome.winner is None or not 0 <= outcome.winner < rules.players:
            raise PositionError(f"a win names the winning seat, 0 to {rules.players - 1}, "
                                f"not {outcome.winner}")
    elif outcome.winner is not None:
        raise PositionError(f"a {outcome.kind} game has no winner, not seat {outcome.winner}")
    if len(outcome.scores) != rules.players:
        raise PositionError(f"the outcome gives {len(outcome.scores)} score(s); "
                            f"{rules.players} seats need one each")


def _whole(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{name} is a whole number >= 0, not {value!r}")
