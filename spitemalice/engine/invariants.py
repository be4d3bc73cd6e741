"""Named invariants that every state of every sound rule set keeps (design notes §6).

Each check takes the rule book and one state (or a state and its successor) and returns a list
of violations, empty when the invariant holds.  They are public so that third-party variant
authors run the same checks on their own plugins; :func:`check_state` and
:func:`check_transition` run them all.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable

import attrs

from spitemalice.cards import Card
from spitemalice.model import GameState, hand_order, require_state
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import count_of

Violations = list[str]


def card_conservation(rules: RuleBook, state: GameState) -> Violations:
    """Every card of the deck is somewhere exactly once: the state's cards equal the deck's.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "card_conservation")
    require_state(state, "card_conservation")
    if _conserved(rules, state):
        return []
    have = Counter(state.all_cards())
    want = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    extra, missing = have - want, want - have
    return [f"cards not conserved: extra {_cards(extra)}, missing {_cards(missing)}"]


class _Tally(threading.local):
    """The card count of the last state checked in this thread, kept so that the next state
    (usually its successor, sharing all but a few piles) is counted by what changed: after
    every move this check would otherwise count a few hundred cards.  ``surplus`` maps a card
    key to (cards in the state) - (cards in the deck), holding only the non-zero entries;
    the cards are conserved exactly when it is empty."""

    def __init__(self) -> None:
        self.rules: RuleBook | None = None
        self.places: list[tuple[Card, ...]] = []
        self.builds: tuple[tuple[Card, ...], ...] = ()
        self.surplus: dict[tuple[int, str], int] = {}


_TALLY = _Tally()


def _places(state: GameState) -> list[tuple[Card, ...]]:
    """Every pile of ``state`` but the build piles, in a fixed order."""
    places = [state.draw, state.completed]
    for seat in state.seats:
        places.append(seat.hand)
        places += seat.payoff
        places += seat.discards
    return places


def _count(surplus: dict[tuple[int, str], int], cards: Iterable[Card], step: int) -> None:
    for key in map(hand_order, cards):  # (rank, suit): the card's value, as a tuple
        left = surplus.get(key, 0) + step
        if left:
            surplus[key] = left
        else:
            del surplus[key]


def _recount(surplus: dict[tuple[int, str], int], old: tuple[Card, ...],
             new: tuple[Card, ...]) -> None:
    """Update ``surplus`` for a pile that held ``old`` and holds ``new``."""
    if old is new or old == new:  # tuple equality tests identity first, in C
        return
    if len(new) > len(old) and new[: len(old)] == old:  # cards added on top
        _count(surplus, new[len(old) :], 1)
    elif len(new) < len(old) and old[: len(new)] == new:  # cards taken from the top
        _count(surplus, old[len(new) :], -1)
    else:
        _count(surplus, old, -1)
        _count(surplus, new, 1)


def _conserved(rules: RuleBook, state: GameState) -> bool:
    tally = _TALLY
    places, builds = _places(state), state.builds
    if tally.rules is not rules or len(places) != len(tally.places):
        surplus: dict[tuple[int, str], int] = {}
        _count(surplus, (*rules.deck.cards, *(rules.deck.payoff_cards or ())), -1)
        for pile in (*places, *builds):
            _count(surplus, pile, 1)
        tally.rules, tally.places, tally.builds, tally.surplus = rules, places, builds, surplus
        return not surplus
    surplus = tally.surplus
    for old, new in zip(tally.places, places, strict=True):
        _recount(surplus, old, new)
    if len(builds) == len(tally.builds):
        for old, new in zip(tally.builds, builds, strict=True):
            _recount(surplus, old, new)
    else:  # a pile opened or left the table: count the row of build piles again
        for old in tally.builds:
            _count(surplus, old, -1)
        for new in builds:
            _count(surplus, new, 1)
    tally.places, tally.builds = places, builds
    return not surplus


def _cards(counter: Counter[Card]) -> str:
    return " ".join(f"{card}x{n}" for card, n in sorted(counter.items())) or "none"


