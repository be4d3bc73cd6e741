"""Position notation: one line of text that states a whole position (like FEN in chess).

A position is four sections of piles, then ``key=value`` fields, separated by whitespace
(any run of spaces or newlines, so a long position may be wrapped)::

    position  := seats  builds  draw  completed  field*
    seats     := seat ( "/" seat )*              seat 0 first, in turn order
    seat      := payoffs ":" hand ":" discards
    payoffs   := pile ( "|" pile )*              the rule set's pay-off piles, pile 1 first
    discards  := pile ( "|" pile )*              the rule set's discard piles, pile 1 first
    builds    := "-" | build ( "|" build )*      open build piles in the order opened
    build     := [ "~" n "," ] pile              "~4,5": a 5 on 4 cards recycled from under
                                                 it, so it stands at 5 (recycle_under_tops)
    draw      := pile | "rest"
    completed := pile
    pile      := "-" | part ( "," part )*        "-" is an empty pile; bottom to top
    part      := card | "?" count                "?24": 24 face-down cards (views only)
    field     := "on=" seat                      the seat on turn (required)
               | "turn=" n | "moves=" n | "idle=" n      turns ended, cards moved this
                                                 turn, idle turns in a row (default 0)
               | "seed=" n | "shuffles=" n       the game's seed and shuffles made (default 0)
               | "end=" kind ":" winner ":" scores       kind win|drawn|blocked|turn-limit,
                                                 winner a seat or "-", scores "35,0"
               | "view=" seat                    marks a seat's view (see below)
               | "teams=" team ( "/" team )*     the teams, as "0+2/1+3" (optional; only
                                                 in a game with teams, checked against them)

Cards are written as :func:`~spitemalice.cards.card_text` writes them: ``AS``, ``10H``,
``QD``, ``*`` (joker), ``7`` (a suitless numbered card).  Every pile is listed bottom to top,
so the last card is the top; a hand is listed in any order and read sorted.  Seats,
pay-off piles, discard piles and build piles are numbered in the order written, seats from 0
and piles from 1 (as move texts number them).

A two-seat blackwood-frey position: seat 0 shows 9H on a pay-off pile of three, holds five
cards and has 4S on its second discard pile; seat 1 shows QH and holds five; build piles
A-2 and A are open; the draw pile holds the rest of the deck; seat 1 is on turn::

    JS,4D,9H:2S,5H,7D,QS,KC:-|4S|-|-/8C,QH:3C,3D,6S,9D,JH:-|-|-|- AS,2H|AH rest -
    on=1 turn=12 moves=0 idle=0 seed=5 shuffles=1

**Full positions** (:func:`format_position` /
:func:`~spitemalice.formats.parse.parse_position`) list every card, so printing a state and
parsing it back gives an equal state, seed and shuffle counter included (so the parsed state
has the same future).  For scenario tests the draw pile may be written ``rest``: every card of
the deck not placed elsewhere, in card order (the highest on top).

**Views** (:func:`format_view` / :func:`~spitemalice.formats.parse.parse_view`) carry
``view=<seat>`` and show only what that seat sees: its own hand in full, other hands as
``?n``, each pay-off pile as ``?n,TOP`` (``n`` cards under the top card), the draw pile and
completed cards as ``?n``; they have no ``seed`` or ``shuffles`` field.

Parsing (:mod:`spitemalice.formats.parse`) refuses, with a message naming the section, seat and
pile: text that is not in the grammar, a position the rule set cannot hold
(:mod:`spitemalice.formats.position_check`: a build pile out of sequence, more copies of a card
than the deck holds, a hand over the hand size, pile counts that differ from the rule set's)
and hidden parts in a full position.  :mod:`spitemalice.formats.layout` lays a position out
on several lines for people.

This module writes the notation; :mod:`spitemalice.formats.parse` reads it.
"""

from __future__ import annotations

from collections.abc import Sequence

from spitemalice.cards import Card, card_text
from spitemalice.engine.views import PayoffView, SeatView, require_view
from spitemalice.guards import check_teams
from spitemalice.model import NOTATION, GameState, Outcome, Pile, require_state

