"""The terminal game behind ``spitemalice play``: one person against bots, in plain text.

The person's seat sees its own view only (:meth:`Session.table_view`), laid out by
:mod:`spitemalice.play.screen`; the legal moves are numbered, and the person types a number, a
move's text (``9H>B2``) or a command:

* ``hint``: what the strongest bot would play here;
* ``undo``: back to the person's previous decision (every other seat is a bot);
* ``rules`` or ``rules CLAUSE``: the rule sheet, or one clause;
* ``save FILE``: the game so far as a record (``spitemalice play --resume FILE`` goes on);
* ``quit``: asks whether to save, saves, and stops;
* ``show`` (or an empty line) lays out the table again; ``help`` says how to play (the
  goal, a turn, the end, where the rule sheet is) and lists all this.

A refused move prints the refusal and the text of the clause that forbids it, and changes
nothing.  Bots' moves appear one at a time, one line each.  At the end come the outcome, the
scores and the command that replays the record.  Ctrl-C offers to save and stops with status
130; the end of input (Ctrl-D) saves to a new file and stops.  Everything printed passes
:func:`~spitemalice.wording.for_terminal` (names, clauses and messages can come from a
record or a plugin).
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable
from pathlib import Path

from spitemalice.errors import IllegalMove, NotationError, OutputError, PlayError
from spitemalice.files import check_new
from spitemalice.guards import check_delay, whole_number
from spitemalice.play import screen
from spitemalice.play.session import Session
from spitemalice.stops import Terminated, held_stops
from spitemalice.wording import for_terminal

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), saved or not."""

DEFAULT_NAME = "spitemalice-game"
"""Records saved without a name go to ``spitemalice-game.json``, else the first free
``spitemalice-game-N.json``, in the current folder (an existing file is never replaced)."""

HOW_TO_PLAY = """\
how to play (the rule sheet, command rules, has this table's exact rules):
  the goal    be the first to play every card of your pay-off pile; only
              its top card is face up, and the next turns up when it is played
  build piles are shared; each goes up one rank at a time from the lowest
              card (A, or 1) to the top rank, suits do not matter; a complete
              pile leaves the table and the piles after it move up a number
              (the game says so); wild cards stand for a rank, as the rule
              sheet says
  a turn      your hand is refilled from the draw pile; play onto build piles
              from your hand, your pay-off top or a discard top, as often as
              you can (an emptied hand is refilled); the turn ends when you
              put one hand card on one of your discard piles
  the end     whoever plays their last pay-off card wins at once and scores;
              if the draw pile runs out or nobody can move, the rule sheet
              says how the game is scored

"""

HELP = HOW_TO_PLAY + """\
type the number of a move, or its text:
  9H>B2      a hand card onto build pile 2
  9H>B+      a hand card onto a new build pile
  P:9H>B1    the pay-off card onto build pile 1
  D3:9H>B1   the top of discard pile 3 onto build pile 1
  9H>D2      a discard onto discard pile 2 (it ends the turn)
  pass       only when nothing else is legal
or a command:
  hint       what the strongest bot would play
  undo       take back your last move (and the bots' moves since)
  rules      the rule sheet;  rules CLAUSE  one clause, as rules BF-20
  save FILE  save the game to a record file (play --resume FILE goes on)
  show       lay out the table again (an empty line does too)
  quit       stop (you are asked whether to save first)"""


