"""The terminal game's text: a seat's table laid out for a person, moves in words.

Pure functions from a :class:`~spitemalice.play.table_view.TableView` (what one seat sees) to
lines of plain text, no colours or cursor codes, so the screen reads the same in any terminal,
in a log and in a test.  Names in it are a stranger's text: the terminal game passes every
line through :func:`spitemalice.wording.for_terminal` before printing.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from spitemalice.cards import Card, card_text
from spitemalice.engine.views import PublicSeat
from spitemalice.guards import not_a_move
from spitemalice.model import Outcome, Pile
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone
from spitemalice.play.table_view import HUMAN, Played, TableView
from spitemalice.rules.book import RuleBook
from spitemalice.wording import a_or_an, count_of

WIDTH = 78
"""The widest line of running text (refusals, clauses); a terminal is at least 80 wide."""

RULE = "-" * 72
"""The line between one screen of the table and the next."""

NEW_PILE_TEXT = "(a new pile)"

COLUMNS = 5
"""Numbered moves per line in the list of legal moves."""


def table_lines(rules: RuleBook, table: TableView) -> list[str]:
    """The table from ``table.viewer``: the other seats, the build piles, the draw pile, the
    viewer's own piles and hand, whose turn it is and the last move.

    Every seat shows its pay-off piles (top card and count), its hand count and every card of
    every discard pile (bottom to top, the top last); every build pile shows its cards and the
    rank it needs next.
    """
    viewer = table.viewer
    lines = [RULE, *_packed("", _heading(rules, table).split("   ")), *_team_lines(table)]
    for seat in (*range(viewer + 1, len(table.seats)), *range(viewer)):
        lines += _seat_lines(rules, table, seat)
    lines += _build_lines(rules, table)
    lines.append(f"draw pile      {count_of(table.draw_count, 'card')}")
    lines += _seat_lines(rules, table, viewer)
    lines += _packed("  your hand    ", [_hand(rules, table.hand)])
    if table.last is not None:
        lines += _packed("last move      ", [played_line(rules, table, table.last)])
    return lines


def _packed(head: str, fields: Sequence[str], gap: str = "   ") -> list[str]:
    """``head`` then ``fields`` joined by ``gap``, broken between fields so that no line is
    wider than :data:`WIDTH` (a long name or discard pile would otherwise run past the edge
    of an 80-column terminal, where the terminal breaks it anywhere).  The lines after the
    first are indented to ``head``'s width; a field too long for a line of its own is
    broken between words (cards), its further lines indented four more, and the next field
    starts a new line."""
    indent = " " * len(head)
    room = WIDTH - len(indent)
    lines: list[str] = []
    line, broken = "", False
    for field in fields:
        if line and not broken and len(line) + len(gap) + len(field) <= room:
            line += gap + field
            continue
        if line:
            lines.append(line)
        *full, line = textwrap.wrap(field, room, subsequent_indent="    ",
                                    break_on_hyphens=False, break_long_words=False) or [""]
        lines += full
        broken = bool(full)  # the field after a broken one starts a line of its own
    lines.append(line)
    return [(head if number == 0 else indent) + text for number, text in enumerate(lines)]


def _heading(rules: RuleBook, table: TableView) -> str:
    on_turn = table.on_turn
    if table.outcome is not None:
        state = "game over"
    elif on_turn == table.viewer:
        state = "your turn"
    else:
        state = f"{seat_name(table, on_turn)}'s turn"
    return f"{' + '.join(rules.plugins)}   move {table.moves_made + 1}   {state}"


def _team_lines(table: TableView) -> list[str]:
    if not table.teams:
        return []
    teams = "   ".join(" + ".join("you" if seat == table.viewer else f"seat {seat}"
                                  for seat in team) for team in table.teams)
    return [f"teams          {teams}"]


def seat_name(table: TableView, seat: int) -> str:
    """``"you"`` for the viewer, else the seat's name and number: ``"greedy-1 (seat 1)"``."""
    if seat == table.viewer:
        return "you"
    return f"{table.seats[seat].name} (seat {seat})"


