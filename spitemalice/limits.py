"""Bounds on untrusted input, in one place (the docs and the JSON Schemas quote them).

Every reader of text, JSON, TOML, parameters and files checks these bounds before it builds
anything, and refuses with the library's own error for that input (``NotationError``,
``DataError``, ``RulesetError``) naming the bound, so a hostile input costs at most a bounded
amount of time and memory and never reaches Python's own limits (the integer-string limit of
4,300 digits, the recursion limit) whose errors are not the library's.

This module holds the numbers only.  The checks that apply them to values given to the
Python API are in :mod:`spitemalice.guards`; the words that print a value in a message are
in :mod:`spitemalice.wording`; reading a file up to a cap is :func:`spitemalice.files.read_file`.
"""

from __future__ import annotations

MAX_DIGITS = 80
"""Longest whole number read from text, JSON or TOML, in digits (a 256-bit seed has 78)."""

MAX_INT = 10**MAX_DIGITS - 1
"""The largest whole number any part of the library takes, from text or from Python: one of
:data:`MAX_DIGITS` digits, so every number a value holds is one its readers read back."""

MAX_SEED = MAX_INT
"""The largest seed, the same everywhere (``deal``, the environments, bots, studies,
sessions, records, the notation and JSON): a game dealt from any seed the library accepts
saves to a record the library reads back.  Unseeded games draw 128 bits
(:func:`spitemalice.engine.deal.new_seed`), far below it."""

MAX_GAMES = 10**9
"""The most games one run plays (``simulate``, ``compare``, ``validate``, a tournament's
deals, a match's games): a billion, days of work on every core."""

MAX_MATCH_GAMES = 1000
"""The most games one match plays (``play_match``'s ``max_games``): a match keeps every game
it played, and one to 50 points takes a handful."""

MAX_VECTOR_ENVS = 4096
"""The most games one vectorised environment steps at once (``num_envs``); its memory is
linear in them."""

MAX_JOBS = 1024
"""The most worker processes one run starts on this machine (``jobs``, ``--jobs``)."""

MAX_DECK_CARDS = 1000
"""The most cards a numbered pack holds (:func:`spitemalice.numbered_pack`); the largest deck
the rule-set parameters allow has 800 (a 400-card draw pack and a 400-card pay-off pack)."""

MAX_OBSERVATION = 1_000_000
"""The most values one observation array of the environments holds (2 MB of ``int16``); the
largest the rule-set parameters allow, eight seats of eight discard piles shown to the depth
of an 800-card deck, holds about 52,000."""

MAX_PLAYOUTS = 1_000_000
"""The most play-outs one Monte Carlo search decision runs (the ``mcts`` bot's trees and
the ``ismcts`` bot's root children grow with them)."""

MAX_BOOTSTRAP = 1_000_000
"""The most bootstrap refits behind one set of ratings' intervals (``ratings``)."""

MAX_SECONDS = 3600.0
"""The longest time budget of one bot decision, in seconds."""

MAX_DPI = 1200
"""The finest resolution of a picture the studies draw (``dpi``), in dots per inch: a
picture's memory grows with its square (the studies draw at 100 to 110)."""

MAX_REAL = 1e100
"""The largest size of a number that is not whole but scales, bounds or counts something (a
margin, a level, a rating, a share, a time): far past any such quantity, and far inside a
float, so that no square or power of one overflows (and an integer past it is refused before
it is converted to a float, which would raise ``OverflowError``)."""

MAX_DEPTH = 32
"""Deepest nesting of JSON arrays and objects or TOML tables and arrays (the formats
themselves need 5)."""

MAX_JSON_BYTES = 8 * 1024 * 1024
"""Largest JSON document (record, state or view) read, in bytes (8 MiB; a long game's record
is well under 1 MiB).  Reading one at the cap peaks below about 100 MB of memory."""

MAX_TOML_BYTES = 1024 * 1024
"""Largest custom rule-set file read, in bytes (1 MiB)."""

MAX_POSITION_CHARS = 64 * 1024
"""Longest position or view text, in characters (a four-pack position is about 1,000)."""