class _Stop(Exception):
    """The game stops before its end with this exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class TerminalGame:
    """One person at ``seat`` of ``session`` playing through a line-based terminal.

    Args:
        session: the game (the other seats are bots; people at other seats are not asked).
        seat: the person's seat (0-based).
        read: reads one line after printing a prompt (:func:`input`); raises ``EOFError``
            at the end of input and ``KeyboardInterrupt`` on Ctrl-C.
        write: prints one line (:func:`print`); every line is escaped before it.
        delay: seconds between two bots' moves, so that they appear one at a time.
        record_path: the file the record is kept in, if ``session`` keeps one; at the end the
            record is saved there, or else to a new :data:`DEFAULT_NAME` file.

    Raises:
        SpiteMaliceError: a ``delay`` that is not 0 to
            :data:`~spitemalice.limits.MAX_SECONDS` seconds (a sleep would refuse it only at
            the first bot's move).
    """

    def __init__(self, session: Session, seat: int, *,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 delay: float = 0.0, record_path: Path | None = None) -> None:
        self.session = session
        self.seat = seat
        self.rules = session.rules
        self._read = read
        self._write = write
        self.delay = check_delay(delay, "delay")
        self.record_path = record_path
        self._stale = True  # the table must be laid out again before the next question

    def say(self, text: str) -> None:
        """Print ``text`` (one or more lines), escaped for the terminal, each line wider than
        :data:`~spitemalice.play.screen.WIDTH` broken between words
        (:func:`~spitemalice.play.screen.fitted`)."""
        for line in text.split("\n"):
            for part in screen.fitted(for_terminal(line)):
                self._write(part)

    def offer(self, text: str, command: str) -> None:
        """Print ``text`` and the shell ``command`` it offers, escaped for the terminal, the
        command whole on a line of its own when both do not fit on one
        (:func:`~spitemalice.play.screen.with_command`)."""
        for line in screen.with_command(for_terminal(text), for_terminal(command)):
            self._write(line)

    def ask(self, prompt: str) -> str:
        """The line the person types after ``prompt`` (escaped: it may quote a file name)."""
        return self._read(for_terminal(prompt))

    def run(self) -> int:
        """Play until the game ends or the person stops; returns the exit status: 0, or
        :data:`INTERRUPTED` after Ctrl-C."""
        try:
            while not self.session.is_over:
                if self.session.bot_on_turn:
                    self._bot_move()
                else:
                    self._decide()
        except _Stop as stop:
            return stop.status
        except KeyboardInterrupt as stop:
            return self._interrupted(ask=not isinstance(stop, Terminated))
        except EOFError:
            self._end_of_input()
            return 0
        self._finish()
        return 0

    # -- the game ----------------------------------------------------------------------------

    def _bot_move(self) -> None:
        table = self.session.table_view(self.seat)
        played = self.session.play_bot()
        self.say(screen.wrapped(screen.played_line(self.rules, table, played,
                                                   table.view.build_tops), "    "))
        self._stale = True
        if self.delay and self.session.bot_on_turn:
            time.sleep(self.delay)

    def _decide(self) -> None:
        table = self.session.table_view(self.seat)
        if self._stale:
            self.say("\n".join(screen.table_lines(self.rules, table)))
            self.say("your moves:\n" + "\n".join(screen.move_list(table.legal)))
            self._stale = False
        line = self.ask("your move (a number, a move, or help)> ").strip()
        command, _, argument = line.partition(" ")
        action = self._commands().get(command.lower())
        if action is not None:
            action(argument.strip())
        elif (number := _move_number(line)) is not None:
            self._play_number(number, len(table.legal))
        else:
            self._play(line)

    def _commands(self) -> dict[str, Callable[[str], None]]:
        return {"": self._show, "show": self._show, "help": self._help, "?": self._help,
                "hint": self._hint, "undo": self._undo, "rules": self._rules,
                "save": self._save_command, "quit": self._quit, "exit": self._quit}

    def _play_number(self, number: int, count: int) -> None:
        if not 1 <= number <= count:
            # "choose 1 to 1" for a lone move reads as a range that is not there.
            self.say(f"there is no move {number}: " + ("the only move is 1" if count == 1
                                                       else f"choose 1 to {count}"))
            return
        self._play(self.session.table_view(self.seat).legal[number - 1])

    def _play(self, move: object) -> None:
        try:
            played = self.session.play(self.seat, move)  # type: ignore[arg-type]
        except IllegalMove as error:
            told = self.session.refusal(error)
            self.say(screen.wrapped(f"refused: {told.message}"))
            if told.clause_text:
                self.say(screen.wrapped(f"  {told.clause}: {told.clause_text}", "    "))
            return
        except NotationError as error:
            if error.reason == "discard-from-pile":  # a move's form, that no rule allows
                self.say(screen.wrapped(f"refused: {error}"))
                return
            self.say(f"not a move or a command: {error}\n(type help for the forms)")
            return
        if played.note:  # the piles' numbers changed under the person's eyes: say how
            self.say(screen.wrapped(played.note))
        self._stale = True

    # -- commands ----------------------------------------------------------------------------

    def _show(self, _: str) -> None:
        self._stale = True

    def _help(self, _: str) -> None:
        self.say(HELP)

    def _hint(self, _: str) -> None:
        table = self.session.table_view(self.seat)
        move = self.session.hint(self.seat)
        number = table.legal.index(move) + 1
        words = screen.move_words(self.rules, move, table.view.build_tops)
        self.say(f"hint: {number}  {move}  ({words})")

    def _undo(self, _: str) -> None:
        try:
            taken = self.session.undo(self.seat)
        except PlayError as error:
            self.say(f"cannot undo: {error}")
            return
        self.say(f"took back {taken} move{'' if taken == 1 else 's'}")
        if len(self.session.record().undone) == 1:  # said once, at the first undo
            self.say(screen.wrapped("undo is for practice: you have seen the cards drawn "
                                    "after that move, so the record marks this game as a "
                                    "practice game"))
        self._stale = True

    def _rules(self, clause_id: str) -> None:
        if not clause_id:
            self.say(self.rules.sheet_text(screen.WIDTH))
            return
        for clause in self.rules.clauses:
            if clause.id.lower() == clause_id.lower():
                self.say(screen.wrapped(f"{clause.id}: {clause.text}  (source: "
                                        f"{clause.source})"))
                return
        ids = ", ".join(clause.id for clause in self.rules.clauses)
        self.say(f"no clause {clause_id!r}; this rule sheet has {ids}")

    def _save_command(self, name: str) -> None:
        if not name:
            self.say("give a file name: save FILE")
            return
        self._save(_typed_path(name))

    def _quit(self, _: str) -> None:
        """Stop, saving first if wanted.  A save that does not happen (a folder or a name the
        system refuses, a file not to be replaced) goes back to the game: ending it then
        would lose what the person asked to keep."""
        if self._yes("save the game before you stop? [Y/n] ", True):
            answer = self.ask(f"file name [{free_name()}]> ").strip()
            if not self._save(_typed_path(answer) if answer else free_name()):
                self.say("the game goes on: quit again to stop, or save FILE")
                return
        else:
            self.say("the game was not saved")
        raise _Stop(0)

    # -- saving ------------------------------------------------------------------------------

    def _save(self, path: Path) -> bool:
        """Save to ``path`` (asking before replacing a file); ``True`` when saved.  What no
        answer could make right (a folder, a missing folder, a name too long) is refused
        before the question."""
        try:
            check_new(path, force=True, probe=False)
        except OutputError as error:
            self.say(f"not saved: {error}")
            return False
        replace = False
        if os.path.lexists(path):  # the person typed the name: the question need not repeat it
            replace = self._yes("that file exists; replace it? [y/N] ", False)
            if not replace:
                self.say("not saved")
                return False
        try:
            self.session.save(path, overwrite=replace)
        except PlayError as error:
            self.say(f"not saved: {error}")
            return False
        # The command holds the path, whole and quoted: a path in the words could be broken.
        self.offer("saved; go on with:", f"spitemalice play --resume {_arg(path)}")
        return True

    def _yes(self, question: str, default: bool) -> bool:
        """The answer to a yes-or-no ``question``: empty for ``default``, else y or n (an
        answer that is neither, a file name typed too soon say, asks again)."""
        while True:
            answer = self.ask(question).strip().lower()
            if not answer:
                return default
            if answer in ("y", "yes", "n", "no"):
                return answer in ("y", "yes")
            self.say("answer y or n (or Enter for the one in capitals)")

    def _interrupted(self, ask: bool) -> int:
        """Ctrl-C offers to save the game; SIGTERM saves it without asking (nobody may be
        there to answer); a game kept in a record file is in it already, every move."""
        self._write("")
        self.say("interrupted" if ask else "stopped (SIGTERM)")
        if self.session.is_over:
            return INTERRUPTED
        if self.record_path is not None:
            self.offer("every move so far is in the record file; go on with:",
                       f"spitemalice play --resume {_arg(self.record_path)}")
            return INTERRUPTED
        try:
            if not ask or self._yes("save the game? [Y/n] ", True):
                with held_stops():  # a second stop waits for the save: whole or not begun
                    self._save(free_name())
        except (KeyboardInterrupt, EOFError):
            self._write("")
            self.say("not saved")
        return INTERRUPTED

    def _end_of_input(self) -> None:
        self._write("")
        self.say("end of input")
        self._save(free_name())

    def _finish(self) -> None:
        table = self.session.table_view(self.seat)
        outcome = table.outcome
        assert outcome is not None  # the loop ends at the game's end
        self.say("\n".join(screen.table_lines(self.rules, table)))
        self.say("\n".join(screen.outcome_lines(table, outcome)))
        path = self.record_path
        if path is None:
            path = free_name()
            try:
                self.session.save(path)
            except PlayError as error:
                self.say(f"the record was not saved: {error}")
                return
        self.offer("the record is saved; replay it:", f"spitemalice replay {_arg(path)}")


def _typed_path(text: str) -> Path:
    """A file name typed at the game's prompt, ``~`` and ``~user`` expanded as a shell would
    have (no shell reads what the game reads; try-out s7 L10: ``save ~/x.json`` looked for a
    folder named ``~``)."""
    return Path(text).expanduser()


def _move_number(line: str) -> int | None:
    """``line`` as a move's number when it is ASCII digits, perhaps after a minus (which is
    told as no such move): ``str.isdigit`` takes ``²``, which ``int`` refuses, and digits of
    other scripts."""
    number = whole_number(line.removeprefix("-"))
    return None if number is None else -number if line.startswith("-") else number


def free_name(folder: Path | None = None) -> Path:
    """The first of ``spitemalice-game.json``, ``spitemalice-game-2.json``... in ``folder``
    (default: the current one) that does not exist."""
    where = Path() if folder is None else folder
    number = 1
    while True:
        suffix = "" if number == 1 else f"-{number}"
        path = where / f"{DEFAULT_NAME}{suffix}.json"
        if not os.path.lexists(path):
            return path
        number += 1


def _arg(path: Path) -> str:
    """``path`` as one shell word."""
    return shlex.quote(str(path))


__all__ = ["DEFAULT_NAME", "INTERRUPTED", "TerminalGame", "free_name"]