def build_piles_well_formed(rules: RuleBook, state: GameState) -> Violations:
    """Each open build pile rises from rank 1 (or from the cards recycled from under its top)
    with cards that may stand for their rank, stays below the build ceiling, and no more
    piles are open than the limit allows.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "build_piles_well_formed")
    require_state(state, "build_piles_well_formed")
    problems = []
    if rules.build_limit and len(state.builds) > rules.build_limit:
        problems.append(f"{len(state.builds)} build piles open, limit {rules.build_limit}")
    removed = state.build_removed
    if removed and (len(removed) != len(state.builds) or not rules.ruleset.recycle_under_tops
                    or min(removed) < 0):
        problems.append(f"recycled counts {removed} for "
                        f"{count_of(len(state.builds), 'build pile')}, "
                        f"recycle_under_tops = {rules.ruleset.recycle_under_tops}")
        removed = ()
    for number, pile in enumerate(state.builds, 1):
        under = removed[number - 1] if removed else 0
        if not pile or under + len(pile) >= rules.ceiling.ceiling:
            problems.append(f"build pile {number} stands at {under + len(pile)} with "
                            f"{count_of(len(pile), 'card')}; it must stand at 1 to "
                            f"{rules.ceiling.ceiling - 1} (a full pile leaves the table)")
        for rank, card in enumerate(pile, under + 1):
            if rank not in rules.accepts[card.rank]:
                problems.append(f"build pile {number}: {card} cannot stand for rank {rank}")
    return problems


def limits_kept(rules: RuleBook, state: GameState) -> Violations:
    """Hands never exceed the hand size; every seat has the rule set's pile counts.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "limits_kept")
    require_state(state, "limits_kept")
    problems = []
    for index, seat in enumerate(state.seats):
        if len(seat.hand) > rules.deal.hand_size:
            problems.append(f"seat {index} holds {len(seat.hand)} cards, "
                            f"hand size {rules.deal.hand_size}")
        if len(seat.discards) != rules.discard.piles:
            problems.append(f"seat {index} has {count_of(len(seat.discards), 'discard pile')}")
        if len(seat.payoff) != rules.deal.payoff_piles:
            problems.append(f"seat {index} has {count_of(len(seat.payoff), 'pay-off pile')}")
    if not 0 <= state.seat < len(state.seats):
        problems.append(f"seat on turn {state.seat} does not exist")
    return problems


def live_game_can_move(rules: RuleBook, state: GameState) -> Violations:
    """A live game always offers the seat on turn at least one legal move.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "live_game_can_move")
    require_state(state, "live_game_can_move")
    from spitemalice.engine import legal_moves

    if state.outcome is None and not legal_moves(rules, state):
        return ["a live game offers no legal move"]
    return []


def outcome_declared(rules: RuleBook, state: GameState) -> Violations:
    """An ended game names its kind, a winner only for a win, and one score per seat.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "outcome_declared")
    require_state(state, "outcome_declared")
    outcome = state.outcome
    if outcome is None:
        return []
    problems = []
    if (outcome.kind == "win") != (outcome.winner is not None):
        problems.append(f"outcome {outcome.kind} with winner {outcome.winner}")
    if len(outcome.scores) != len(state.seats):
        problems.append(f"{count_of(len(outcome.scores), 'score')} for "
                        f"{count_of(len(state.seats), 'seat')}")
    won = outcome.kind == "win" and outcome.winner is not None
    if won and state.seats[outcome.winner].payoff_count:  # type: ignore[index]
        problems.append("the winner still has pay-off cards")
    return problems