def _seat_lines(rules: RuleBook, table: TableView, seat: int) -> list[str]:
    public: PublicSeat = table.public[seat]
    mark = ">" if seat == table.on_turn and table.outcome is None else " "
    who = "you" if seat == table.viewer else table.seats[seat].name
    kind = "" if seat == table.viewer else f" ({_kind(table.seats[seat].kind)})"
    several = len(public.payoff) > 1
    payoff = "   ".join(
        (f"P{number}: " if several else "")
        + (f"{card_text(pile.top)} ({count_of(pile.count, 'card')})" if pile.top else "empty")
        for number, pile in enumerate(public.payoff, 1))
    fields = [f"pay-off {payoff}"]
    if seat != table.viewer:
        fields.append(f"hand {count_of(public.hand_count, 'card')}")
    discards = [f"D{number}: {cards_text(rules, pile) or '-'}"
                for number, pile in enumerate(public.discards, 1)]
    return [*_packed(f"{mark} seat {seat}  ", [f"{who}{kind}", *fields]),
            *_packed("    discard piles  ", discards)]


def _kind(kind: str) -> str:
    return "a person" if kind == HUMAN else f"{kind} bot"


def _build_lines(rules: RuleBook, table: TableView) -> list[str]:
    lines = ["build piles" + ("" if table.builds or table.may_open else "    none")]
    rows = [(f"B{pile.number}", _build_cards(rules, pile.cards, pile.top_rank), pile.needs)
            for pile in table.builds]
    if table.may_open:
        rows.append(("B+", NEW_PILE_TEXT, 1))
    width = max((len(cards) for _, cards, _ in rows), default=0)
    lines += [f"  {name:<3} {cards.ljust(width)}   needs {rules.deck.rank_name(needs)}"
              for name, cards, needs in rows]
    return lines


def _build_cards(rules: RuleBook, pile: Pile, top_rank: int) -> str:
    """The pile bottom to top; a wild card shows the rank it stands for, ``KH=5``."""
    first = top_rank - len(pile) + 1
    return " ".join(card_text(card) + (f"={rules.deck.rank_name(first + i)}"
                                       if rules.wild.is_wild(card) else "")
                    for i, card in enumerate(pile))


def _hand(rules: RuleBook, hand: Pile) -> str:
    """The hand, each wild card marked ``*`` (with the key when there is one)."""
    if not hand:
        return "empty"
    shown = " ".join(card_text(card) + ("*" if rules.wild.is_wild(card) else "")
                     for card in hand)
    return shown + ("   (* wild)" if any(map(rules.wild.is_wild, hand)) else "")


def wrapped(text: str, indent: str = "  ") -> str:
    """``text`` broken into lines of at most :data:`WIDTH` characters, the lines after the
    first indented by ``indent``."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False)


def fitted(line: str) -> list[str]:
    """``line`` as it is when at most :data:`WIDTH` characters wide, else broken between
    words into lines that are, the further ones indented two more than ``line`` (a long seat
    name, file name or error would otherwise run past the edge of an 80-column terminal).  A
    single word longer than the width (a file's path) is left whole."""
    if len(line) <= WIDTH:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False)


def with_command(text: str, command: str) -> list[str]:
    """``text`` and the shell ``command`` it offers on one line when they fit in
    :data:`WIDTH`, else ``text`` (broken by :func:`fitted`) and the command on a line of its
    own, indented two and never broken: a command broken over lines cannot be copied."""
    if len(text) + 1 + len(command) <= WIDTH:
        return [f"{text} {command}"]
    return [*fitted(text), f"  {command}"]


def cards_text(rules: RuleBook, cards: Sequence[Card]) -> str:
    """Cards in text form, separated by spaces (``""`` for none).
    """
    return " ".join(card_text(card) for card in cards)


