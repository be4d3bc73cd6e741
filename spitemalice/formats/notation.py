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

**Full positions** (:func:`format_position` / :func:`parse_position`) list every card, so
printing a state and parsing it back gives an equal state, seed and shuffle counter included
(so the parsed state has the same future).  For scenario tests the draw pile may be written
``rest``: every card of the deck not placed elsewhere, in card order (the highest on top).

**Views** (:func:`format_view` / :func:`parse_view`) carry ``view=<seat>`` and show only what
that seat sees: its own hand in full, other hands as ``?n``, each pay-off pile as ``?n,TOP``
(``n`` cards under the top card), the draw pile and completed cards as ``?n``; they have no
``seed`` or ``shuffles`` field.

Parsing refuses, with a message naming the section, seat and pile: text that is not in the
grammar, a position the rule set cannot hold (:mod:`spitemalice.formats.position_check`: a
build pile out of sequence, more copies of a card than the deck holds, a hand over the hand
size, pile counts that differ from the rule set's) and hidden parts in a full position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from spitemalice import limits
from spitemalice.cards import Card, card_text, parse_card
from spitemalice.engine.views import PayoffView, PublicSeat, SeatView
from spitemalice.errors import NotationError
from spitemalice.formats.position_check import check_card_counts, check_position, check_view
from spitemalice.model import OUTCOME_KINDS, GameState, Outcome, Pile, Seat, sort_hand
from spitemalice.rules.book import RuleBook
from spitemalice.rules.policies import same_teams
from spitemalice.rules.ruleset import closest

Part = Card | int
"""One part of a pile as written: a card, or a count of face-down cards."""

EMPTY = "-"
REST = "rest"
RECYCLED = "~"
"""Marks the count of cards recycled from under a build pile's top: ``~4,5``."""
_STATE_KEYS = ("on", "turn", "moves", "idle", "seed", "shuffles", "end", "teams")
_VIEW_KEYS = ("view", "on", "turn", "moves", "idle", "end", "teams")


# -- writing -----------------------------------------------------------------------------


def format_position(state: GameState, teams: Sequence[Sequence[int]] = ()) -> str:
    """The full position of ``state`` on one line; :func:`parse_position` reads it back to
    an equal state.  ``teams`` (``RuleBook.teams.teams`` in a game with teams) adds the field
    ``teams=0+2/1+3``."""
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
    fields += _teams_field(teams)
    return " ".join([seats, _build_piles(state.builds, state.build_removed),
                     _pile(state.draw), _pile(state.completed), *fields])


def format_view(view: SeatView, teams: Sequence[Sequence[int]] = ()) -> str:
    """The view on one line (hidden cards as ``?n`` counts); :func:`parse_view` reads it
    back to an equal view.  ``teams`` adds the field ``teams=0+2/1+3``, as for a position."""
    seats = []
    for index, public in enumerate(view.seats):
        payoff = "|".join(_payoff_view(pile) for pile in public.payoff)
        hand = _pile(view.hand) if index == view.viewer else _hidden(public.hand_count)
        seats.append(":".join((payoff, hand, _piles(public.discards))))
    fields = [f"view={view.viewer}", f"on={view.seat}", f"turn={view.turn}",
              f"moves={view.turn_moves}", f"idle={view.idle_turns}"]
    if view.outcome is not None:
        fields.append(_outcome_text(view.outcome))
    fields += _teams_field(teams)
    return " ".join(["/".join(seats), _build_piles(view.builds, view.build_removed),
                     _hidden(view.draw_count), _hidden(view.completed_count), *fields])


def _teams_field(teams: Sequence[Sequence[int]]) -> list[str]:
    if not any(len(team) > 1 for team in teams):
        return []
    return ["teams=" + "/".join("+".join(str(seat) for seat in team) for team in teams)]


def _take_teams(text: str, rules: RuleBook) -> str:
    """``text`` without its ``teams=`` field, once that field is checked against the teams
    ``rules`` form.

    Raises:
        NotationError: the field is given twice, is not in the form ``0+2/1+3``, or names
            teams other than the rules' (or teams where the rules have none).
    """
    if not isinstance(text, str) or len(text) > limits.MAX_POSITION_CHARS:
        return text  # _split refuses it with the usual message
    tokens = text.split()
    given = [token for token in tokens if token.startswith("teams=")]
    if not given:
        return text
    if len(given) > 1:
        raise NotationError("position field 'teams' is given twice")
    value = given[0][len("teams="):]
    want = _teams_field(rules.teams.teams)
    seats = [[limits.whole_number(seat) for seat in team.split("+")]
             for team in value.split("/")]
    if not want or not all(None not in team for team in seats) \
            or not same_teams(seats, rules.teams.teams):  # type: ignore[arg-type]
        form = want[0] if want else "no teams field: the rules play without teams"
        raise NotationError(f"position field teams={_short(value)!r}: {rules.name} here has "
                            f"{form}")
    return " ".join(token for token in tokens if token is not given[0])


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


# -- reading -----------------------------------------------------------------------------


def parse_position(text: str, rules: RuleBook) -> GameState:
    """The state a full position text states, checked against ``rules``.

    Raises:
        NotationError: the text is not in the grammar, or hides cards (``?n``); the message
            names the section, seat and pile.
        PositionError: the position breaks the rule set (see
            :func:`~spitemalice.formats.position_check.check_position`).
    """
    sections, fields, outcome = _split(_take_teams(text, rules), _STATE_KEYS)
    if "on" not in fields:
        raise NotationError("position: the field 'on=<seat>' (the seat on turn) is missing")
    raw_seats = _seats(sections[0])
    seats = []
    for index, (payoff, hand, discards) in enumerate(raw_seats):
        where = f"seat {index}"
        seats.append(Seat(
            tuple(_known(p, f"{where} pay-off pile {n}") for n, p in enumerate(payoff, 1)),
            _known(hand, f"{where} hand"),
            tuple(_known(p, f"{where} discard pile {n}") for n, p in enumerate(discards, 1)),
        ))
    builds, removed = _builds(sections[1])
    completed = _known(_parse_pile(sections[3], "completed cards"), "completed cards")
    placed = [c for s in seats for c in (*s.hand, *_flat(s.payoff), *_flat(s.discards))]
    placed += [*_flat(builds), *completed]
    if sections[2] == REST:
        draw = _rest(rules, placed)
    else:
        draw = _known(_parse_pile(sections[2], "draw pile"), "draw pile")
    state = GameState(
        tuple(seats), builds, draw, completed,
        seat=fields["on"], turn=fields.get("turn", 0), turn_moves=fields.get("moves", 0),
        idle_turns=fields.get("idle", 0), seed=fields.get("seed", 0),
        shuffles=fields.get("shuffles", 0), outcome=outcome, build_removed=removed,
    )
    check_position(rules, state)
    return state


def parse_view(text: str, rules: RuleBook) -> SeatView:
    """The seat view a view text states (it has a ``view=<seat>`` field), checked against
    ``rules``.

    Raises:
        NotationError: the text is not in the grammar, lacks ``view=`` or ``on=``, shows
            another seat's hand or a card under a pay-off pile's top card by card, or has a
            pay-off pile whose top is hidden.
        PositionError: the visible position breaks the rule set.
    """
    sections, fields, outcome = _split(_take_teams(text, rules), _VIEW_KEYS)
    for key, what in (("view", "the viewing seat"), ("on", "the seat on turn")):
        if key not in fields:
            raise NotationError(f"view: the field '{key}=<seat>' ({what}) is missing")
    if sections[2] == REST:
        raise NotationError("view: the draw pile is '?<count>' or '-' in a view, not 'rest'")
    viewer = fields["view"]
    raw_seats = _seats(sections[0])
    if viewer >= len(raw_seats):
        raise NotationError(f"view: view={viewer}, but the position has {len(raw_seats)} seats")
    hand: Pile = ()
    publics = []
    for index, (payoff, raw_hand, discards) in enumerate(raw_seats):
        where = f"seat {index}"
        if index == viewer:
            hand = _known(raw_hand, f"{where} hand (the viewer's own)")
            hand_count = len(hand)
        elif any(isinstance(part, Card) for part in raw_hand):
            raise NotationError(f"{where} hand: seat {viewer}'s view shows it only as a "
                                f"count ('?{_count(raw_hand)}')")
        else:
            hand_count = _count(raw_hand)
        publics.append(PublicSeat(
            tuple(_payoff_pile(p, f"{where} pay-off pile {n}") for n, p in enumerate(payoff, 1)),
            hand_count,
            tuple(_known(p, f"{where} discard pile {n}") for n, p in enumerate(discards, 1)),
        ))
    draw = _hidden_only(_parse_pile(sections[2], "draw pile"), "draw pile")
    completed = _hidden_only(_parse_pile(sections[3], "completed cards"), "completed cards")
    builds, removed = _builds(sections[1])
    view = SeatView(
        viewer, hand, tuple(publics), builds, draw, completed,
        fields["on"], fields.get("turn", 0), fields.get("moves", 0), fields.get("idle", 0),
        outcome, removed,
    )
    check_view(rules, view)
    return view


def seat_count(text: str) -> int:
    """How many seats a position or view text lists: its first section holds one block per
    seat, ``/`` between them.  Read before the rules are loaded, so that a text in the wrong
    shape is refused as such rather than as a player count the rules do not allow.

    Raises:
        NotationError: ``text`` is not text, is too long, or lacks the four pile sections.
    """
    return _sections(text)[0].count("/") + 1


def _sections(text: str) -> list[str]:
    """The whitespace-separated tokens of a position or view text, once its four pile
    sections are known to be there."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    if len(text) > limits.MAX_POSITION_CHARS:
        raise NotationError(f"position {_short(text)!r} is {len(text):,} characters long; at "
                            f"most {limits.MAX_POSITION_CHARS:,} are read")
    tokens = text.split()
    sections = tokens[:4]
    if len(sections) < 4 or any("=" in token for token in sections):
        raise NotationError(
            f"position {_short(text)!r}: expected four sections (seats, build piles, draw "
            "pile, completed cards) before the key=value fields, as "
            "'AS:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0'"
        )
    return tokens


def _split(text: str, keys: tuple[str, ...]) -> tuple[list[str], dict[str, int], Outcome | None]:
    """The four pile sections and the parsed fields of a position or view text."""
    tokens = _sections(text)
    sections = tokens[:4]
    fields: dict[str, int] = {}
    outcome: Outcome | None = None
    for token in tokens[4:]:
        key, sep, value = token.partition("=")
        if not sep:
            raise NotationError(f"position field {token!r}: write fields as key=value "
                                f"({', '.join(keys)})")
        if key == "view" and key not in keys:
            raise NotationError("position field 'view': this text is a seat's view, not a full "
                                "position; read it with parse_view")
        if key not in keys:
            extra = (" (a view has no seed or shuffles: they would reveal hidden cards)"
                     if key in ("seed", "shuffles") else "")
            if "view" not in keys:
                extra += " (and view, in a seat's view)"
            raise NotationError(f"position field {key!r} is unknown{closest(key, keys)}; the "
                                f"fields are {', '.join(keys)}{extra}")
        if key in fields or (key == "end" and outcome is not None):
            raise NotationError(f"position field {key!r} is given twice")
        if key == "end":
            outcome = _outcome(value)
        else:
            fields[key] = _number(key, value)
    return sections, fields, outcome


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _number(key: str, value: str) -> int:
    number = limits.whole_number(value)
    if number is None:
        raise NotationError(f"position field {key}={_short(value)!r}: expected a whole number "
                            f">= 0 of at most {limits.MAX_DIGITS} digits")
    return number


def _outcome(value: str) -> Outcome:
    parts = value.split(":")
    form = "'end=<kind>:<winner seat or ->:<score>,<score>...', as 'end=win:1:35,0'"
    if len(parts) != 3:
        raise NotationError(f"position field end={value!r}: expected {form}")
    kind, winner, scores = parts
    if kind not in OUTCOME_KINDS:
        raise NotationError(f"position field end={value!r}: the kind is one of "
                            f"{', '.join(OUTCOME_KINDS)}, not {kind!r}")
    seat = None if winner == "-" else limits.whole_number(winner)
    if winner != "-" and seat is None:
        raise NotationError(f"position field end={_short(value)!r}: the winner is a seat "
                            f"number or '-', not {_short(winner)!r}")
    points = tuple(_score(score) for score in scores.split(","))
    if None in points:
        raise NotationError(f"position field end={_short(value)!r}: scores are whole numbers "
                            f"of at most {limits.MAX_DIGITS} digits separated by commas, not "
                            f"{_short(scores)!r}")
    return Outcome(kind, seat, points)  # type: ignore[arg-type]


def _score(text: str) -> int | None:
    """A score: a whole number, possibly negative (some rule sets score below zero)."""
    number = limits.whole_number(text.removeprefix("-"))
    return None if number is None else (-number if text.startswith("-") else number)


def _seats(section: str) -> list[tuple[list[list[Part]], list[Part], list[list[Part]]]]:
    seats = []
    for index, text in enumerate(section.split("/")):
        parts = text.split(":")
        if len(parts) != 3:
            raise NotationError(
                f"seat {index} {text!r}: expected '<pay-off piles>:<hand>:<discard piles>', "
                "as '?25,9H:2S,5H:-|4S|-|-' (piles separated by '|', '-' for an empty one)"
            )
        payoff, hand, discards = parts
        seats.append((
            [_parse_pile(p, f"seat {index} pay-off pile {n}")
             for n, p in enumerate(payoff.split("|"), 1)],
            _parse_pile(hand, f"seat {index} hand"),
            [_parse_pile(p, f"seat {index} discard pile {n}")
             for n, p in enumerate(discards.split("|"), 1)],
        ))
    return seats


def _builds(section: str) -> tuple[tuple[Pile, ...], tuple[int, ...]]:
    """The build piles and the cards recycled from under each (``()`` when none was)."""
    if section == EMPTY:
        return (), ()
    piles, removed = [], []
    for n, text in enumerate(section.split("|"), 1):
        where = f"build pile {n}"
        count = 0
        if text.startswith(RECYCLED):
            mark, _, text = text.partition(",")
            number = limits.whole_number(mark[1:])
            if number is not None and number >= 1 and not text:
                raise NotationError(
                    f"{where}: {_short(mark)!r} names no pile; write '~', the cards recycled "
                    "from under the pile, a comma and the pile, as '~4,5'")
            if number is None or number < 1:
                raise NotationError(
                    f"{where}: {_short(mark)!r} is not a count of recycled cards, a whole "
                    "number of 1 or more; write '~', the cards recycled from under the pile, "
                    "a comma and the pile, as '~4,5' (a pile with nothing recycled is "
                    "written without '~', as '5')")
            count = number
        piles.append(_known(_parse_pile(text, where), where))
        removed.append(count)
    return tuple(piles), (tuple(removed) if any(removed) else ())


def _parse_pile(text: str, where: str) -> list[Part]:
    if text == EMPTY:
        return []
    if not text:
        raise NotationError(f"{where}: empty text; write '-' for an empty pile")
    parts: list[Part] = []
    for part in text.split(","):
        if part.startswith("?"):
            count = limits.whole_number(part[1:])
            if count is None or count < 1:
                raise NotationError(f"{where}: {_short(part)!r} is not a hidden count; write "
                                    "'?' and a number of cards, as '?24'")
            parts.append(count)
        else:
            try:
                parts.append(parse_card(part))
            except NotationError as error:
                raise NotationError(f"{where}: {error}") from None
    return parts


def _known(parts: list[Part], where: str) -> Pile:
    for part in parts:
        if not isinstance(part, Card):
            raise NotationError(
                f"{where}: '?{part}' hides cards; a full position lists every card (hidden "
                "counts belong in a seat's view, which has a 'view=' field)"
            )
    return tuple(parts)  # type: ignore[arg-type]


def _count(parts: list[Part]) -> int:
    return sum(1 if isinstance(part, Card) else part for part in parts)


def _hidden_only(parts: list[Part], where: str) -> int:
    if any(isinstance(part, Card) for part in parts):
        raise NotationError(f"{where}: a view shows it only as a count, as '?{_count(parts)}'")
    return _count(parts)


def _payoff_pile(parts: list[Part], where: str) -> PayoffView:
    if not parts:
        return PayoffView(0, None)
    top = parts[-1]
    if not isinstance(top, Card):
        raise NotationError(f"{where}: the top card of a pay-off pile is face up; write it "
                            f"after the hidden count, as '?{top - 1},9H'")
    if any(isinstance(part, Card) for part in parts[:-1]):
        raise NotationError(f"{where}: the cards under a pay-off pile's top are face down; a "
                            f"view shows them only as a count, as '?{_count(parts) - 1},"
                            f"{card_text(top)}'")
    return PayoffView(_count(parts), top)


def _flat(piles: Sequence[Pile]) -> list[Card]:
    return [card for pile in piles for card in pile]


def _rest(rules: RuleBook, placed: list[Card]) -> Pile:
    deck = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    check_card_counts(rules, placed)
    deck.subtract(placed)
    return sort_hand(deck.elements())


# -- describing --------------------------------------------------------------------------


def describe_position(state: GameState, teams: Sequence[Sequence[int]] = ()) -> str:
    """A position laid out for people, several lines: each seat's pay-off piles (top and
    count), hand and discard piles, the build piles, the draw pile, the teams (``teams``,
    ``RuleBook.teams.teams``, in a game with teams) and the counters."""
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
        f"{card_text(p.top)} ({p.count} card{'s' if p.count != 1 else ''})"
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

