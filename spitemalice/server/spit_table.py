"""A live table of a rule set whose seats move at once (Spit): the position, the intents in
arrival order, the record with its clock, and what each seat is told.

There is no seat on turn.  Every intent (a person's ``move`` message, a bot's choice) is
applied under the table's lock in the order it arrives (Spit's touch rule, SP-9: the first
card to reach a pile is laid):

* an intent that is legal when it arrives is applied, whatever position it was chosen in;
* one that no longer fits, chosen in a position that has changed since (its ``number`` is
  not the next move's), is answered ``stale``: another seat's card got there first; a
  bot's stale intent is counted and decided again;
* one refused in the very position it was chosen in is ``refused`` with its clause.

After each move the record (:func:`~spitemalice.formats.records.making.record_arrivals`:
each move with its seat and the milliseconds after the deal at which it arrived, no arrival
policy, the stale intents counted, the commitment to the deal) is written whole, then every
seat is sent a ``spit`` message built from its own view alone (:func:`spit_message`), and
every spectator one built from the view every seat shares, with no legal moves
(:meth:`SpitTable.public_message`; :mod:`spitemalice.server.spit_watching`).

Each deal is committed to as a turn-based table's (:mod:`spitemalice.formats.commitment`):
every ``spit`` message carries the ``deal`` field (:func:`spitemalice.server.messages.dealt`),
the commitment from the deal on, the seed, the salt and how to check them once the game is
over, and the record keeps the commitment (``spitemalice check`` verifies it).  The bots' timers are
:mod:`spitemalice.server.spit_bots`; the hub's side (create, join, move...) is
:mod:`spitemalice.server.spit_live`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from spitemalice.engine.check import check_move
from spitemalice.engine.deal import deal, new_seed
from spitemalice.errors import IllegalMove, OutputError, PlayError, ProtocolError
from spitemalice.files import SECRET_FILE, write_file
from spitemalice.formats.commitment import commit
from spitemalice.formats.plain_layout import plain_data
from spitemalice.formats.records.making import record_arrivals
from spitemalice.formats.records.record import DealCommitment, GameRecord, SeatInfo
from spitemalice.formats.records.writing import dumps_record
from spitemalice.play.session import HUMAN, Refusal
from spitemalice.rules.book import RuleBook
from spitemalice.rules.simultaneous import SimultaneousGame
from spitemalice.server import messages
from spitemalice.server.protocol import encode
from spitemalice.server.seating import Connection
from spitemalice.wording import count_of

REACTION_MS = 1500
"""A bot's mean reaction time at a live table when the ``create`` message gives none (ms)."""

MIN_REACTION_MS, MAX_REACTION_MS = 100, 60_000
"""The reaction times a ``create`` message may ask of a table's bots (ms)."""


_TABLES: weakref.WeakKeyDictionary[Any, dict[str, SpitTable]] = weakref.WeakKeyDictionary()


def registry(hub: Any) -> dict[str, SpitTable]:
    """The live tables of ``hub`` (a :class:`~spitemalice.server.tables.Hub`) by id, kept
    beside it (:func:`spitemalice.server.spit_live.live_tables` gives the same dict)."""
    return _TABLES.setdefault(hub, {})