MAX_MOVE_CHARS = 64
"""Longest move text, in characters (the longest real move, ``S12.D3:10H>B12``, has 14)."""

MAX_NAME_CHARS = 200
"""Longest name, kind or other label read from a record or a rule-set file, in characters."""

MAX_INDENT = 8
"""The widest indent of JSON text the library writes (``dumps_record``, ``dumps_state``,
``dumps_view``): each line's indent grows with the nesting, so the text grows with it."""

MAX_MESSAGE_BYTES = 4096
"""Largest protocol message a client may send to the play server, in bytes of UTF-8 (the
largest real one, a ``create`` with eight named seats and every house rule, is under 1,500).
A longer message is answered with an error and dropped; the connection stays open."""

MAX_RULESET_FILE_BYTES = 16 * 1024
"""Largest rule-set file a play server's ``create`` message may carry as text, in bytes of
UTF-8 (a file with a dozen ``[[rule]]`` tables is about 8,000).  A ``create`` message
carrying one may be longer than :data:`MAX_MESSAGE_BYTES` by twice this (JSON escapes
quotes and line breaks); no other message may."""

MAX_FRAME_BYTES = 64 * 1024
"""Largest WebSocket message the play server reads at all, in bytes; a longer one closes the
connection (status 1009, "message too big"), so a client cannot make the server buffer
more."""

MESSAGES_PER_SECOND = 20
"""Messages a connection may send per second, on average (a person clicks a few times a
second; a bot answers once per move).  Faster messages are answered with one error each
second and dropped."""

MESSAGE_BURST = 40
"""Messages a connection may send at once before :data:`MESSAGES_PER_SECOND` applies."""

MAX_TABLES_PER_CLIENT = 8
"""Unfinished tables one client (one network address) may have created on a play server at
a time (``spitemalice serve --max-tables-per-client`` changes it)."""

MAX_TABLES = 500
"""Unfinished tables a play server holds at a time (``spitemalice serve --max-tables``)."""

MAX_SEAT_NAME_CHARS = 40
"""Longest name of a seat at a play-server table, in characters (printable text only)."""

MAX_CONNECTIONS = 1000
"""Connections (open TCP connections, WebSockets among them) a play server holds at a time
(``spitemalice serve --max-connections``); it is lowered to stay below the process's
descriptor limit (:func:`resource.getrlimit`) less a reserve for its files, so the server
never runs out of descriptors.  A connection past it is closed as soon as it is accepted."""

MAX_CONNECTIONS_PER_CLIENT = 32
"""Connections one client (one network address) may hold on a play server at a time
(``spitemalice serve --max-connections-per-client``): a person's browser holds a few (a
WebSocket per open table page, a few for loading pages)."""

HANDSHAKE_SECONDS = 10
"""Seconds a play server's connection may stay open without becoming a WebSocket: a
connection that sends nothing, or half a request, is closed then (a page's requests are
answered well within it; one kept alive for more page loads is closed between two)."""

JOIN_SECONDS = 60
"""Seconds a play server's WebSocket may stay open without sitting at a seat (``join``): the
lobby page's connection, or one that never joins, is closed then (the lobby opens a new one
when it needs it)."""

CONNECTION_BACKLOG = 64
"""Connections the play server's listening socket queues before it accepts them, and the
most it accepts at once (Python's event loop accepts up to this many in one step, before any
of them is counted)."""

MAX_DATA_RULES = 64
"""House rules one rule-set file may declare in its ``[[rule]]`` tables
(:mod:`spitemalice.rules.datarules`)."""

MAX_CONDITION_CHARS = 400
"""Longest condition or value expression of a data house rule, in characters."""

MAX_CONDITION_DEPTH = 12
"""Deepest nesting of a data house rule's expression: operators inside operators, counted as
the levels of its syntax tree (``a and (b or not c)`` is 4 deep)."""

MAX_CONDITION_NUMBER = 10**6
"""Largest number written in a data house rule's expression (a card game counts far less)."""
