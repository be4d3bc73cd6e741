"""Pictures of positions: a game state or a seat's view as an SVG table layout.

:func:`position_svg` draws, top to bottom: a header (caption, whose turn or the outcome),
the build piles (top card, pile number and the rank reached; a wild card on top is marked
with the rank it stands for) with the draw-pile and completed-card counts at the right of
their row, then one panel per
seat: its pay-off piles (face-up top and card count), its discard piles fanned downward so
every card's corner shows, and its hand.  A whole state shows every hand; a view
(:class:`~spitemalice.engine.views.SeatView`, or a state with ``viewer=``) shows only the viewing
seat's hand and the others' as face-down cards with a count, so a picture never shows a
seat more than its view holds.

The SVG is plain text written with the standard library (no drawing dependency).  Every
card is a ``<g class="card">`` element with ``data-card`` (its text, ``QS``) and
``data-zone`` (``build1``, ``seat0-payoff1``, ``seat0-discard2``, ``seat0-hand``) so a
program or a test can read back what is drawn; face-down cards are
``<g class="card-back">`` with ``data-count``.  Every pile, empty or not, is a
``<g class="pile">`` with the same ``data-zone`` around its cards (an empty one holds a dashed
slot), and ``new_pile=True`` adds the slot ``build-new`` where a new build pile would open, so
a page can make piles and cards clickable on this one drawing (:mod:`spitemalice.server` does).
Every text comes through :func:`xml.sax.saxutils.escape` and every attribute through
``quoteattr``, so a name typed by a person is drawn as the text it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

import attrs

from spitemalice.cards import SKIP_BO, SUITS, Card, card_text, rank_text
from spitemalice.engine.views import PayoffView, SeatView, view_of
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_list, check_teams
from spitemalice.model import GameState, Outcome, Pile
from spitemalice.wording import given_text

CARD_W, CARD_H = 46, 64
"""Size of a card in the picture (SVG user units, pixels at 100%)."""
FAN = 20
"""How far each card of a fanned discard pile sits below the one under it."""
GAP, MARGIN = 10, 16
_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_RED = {"H", "D"}
_FONT = "font-family='DejaVu Sans, Arial, sans-serif'"


@attrs.frozen
class _SeatRow:
    """One seat as the picture shows it: ``hand`` is ``None`` when it is face down."""

    index: int
    payoff: tuple[PayoffView, ...]
    hand: Pile | None
    hand_count: int
    discards: tuple[Pile, ...]


@attrs.frozen
class _Table:
    seats: tuple[_SeatRow, ...]
    builds: tuple[Pile, ...]
    build_removed: tuple[int, ...]
    draw_count: int
    completed_count: int
    seat: int
    turn: int
    turn_moves: int
    outcome: Outcome | None
    viewer: int | None
    teams: tuple[tuple[int, ...], ...] = ()
    names: tuple[str, ...] = ()
    new_pile: bool = False
    spectator: bool = False


def position_svg(position: GameState | SeatView, *, viewer: int | None = None,
                 caption: str = "", teams: Sequence[Sequence[int]] = (),
                 names: Sequence[str] = (), new_pile: bool = False,
                 spectator: bool = False) -> str:
    """The position as an SVG document (UTF-8 text, starting ``<svg``).

    Args:
        position: a whole state (every hand is drawn face up) or a seat's view (only the
            viewer's hand is drawn face up).
        viewer: with a state, draw the view of this seat instead (``view_of(state, viewer)``).
        caption: a line of text at the top (say the rule set and the move just made).
        teams: ``RuleBook.teams.teams`` in a game with teams: each seat's label names its
            team (``team 0+2``).
        names: who sits at each seat, in seat order (``()``: seats are only numbered); each
            seat's label shows its name, escaped.
        new_pile: draw an empty slot, zone ``build-new``, after the open build piles (where
            a card would open a new one; pass it when the rules allow another pile).
        spectator: with a view, draw every hand face down, the viewer's too: what someone
            who watches the table, and holds no seat, may see.

    Raises:
        TypeError: ``position`` is neither a :class:`~spitemalice.model.GameState` nor a
            :class:`~spitemalice.engine.views.SeatView`.
        SpiteMaliceError: ``viewer`` is given with a view, or is not a seat of the state;
            ``names`` is given but not one per seat; ``spectator`` with a whole state.
    """
    if not isinstance(position, GameState | SeatView):
        raise TypeError(f"position_svg takes a GameState or a seat's view (SeatView) (what "
                        f"spitemalice.deal(rules, seed) or spitemalice.view_of(state, seat) "
                        f"returns), not {given_text(position)}")
    check_teams(teams, "position_svg")
    check_list(names, "position_svg", "names, a list of seat names,",
               '["me", "greedy"]')
    if isinstance(position, SeatView):
        if viewer is not None:
            raise SpiteMaliceError("viewer= is for a whole state; a view already has its "
                                   f"viewer (seat {position.viewer})")
        table = _view_table(position, spectator)
    elif spectator:
        raise SpiteMaliceError("spectator= is for a seat's view (it hides that seat's hand "
                               "too); a whole state shows every hand: pass view_of(state, 0)")
    elif viewer is not None:
        table = _view_table(view_of(position, viewer))
    else:
        table = _state_table(position)
    if any(len(team) > 1 for team in teams):
        table = attrs.evolve(table, teams=tuple(tuple(team) for team in teams))
    if names and len(names) != len(table.seats):
        raise SpiteMaliceError(f"names= gives {len(names)} name(s) for {len(table.seats)} "
                               "seats; give one per seat, in seat order")
    return _draw(attrs.evolve(table, names=tuple(names), new_pile=new_pile), caption)


def _state_table(state: GameState) -> _Table:
    rows = tuple(
        _SeatRow(i, tuple(PayoffView(len(p), p[-1] if p else None) for p in seat.payoff),
                 seat.hand, len(seat.hand), seat.discards)
        for i, seat in enumerate(state.seats)
    )
    return _Table(rows, state.builds, state.build_removed, len(state.draw),
                  len(state.completed), state.seat,
                  state.turn, state.turn_moves, state.outcome, None)


def _view_table(view: SeatView, spectator: bool = False) -> _Table:
    rows = tuple(
        _SeatRow(i, public.payoff, view.hand if i == view.viewer and not spectator else None,
                 public.hand_count, public.discards)
        for i, public in enumerate(view.seats)
    )
    return _Table(rows, view.builds, view.build_removed, view.draw_count,
                  view.completed_count, view.seat,
                  view.turn, view.turn_moves, view.outcome,
                  None if spectator else view.viewer, spectator=spectator)


# -- layout ------------------------------------------------------------------------------

_HEADER_H = 64
_BUILD_H = CARD_H + 44
_LABEL_H = 22


def _panel_height(row: _SeatRow) -> int:
    longest = max((len(pile) for pile in row.discards), default=0)
    fan = CARD_H + FAN * max(longest - 1, 0)
    return _LABEL_H + 16 + max(CARD_H, fan) + 14


def _panel_width(row: _SeatRow) -> int:
    hand = len(row.hand) if row.hand is not None else 1
    piles = len(row.payoff) + len(row.discards)
    return 2 * GAP + piles * (CARD_W + GAP) + 3 * GAP + max(hand, 1) * (CARD_W + 4) + 90


_NARROW = frozenset(" .,:;'!|()[]ijlrtf\u00b7")
_WIDE = frozenset("MWmw@%")


def _text_width(text: str, size: int, bold: bool = False) -> int:
    """A generous estimate of how wide ``text`` is drawn at font ``size``: DejaVu Sans draws
    narrow signs in under 0.4 em, capitals in under 0.8 em (M and W under 1 em), the rest of
    ASCII in under 0.64 em, bold about a tenth wider; any other character (a name may hold
    CJK or emoji) is taken as 1 em."""
    ems = sum(0.4 if char in _NARROW else 1.0 if char in _WIDE or not char.isascii()
              else 0.8 if char.isupper() else 0.64 for char in text)
    return int(ems * size * (1.1 if bold else 1.0)) + 1


def _draw(table: _Table, caption: str) -> str:
    # The picture is wide enough for the header's lines (a caption may name a person), and
    # for the build piles with the counts at the right of their row.
    counts = max(_text_width(text, 13, bold=True) for text in _counts(table))
    header = max(_text_width(caption, 15, bold=True), _text_width(_status_line(table), 14),
                 *(2 * GAP + _text_width(_seat_label(table, row), 13, bold=True)
                   for row in table.seats))
    width = max([560, MARGIN * 2 + header,
                 MARGIN * 2 + (len(table.builds) + 1) * (CARD_W + 24) + 2 * GAP + counts,
                 *(MARGIN * 2 + _panel_width(row) for row in table.seats)])
    parts: list[str] = []
    parts += _header(table, caption)
    parts += _builds(table.builds, table.build_removed, MARGIN, _HEADER_H, table.new_pile)
    draw, completed = _counts(table)
    parts.append(_text(width - MARGIN, _HEADER_H + 14, draw, anchor="end", weight="bold"))
    parts.append(_text(width - MARGIN, _HEADER_H + 32, completed, anchor="end", weight="bold"))
    lines = max((len(_build_labels(number, pile, table.build_removed))
                 for number, pile in enumerate(table.builds, 1)), default=1)
    y = _HEADER_H + _BUILD_H + 14 * (lines - 1)  # room for "(wild)" and "n recycled"
    for row in table.seats:
        height = _panel_height(row)
        parts += _panel(table, row, MARGIN, y, width - 2 * MARGIN, height)
        y += height + GAP
    height = y + MARGIN - GAP
    head = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}' {_FONT} font-size='13'>")
    background = f"<rect width='{width}' height='{height}' fill='#2f6b45'/>"
    return "\n".join([head, background, *parts, "</svg>"]) + "\n"


def _header(table: _Table, caption: str) -> list[str]:
    parts = []
    if caption:
        parts.append(_text(MARGIN, 22, caption, size=15, weight="bold"))
    parts.append(_text(MARGIN, 44, _status_line(table), size=14,
                       fill="#ffe27a" if table.outcome is None else "#ffffff"))
    return parts


def _status_line(table: _Table) -> str:
    status = _status(table)
    if table.viewer is not None:
        status += f" \u00b7 as seat {table.viewer} sees it"
    elif table.spectator:
        status += " \u00b7 as a spectator sees it"
    return status


def _counts(table: _Table) -> tuple[str, str]:
    """The draw pile's and the completed cards' counts (at the right of the build piles)."""
    return f"draw pile: {table.draw_count}", f"completed: {table.completed_count}"


def _status(table: _Table) -> str:
    outcome = table.outcome
    if outcome is not None:
        return f"Game over: {outcome.describe()}"
    return (f"Seat {table.seat} to play \u00b7 turn {table.turn + 1} \u00b7 "
            f"{table.turn_moves} card(s) moved this turn")


def _builds(builds: Sequence[Pile], removed: Sequence[int], x: int, y: int,
            new_pile: bool) -> list[str]:
    parts = [_text(x, y + 14, "Build piles", weight="bold")]
    if not builds and not new_pile:
        parts.append(_text(x, y + 44, "none open", fill="#cfe8d6"))
    for number, pile in enumerate(builds, 1):
        left = x + (number - 1) * (CARD_W + 24)
        top = pile[-1]
        parts.append(_open_pile(f"build{number}"))
        parts.append(_card(top, left, y + 22, f"build{number}"))
        for line, label in enumerate(_build_labels(number, pile, removed), 1):
            parts.append(_text(left, y + 22 + CARD_H + 14 * line, label, size=11))
        parts.append("</g>")
    if new_pile:
        left = x + len(builds) * (CARD_W + 24)
        parts += [_open_pile("build-new"), _slot(left, y + 22),
                  _text(left, y + 22 + CARD_H + 14, "new pile", size=11, fill="#cfe8d6"),
                  "</g>"]
    return parts


def _build_labels(number: int, pile: Pile, removed: Sequence[int]) -> list[str]:
    """The lines under build pile ``number``, each narrower than the pile's place: its rank
    (``B1: 10``), ``(wild)`` when a wild card on top stands for it, and ``3 recycled`` when
    cards under its top were recycled (which is why the pile is so short)."""
    under = removed[number - 1] if removed else 0
    stands = under + len(pile)
    # Numbered decks (suitless cards, Skip-Bo's SB) count in numbers: 11, not J.
    naturals = [card for card in pile if card.rank]
    numbered = not naturals[0].suit if naturals else pile[-1] == SKIP_BO
    labels = [f"B{number}: {stands if numbered else rank_text(stands)}"]
    if pile[-1].rank != stands:
        labels.append("(wild)")
    if under:
        labels.append(f"{under} recycled")
    return labels


def _panel(table: _Table, row: _SeatRow, x: int, y: int, width: int, height: int) -> list[str]:
    on_turn = table.outcome is None and row.index == table.seat
    border = "#ffd23f" if on_turn else "#1f4a30"
    parts = [f"<rect x='{x}' y='{y}' width='{width}' height='{height}' rx='8' "
             f"fill='#3b7f55' stroke='{border}' stroke-width='{3 if on_turn else 1}'/>"]
    parts.append(_text(x + GAP, y + 17, _seat_label(table, row), weight="bold"))
    top = y + _LABEL_H + 14
    left = x + GAP
    for number, payoff in enumerate(row.payoff, 1):
        name = f"Pay-off {number}" if len(row.payoff) > 1 else "Pay-off"
        parts += _payoff(payoff, left, top, name, f"seat{row.index}-payoff{number}")
        left += CARD_W + GAP
    left += 2 * GAP
    for number, pile in enumerate(row.discards, 1):
        parts += _fan(pile, left, top, f"D{number}", f"seat{row.index}-discard{number}")
        left += CARD_W + GAP
    parts += _hand(row, left + 2 * GAP, top)
    return parts


def isolated(name: str) -> str:
    """``name`` between the Unicode marks that isolate it from the text around it (FSI ...
    PDI), so a name written right to left, or ending in digits, is drawn as itself and
    never reorders the words beside it."""
    return f"\u2068{name}\u2069"


def _seat_label(table: _Table, row: _SeatRow) -> str:
    """``Seat 0 · Ann · team 0+2 (you) — to play``: the panel's title."""
    label = f"Seat {row.index}"
    if table.names:
        label += f" \u00b7 {isolated(table.names[row.index])}"
    for team in table.teams:
        if row.index in team:
            label += f" \u00b7 team {'+'.join(map(str, team))}"
    if table.viewer == row.index:
        label += " (you)"
    if table.outcome is None and row.index == table.seat:
        label += " \u2014 to play"
    return label