@attrs.frozen
class EndFacts:
    """What decides whether an outcome's kind fits its position: the same facts in a state
    and in any seat's view of it (a view shows every count), so states and views are judged
    alike.

    Attributes:
        payoff_left: cards left in each seat's pay-off piles, per seat.
        hands: cards in each seat's hand, per seat.
        seat: the seat on turn.
        draw: cards in the draw pile.
        completed: completed cards set aside.
        under_tops: cards lying under the build-pile tops (what ``recycle_under_tops``
            takes).
        turn, turn_moves, idle_turns: the counters.
    """

    payoff_left: tuple[int, ...]
    hands: tuple[int, ...]
    seat: int
    draw: int
    completed: int
    under_tops: int
    turn: int
    turn_moves: int
    idle_turns: int

    @classmethod
    def of(cls, state: GameState) -> EndFacts:
        """The facts of a state.

        Raises:
            TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
        """
        require_state(state, "EndFacts.of")
        return cls(tuple(seat.payoff_count for seat in state.seats),
                   tuple(len(seat.hand) for seat in state.seats), state.seat, len(state.draw),
                   len(state.completed), sum(max(len(pile) - 1, 0) for pile in state.builds),
                   state.turn, state.turn_moves, state.idle_turns)


def end_problems(rules: RuleBook, kind: str, winner: int | None,
                 facts: EndFacts) -> Violations:
    """Whether an outcome of ``kind`` fits the position it ends, as the engine ends games
    (:mod:`spitemalice.engine.flow`): a **win** when the winner's team has emptied its pay-off
    piles (a seat alone is its own team; PT-4); **drawn** when a required draw found no card:
    the draw pile, the completed cards and (where they are recycled) the cards under the
    build-pile tops are all gone, and the seat on turn holds less than a full hand (rules
    dossier §13 A21); **blocked** when every seat in a row passed without moving a card;
    **turn-limit** at the rule set's turn limit, in turns or in moves of one turn.  An unknown
    kind or a bad winner is :func:`outcome_declared`'s to report.

    Not asked of a rule book whose plugins decide the end of a game
    (``spitemalice_end_of_game``); the team part of a win not when they decide a team's win
    (``spitemalice_team_won``).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "end_problems")
    if rules.end_of_game_hooks:
        return []
    seats = len(facts.hands)
    limit = rules.ruleset.turn_limit
    if kind == "win":
        if not (isinstance(winner, int) and 0 <= winner < seats):
            return []
        team = (winner,) if rules.team_won_hooks or not rules.teams.any else \
            rules.teams.teams[rules.teams.team_of(winner)]
        left = [seat for seat in team if facts.payoff_left[seat]]
        if not left:
            return []
        partner = "" if left[0] == winner else f"its partner seat {left[0]} "
        return [f"seat {winner} won but {partner}still has pay-off cards"]
    if kind == "drawn":
        held = [(facts.draw, "the draw pile"), (facts.completed, "the completed cards")]
        if rules.ruleset.recycle_under_tops:
            held.append((facts.under_tops, "the cards under the build-pile tops"))
        problems = [f"a drawn game (the draw pile ran out), but {where} still hold(s) "
                    f"{count} card(s)" for count, where in held if count]
        if facts.hands[facts.seat] >= rules.deal.hand_size:
            problems.append(f"a drawn game (a required draw found no card), but seat "
                            f"{facts.seat} on turn holds a full hand")
        return problems
    if kind == "blocked" and facts.idle_turns < seats:
        return [f"a blocked game after {facts.idle_turns} idle turn(s) in a row; it takes "
                f"{seats}, one per seat"]
    if kind == "turn-limit" and facts.turn < limit and facts.turn_moves < limit:
        return [f"a game ended at the turn limit {limit}, but at turn {facts.turn} with "
                f"{facts.turn_moves} move(s) this turn"]
    return []


def outcome_fits_the_end(rules: RuleBook, state: GameState) -> Violations:
    """An ended game's kind is one its final position shows (:func:`end_problems`).

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "outcome_fits_the_end")
    require_state(state, "outcome_fits_the_end")
    outcome = state.outcome
    if outcome is None or len(outcome.scores) != len(state.seats):
        return []  # live, or outcome_declared reports the scores
    return end_problems(rules, outcome.kind, outcome.winner, EndFacts.of(state))


