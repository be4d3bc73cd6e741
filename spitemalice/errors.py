"""The library's error types.

Every error the library raises on purpose is a :class:`SpiteMaliceError`, and each is also a
``ValueError`` (bad input) so that callers who only know the standard library can catch it.
"""

from __future__ import annotations

from typing import Protocol, TypeVar


class SpiteMaliceError(ValueError):
    """Base class of every error this library raises on purpose."""


_Error = TypeVar("_Error", bound=SpiteMaliceError)


def worded(error: _Error, python: str, command_line: str) -> _Error:
    """``error``, whose message says ``python`` in the Python API's words
    (``"load it with players=3"``), marked to say ``command_line`` there instead on the
    command line (``"give --players 3"``): :func:`command_line_text` makes the swap, in this
    error's message and in that of any error raised from it (``raise ... from error``).

    Args:
        error: a :class:`SpiteMaliceError` about to be raised; its message holds ``python``.
        python: the words of its message that name a Python argument or call.
        command_line: what the command line says instead (a flag).
    """
    words = getattr(error, "command_line_words", ())
    error.command_line_words = (*words, (python, command_line))  # type: ignore[attr-defined]
    return error


def command_line_text(error: BaseException) -> str:
    """What a command prints for ``error``: its message, with the Python API's words that
    :func:`worded` marked on it, or on an error it was raised from, said as the command
    line says them."""
    text, seen = str(error), set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        for python, flag in getattr(cause, "command_line_words", ()):
            text = text.replace(python, flag)
        cause = cause.__cause__ or cause.__context__
    return text


class IllegalMove(SpiteMaliceError):
    """A move the rules do not allow in the given state.

    Attributes:
        reason: a stable, machine-readable reason code such as ``"buried-card"``; the list of
            codes is :data:`spitemalice.engine.check.REASONS`.
        clause: the id of the rule-sheet clause that forbids the move (``"BF-8"``), or ``""``
            when no clause of the active rule sheet covers the reason.
        move: the text form of the refused move.
    """

    def __init__(self, reason: str, message: str, clause: str = "", move: str = "") -> None:
        self.reason = reason
        self.clause = clause
        self.move = move
        self._message = message
        where = f" [{reason}" + (f", clause {clause}]" if clause else "]")
        super().__init__(f"{move}: {message}{where}" if move else message + where)

    def __reduce__(self) -> tuple[type[IllegalMove], tuple[str, str, str, str]]:
        # Made again from its parts (an error raised in a worker process travels back).
        return type(self), (self.reason, self._message, self.clause, self.move)


class RulesetError(SpiteMaliceError):
    """A rule set, house rule, parameter or plugin that cannot be used; nothing was loaded."""


NOTATION_REASONS: dict[str, str] = {
    "not-text": "a card, move, position or view is given as something other than text",
    "too-long": "the text, or a number in it, is longer than the readers accept "
                "(spitemalice.limits)",
    "not-a-card": "the text is not a card",
    "not-a-move": "the text is not a move: no target, or a target, source or seat prefix in "
                  "none of the move forms",
    "pile-number": "a pile number that is not 1, 2, 3 ...",
    "discard-from-pile": "a discard whose card comes from a pile (D1:9C>D2): cards go to "
                         "discard piles only from the hand",
    "sections": "a position or a seat without the sections the notation has",
    "field-missing": "a required field (on=, view=) is missing",
    "field-unknown": "a field the notation does not have",
    "field-repeated": "a field given twice",
    "field-value": "a field's value is not what the field takes",
    "pile-text": "a pile's text: empty, a bad hidden count or recycled-cards mark",
    "view-form": "what a view shows and a full position does not, or the other way round "
                 "(hidden counts, the viewer, 'rest')",
    "syntax": "text that does not parse, not said more exactly (a plugin's own reader)",
    "no-notation": "the rule set's positions have no text in this notation: its seats move "
                   "at once (Spit), with no seat on turn",
}
"""The published reason codes of :class:`NotationError`: stable strings a program matches on
(as :data:`spitemalice.engine.refusal.REASONS` for illegal moves)."""


class NotationError(SpiteMaliceError):
    """Text (a card, a move, a position, a view) that does not parse; the message names the
    part and what would be right.

    Attributes:
        reason: a stable, machine-readable code from :data:`NOTATION_REASONS`, such as
            ``"not-a-card"`` (as :attr:`IllegalMove.reason` for a refused move).
    """

    def __init__(self, message: str, reason: str = "syntax") -> None:
        self.reason = reason
        super().__init__(message)


class DataError(SpiteMaliceError):
    """JSON data that cannot be read: malformed, or a field missing, unknown or of the wrong
    type, or an unknown or newer format version.  The message names the field by its path
    (``record.moves[3]``); raised by :mod:`spitemalice.formats.serialize` and the readers built
    on it (records, states, views)."""


class PositionError(SpiteMaliceError):
    """A position the rule set cannot hold; the message names the pile and what is valid.
    Raised by :func:`spitemalice.formats.position_check.check_position` and every reader that
    takes a position (notation, JSON, the learning environments)."""


class PlayError(SpiteMaliceError):
    """A request a table cannot grant, which changed nothing: a move for a seat that is not a
    person's, an undo with no move to take back or with another person at the table, a hint
    when the seat is not on turn, a seat number out of range, a record file that cannot be
    written.  Raised by :class:`spitemalice.play.session.Session`."""


class ProtocolError(SpiteMaliceError):
    """A play-server client's message the server will not act on; nothing changed.  Raised
    by :mod:`spitemalice.server.protocol` and :mod:`spitemalice.server.tables`, and sent to
    the client as an ``error`` message with its ``code``.

    Attributes:
        code: what kind of fault (``"bad-json"``, ``"unknown-field"``, ``"wrong-type"``,
            ``"not-your-seat"``...: :data:`spitemalice.server.protocol.ERROR_CODES`).
    """

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class OutputError(SpiteMaliceError):
    """A file the library was asked to write and did not: something is at its name already
    (a file or a symbolic link, and replacing was not allowed), the name is a folder, a
    device, a named pipe or a socket (never replaced), its folder is missing or read-only,
    or the write failed.  Nothing was written: the name holds
    what it held before.  Raised by :mod:`spitemalice.files`, the one writer of files."""


class ReplayProblem(Protocol):
    """What a :class:`RecordError` carries: the first thing wrong with a record's moves.  The
    library's one kind is :class:`spitemalice.formats.replay.RecordProblem` (move number,
    position before it, the error); this module names only what an error needs of it, so the
    error types stay below every layer that raises them."""

    @property
    def message(self) -> str:
        """The problem in one line, as the error's message."""
        ...


class RecordError(SpiteMaliceError):
    """A record whose moves cannot be replayed: a move that does not parse or is illegal at
    its point, or an outcome that differs from the replay's.

    Attributes:
        problem: the :class:`~spitemalice.formats.replay.RecordProblem` (move number,
            position before it, the error).
    """

    def __init__(self, problem: ReplayProblem) -> None:
        self.problem = problem
        super().__init__(problem.message)

    def __reduce__(self) -> tuple[type[RecordError], tuple[ReplayProblem]]:
        # Made again from its problem (an error raised in a worker process travels back).
        return type(self), (self.problem,)
