"""States and views as JSON, and back.

A state is saved as plain JSON data and read back to an equal state, the seed and the shuffle
counter included, so a loaded game continues exactly as the saved one would have (no random
generator lives in a state; see :mod:`spitemalice.engine.shuffle`).  Cards are written as
their short text (``"QS"``, ``"10H"``, ``"*"``, ``"7"``) and piles as lists, bottom to top.

State (``format`` ``"spitemalice-state"``)::

    {"format": "spitemalice-state", "version": 1,
     "seats": [{"payoff": [["3C", "9H"]], "hand": ["2S", "KC"],
                "discards": [[], ["4S"], [], []]}, ...],
     "builds": [["AS", "2H"]], "draw": ["10C", ...], "completed": [],
     "seat": 1, "turn": 12, "turn_moves": 0, "idle_turns": 0, "seed": 5, "shuffles": 1,
     "outcome": null}

``teams`` (last, only in a game with teams, such as the ``partnerships`` house rule): the
teams as lists of seats, ``[[0, 2], [1, 3]]``; reading refuses teams other than those the
rule set forms, naming both.  A view carries it too.

``build_removed`` (after ``builds``, only when a count is not 0): per build pile, the cards
recycled from under its top (skip-bo's ``recycle_under_tops``), so the pile stands at that
count plus its length; ``[4, 0]`` puts a pile ``["5"]`` at rank 5.  A view carries it too.

``outcome`` is ``null`` or ``{"kind": "win", "winner": 1, "scores": [35, 0]}`` (``winner``
``null`` unless the kind is ``"win"``).

View (``format`` ``"spitemalice-view"``)::

    {"format": "spitemalice-view", "version": 1, "viewer": 0, "hand": ["2S", "KC"],
     "seats": [{"payoff": [{"count": 26, "top": "9H"}], "hand_count": 5,
                "discards": [[], ["4S"], [], []]}, ...],
     "builds": [["AS", "2H"]], "draw_count": 80, "completed_count": 0,
     "seat": 1, "turn": 12, "turn_moves": 0, "idle_turns": 0, "outcome": null}

Reading refuses, naming the field by its path (``state.seats[1].hand[2]``) and what was
expected: malformed JSON, a missing, unknown or mistyped field, a card that does not parse,
a ``format`` that is not the one expected, a ``version`` newer than this library reads or
unknown, and a position the rule set cannot hold (:mod:`spitemalice.formats.position_check`).
Nothing partial is returned.  The bounded JSON parser and the field readers are shared with
the records (:mod:`spitemalice.formats.json_input`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from spitemalice.cards import card_text
from spitemalice.engine.views import PayoffView, PublicSeat, SeatView, require_view
from spitemalice.errors import DataError, SpiteMaliceError
from spitemalice.formats.json_input import (
    check_header,
    parse_json,
    read_card,
    read_int,
    read_list,
    read_object,
    read_pile,
    read_piles,
)
from spitemalice.formats.position_check import check_position, check_view
from spitemalice.guards import check_teams, json_indent
from spitemalice.model import OUTCOME_KINDS, GameState, Outcome, Pile, Seat, require_state
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.policies import same_teams, teams_text
from spitemalice.wording import shown

STATE_FORMAT = "spitemalice-state"
VIEW_FORMAT = "spitemalice-view"
VERSION = 1
"""The JSON format version this library writes and the newest it reads."""


# -- states ------------------------------------------------------------------------------


def state_to_dict(state: GameState, teams: Sequence[Sequence[int]] = ()) -> dict[str, Any]:
    """``state`` as JSON-ready data (see the module docstring for the shape); ``teams``
    (``RuleBook.teams.teams`` in a game with teams) adds the field ``teams``.
    """
    require_state(state, "state_to_dict",
                  "write a view with spitemalice.formats.serialize.view_to_dict(view)")
    check_teams(teams, "state_to_dict")
    return {
        "format": STATE_FORMAT,
        "version": VERSION,
        "seats": [
            {"payoff": _piles_out(seat.payoff), "hand": _pile_out(seat.hand),
             "discards": _piles_out(seat.discards)}
            for seat in state.seats
        ],
        "builds": _piles_out(state.builds),
        **_removed_out(state.build_removed),
        "draw": _pile_out(state.draw),
        "completed": _pile_out(state.completed),
        "seat": state.seat,
        "turn": state.turn,
        "turn_moves": state.turn_moves,
        "idle_turns": state.idle_turns,
        "seed": state.seed,
        "shuffles": state.shuffles,
        "outcome": outcome_to_dict(state.outcome),
        **_teams_out(teams),
    }


_STATE_FIELDS = ("format", "version", "seats", "builds", "draw", "completed", "seat", "turn",
                 "turn_moves", "idle_turns", "seed", "shuffles", "outcome")
_SEAT_FIELDS = ("payoff", "hand", "discards")
_OPTIONAL_FIELDS = ("build_removed", "teams")


def _teams_out(teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    """``{"teams": [[0, 2], [1, 3]]}`` in a game with teams (a team of two or more), else
    nothing."""
    if not any(len(team) > 1 for team in teams):
        return {}
    return {"teams": [list(team) for team in teams]}


def _check_teams(fields: dict[str, Any], rules: RuleBook, path: str) -> None:
    """A ``teams`` field, when given, names exactly the teams ``rules`` form.

    Raises:
        DataError: the field is not a list of lists of seats, or names other teams than the
            rules (or teams where the rules have none); the message names both.
    """
    if "teams" not in fields:
        return
    where = f"{path}.teams"
    given = tuple(tuple(read_int(seat, f"{where}[{i}][{j}]")
                        for j, seat in enumerate(read_list(team, f"{where}[{i}]")))
                  for i, team in enumerate(read_list(fields["teams"], where)))
    want = rules.teams.teams if rules.teams.any else ()
    if not same_teams(given, want):
        raise DataError(f"{where}: {teams_text(given)}, but {rules.name} here forms "
                        f"{teams_text(want)}")



def _removed_out(removed: tuple[int, ...]) -> dict[str, Any]:
    """``{"build_removed": [...]}`` when cards were recycled from under a build-pile top, else
    nothing: a document without it stays as it always was."""
    return {"build_removed": list(removed)} if removed else {}


def _removed_in(fields: dict[str, Any], path: str) -> tuple[int, ...]:
    """The ``build_removed`` counts (``()`` when the field is absent)."""
    if "build_removed" not in fields:
        return ()
    where = f"{path}.build_removed"
    return tuple(read_int(n, f"{where}[{i}]") for i, n in enumerate(read_list(
        fields["build_removed"], where)))


def state_from_dict(data: Any, rules: RuleBook, path: str = "state") -> GameState:
    """The state that :func:`state_to_dict` data states, checked against ``rules``.

    Raises:
        DataError: a missing, unknown or mistyped field, or a wrong format or version.
        PositionError: the position breaks the rule set.
    """
    check_book(rules, "state_from_dict")
    check_header(data, path, STATE_FORMAT, VERSION)
    fields = read_object(data, path, _STATE_FIELDS, _OPTIONAL_FIELDS)
    seats = []
    for index, raw in enumerate(read_list(fields["seats"], f"{path}.seats")):
        where = f"{path}.seats[{index}]"
        seat = read_object(raw, where, _SEAT_FIELDS)
        seats.append(Seat(read_piles(seat["payoff"], f"{where}.payoff"),
                          read_pile(seat["hand"], f"{where}.hand"),
                          read_piles(seat["discards"], f"{where}.discards")))
    state = GameState(
        tuple(seats), read_piles(fields["builds"], f"{path}.builds"),
        read_pile(fields["draw"], f"{path}.draw"),
        read_pile(fields["completed"], f"{path}.completed"),
        seat=read_int(fields["seat"], f"{path}.seat"),
        turn=read_int(fields["turn"], f"{path}.turn"),
        turn_moves=read_int(fields["turn_moves"], f"{path}.turn_moves"),
        idle_turns=read_int(fields["idle_turns"], f"{path}.idle_turns"),
        seed=read_int(fields["seed"], f"{path}.seed"),
        shuffles=read_int(fields["shuffles"], f"{path}.shuffles"),
        outcome=outcome_from_dict(fields["outcome"], f"{path}.outcome"),
        build_removed=_removed_in(fields, path),
    )
    _check_teams(fields, rules, path)
    check_position(rules, state)
    return state


def dumps_state(state: GameState, indent: int | None = None,
                teams: Sequence[Sequence[int]] = ()) -> str:
    """``state`` as JSON text (``teams`` as for :func:`state_to_dict`).

    Raises:
        SpiteMaliceError: ``indent`` is not ``None`` or 0 to
            :data:`~spitemalice.limits.MAX_INDENT`.
    """
    require_state(state, "dumps_state", "write a view with spitemalice.formats.dumps_view(view)")
    check_teams(teams, "dumps_state")
    return json.dumps(state_to_dict(state, teams), indent=json_indent(indent))


def loads_state(text: str | bytes, rules: RuleBook) -> GameState:
    """The state that :func:`dumps_state` text states, checked against ``rules``.

    Raises:
        DataError: malformed JSON or bad data (see :func:`state_from_dict`).
        PositionError: the position breaks the rule set.
    """
    check_book(rules, "loads_state")
    return state_from_dict(parse_json(text, "state"), rules)


# -- views -------------------------------------------------------------------------------


def view_to_dict(view: SeatView, teams: Sequence[Sequence[int]] = ()) -> dict[str, Any]:
    """``view`` as JSON-ready data (see the module docstring for the shape); ``teams`` adds
    the field ``teams``, as for a state.
    """
    require_view(view, "view_to_dict",
                 "write a whole state with spitemalice.formats.serialize.state_to_dict(state)")
    check_teams(teams, "view_to_dict")
    return {
        "format": VIEW_FORMAT,
        "version": VERSION,
        "viewer": view.viewer,
        "hand": _pile_out(view.hand),
        "seats": [
            {"payoff": [{"count": pile.count,
                         "top": None if pile.top is None else card_text(pile.top)}
                        for pile in seat.payoff],
             "hand_count": seat.hand_count,
             "discards": _piles_out(seat.discards)}
            for seat in view.seats
        ],
        "builds": _piles_out(view.builds),
        **_removed_out(view.build_removed),
        "draw_count": view.draw_count,
        "completed_count": view.completed_count,
        "seat": view.seat,
        "turn": view.turn,
        "turn_moves": view.turn_moves,
        "idle_turns": view.idle_turns,
        "outcome": outcome_to_dict(view.outcome),
        **_teams_out(teams),
    }


_VIEW_FIELDS = ("format", "version", "viewer", "hand", "seats", "builds", "draw_count",
                "completed_count", "seat", "turn", "turn_moves", "idle_turns", "outcome")
_PUBLIC_FIELDS = ("payoff", "hand_count", "discards")


def view_from_dict(data: Any, rules: RuleBook, path: str = "view") -> SeatView:
    """The view that :func:`view_to_dict` data states, checked against ``rules``.

    Raises:
        DataError: a missing, unknown or mistyped field, or a wrong format or version.
        PositionError: the visible position breaks the rule set.
    """
    check_book(rules, "view_from_dict")
    check_header(data, path, VIEW_FORMAT, VERSION)
    fields = read_object(data, path, _VIEW_FIELDS, _OPTIONAL_FIELDS)
    seats = []
    for index, raw in enumerate(read_list(fields["seats"], f"{path}.seats")):
        where = f"{path}.seats[{index}]"
        seat = read_object(raw, where, _PUBLIC_FIELDS)
        payoff = []
        for number, pile in enumerate(read_list(seat["payoff"], f"{where}.payoff")):
            at = f"{where}.payoff[{number}]"
            pile_fields = read_object(pile, at, ("count", "top"))
            count = read_int(pile_fields["count"], f"{at}.count")
            top = None if pile_fields["top"] is None else read_card(pile_fields["top"], f"{at}.top")
            if (count == 0) != (top is None):
                raise DataError(f"{at}: an empty pay-off pile has top null, and a pile with "
                                f"cards names its top card (count {count}, top {top})")
            payoff.append(PayoffView(count, top))
        seats.append(PublicSeat(payoff, read_int(seat["hand_count"], f"{where}.hand_count"),
                                read_piles(seat["discards"], f"{where}.discards")))
    view = SeatView(
        read_int(fields["viewer"], f"{path}.viewer"), read_pile(fields["hand"], f"{path}.hand"),
        tuple(seats), read_piles(fields["builds"], f"{path}.builds"),
        read_int(fields["draw_count"], f"{path}.draw_count"),
        read_int(fields["completed_count"], f"{path}.completed_count"),
        read_int(fields["seat"], f"{path}.seat"), read_int(fields["turn"], f"{path}.turn"),
        read_int(fields["turn_moves"], f"{path}.turn_moves"),
        read_int(fields["idle_turns"], f"{path}.idle_turns"),
        outcome_from_dict(fields["outcome"], f"{path}.outcome"), _removed_in(fields, path),
    )
    _check_teams(fields, rules, path)
    check_view(rules, view)
    return view


def dumps_view(view: SeatView, indent: int | None = None,
               teams: Sequence[Sequence[int]] = ()) -> str:
    """``view`` as JSON text (what a game server sends to the seat; ``teams`` as for
    :func:`view_to_dict`).

    Raises:
        SpiteMaliceError: ``indent`` is not ``None`` or 0 to
            :data:`~spitemalice.limits.MAX_INDENT`.
    """
    require_view(view, "dumps_view",
                 "write a whole state with spitemalice.formats.dumps_state(state)")
    check_teams(teams, "dumps_view")
    return json.dumps(view_to_dict(view, teams), indent=json_indent(indent))


def loads_view(text: str | bytes, rules: RuleBook) -> SeatView:
    """The view that :func:`dumps_view` text states, checked against ``rules``.

    Raises:
        DataError: malformed JSON or bad data.
        PositionError: the visible position breaks the rule set.
    """
    check_book(rules, "loads_view")
    return view_from_dict(parse_json(text, "view"), rules)


# -- outcomes ----------------------------------------------------------------------------


def outcome_to_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    """``None``, or ``{"kind": ..., "winner": seat or None, "scores": [...]}``."""
    if outcome is None:
        return None
    return {"kind": outcome.kind, "winner": outcome.winner, "scores": list(outcome.scores)}


def outcome_from_dict(data: Any, path: str) -> Outcome | None:
    """The outcome :func:`outcome_to_dict` wrote (``None`` for ``null``).

    Raises:
        DataError: a missing, unknown or mistyped field, an unknown kind, or a kind and a
            winner that disagree (:class:`~spitemalice.model.Outcome`).
    """
    if data is None:
        return None
    fields = read_object(data, path, ("kind", "winner", "scores"))
    kind = fields["kind"]
    if kind not in OUTCOME_KINDS:
        raise DataError(f"{path}.kind: expected one of {', '.join(OUTCOME_KINDS)}, "
                        f"not {shown(kind)}")
    winner = fields["winner"]
    scores = read_list(fields["scores"], f"{path}.scores")
    seat = None if winner is None else read_int(winner, f"{path}.winner")
    points = tuple(read_int(s, f"{path}.scores[{i}]", minimum=None)
                   for i, s in enumerate(scores))
    try:
        return Outcome(kind, seat, points)
    except SpiteMaliceError as error:  # the fields disagree (a "drawn" game with a winner)
        raise DataError(f"{path}: {error}") from None


def _pile_out(pile: Pile) -> list[str]:
    return [card_text(card) for card in pile]


def _piles_out(piles: tuple[Pile, ...]) -> list[list[str]]:
    return [_pile_out(pile) for pile in piles]
