"""What one seat sees at a table, as data for a person's screen.

:func:`describe` builds a :class:`TableView` from :func:`~spitemalice.view_of` one seat, the
seats' names and kinds (public: everyone at a table knows who sits where) and the last move
(public: every card a move moves lands face up).  Nothing else goes in, so two games that
differ only in cards a seat cannot see give that seat equal table views.  The terminal game
lays it out as text; the play server sends it as JSON.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from spitemalice.engine.views import PublicSeat, SeatView, require_view, view_legal_moves
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats.records.record import SeatInfo
from spitemalice.guards import int_field
from spitemalice.model import GameState, Outcome, Pile
from spitemalice.moves import NEW_PILE, Move, Play, move_text
from spitemalice.rules.book import RuleBook

HUMAN = "human"
"""The seat kind of a person (a record's ``seats[i].kind``, and the ``player`` of a play-server
seat a client takes); every other kind is a bot's.  The library's one name for this value."""


@attrs.frozen
class Played:
    """One move of the game, as everyone at the table saw it.

    Attributes:
        seat: the seat that moved (0-based).
        move: the move.
        text: its text form (``"9H>B2"``), as the record keeps it.
        completed: whether the move completed its build pile (BF-6: the pile reached the
            build ceiling and left the table, so ``B<n>`` now names the next pile, if any).
        note: with ``completed``, what that did to the piles, in words, for a person who
            reads ``B2`` in the next move (:func:`completion_note`); ``""`` otherwise.
    """

    seat: int = attrs.field(validator=int_field())
    move: Move
    text: str
    completed: bool = False
    note: str = ""


def completion_note(number: int, piles_before: int, shuffled_in: bool = False) -> str:
    """What completing build pile ``number`` (1-based) did, in words: ``"build pile 1 is
    complete and set aside; build pile 2 is now build pile 1"``.  The piles after it move
    up a number (BF-6, and the move text's ``B<n>`` counts the open piles), so the note
    names each renumbered pile, or says that none was.

    Args:
        number: the completed pile's number before the move.
        piles_before: the open build piles before the move (``number`` among them).
        shuffled_in: the rule set shuffles a completed pile into the draw pile at once
            (``completed_piles = "shuffle-in"``) instead of setting it aside.

    Raises:
        SpiteMaliceError: ``number`` is not one of the ``piles_before`` piles.
    """
    if not 1 <= number <= piles_before:
        raise SpiteMaliceError(f"build pile {number} is not one of the {piles_before} open "
                               "pile(s); give a number from 1 to piles_before")
    gone = "shuffled into the draw pile" if shuffled_in else "set aside"
    head = f"build pile {number} is complete and {gone}"
    later = piles_before - number
    if later == 0:
        return head
    if later == 1:
        return f"{head}; build pile {number + 1} is now build pile {number}"
    if later == 2:
        return (f"{head}; build piles {number + 1} and {number + 2} are now build piles "
                f"{number} and {number + 1}")
    return (f"{head}; build piles {number + 1} to {piles_before} are now build piles "
            f"{number} to {piles_before - 1}")


@attrs.frozen
class BuildPile:
    """One open build pile as a person reads it.

    Attributes:
        number: the pile's number in move text (``B1`` is 1).
        cards: the pile bottom to top (a wild card stands for the rank of its place).
        top_rank: the rank the top card stands for.
        needs: the rank the pile takes next (``top_rank + 1``).
    """

    number: int = attrs.field(validator=int_field())
    cards: Pile
    top_rank: int = attrs.field(validator=int_field())
    needs: int = attrs.field(validator=int_field())


@attrs.frozen
class TableView:
    """The table from one seat: its own hand, everything face up, every public count.

    Attributes:
        viewer: the seat whose view this is (0-based).
        seats: name and kind of every seat (:class:`~spitemalice.formats.records.record.SeatInfo`).
        view: the seat's :class:`~spitemalice.engine.views.SeatView`, everything below is
            read from it.
        builds: the open build piles, pile 1 first.
        may_open: whether a new build pile may be opened (it takes rank 1; text ``B+``).
        legal: the viewer's legal moves in the engine's order; ``()`` when it is not on
            turn or the game is over.
        last: the last move of the game, or ``None`` before the first.
        moves_made: how many moves the game has had.
        teams: the teams, each a tuple of seats, in a game with teams; ``()`` otherwise.
    """

    viewer: int = attrs.field(validator=int_field())
    seats: tuple[SeatInfo, ...]
    view: SeatView
    builds: tuple[BuildPile, ...]
    may_open: bool
    legal: tuple[Move, ...]
    last: Played | None
    moves_made: int = attrs.field(validator=int_field())
    teams: tuple[tuple[int, ...], ...] = ()

    @property
    def hand(self) -> Pile:
        """The viewer's own hand, sorted by rank then suit."""
        return self.view.hand

    @property
    def public(self) -> tuple[PublicSeat, ...]:
        """Every seat's pay-off piles (count and top), hand count and discard piles."""
        return self.view.seats

    @property
    def on_turn(self) -> int:
        """The seat on turn."""
        return self.view.seat

    @property
    def draw_count(self) -> int:
        """Cards in the draw pile."""
        return self.view.draw_count

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, with the scores, or ``None`` while it is live."""
        return self.view.outcome


def played_move(rules: RuleBook, before: GameState, after: GameState, move: Move) -> Played:
    """``move``, made by the seat on turn in ``before`` and leading to ``after``, as the table
    saw it: a play onto an open build pile that leaves fewer piles open completed its pile
    (BF-6), and its note says which piles took the next numbers (:func:`completion_note`).

    Raises:
        SpiteMaliceError: ``before`` and ``after`` are not the positions around a play.
    """
    if (isinstance(move, Play) and move.pile != NEW_PILE
            and len(after.builds) < len(before.builds)):
        note = completion_note(move.pile + 1, len(before.builds),
                               rules.ruleset.completed_piles == "shuffle-in")
        return Played(before.seat, move, move_text(move), True, note)
    return Played(before.seat, move, move_text(move))


def describe(rules: RuleBook, view: SeatView, seats: Sequence[SeatInfo], last: Played | None,
             moves_made: int) -> TableView:
    """The :class:`TableView` of ``view``.

    Args:
        rules: the table's rule book (for the build-pile limit and the teams).
        view: :func:`~spitemalice.view_of` the viewer.
        seats: every seat's name and kind, in seat order.
        last: the game's last move, or ``None``.
        moves_made: the number of moves so far.

    Raises:
        SpiteMaliceError: ``seats`` does not have one entry per seat of the view.
    """
    require_view(view, "describe")
    if len(seats) != len(view.seats):
        raise SpiteMaliceError(f"a table view needs a name for each of the {len(view.seats)} "
                               f"seats, not {len(seats)}")
    builds = tuple(BuildPile(number, pile, top, top + 1)
                   for number, (pile, top) in enumerate(zip(view.builds, view.build_tops,
                                                            strict=True), 1))
    limit = rules.build_limit
    teams = rules.teams.teams if rules.teams.any else ()
    return TableView(view.viewer, tuple(seats), view, builds,
                     not limit or len(builds) < limit, view_legal_moves(rules, view), last,
                     moves_made, teams)


__all__ = ["HUMAN", "BuildPile", "Played", "TableView", "completion_note", "describe",
           "played_move"]