def move_list(moves: Sequence[Move]) -> list[str]:
    """The legal moves numbered from 1, in move text, :data:`COLUMNS` to a line (fewer when
    the moves' texts are long, so that a line stays within :data:`WIDTH`)."""
    cells = [f"{number:>3} {move}" for number, move in enumerate(moves, 1)]
    width = max((len(cell) for cell in cells), default=0) + 2
    columns = max(1, min(COLUMNS, (WIDTH + 2) // width))
    return ["".join(cell.ljust(width) for cell in cells[start:start + columns]).rstrip()
            for start in range(0, len(cells), columns)]


def move_words(rules: RuleBook, move: Move, builds: Sequence[int] = ()) -> str:
    """``move`` in words: ``"plays 9H from the hand on build pile 2"``.

    Args:
        builds: the build piles' top ranks before the move (:attr:`SeatView.build_tops`); with
            them a wild card's play says the rank it stands for (``"as a 5"``).

    Raises:
        TypeError: ``move`` is not a move (move text, say: the message names
            :func:`spitemalice.parse_move`).
    """
    if isinstance(move, Pass):
        return "passes"
    if isinstance(move, Discard):
        owner = "" if move.owner is None else f"seat {move.owner}'s "
        return (f"discards {' and '.join(map(card_text, move.cards))} on {owner}"
                f"discard pile {move.pile + 1}")
    if not isinstance(move, Play):
        raise not_a_move(move, "move_words")
    return _play_words(rules, move, builds)


def _play_words(rules: RuleBook, move: Play, builds: Sequence[int]) -> str:
    source = {Zone.HAND: "the hand", Zone.PAYOFF: "the pay-off pile",
              Zone.DISCARD: f"discard pile {move.index + 1}"}[move.zone]
    if move.zone is Zone.PAYOFF and move.index:
        source = f"pay-off pile {move.index + 1}"
    if move.owner is not None:
        source = f"seat {move.owner}'s {source.removeprefix('the ')}"
    target = "a new build pile" if move.pile == NEW_PILE else f"build pile {move.pile + 1}"
    standing = ""
    if rules.wild.is_wild(move.card):
        if move.pile == NEW_PILE:
            standing = f" as {a_or_an(rules.deck.rank_name(1))}"
        elif 0 <= move.pile < len(builds):
            standing = f" as {a_or_an(rules.deck.rank_name(builds[move.pile] + 1))}"
    return f"plays {card_text(move.card)} from {source} on {target}{standing}"


def played_line(rules: RuleBook, table: TableView, played: Played,
                builds: Sequence[int] = ()) -> str:
    """One move on one line: who made it, what it did in words, and its move text, as
    ``"greedy-1 (seat 1): plays 9H from the hand on build pile 2   [9H>B2]"``; a move that
    completed its build pile adds its note (``"; build pile 1 is complete and set aside;
    build pile 2 is now build pile 1"``, :attr:`Played.note`), as the piles after it now
    have the numbers the next moves use.
    """
    done = f"; {played.note}" if played.note else ", completing it" if played.completed else ""
    return (f"{seat_name(table, played.seat)}: {move_words(rules, played.move, builds)}"
            f"   [{played.text}]{done}")


def outcome_lines(table: TableView, outcome: Outcome) -> list[str]:
    """The end of the game: how it ended, who won, and every seat's score."""
    why = {"win": "every pay-off card played", "drawn": "the draw pile ran out",
           "blocked": "every seat passed in turn without moving a card",
           "turn-limit": "the game reached the turn limit"}[outcome.kind]
    if outcome.winner is not None:
        winner = "you win" if outcome.winner == table.viewer else \
            f"{seat_name(table, outcome.winner)} wins"
        head = f"game over: {winner} ({why})"
    else:
        head = f"game over: no winner ({why})"
    scores = [f"{seat_name(table, seat)} {score}" for seat, score in enumerate(outcome.scores)]
    return [RULE, *fitted(head), *_packed("scores: ", [f"{score}," for score in scores[:-1]]
                                 + scores[-1:], gap=" ")]


__all__ = ["cards_text", "fitted", "move_list", "move_words", "outcome_lines", "played_line",
           "seat_name", "table_lines", "with_command", "wrapped"]