def _payoff(pile: PayoffView, x: int, y: int, name: str, zone: str) -> list[str]:
    """A pay-off pile: its face-up top (or an empty slot) and a badge with its count."""
    face = _slot(x, y) if pile.top is None else _card(pile.top, x, y, zone)
    return [_open_pile(zone), _text(x, y - 4, name, size=10), face,
            _badge(x + CARD_W - 4, y + CARD_H - 4, str(pile.count)), "</g>"]


def _fan(pile: Pile, x: int, y: int, name: str, zone: str) -> list[str]:
    """A discard pile fanned downward, bottom card first, so every card's corner shows."""
    parts = [_open_pile(zone), _text(x, y - 4, name, size=10)]
    if not pile:
        parts.append(_slot(x, y))
    parts += [_card(card, x, y + depth * FAN, zone) for depth, card in enumerate(pile)]
    return [*parts, "</g>"]


def _hand(row: _SeatRow, x: int, y: int) -> list[str]:
    """The hand face up in a row, or (another seat's, in a view) one face-down card with
    the count."""
    zone = f"seat{row.index}-hand"
    parts = [_open_pile(zone), _text(x, y - 4, f"Hand ({row.hand_count})", size=10)]
    if row.hand is None:
        if row.hand_count:
            parts.append(_back(x, y, row.hand_count, zone))
        return [*parts, "</g>"]
    parts += [_card(card, x + n * (CARD_W + 4), y, zone) for n, card in enumerate(row.hand)]
    return [*parts, "</g>"]


