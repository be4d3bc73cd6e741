"""A bot takes a person's seat over for the rest of a game (issue 36 §2, leavers).

A play server's table whose person left (away longer than the table's grace) or ran out of
time on its move clock hands the seat to a bot (:mod:`spitemalice.server.leavers`).  The
:class:`Takeovers` part of a :class:`~spitemalice.play.session.Session` does it: the seat
keeps its person's name and kind (the next game of the table is the person's again), the
bot makes the seat's moves from the next one on, and the record says so
(:attr:`~spitemalice.formats.records.record.GameRecord.takeovers`: which seat, from which
move, which bot, why), so a game resumed from its record goes on with the bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spitemalice.bots.base import Player
from spitemalice.bots.players import make_player
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import PlayError
from spitemalice.formats.records.record import TAKEOVER_REASONS, GameRecord, SeatInfo, Takeover
from spitemalice.model import GameState
from spitemalice.play.table_view import HUMAN, Played

if TYPE_CHECKING:
    from spitemalice.rules.book import RuleBook


class Takeovers:
    """The seats of a game that bots took over from people (a mixin of
    :class:`~spitemalice.play.session.Session`, which holds the attributes named here)."""

    seats: tuple[SeatInfo, ...]
    rules: RuleBook
    record_path: Path | None
    _bots: dict[int, Player]
    _history: list[Played]
    _states: list[GameState]
    _takeovers: list[Takeover]

    def _write(self, record: GameRecord) -> None:  # the session's
        raise NotImplementedError

    def record(self) -> GameRecord:  # the session's
        raise NotImplementedError

    @property
    def takeovers(self) -> tuple[Takeover, ...]:
        """Every seat a bot took over during the game, in order."""
        return tuple(self._takeovers)

    def taken_over(self, seat: int) -> Takeover | None:
        """The takeover of ``seat``, or ``None`` while its person plays it (or a bot sat there
        from the deal)."""
        return next((taken for taken in self._takeovers if taken.seat == seat), None)

    def take_over(self, seat: int, player: str, why: str) -> Takeover:
        """The ``player`` bot takes ``seat``, a person's, over from the next move to the end
        of the game, because of ``why``; the record (file) says so before this returns.

        Args:
            seat: a seat a person plays (0-based).
            player: a bot's kind (``"heuristic"``).
            why: one of :data:`~spitemalice.formats.records.record.TAKEOVER_REASONS`
                (``"left"``, ``"out of time"``).

        Raises:
            PlayError: the game is over, ``seat`` is no person's seat or is taken over
                already, ``why`` is no known reason, or the record file cannot be written
                (nothing changed then).
            SpiteMaliceError: an unknown bot (the message lists the known ones).
        """
        if why not in TAKEOVER_REASONS:
            raise PlayError(f"a takeover's reason is one of {', '.join(TAKEOVER_REASONS)}, "
                            f"not {why!r}")
        if self._states[-1].outcome is not None:
            raise PlayError("the game is over; no seat can be taken over")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != HUMAN \
                or seat in self._bots:
            people = [s for s, info in enumerate(self.seats)
                      if info.kind == HUMAN and s not in self._bots]
            raise PlayError(f"seat {seat} is not played by a person; a bot may take over "
                            f"seat {', '.join(map(str, people)) or 'none'}")
        taken = Takeover(seat, len(self._history), player, why)
        bot = _bot(player, self._states[0], seat)
        self._takeovers.append(taken)
        self._bots[seat] = bot
        try:
            self._write(self.record())
        except PlayError:
            self._takeovers.pop()
            del self._bots[seat]
            raise
        return taken

    def _restore_takeovers(self, takeovers: Sequence[Takeover]) -> None:
        """Hand the seats of a resumed record's ``takeovers`` to their bots again."""
        for taken in takeovers:
            self._takeovers.append(taken)
            self._bots[taken.seat] = _bot(taken.player, self._states[0], taken.seat)


def _bot(player: str, first: GameState, seat: int) -> Player:
    """The ``player`` bot for ``seat``, seeded from the game's seed as the session seeds its
    own bots."""
    return make_player(player, derive_seed(first.seed, "takeover", seat))


__all__ = ["Takeovers"]