def counters_in_range(rules: RuleBook, state: GameState) -> Violations:
    """A live game has fewer idle turns in a row than seats (that many end it blocked) and
    has not reached the turn limit, in turns or in moves this turn (that ends it).

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "counters_in_range")
    require_state(state, "counters_in_range")
    if state.outcome is not None:
        return []
    return live_counter_problems(rules, len(state.seats), state.turn, state.turn_moves,
                                 state.idle_turns)


def live_counter_problems(rules: RuleBook, seats: int, turn: int, turn_moves: int,
                          idle_turns: int) -> Violations:
    """:func:`counters_in_range` for a live game given by its counters (a view has them too).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "live_counter_problems")
    problems = []
    if idle_turns >= seats:
        problems.append(f"a live game with {idle_turns} idle turns in a row; {seats} end it "
                        "blocked")
    limit = rules.ruleset.turn_limit
    if turn >= limit or turn_moves >= limit:
        problems.append(f"a live game at turn {turn}, {turn_moves} move(s) this turn; the turn "
                        f"limit {limit} ends it")
    return problems


def outcome_scored(rules: RuleBook, state: GameState) -> Violations:
    """An ended game's scores are those the scoring hook gives for its final position.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "outcome_scored")
    require_state(state, "outcome_scored")
    outcome = state.outcome
    if outcome is None or len(outcome.scores) != len(state.seats):
        return []  # outcome_declared reports a wrong number of scores
    if outcome.kind == "win" and not (
            isinstance(outcome.winner, int) and 0 <= outcome.winner < len(state.seats)):
        return []  # outcome_declared reports the winner
    live = attrs.evolve(state, outcome=None)
    expected = rules.score(live, outcome.kind, outcome.winner)
    if tuple(outcome.scores) != tuple(expected):
        return [f"scores {list(outcome.scores)}; the rules give {list(expected)} for this "
                "final position"]
    return []


def discard_piles_hold_allowed_ranks(rules: RuleBook, state: GameState) -> Violations:
    """No discard pile holds a rank the rules forbid to discard (``discard_forbidden``): such a
    card can reach a discard pile only through a move the rules refuse.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "discard_piles_hold_allowed_ranks")
    require_state(state, "discard_piles_hold_allowed_ranks")
    forbidden = rules.discard.forbidden
    if not forbidden:
        return []
    return [f"seat {index} discard pile {number} holds {card}, a rank that may not be discarded"
            for index, seat in enumerate(state.seats)
            for number, pile in enumerate(seat.discards, 1)
            for card in pile if card.rank in forbidden]


def emptied_payoff_ends_the_game(rules: RuleBook, state: GameState) -> Violations:
    """A team (a seat, without partnerships) whose pay-off piles are all empty has won: the
    game is over.  Not checked when a plugin decides the end of the game or a team's win.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "emptied_payoff_ends_the_game")
    require_state(state, "emptied_payoff_ends_the_game")
    if state.outcome is not None or rules.end_of_game_hooks or rules.team_won_hooks:
        return []
    return [f"seat(s) {', '.join(map(str, team))} emptied their pay-off piles but the game "
            "goes on" for team in rules.teams.teams
            if all(not state.seats[seat].payoff_count for seat in team)]


def dealt_as_the_sheet_says(rules: RuleBook, state: GameState) -> Violations:
    """A fresh deal: no build pile, empty discard piles, the seat on turn holds a full hand and
    every pay-off pile holds the ``payoff_size`` cards the rule set deals to each (when the
    rule set deals a fixed number rather than sharing out a pay-off pack).

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "dealt_as_the_sheet_says")
    require_state(state, "dealt_as_the_sheet_says")
    problems = []
    if state.builds or state.turn or state.outcome is not None:
        problems.append("a fresh deal has build piles, turns or an outcome")
    size = rules.deal.payoff_size
    for index, seat in enumerate(state.seats):
        if any(seat.discards):
            problems.append(f"seat {index} starts with cards on its discard piles")
        dealt = [len(pile) for pile in seat.payoff]
        if size is not None and any(n != size for n in dealt):
            problems.append(f"seat {index} is dealt pay-off piles of {dealt} cards, "
                            f"the rule set deals {size} to each")
    if len(state.seats[state.seat].hand) != rules.deal.hand_size:
        problems.append(f"seat {state.seat} starts its turn with "
                        f"{count_of(len(state.seats[state.seat].hand), 'card')}, hand size "
                        f"{rules.deal.hand_size}")
    return problems


