"""Playing at a table: people and bots at one game, built on the public API only.

:mod:`spitemalice.play.session` holds the game (moves, refusals, undo, hints, the record kept
as moves are made); :mod:`spitemalice.play.table_view` what one seat sees of it.  The terminal
game (``spitemalice play``) and the play server are clients of these.
"""

from spitemalice.play.session import HUMAN, PlayError, Refusal, Session
from spitemalice.play.table_view import BuildPile, Played, TableView

__all__ = ["HUMAN", "BuildPile", "PlayError", "Played", "Refusal", "Session", "TableView"]