Part = Card | int
"""One part of a pile as written: a card, or a count of face-down cards."""

EMPTY = "-"
REST = "rest"
RECYCLED = "~"
"""Marks the count of cards recycled from under a build pile's top: ``~4,5``."""


# -- writing -----------------------------------------------------------------------------


def format_position(state: GameState, teams: Sequence[Sequence[int]] = ()) -> str:
    """The full position of ``state`` on one line.

    :func:`~spitemalice.formats.parse.parse_position` reads it back to an equal state.
    ``teams`` (``RuleBook.teams.teams`` in a game with teams) adds the field
    ``teams=0+2/1+3``.
    """
    require_state(state, "format_position",
                  "format a view with spitemalice.formats.format_view(view)")
    check_teams(teams, "format_position")
    seats = "/".join(
        ":".join((_piles(seat.payoff), _pile(seat.hand), _piles(seat.discards)))
        for seat in state.seats
    )
    fields = [
        f"on={state.seat}", f"turn={state.turn}", f"moves={state.turn_moves}",
        f"idle={state.idle_turns}", f"seed={state.seed}", f"shuffles={state.shuffles}",
    ]
    if state.outcome is not None:
        fields.append(_outcome_text(state.outcome))
    fields += teams_field(teams)
    return " ".join([seats, _build_piles(state.builds, state.build_removed),
                     _pile(state.draw), _pile(state.completed), *fields])


def format_view(view: SeatView, teams: Sequence[Sequence[int]] = ()) -> str:
    """The view on one line, hidden cards as ``?n`` counts.

    :func:`~spitemalice.formats.parse.parse_view` reads it back to an equal view.  ``teams``
    adds the field ``teams=0+2/1+3``, as for a position.
    """
    require_view(view, "format_view",
                 "format a whole state with spitemalice.format_position(state)")
    check_teams(teams, "format_view")
    seats = []
    for index, public in enumerate(view.seats):
        payoff = "|".join(_payoff_view(pile) for pile in public.payoff)
        hand = _pile(view.hand) if index == view.viewer else _hidden(public.hand_count)
        seats.append(":".join((payoff, hand, _piles(public.discards))))
    fields = [f"view={view.viewer}", f"on={view.seat}", f"turn={view.turn}",
              f"moves={view.turn_moves}", f"idle={view.idle_turns}"]
    if view.outcome is not None:
        fields.append(_outcome_text(view.outcome))
    fields += teams_field(teams)
    return " ".join(["/".join(seats), _build_piles(view.builds, view.build_removed),
                     _hidden(view.draw_count), _hidden(view.completed_count), *fields])


def teams_field(teams: Sequence[Sequence[int]]) -> list[str]:
    """The ``teams=0+2/1+3`` field as a one-item list, or ``[]`` in a game without teams."""
    if not any(len(team) > 1 for team in teams):
        return []
    return ["teams=" + "/".join("+".join(str(seat) for seat in team) for team in teams)]


def _pile(pile: Pile) -> str:
    return ",".join(card_text(card) for card in pile) if pile else EMPTY


def _piles(piles: Sequence[Pile]) -> str:
    return "|".join(_pile(pile) for pile in piles)


def _build_piles(builds: Sequence[Pile], removed: Sequence[int]) -> str:
    if not builds:
        return EMPTY
    if not removed:
        return _piles(builds)
    return "|".join((f"{RECYCLED}{count}," if count else "") + _pile(pile)
                    for count, pile in zip(removed, builds, strict=True))


def _hidden(count: int) -> str:
    return f"?{count}" if count else EMPTY


def _payoff_view(pile: PayoffView) -> str:
    if pile.top is None:
        return EMPTY
    under = f"?{pile.count - 1}," if pile.count > 1 else ""
    return under + card_text(pile.top)


def _outcome_text(outcome: Outcome) -> str:
    winner = "-" if outcome.winner is None else str(outcome.winner)
    return f"end={outcome.kind}:{winner}:{','.join(str(s) for s in outcome.scores)}"


# A state and a view show themselves in the notation (GameState.__repr__, SeatView.__repr__).
NOTATION.update({"GameState": format_position, "SeatView": format_view})
