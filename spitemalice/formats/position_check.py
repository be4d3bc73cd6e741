"""Checking that a position is one the rule set allows.

Positions that come from outside the engine (position notation, JSON, a view sent by a
server) are checked here before anything is built from them, so a position that breaks the
rule set is refused whole with a message naming the pile and what would be valid.  The checks
are those a rule set fixes by itself; they do not ask whether the position can be reached
by play from a deal.

* the seat count is the rule set's, each seat has the rule set's number of pay-off and
  discard piles, and no hand holds more than the hand size;
* no more build piles are open than the limit allows; each stands at rank 1 to
  ``ceiling - 1`` and its card at position ``i`` (0-based) may stand for rank ``i + 1``, or
  ``removed + i + 1`` where ``removed`` cards were recycled from under its top (the
  RuleBook's ``accepts`` table, so wild cards are checked too); recycled counts only where
  the rules recycle them (``recycle_under_tops``);
* no discard pile holds a card of a rank that may not be discarded;
* no card appears more often than the deck holds it (a position may leave cards out, as a
  scenario test does; it may never invent one);
* the seat on turn exists, the counters are whole numbers >= 0, and an outcome names a kind,
  a winner exactly for a win, and one score per seat;
* a full position then passes every invariant of :mod:`spitemalice.engine.invariants` (the checks
  ``validate`` runs after every move): an ended game's kind fits its position (a winner's
  team holds no pay-off card; a drawn game has no card left to draw; a blocked game had an
  idle turn per seat; a turn-limit game reached the limit), the scores are those the rule
  set's scoring gives for the position, a live game has fewer idle turns in a row than
  seats and has not reached the turn limit.  Card conservation is asked only of a position
  that holds the whole deck; one that leaves cards out is checked for everything else.  A
  view is checked for what it shows: its counters, and its outcome against the counts it
  shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from spitemalice.cards import Card, card_text
from spitemalice.engine.configuration import seat_count_problem, seat_layout_problem
from spitemalice.engine.invariants.cards import card_conservation
from spitemalice.engine.invariants.ending import EndFacts, end_problems, live_counter_problems
from spitemalice.engine.invariants.run import STATE_CHECKS
from spitemalice.engine.views import SeatView, require_view
from spitemalice.errors import PositionError, worded
from spitemalice.model import (
    GameState,
    Outcome,
    Pile,
    Seat,
    hand_order,
    require_state,
)
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import a_or_an, count_of, shown


def check_position(rules: RuleBook, state: GameState) -> None:
    """Return if ``state`` is a position ``rules`` allows (see the module docstring).

    Raises:
        PositionError: the first problem found, naming the seat, pile or field (a state built
            in code with values of the wrong types too: :func:`check_shape`).
    """
    check_book(rules, "check_position")
    require_state(state, "check_position",
                  "check a view with spitemalice.formats.position_check.check_view(rules, view)")
    check_shape(state)
    check_layout(rules, len(state.seats),
                 [(len(s.payoff), len(s.hand), s.discards) for s in state.seats])
    check_builds(rules, state.builds, state.build_removed)
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


def check_shape(state: GameState) -> None:
    """Return if every field of ``state`` has its type: seats of :class:`Seat`, piles as
    tuples of :class:`Card`, whole numbers for the counters, ``None`` or an
    :class:`Outcome` (a kind, ``None`` or a seat, whole-number scores).  The readers build
    states so; a state built in code (an environment's ``reset(options={"state": ...})``)
    may not be.

    Raises:
        PositionError: naming the first field of the wrong type.
    """
    require_state(state, "check_shape")
    if not isinstance(state, GameState):
        raise PositionError(f"a position is a GameState, not {a_or_an(type(state).__name__)}")
    piles: list[tuple[str, object]] = [("builds", pile) for pile in _tuple("builds",
                                                                          state.builds)]
    piles += [("draw pile", state.draw), ("completed cards", state.completed)]
    for index, seat in enumerate(_tuple("seats", state.seats)):
        if not isinstance(seat, Seat):
            raise PositionError(f"seat {index} is a Seat, not {a_or_an(type(seat).__name__)}")
        piles.append((f"seat {index} hand", seat.hand))
        piles += [(f"seat {index} pay-off piles", p) for p in _tuple("pay-off", seat.payoff)]
        piles += [(f"seat {index} discard piles", p) for p in _tuple("discard", seat.discards)]
    for where, pile in piles:
        if not all(isinstance(card, Card) for card in _tuple(where, pile)):
            raise PositionError(f"something in the {where} is not a Card")
    for name in ("seat", "turn", "turn_moves", "idle_turns", "seed", "shuffles"):
        _whole(name, getattr(state, name))
    for count in _tuple("build_removed", state.build_removed):
        _whole("build_removed", count)
    outcome = state.outcome
    if outcome is not None and not _outcome_shaped(outcome):
        raise PositionError(f"the outcome is None or an Outcome(kind, winner, scores) of "
                            f"text, a seat or None, and whole numbers; not {shown(outcome)}")


def _outcome_shaped(outcome: object) -> bool:
    return (isinstance(outcome, Outcome) and isinstance(outcome.kind, str)
            and (outcome.winner is None or isinstance(outcome.winner, int))
            and isinstance(outcome.scores, tuple)
            and all(isinstance(score, int) for score in outcome.scores))


def _tuple(name: str, value: object) -> tuple[object, ...]:
    if not isinstance(value, tuple):
        raise PositionError(f"the {name} are a tuple, not {a_or_an(type(value).__name__)}")
    return value


def check_view(rules: RuleBook, view: SeatView) -> None:
    """Return if ``view`` is a seat's view of a position ``rules`` allows: the checks of
    :func:`check_position` on the visible cards, with face-down cards counted toward the
    deck's size.

    Raises:
        PositionError: the first problem found, naming the seat, pile or field.
    """
    check_book(rules, "check_view")
    require_view(view, "check_view", "check a whole state with "
                 "spitemalice.formats.position_check.check_position(rules, state)")
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
    check_builds(rules, view.builds, view.build_removed)
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
    """What a view shows of the invariants: a live game's counters are below the bounds that
    would have ended it, and an ended game's kind fits what the view shows
    (:func:`~spitemalice.engine.invariants.ending.end_problems`, judged on the counts a view holds
    as a state's are)."""
    outcome = view.outcome
    if outcome is None:
        problems = live_counter_problems(rules, len(view.seats), view.turn, view.turn_moves,
                                         view.idle_turns)
    else:
        facts = EndFacts(tuple(sum(pile.count for pile in seat.payoff) for seat in view.seats),
                         tuple(seat.hand_count for seat in view.seats), view.seat,
                         view.draw_count, view.completed_count,
                         sum(max(len(pile) - 1, 0) for pile in view.builds), view.turn,
                         view.turn_moves, view.idle_turns)
        problems = end_problems(rules, outcome.kind, outcome.winner, facts)
    if problems:
        raise PositionError(f"an impossible position: {problems[0]}")


def check_layout(rules: RuleBook, seats: int,
                 piles: Iterable[tuple[int, int, tuple[Pile, ...]]]) -> None:
    """Seat count, and per seat (pay-off pile count, hand size, discard piles).

    Raises:
        PositionError: a wrong seat or pile count, a hand over the hand size, or a discard
            pile holding a rank that may not be discarded.
    """
    problem = seat_count_problem(rules, seats, "the position")
    if problem is not None:
        python = f"load it with players={seats}"
        raise worded(PositionError(f"{problem} ({python} to read this position)"), python,
                     f"give --players {seats}")
    for index, (payoff_piles, hand, discards) in enumerate(piles):
        problem = seat_layout_problem(rules, index, payoff_piles, hand, discards)
        if problem is not None:
            raise PositionError(problem)


def check_builds(rules: RuleBook, builds: tuple[Pile, ...], removed: tuple[int, ...] = ()) -> None:
    """Build piles: within the pile limit, each standing at rank 1 to ``ceiling - 1``, in
    sequence.  ``removed`` (:attr:`GameState.build_removed`) is ``()`` or one count per pile of
    the cards recycled from under its top, only where the rules recycle them.

    Raises:
        PositionError: naming the build pile (1-based) and the card out of sequence, or a
            count of recycled cards the rules cannot hold.
    """
    limit, ceiling = rules.build_limit, rules.ceiling.ceiling
    if limit and len(builds) > limit:
        raise PositionError(f"{len(builds)} build piles are open; {rules.name} allows {limit}")
    if removed:
        _check_removed(rules, builds, removed)
    accepts, name = rules.accepts, rules.deck.rank_name  # A, Q; Skip-Bo's 1, 12
    for number, pile in enumerate(builds, 1):
        under = removed[number - 1] if removed else 0
        if not pile or under + len(pile) >= ceiling:
            held = count_of(len(pile), "card") + (f" on {under} recycled from under it"
                                                  if under else "")
            raise PositionError(
                f"build pile {number} holds {held}; an open build pile stands at rank "
                f"{name(1)} to {name(ceiling - 1)} (a pile that reaches the build ceiling "
                "leaves the table)"
            )
        for rank, card in enumerate(pile, under + 1):
            accepted = accepts[card.rank] if 0 <= card.rank < len(accepts) else frozenset()
            if rank not in accepted:
                raise PositionError(
                    f"build pile {number} card {rank - under} is {card_text(card)}, which "
                    f"cannot stand for rank {name(rank)}: a build pile rises from "
                    f"{name(1)} by one rank at a time"
                )


def _check_removed(rules: RuleBook, builds: tuple[Pile, ...], removed: tuple[int, ...]) -> None:
    if not rules.ruleset.recycle_under_tops:
        raise PositionError(
            f"build piles with cards recycled from under their tops ({_counts(removed)}), but "
            f"{rules.name} here does not recycle them (recycle_under_tops = false)")
    if len(removed) != len(builds) or any(
            not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in removed):
        raise PositionError(
            f"cards recycled from under the build-pile tops: {_counts(removed)}; give one whole "
            f"number >= 0 per open build pile ({len(builds)})")


def _counts(removed: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in removed[:8]) + (", ..." if len(removed) > 8 else "")


def check_card_counts(rules: RuleBook, cards: Iterable[Card], hidden: int = 0) -> None:
    """No card more often than the deck holds it; ``hidden`` face-down cards of unknown
    identity count toward the deck's size.

    Raises:
        PositionError: naming the card, how many the position holds and the deck holds.
    """
    deck = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    have = Counter(cards)
    for card, count in sorted(have.items(), key=lambda item: hand_order(item[0])):
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
    """A winner that is one of the rule set's seats, and one score per seat (``Outcome``
    itself refuses an unknown kind, a kind and a winner that disagree, and a winner with no
    score).

    Raises:
        PositionError: naming what is wrong with the outcome.
    """
    if outcome is None:
        return
    if outcome.winner is not None and outcome.winner >= rules.players:
        raise PositionError(f"a win names the winning seat, 0 to {rules.players - 1}, "
                            f"not {outcome.winner}")
    if len(outcome.scores) != rules.players:
        raise PositionError(f"the outcome gives {len(outcome.scores)} score(s); "
                            f"{rules.players} seats need one each")


def _whole(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{name} is a whole number >= 0, not {shown(value)}")