# -- drawing primitives ------------------------------------------------------------------


def _open_pile(zone: str) -> str:
    """The start of a pile's group (the caller closes it with ``</g>``)."""
    return f"<g class='pile' data-zone='{zone}'>"


def _text(x: int, y: int, text: str, *, size: int = 13, weight: str = "normal",
          fill: str = "#ffffff", anchor: str = "start") -> str:
    return (f"<text x='{x}' y='{y}' font-size='{size}' font-weight='{weight}' fill='{fill}' "
            f"text-anchor='{anchor}'>{escape(text)}</text>")


def _face(card: Card) -> tuple[str, str, str]:
    """(corner label, centre symbol, colour) of a card."""
    if card.suit in SUITS:
        symbol = _SYMBOL[card.suit]
        colour = "#c0152f" if card.suit in _RED else "#111111"
        return rank_text(card.rank) + symbol, symbol, colour
    if card.rank == 0 and not card.suit:
        return "\u2605", "JOKER", "#6a1b9a"
    text = card_text(card)
    return text, text, "#0b3d91"


def _card(card: Card, x: int, y: int, zone: str) -> str:
    corner, centre, colour = _face(card)
    big = 24 if len(centre) <= 2 else 11
    return (
        f"<g class='card' data-card={quoteattr(card_text(card))} data-zone='{zone}'>"
        f"<title>{escape(card_text(card))}</title>"
        f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='5' fill='#ffffff' "
        f"stroke='#333333'/>"
        f"<text x='{x + 4}' y='{y + 15}' font-size='14' font-weight='bold' fill='{colour}'>"
        f"{escape(corner)}</text>"
        f"<text x='{x + CARD_W // 2}' y='{y + CARD_H // 2 + 14}' font-size='{big}' "
        f"text-anchor='middle' fill='{colour}'>{escape(centre)}</text></g>"
    )


def _back(x: int, y: int, count: int, zone: str) -> str:
    return (
        f"<g class='card-back' data-count='{count}' data-zone='{zone}'>"
        f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='5' fill='#284b8c' "
        f"stroke='#ffffff' stroke-width='2'/>"
        f"<text x='{x + CARD_W // 2}' y='{y + CARD_H // 2 + 6}' font-size='16' "
        f"font-weight='bold' text-anchor='middle' fill='#ffffff'>{count}</text></g>"
    )


def _slot(x: int, y: int) -> str:
    return (f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='5' fill='none' "
            f"stroke='#cfe8d6' stroke-dasharray='4 3'/>")


def _badge(x: int, y: int, text: str) -> str:
    return (f"<g class='count'><circle cx='{x}' cy='{y}' r='11' fill='#ffd23f' stroke='#333'/>"
            f"<text x='{x}' y='{y + 4}' font-size='11' font-weight='bold' text-anchor='middle' "
            f"fill='#111111'>{escape(text)}</text></g>")