def spit_message(view: Any, game: int, legal: tuple[Any, ...],
                 last: tuple[int, str] | None,
                 deal: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``spit`` message for one seat: its view (every face-up card and the counts,
    :func:`~spitemalice.formats.plain_layout.plain_data`), its own legal moves (each a
    function of that view) and the last move made (public: its card lay face up).  Nothing
    else goes in, so two tables that differ only in cards a seat cannot see send it the same
    bytes.

    Args:
        view: the seat's view (the state's ``view(seat)``).
        game: the game's number at the table (1, then one more per rematch).
        legal: the seat's legal moves now.
        last: ``(seat, move text)`` of the last move, or ``None`` before the first.
        deal: the ``deal`` field (:func:`spitemalice.server.messages.dealt`), or ``None``
            for none.
    """
    message = {"type": "spit", "game": game, "number": view.moves, "view": plain_data(view),
               "legal": [str(move) for move in legal],
               "last": None if last is None else {"seat": last[0], "move": last[1]}}
    if deal is not None:
        message["deal"] = deal
    return message


@attrs.define(eq=False)
class SpitTable:
    """One live table of a simultaneous rule set: its seats, the game being played, the
    connections at each seat and the bots' tasks.

    Attributes:
        id: the table's id.
        rules: the rule book (its ``simultaneous`` game is set).
        kinds: per seat ``"human"`` or a bot of the game (``greedy``, ``random``).
        names: per seat the name shown.
        hashes: per seat the SHA-256 of its token (``None`` for a bot's seat).
        reaction_ms: the bots' mean reaction time in milliseconds.
        creator: the address that opened it (the tables-per-client bound).
        record_path: the record file of game ``n`` (a function of ``n``).
        clock: seconds (the record's times are its differences), :func:`time.monotonic`.
        holds: whether this process still owns the table (with Redis, its lease holds:
            :meth:`~spitemalice.server.shared.Shared.holds`); no move is made when not.
        commitment: the commitment to the game's deal (a new one per game dealt).
        watchers: the spectators' connections (:mod:`spitemalice.server.spit_watching`).
    """

    id: str
    rules: RuleBook
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    hashes: tuple[str | None, ...]
    reaction_ms: float
    creator: str | None
    record_path: Callable[[int], Path]
    clock: Callable[[], float] = time.monotonic
    holds: Callable[[], bool] = lambda: True
    game: int = 0
    seed: int = 0
    state: Any = None
    started: float = 0.0
    log: list[tuple[int, str, float]] = attrs.field(factory=list)
    stale: int = 0
    clients: list[set[Connection]] = attrs.field(factory=list)
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    bots: list[asyncio.Task[None]] = attrs.field(factory=list)
    wakes: list[asyncio.Event] = attrs.field(factory=list)
    commitment: DealCommitment | None = None
    watchers: set[Connection] = attrs.field(factory=set)

    def __attrs_post_init__(self) -> None:
        self.clients = [set() for _ in self.kinds]

    @property
    def simultaneous(self) -> SimultaneousGame:
        """The rules of the game (the rule book's simultaneous game)."""
        game = self.rules.simultaneous
        assert game is not None  # a SpitTable is opened only for such rules
        return game

    @property
    def is_over(self) -> bool:
        """Whether the game being played has ended."""
        return bool(self.state is not None and self.state.outcome is not None)

    def new_game(self, seed: int | None = None,
                 also: Callable[[], None] | None = None) -> None:
        """Deal the next game (from ``seed``, or an unguessable one), commit to its deal
        (a fresh salt) and write its record.

        Args:
            also: what else must be written for the new game to count (the table's own
                file, which a restart reads for the game's number), called once the record
                is written; when it raises :class:`OutputError` the game is taken back.

        Raises:
            PlayError: the record, or what ``also`` writes, cannot be written (nothing
                changed then: a record written for the game is removed again).
        """
        seed = new_seed() if seed is None else seed
        before = (self.game, self.seed, self.state, self.started, list(self.log), self.stale,
                  self.commitment)
        self.game, self.seed, self.commitment = self.game + 1, seed, commit(self.rules, seed, None)
        self.state, self.started, self.log, self.stale = deal(self.rules, seed), self.clock(), [], 0
        written = False
        try:
            self.write(replace=False)
            written = True
            if also is not None:
                also()
        except (PlayError, OutputError) as problem:
            if written:  # ours alone: written with replace=False a moment ago
                with contextlib.suppress(OSError):
                    self.record_path(self.game).unlink()
            (self.game, self.seed, self.state, self.started, self.log, self.stale,
             self.commitment) = before
            if isinstance(problem, PlayError):
                raise
            raise PlayError(str(problem)) from None

    def record(self) -> GameRecord:
        """The record of the game being played: its seed, each move with its seat and the
        milliseconds after the deal at which it arrived, the stale intents, the outcome and
        the commitment to the deal."""
        seats = [SeatInfo(name, kind) for name, kind in zip(self.names, self.kinds, strict=True)]
        made = record_arrivals(self.rules, self.seed, [text for _, text, _ in self.log],
                               [ms for _, _, ms in self.log], seats=seats,
                               outcome=self.state.outcome, stale=self.stale)
        return attrs.evolve(made, commitment=self.commitment)

    def write(self, replace: bool = True) -> None:
        """Write the record of the game being played, whole or not at all (readable by the
        server's owner alone: it holds the seed, which decides every hidden card).

        Raises:
            PlayError: the file cannot be written.
        """
        try:
            write_file(self.record_path(self.game), dumps_record(self.record()) + "\n",
                       force=replace, mode=SECRET_FILE)
        except OutputError as problem:
            raise PlayError(f"cannot write the record: {problem}") from None

    def intent(self, seat: int, move: Any, number: int | None) -> Refusal | None:
        """Apply ``seat``'s ``move`` if it is legal now (the caller holds :attr:`lock`);
        ``None`` when it was applied (and the record written), else the refusal to tell.

        Args:
            number: the move number the intent was chosen for (moves made then + 1), or
                ``None`` when the sender does not say.

        Raises:
            ProtocolError: ``server-error`` when this process no longer owns the table
                (:attr:`holds`); ``game-over`` once the game has ended; ``stale`` when the
                move does not fit and was chosen in a position that has changed since.
            PlayError: the record could not be written (the move is taken back: nothing
                changed).
        """
        if not self.holds():  # another process may have taken it over: never two writers
            raise ProtocolError("server-error", f"table {self.id} is no longer played by this "
                                "server process (its lease ran out); connect again")
        state = self.state
        if state.outcome is not None:
            raise ProtocolError("game-over", f"game {self.game} has ended "
                                f"({state.outcome.describe()}); send {{\"type\": "
                                "\"rematch\"} for a new game or {\"type\": \"record\"} for "
                                "its record")
        try:
            check_move(self.rules, state, move, seat)
        except IllegalMove as refusal:
            if number is not None and number != state.moves + 1:
                self.count_stale()
                made = count_of(state.moves, "move")
                raise ProtocolError("stale", f"move.number: {move} was chosen for move "
                                    f"{number}, but the game is at {made} made and "
                                    f"it no longer fits ({refusal.reason}): another card got "
                                    "there first; choose again from the latest state") from None
            return self.refusal(refusal)
        ms = round(max(self.clock() - self.started, 0.0) * 1000, 3)
        if self.log and ms < self.log[-1][2]:
            ms = self.log[-1][2]
        self.log.append((seat, str(move), ms))
        self.state = self.simultaneous.apply(state, move)
        try:
            self.write()
        except PlayError:
            self.log.pop()
            self.state = state
            raise
        return None

    def count_stale(self) -> None:
        """Count an intent that arrived too late, in the record too (when the record cannot
        be written now, the count goes in with the next move's)."""
        self.stale += 1
        with contextlib.suppress(PlayError):
            self.write()

    def refusal(self, error: IllegalMove) -> Refusal:
        """What a person is told of a refused move: its reason and clause with the clause's
        text from this table's sheet."""
        try:
            text = self.rules.clause(error.clause).text if error.clause else ""
        except KeyError:
            text = ""
        message = str(error.args[0]) if error.args else error.reason
        return Refusal(error.move, error.reason, message, error.clause, text)

    def dealt(self) -> dict[str, Any] | None:
        """The ``deal`` field now (:func:`spitemalice.server.messages.dealt`): the
        commitment, and once the game is over the seed and salt that open it."""
        if self.commitment is None:
            return None
        return messages.dealt(self.commitment, self.seed if self.is_over else None, None)

    def message(self, seat: int) -> dict[str, Any]:
        """The ``spit`` message for ``seat`` now (:func:`spit_message`)."""
        last = (self.log[-1][0], self.log[-1][1]) if self.log else None
        return spit_message(self.state.view(seat), self.game,
                            self.simultaneous.legal_moves(self.state, seat), last, self.dealt())

    def public_message(self) -> dict[str, Any]:
        """The ``spit`` message for a spectator: the view every seat shares (every face-up
        card and the counts; its ``seat`` is ``null``), no legal moves, the last move and
        the ``deal`` field.  Built from no hidden card, so two tables that differ only in
        face-down cards send a spectator the same bytes."""
        last = (self.log[-1][0], self.log[-1][1]) if self.log else None
        message = spit_message(self.state.view(0), self.game, (), last, self.dealt())
        message["view"]["seat"] = None
        return message

    def seat_list(self) -> list[dict[str, Any]]:
        """Who sits where (the ``seats`` message's list)."""
        here = [kind != HUMAN or bool(clients)
                for kind, clients in zip(self.kinds, self.clients, strict=True)]
        return messages.seat_list(list(zip(self.names, self.kinds, strict=True)), here)

    async def announce(self) -> None:
        """Send every seat's connections the position from that seat, every spectator the
        public one, and wake the bots (the caller holds :attr:`lock`, so what a seat is
        told keeps the order of the moves)."""
        for seat, clients in enumerate(self.clients):
            if clients:
                text = encode(self.message(seat))
                for client in list(clients):
                    await client.send_text(text)
        if self.watchers:
            text = encode(self.public_message())
            for client in list(self.watchers):
                await client.send_text(text)
        for wake in self.wakes:
            wake.set()

    async def broadcast(self, message: dict[str, Any], skip: Connection | None = None) -> None:
        """Send ``message`` to every connection at the table, seats and spectators, but
        ``skip`` (under the lock)."""
        text = encode(message)
        for client in [*(c for clients in self.clients for c in clients), *self.watchers]:
            if client is not skip:
                await client.send_text(text)


__all__ = ["MAX_REACTION_MS", "MIN_REACTION_MS", "REACTION_MS", "SpitTable", "registry",
           "spit_message"]
