"""Positions and views laid out for people, on several lines: :func:`describe_position`,
:func:`describe_view` (what ``spitemalice show`` prints).

Each seat's pay-off piles (top and count), hand and discard piles, then the build piles with
the rank each needs next, the draw pile and completed cards, the teams and the turn counters.
The one-line form for programs is the position notation (:mod:`spitemalice.formats.notation`).
"""

from __future__ import annotations

from collections.abc import Sequence

from spitemalice.cards import card_text
from spitemalice.engine.views import PayoffView, SeatView, require_view
from spitemalice.guards import check_teams
from spitemalice.model import GameState, Outcome, Pile, require_state
from spitemalice.wording import count_of


def describe_position(state: GameState, teams: Sequence[Sequence[int]] = ()) -> str:
    """A position laid out for people, several lines: each seat's pay-off piles (top and
    count), hand and discard piles, the build piles, the draw pile, the teams (``teams``,
    ``RuleBook.teams.teams``, in a game with teams) and the counters.
    """
    require_state(state, "describe_position",
                  "describe a view with spitemalice.formats.describe_view(view)")
    check_teams(teams, "describe_position")
    lines = []
    for index, seat in enumerate(state.seats):
        payoff = [PayoffView(len(p), p[-1] if p else None) for p in seat.payoff]
        lines += _describe_seat(index, index == state.seat, payoff, _cards(seat.hand),
                                seat.discards)
    lines += _describe_table(state.builds, state.build_removed, len(state.draw),
                             len(state.completed))
    lines += _describe_teams(teams)
    lines.append(_describe_turn(state.seat, state.turn, state.turn_moves, state.idle_turns,
                                state.outcome) + f"; seed {state.seed}, "
                 f"{state.shuffles} shuffle(s) made")
    return "\n".join(lines)


def describe_view(view: SeatView, teams: Sequence[Sequence[int]] = ()) -> str:
    """A seat's view laid out for people, as :func:`describe_position` lays out a state."""
    require_view(view, "describe_view",
                 "describe a whole state with spitemalice.formats.describe_position(state)")
    check_teams(teams, "describe_view")
    lines = [f"the view of seat {view.viewer}"]
    for index, public in enumerate(view.seats):
        hand = (_cards(view.hand) if index == view.viewer
                else f"{public.hand_count} card(s), face down")
        lines += _describe_seat(index, index == view.seat, list(public.payoff), hand,
                                public.discards)
    lines += _describe_table(view.builds, view.build_removed, view.draw_count,
                             view.completed_count)
    lines += _describe_teams(teams)
    lines.append(_describe_turn(view.seat, view.turn, view.turn_moves, view.idle_turns,
                                view.outcome))
    return "\n".join(lines)


def _cards(pile: Pile) -> str:
    return " ".join(card_text(card) for card in pile) or "-"


def _describe_seat(index: int, on_turn: bool, payoff: list[PayoffView], hand: str,
                   discards: Sequence[Pile]) -> list[str]:
    mark = " (on turn)" if on_turn else ""
    piles = "   ".join(
        f"{card_text(p.top)} ({count_of(p.count, 'card')})"
        if p.top is not None else "empty" for p in payoff
    )
    return [
        f"seat {index}{mark}",
        f"  pay-off       {piles}",
        f"  hand          {hand}",
        f"  discard piles {' | '.join(_cards(pile) for pile in discards)}",
    ]


def _describe_table(builds: Sequence[Pile], removed: Sequence[int], draw: int,
                    completed: int) -> list[str]:
    lines = ["build piles" + ("" if builds else "   none")]
    for number, pile in enumerate(builds, 1):
        under = removed[number - 1] if removed else 0
        gone = f"{under} recycled from under it, " if under else ""
        lines.append(f"  {number}: {_cards(pile)}  ({gone}next rank {under + len(pile) + 1})")
    lines.append(f"draw pile       {draw} card(s)")
    lines.append(f"completed cards {completed}")
    return lines


def _describe_teams(teams: Sequence[Sequence[int]]) -> list[str]:
    if not any(len(team) > 1 for team in teams):
        return []
    return [f"teams           {'   '.join('+'.join(map(str, team)) for team in teams)}"]


def _describe_turn(seat: int, turn: int, moves: int, idle: int,
                   outcome: Outcome | None) -> str:
    if outcome is not None:
        return f"game over: {outcome.describe()}; after {turn} turn(s)"
    return (f"seat {seat} on turn; {turn} turn(s) ended, {moves} card(s) moved this turn, "
            f"{idle} idle turn(s) in a row")

