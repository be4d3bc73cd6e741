"""Playing at a table: people and bots at one game.

:mod:`spitemalice.play.session` holds the game (moves, refusals, undo, hints, the record kept
as moves are made); :mod:`spitemalice.play.table_view` what one seat sees of it.  The terminal
game (``spitemalice play``) and the play server are clients of these.

The game itself goes through the library's public functions: what happens is
:func:`~spitemalice.apply_move`, what a seat is told is :func:`~spitemalice.view_of`, what is
kept is a game record of :mod:`spitemalice.formats`; so the table is never a second referee.
Like any package inside the library (the tiers, ``docs/contributing.md``), it also imports
inner modules of lower layers for what is no game rule:

* :mod:`spitemalice.guards` (argument checks), :mod:`spitemalice.limits` (the bound on a
  seat's name), :mod:`spitemalice.wording` (counts with their nouns, terminal escaping);
* :mod:`spitemalice.files` (writing the record file whole, and checking its path before
  the game), :mod:`spitemalice.stops` (holding a stop back while a move is recorded);
* :mod:`spitemalice.cards` (card and rank texts for the screen),
  :mod:`spitemalice.engine.shuffle` (each bot's seed, derived from the game's),
  :mod:`spitemalice.engine.views` (``require_view``),
  :mod:`spitemalice.engine.refusal_words` (``parsed_move``: a discard from a pile refused
  naming the legal moves instead), :mod:`spitemalice.rules.book`
  (``check_book``), :mod:`spitemalice.bots.players` (``STRONGEST``, the hint's bot);
* :mod:`spitemalice.formats.commitment` (the commitment to a server table's deal) and
  :mod:`spitemalice.formats.records.record` (``DealCommitment``, as the record keeps it).

``tests/contract/test_tiers.py`` holds this list to the imports.
"""

from spitemalice.play.session import HUMAN, PlayError, Refusal, Session
from spitemalice.play.table_view import BuildPile, Played, TableView

__all__ = ["HUMAN", "BuildPile", "PlayError", "Played", "Refusal", "Session", "TableView"]
