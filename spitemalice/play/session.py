"""A game at a table: who sits where, the moves so far, and what each seat may be told.

A :class:`Session` is the referee's side of a game that people play: the terminal game
(``spitemalice play``) and the play server both build on it.  It is never a second referee:
the game goes through the library's public functions (the helpers it also imports, guards,
files, wording, are listed in :mod:`spitemalice.play`):

* what happens is :func:`~spitemalice.apply_move` (and its refusals, each with a reason code
  and the clause of the rule sheet that forbids the move);
* what a seat is told is built from :func:`~spitemalice.view_of` that seat alone
  (:meth:`Session.table_view`; the bots and the hint are handed the same view);
* what is kept is a game record (:mod:`spitemalice.formats.records`): with a ``record_path``
  the record file is rewritten after every move *before* the move is announced (returned to
  the caller), so a game can always be rebuilt from its record (:meth:`Session.resume`).

Each seat is a person's (kind :data:`~spitemalice.play.table_view.HUMAN`) or a bot's (any
name of the bots' registry, :data:`spitemalice.bots.players.PLAYERS`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from spitemalice.bots.base import Player, move_from_view
from spitemalice.bots.players import STRONGEST, check_player, make_player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.refusal_words import parsed_move
from spitemalice.engine.shuffle import derive_seed
from spitemalice.engine.views import view_of
from spitemalice.errors import DataError, IllegalMove, OutputError, PlayError
from spitemalice.files import SECRET_FILE, write_file
from spitemalice.formats.commitment import commit as commit_deal
from spitemalice.formats.notation import format_view
from spitemalice.formats.records.making import record_game
from spitemalice.formats.records.record import DealCommitment, GameRecord, SeatInfo, Undone
from spitemalice.formats.records.writing import dumps_record
from spitemalice.formats.replay import replay, rules_for
from spitemalice.guards import check_int, check_list
from spitemalice.limits import MAX_NAME_CHARS
from spitemalice.model import GameState
from spitemalice.moves import Move, parse_move
from spitemalice.play.table_view import HUMAN, Played, TableView, describe, played_move
from spitemalice.play.takeover import Takeovers
from spitemalice.rules.book import RuleBook, check_book, require_turn_based
from spitemalice.stops import held_stops
from spitemalice.wording import printable


@attrs.frozen
class Refusal:
    """What a person is told about a refused move (all of it from the refusal itself).

    Attributes:
        move: the refused move's text.
        reason: the stable reason code (:data:`spitemalice.REASONS`).
        message: the refusal's explanation.
        clause: the id of the clause that forbids the move (``"BF-20"``), or ``""``.
        clause_text: that clause's text from the rule sheet in force, or ``""``.
    """

    move: str
    reason: str
    message: str
    clause: str
    clause_text: str


class Session(Takeovers):
    """One game at a table, from the deal to its end.

    Args:
        rules: the rule book (:func:`spitemalice.load`).
        kinds: one kind per seat, in seat order: ``"human"`` (:data:`HUMAN`) or a bot's name
            (``"greedy"``, ``"heuristic"``...).
        names: a name per seat (shown to everyone); default ``"<kind>-<seat>"``.
        seed: the deal's seed, a whole number >= 0; ``None`` deals from an unguessable seed
            (keep it secret until the game ends: with it every hidden card can be worked out).
        dealer: the dealing seat, or ``None`` for the seeded cut (:func:`spitemalice.deal`).
        record_path: a file the game's record is written to after every move, before the move
            is announced; ``None`` keeps the record in memory only.
        overwrite: whether a file already at ``record_path`` may be replaced.
        commit: keep a commitment to the deal (:mod:`spitemalice.formats.commitment`) in
            :attr:`commitment` and the record, as the play server's tables do.

    Raises:
        PlayError: ``kinds`` or ``names`` does not have one entry per seat, a name is empty or
            not printable (:func:`spitemalice.wording.printable`, as a record's names must
            be), or the record file exists (without ``overwrite``) or cannot be written.
        SpiteMaliceError: an unknown bot name (the message lists the known ones), a bad seed
            or dealer.
    """

    commitment: DealCommitment | None
    """The commitment to the deal shown before the first move, or ``None``."""

    def __init__(self, rules: RuleBook, kinds: Sequence[str], *,
                 names: Sequence[str] | None = None, seed: int | None = None,
                 dealer: int | None = None, record_path: str | os.PathLike[str] | None = None,
                 overwrite: bool = False, commit: bool = False) -> None:
        check_book(rules, "Session")
        require_turn_based(rules, "Session (the terminal game and the play server's turn-based "
                                  "tables; the server's /spit page plays spit live)")
        check_list(names, "Session", "names, a list of seat names,",
                   '["me", "greedy"]', none=True)
        check_list(kinds, "Session", "kinds, a list of player kinds,", '["human", "greedy"]')
        self._start(rules, _seat_infos(rules, kinds, names), deal(rules, seed, dealer), dealer)
        self.commitment = commit_deal(rules, self._states[0].seed, dealer) if commit else None
        self.record_path = None if record_path is None else Path(record_path)
        if self.record_path is not None:
            _write_record(self.record(), self.record_path, replace=overwrite)

    def _start(self, rules: RuleBook, seats: tuple[SeatInfo, ...], first: GameState,
               dealer: int | None) -> None:
        self.rules = rules
        self.seats = seats
        self.dealer = dealer
        self._states: list[GameState] = [first]
        self._history: list[Played] = []
        self._undone: list[Undone] = []
        self._takeovers, self.commitment = [], None  # seats bots took over (Takeovers)
        self._bots: dict[int, Player] = {
            seat: make_player(info.kind, derive_seed(first.seed, "seat", seat))
            for seat, info in enumerate(seats) if info.kind != HUMAN
        }

    @classmethod
    def resume(cls, record: GameRecord, *, rules: RuleBook | None = None,
               kinds: Sequence[str] | None = None,
               record_path: str | os.PathLike[str] | None = None,
               overwrite: bool = False) -> Session:
        """The game a record holds, at its last move, ready to go on.

        Args:
            record: a record (:func:`~spitemalice.formats.records.load_record`), finished or not.
            rules: the rules to replay under; default the record's own
                (:func:`~spitemalice.formats.replay.rules_for`).
            kinds: a kind per seat instead of the record's (say, to sit a person where a
                bot sat); the names stay the record's.
            record_path: the file to keep the record in from now on (often the one read);
                it is rewritten at once and after every move.
            overwrite: whether a file already at ``record_path`` may be replaced (give
                ``True`` to keep the record in the file it was read from).

        Raises:
            RulesetError: the record's rules cannot be loaded.
            DataError, RecordError: the record does not replay (its seats do not fit the
                rules, a move is illegal at its point, its outcome differs from the replay's),
                or its rule set's seats move at once (spit: no table plays it yet).
            PlayError: ``kinds`` does not have one entry per seat, or the record file exists
                (without ``overwrite``) or cannot be written.
            SpiteMaliceError: an unknown bot name.
            TypeError: ``rules`` is neither ``None`` nor a
                :class:`~spitemalice.rules.book.RuleBook`.
        """
        if rules is not None:
            check_book(rules, "Session.resume")
        check_list(kinds, "Session.resume", "kinds, a list of player kinds,",
                   '["human", "greedy"]', none=True)
        book = rules_for(record) if rules is None else rules
        require_turn_based(book, "Session.resume (the terminal game and the play server's "
                                 "turn-based tables; spitemalice replay shows a spit record)",
                                 DataError)
        states = list(replay(record, book))
        seats = record.seats if kinds is None else _seat_infos(
            book, kinds, [seat.name for seat in record.seats])
        session = cls.__new__(cls)
        session._start(book, tuple(seats), states[0], record.dealer)
        session._states = states
        session._undone, session.commitment = list(record.undone), record.commitment
        session._restore_takeovers(record.takeovers)
        session._history = [played_move(book, before, after, parse_move(text))
                            for before, after, text
                            in zip(states, states[1:], record.moves, strict=False)]
        session.record_path = None if record_path is None else Path(record_path)
        if session.record_path is not None:
            _write_record(session.record(), session.record_path, replace=overwrite)
        return session

    # -- what the table holds ------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The referee's current state.  It holds hidden cards and the seed: never show it
        to a seat (use :meth:`table_view`)."""
        return self._states[-1]

    @property
    def history(self) -> tuple[Played, ...]:
        """Every move so far, in order, with the seat that made it (all of it public)."""
        return tuple(self._history)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kind of each seat: :data:`HUMAN` or a bot's name."""
        return tuple(seat.kind for seat in self.seats)

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play, in seat order."""
        return tuple(seat for seat, info in enumerate(self.seats) if info.kind == HUMAN)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (:attr:`GameState.outcome` is set)."""
        return self.state.outcome is not None

    @property
    def on_turn(self) -> int:
        """The seat on turn (the last seat on turn once the game is over)."""
        return self.state.seat

    @property
    def bot_on_turn(self) -> bool:
        """Whether the game is live and a bot is on turn (call :meth:`play_bot`)."""
        return not self.is_over and self.state.seat in self._bots

    def record(self) -> GameRecord:
        """The game so far as a record: its rules, seats, seed, dealer, moves, every undo
        (:attr:`GameRecord.undone`: a game with undos is a practice game), the deal's
        commitment if any, the seats bots took over and, once over, its outcome."""
        return attrs.evolve(record_game(
            self.rules, self._states[0].seed, [played.text for played in self._history],
            seats=self.seats, dealer=self.dealer, outcome=self.state.outcome,
            undone=self._undone), commitment=self.commitment, takeovers=tuple(self._takeovers))

    def table_view(self, seat: int) -> TableView:
        """What ``seat`` sees at the table, built from ``view_of(state, seat)`` and the public
        move log alone (:class:`~spitemalice.play.table_view.TableView`).

        Raises:
            PlayError: ``seat`` is not a seat of the game.
        """
        self._check_seat(seat)
        return describe(self.rules, view_of(self.state, seat), self.seats,
                        self._history[-1] if self._history else None, len(self._history))

    # -- moving ----------------------------------------------------------------------------

    def play(self, seat: int, move: Move | str) -> Played:
        """``seat`` (a person's) makes ``move``; the move is kept in the record (and the
        record file written) before this returns it.

        Args:
            seat: the seat that moves (0-based).
            move: a :class:`~spitemalice.Move` or its text (``"9H>B2"``).

        Returns:
            The move made, with its seat and text.

        Raises:
            NotationError: ``move`` is text that is not a move, or names a discard from a pile.
            IllegalMove: the rules refuse the move (not the seat's turn, the game is over, or
                any rule), with its reason code and clause; :meth:`refusal` words it.
            PlayError: ``seat`` is not a seat, or is a bot's, or the record file cannot be
                written.
        Nothing changes when it raises.
        """
        self._check_seat(seat)
        if seat in self._bots:
            raise PlayError(f"seat {seat} is played by the {self.seats[seat].kind} bot; a "
                            f"person plays seat {_seat_list(self.people)}")
        move = parsed_move(self.rules, self.state, seat, move) if isinstance(move, str) else move
        return self._commit(seat, apply_move(self.rules, self.state, move, seat=seat), move)

    def play_bot(self) -> Played:
        """The bot on turn chooses and makes its move, from its seat's view alone
        (:func:`~spitemalice.bots.base.move_from_view`); the move is recorded before this
        returns it.

        Raises:
            PlayError: the game is over, or a person is on turn, or the record file cannot be
                written.
        """
        if not self.bot_on_turn:
            raise PlayError("the game is over" if self.is_over else
                            f"seat {self.state.seat} is a person's turn, not a bot's")
        seat = self.state.seat
        move = _choose(self._bots[seat], self.rules, self.state)
        return self._commit(seat, apply_move(self.rules, self.state, move), move)

    def _commit(self, seat: int, after: GameState, move: Move) -> Played:
        played = played_move(self.rules, self.state, after, move)
        # A stop (Ctrl-C, SIGTERM) waits until the move is both made and in the record file:
        # the file never lags behind the table, and no half-written temporary is left.
        with held_stops():
            self._states.append(after)
            self._history.append(played)
            try:
                self._write(self.record())
            except PlayError:
                self._states.pop()
                self._history.pop()
                raise
        return played

    def refusal(self, error: IllegalMove) -> Refusal:
        """What to tell a person about ``error``: reason, message and the clause's text from
        this table's rule sheet (``""`` when the error cites no clause of it)."""
        try:
            text = self.rules.clause(error.clause).text if error.clause else ""
        except KeyError:
            text = ""
        message = str(error.args[0]) if error.args else error.reason
        return Refusal(error.move, error.reason, message, error.clause, text)

    # -- help for people ---------------------------------------------------------------------

    def hint(self, seat: int) -> Move:
        """The move the strongest bot (:data:`spitemalice.bots.players.STRONGEST`) would make
        for ``seat`` now, chosen from that seat's view alone.  The bot's own randomness is
        seeded from that view too, never from the deal's seed (which decides every hidden
        card), so the hint is a function of what the seat sees: the same each time it is
        asked in a position, and the same at two tables the seat cannot tell apart.

        Raises:
            PlayError: ``seat`` is not a seat, the game is over, or ``seat`` is not on turn.
        """
        self._check_seat(seat)
        if self.is_over or self.state.seat != seat:
            raise PlayError("the game is over" if self.is_over else
                            f"a hint is for the seat on turn; seat {self.state.seat} is on turn")
        seen = format_view(view_of(self.state, seat), self.rules.teams.teams)
        bot = make_player(STRONGEST, derive_seed(0, "hint", seen))
        return _choose(bot, self.rules, self.state)

    def undo(self, seat: int) -> int:
        """Take the game back to ``seat``'s previous decision: the position before its last
        move, the bots' moves since then taken back too.  Allowed only at a table where every
        other seat is a bot's (people at one table never take back each other's moves), and
        only while the game is live.

        Undo is for practice: the draw pile's order is fixed by the deal, so the person has
        seen cards drawn after the move taken back and may play again knowing them.  The
        record says so: every undo is kept in :attr:`GameRecord.undone` (the position it went
        back to and the moves taken back), and :attr:`GameRecord.practice` is then true.

        Returns:
            How many moves were taken back (1 or more).

        Raises:
            PlayError: ``seat`` is not a person's seat, another seat is a person's, the game
                is over, or ``seat`` has made no move yet; or the record file cannot be
                written (the game is then as it was).
        """
        self._check_seat(seat)
        if seat in self._bots:
            raise PlayError(f"seat {seat} is a bot's; only a person takes a move back")
        if self.is_over:
            raise PlayError("the game is over: its moves stay as they were played (a new "
                            "game can be dealt)")
        others = [s for s in self.people if s != seat]
        if others:
            raise PlayError(f"undo needs every other seat to be a bot, and seat "
                            f"{_seat_list(others)} is a person's")
        last = next((i for i in range(len(self._history) - 1, -1, -1)
                     if self._history[i].seat == seat), None)
        if last is None:
            raise PlayError(f"seat {seat} has made no move to take back")
        taken = len(self._history) - last
        states, history = self._states, self._history
        with held_stops():  # taken back both at the table and in the record file, or neither
            self._states, self._history = states[:last + 1], history[:last]
            self._undone.append(Undone(last, tuple(played.text for played in history[last:])))
            try:
                self._write(self.record())
            except PlayError:
                self._states, self._history = states, history
                self._undone.pop()
                raise
        return taken

    # -- the record file ---------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """Write the game so far to a record file (``spitemalice play --resume`` and
        :meth:`resume` continue it; ``spitemalice replay`` shows it).

        Returns:
            The path written.

        Raises:
            PlayError: the file exists and ``overwrite`` is false, or it cannot be written
                (a symbolic link there is never followed).
        """
        target = Path(path)
        _write_record(self.record(), target, replace=overwrite)
        return target

    def _write(self, record: GameRecord) -> None:
        if self.record_path is not None:
            _write_record(record, self.record_path, replace=True)

    def _check_seat(self, seat: int) -> None:
        check_int(seat, "a seat", 0, len(self.seats) - 1, error=PlayError)


def _choose(bot: Player, rules: RuleBook, state: GameState) -> Move:
    """``bot``'s move for the seat on turn, decided from that seat's view (so the choice
    depends on nothing the seat cannot see) among the legal moves the referee lists (equal to
    those the view gives: :func:`~spitemalice.engine.views.view_legal_moves`)."""
    return move_from_view(bot, rules, view_of(state, state.seat), legal_moves(rules, state))


def _seat_infos(rules: RuleBook, kinds: Sequence[str],
                names: Sequence[str] | None) -> tuple[SeatInfo, ...]:
    if isinstance(kinds, str) or len(kinds) != rules.players:
        raise PlayError(f"{rules.name} is set for {rules.players} seats; give a kind for each "
                        f"({HUMAN!r} or a bot's name), not {list(kinds)!r}")
    for kind in kinds:
        if kind != HUMAN:
            check_player(kind, rules)  # an unknown bot, or one that cannot play rules
    if names is None:
        names = [f"{kind}-{seat}" for seat, kind in enumerate(kinds)]
    if isinstance(names, str) or len(names) != len(kinds):
        raise PlayError(f"give a name for each of the {len(kinds)} seats, not {names!r}")
    for name in names:
        if not isinstance(name, str) or not name.strip() or not printable(name):
            raise PlayError(f"a seat's name is printable text of 1 to {MAX_NAME_CHARS} "
                            f"characters (no control characters), not {name!a:.60}")
    return tuple(SeatInfo(name, kind) for name, kind in zip(names, kinds, strict=True))


def _seat_list(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats)) or "none"


def _write_record(record: GameRecord, path: Path, *, replace: bool) -> None:
    """Write ``record`` to ``path`` by the library's one rule for files
    (:func:`spitemalice.files.write_file`: whole or not at all, never through a
    link, over an existing file only when ``replace``), readable by its owner alone
    (``0o600``): the record holds the deal's seed, from which every hidden card of a game
    still being played follows.

    Raises:
        PlayError: the file exists (without ``replace``) or cannot be written.
    """
    try:
        write_file(path, dumps_record(record) + "\n", force=replace,
                   how_to_replace="overwrite=True", mode=SECRET_FILE)
    except OutputError as error:
        raise PlayError(f"cannot write the record: {error}") from None


__all__ = ["HUMAN", "PlayError", "Refusal", "Session"]
