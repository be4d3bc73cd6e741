"""The play server (``spitemalice serve``): people and programs at tables, in the browser or
through a documented WebSocket protocol; the ``play`` extra.

* :mod:`spitemalice.server.protocol`: the messages a client sends, read strictly;
* :mod:`spitemalice.server.messages`: the messages the server sends, each built from what
  its seat may see;
* :mod:`spitemalice.server.lobby`: the catalog, and the rules a new table asks for;
* :mod:`spitemalice.server.rulefile`: a new table's rules from a rule-set file's text (data
  only, bounded);
* :mod:`spitemalice.server.tables`: the tables, tokens, bots and the answer to every message;
* :mod:`spitemalice.server.seating`: a client's connection, and who sits at a table's seats
  (one connection per seat: a second join takes the seat and the first is told);
* :mod:`spitemalice.server.watching`: spectators, who see what every seat may see;
* :mod:`spitemalice.server.listing`: the lobby's list of public tables, and free seats taken;
* :mod:`spitemalice.server.matches` and :mod:`spitemalice.server.standings`: a table that
  plays a match to a target score, and its running score;
* :mod:`spitemalice.server.quickplay`, :mod:`spitemalice.server.queues` and
  :mod:`spitemalice.server.redis_queues`: "play now", people waiting for a table of a rule
  set seated together, or with a bot after a stated wait (in this process or in Redis);
* :mod:`spitemalice.server.leavers` and :mod:`spitemalice.server.reactions`: a table's move
  clock, a bot taking over a seat whose person left or ran out of time, and reactions from a
  fixed set;
* :mod:`spitemalice.server.replays` and :mod:`spitemalice.server.browse`: finished games
  stepped through on the replay page, and the watch and replay pages' routes;
* :mod:`spitemalice.server.store`: records and table files, and the restart;
* :mod:`spitemalice.server.app`: the web app (Starlette) and :func:`~spitemalice.server.app.serve`;
* :mod:`spitemalice.server.guard`: the bounds on connections, per address and in total, and
  the time one may take to become a WebSocket;
* :mod:`spitemalice.server.remote`: one of our bots at a remote table
  (``spitemalice bot --connect URL``);
* :mod:`spitemalice.server.spit_live`, :mod:`spitemalice.server.spit_table`,
  :mod:`spitemalice.server.spit_bots`, :mod:`spitemalice.server.spit_watching` and
  :mod:`spitemalice.server.spit_restore`: a live table of a rule set whose seats move at
  once (Spit): intents in arrival order, the record with its clock, bots on timers,
  spectators, and the table rebuilt from its files at a restart or a takeover.

Every turn-based table is a :class:`~spitemalice.play.session.Session`; a live spit table
holds the rule set's own state and moves it through the engine's doors.  Either way the
game goes through the
library's public functions and the server is never a second referee (design notes §9).  A
program imports from this package (``from spitemalice.server import read_message, Hub``);
only :mod:`~spitemalice.server.app` (and :meth:`RemoteBot.run
<spitemalice.server.remote.RemoteBot.run>`) need the web libraries of the ``play`` extra.

Like any package inside the library (the tiers, ``docs/contributing.md``), the server also
imports inner modules of lower layers for what is no game rule:

* :mod:`spitemalice.formats.strict_json` and :mod:`spitemalice.formats.json_input` (reading
  a message or a table file strictly, field by field, and naming a field's path),
  :mod:`spitemalice.guards` (argument checks), :mod:`spitemalice.limits` (the bounds on
  messages, tables and their rate), :mod:`spitemalice.wording` (values in messages, terminal
  escaping);
* :mod:`spitemalice.files` (the store's folders and files, written whole);
* :mod:`spitemalice.rules.ruleset` (a new table's parameters converted as the command line
  does, and the closest name to a misspelt one), :mod:`spitemalice.rules.loader`
  (``load_text``: a table's rules from a rule-set file's text), :mod:`spitemalice.bots.players`
  (``STRONGEST``, the bot a hint asks), :mod:`spitemalice.formats.picture` (``isolated``: a
  seat's name in a picture's caption), :mod:`spitemalice.rules.loader` (``load_installed``
  and ``check_installed_name``: the rule set a server's ``welcome`` names, by installed name
  only);
* :mod:`spitemalice.model` (``top_ranks``) and :mod:`spitemalice.play.screen`
  (``move_words``): a replayed move in words, as the terminal game says it;
* :mod:`spitemalice.engine.deal` (``new_seed``: a match's first dealer, drawn through the
  one door that draws from the operating system);
* :mod:`spitemalice.runs.arrival` (``game_bots`` and ``ReactionTimes``: a live spit
  table's bots and their reaction times, as a simulation draws them) and
  :mod:`spitemalice.formats.plain_layout` (``plain_data``: a spit seat's view as JSON);
* :mod:`spitemalice.formats.records.record` (``DealCommitment``: the commitment to a deal
  that ``state``, ``public`` and ``spit`` carry, :func:`spitemalice.server.messages.dealt`);
* :mod:`spitemalice.formats.commitment` (``commit``: a live spit table's commitment to each
  deal; ``deal_problem``: the replay page says whether a record's deal checks).

``tests/contract/test_tiers.py`` holds this list to the imports.
"""

from spitemalice.server.protocol import ERROR_CODES, KINDS, PROTOCOL, Message, read_message
from spitemalice.server.remote import RemoteBot, SeatLink, parse_link
from spitemalice.server.store import Store, default_directory
from spitemalice.server.tables import Connection, Hub

__all__ = [
    "ERROR_CODES", "KINDS", "PROTOCOL", "Connection", "Hub", "Message", "RemoteBot",
    "SeatLink", "Store", "default_directory", "parse_link", "read_message",
]