def discard_ends_the_turn(before: GameState, move: Move, after: GameState) -> Violations:
    """A discard ends the mover's turn: afterwards another seat is on turn, or the game is
    over.

    Raises:
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
    """
    require_state(before, "discard_ends_the_turn")
    require_state(after, "discard_ends_the_turn")
    from spitemalice.moves import Discard

    if isinstance(move, Discard) and after.outcome is None and after.turn == before.turn:
        return [f"the turn did not end after the discard {move}"]
    return []


def payoff_only_shrinks(before: GameState, after: GameState) -> Violations:
    """Pay-off piles lose cards only from the top and never gain any.

    Raises:
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
    """
    require_state(before, "payoff_only_shrinks")
    require_state(after, "payoff_only_shrinks")
    problems = []
    for index, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        for pile, (was, now) in enumerate(zip(old.payoff, new.payoff, strict=True), 1):
            if was[: len(now)] != now:
                problems.append(f"seat {index} pay-off pile {pile} changed other than at the top")
    return problems


STATE_CHECKS: tuple[Callable[[RuleBook, GameState], Violations], ...] = (
    card_conservation, build_piles_well_formed, limits_kept, live_game_can_move,
    outcome_declared, counters_in_range, outcome_scored, outcome_fits_the_end,
    discard_piles_hold_allowed_ranks,
)

PLAY_CHECKS: tuple[Callable[[RuleBook, GameState], Violations], ...] = (
    *STATE_CHECKS, emptied_payoff_ends_the_game,
)
"""The state checks plus those that hold only along a game played from a deal (a scenario
position may leave a seat's pay-off piles empty)."""


@attrs.frozen
class Violation:
    """One broken invariant: the invariant's name (its function's name) and what broke."""

    invariant: str
    message: str

    def __str__(self) -> str:
        return self.message


def state_violations(rules: RuleBook, state: GameState, *, fresh: bool = False) -> list[Violation]:
    """Every state invariant, as named violations; ``fresh`` adds the checks of a new deal.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "state_violations")
    require_state(state, "state_violations",
                  "check a view with spitemalice.formats.position_check.check_view(rules, view)")
    checks = (*PLAY_CHECKS, dealt_as_the_sheet_says) if fresh else PLAY_CHECKS
    return [Violation(check.__name__, problem)
            for check in checks for problem in check(rules, state)]


def transition_violations(
    rules: RuleBook, before: GameState, move: Move, after: GameState
) -> list[Violation]:
    """State invariants of ``after`` plus those that relate it to ``before``; each message
    starts with the move (``"after 9H>B1: ..."``).

    Raises:
        TypeError: ``after`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "transition_violations")
    require_state(before, "transition_violations")
    require_state(after, "transition_violations")
    found = state_violations(rules, after)
    found += [Violation("payoff_only_shrinks", p) for p in payoff_only_shrinks(before, after)]
    found += [Violation("discard_ends_the_turn", p)
              for p in discard_ends_the_turn(before, move, after)]
    return [Violation(v.invariant, f"after {move}: {v.message}") for v in found]


def check_state(rules: RuleBook, state: GameState) -> Violations:
    """Every state invariant; the violations of all of them together.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "check_state")
    require_state(state, "check_state",
                  "check a view with spitemalice.formats.position_check.check_view(rules, view)")
    return [v.message for v in state_violations(rules, state)]


def check_transition(
    rules: RuleBook, before: GameState, move: Move, after: GameState
) -> Violations:
    """State invariants of ``after`` plus those that relate it to ``before``.

    Raises:
        TypeError: ``after`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "check_transition")
    require_state(before, "check_transition")
    require_state(after, "check_transition")
    return [v.message for v in transition_violations(rules, before, move, after)]
