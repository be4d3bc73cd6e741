"""``spitemalice serve`` (the play server) and ``spitemalice bot --connect URL`` (one of our
bots at a remote table); both need the ``play`` extra (``pip install 'spitemalice[play]'``).

* ``serve [--host 127.0.0.1] [--port 8000] [--records DIR] [--allowed-origin ORIGIN]``
  (and the bounds ``--max-tables``, ``--max-connections``...): the lobby at
  ``http://HOST:PORT/``; every move is kept in ``DIR`` (default: the user's data directory)
  before it is announced, and unfinished tables resume when the server starts again.
  With ``--redis URL`` (and ``--socket-url``, ``--lease-seconds``) the process is one of a
  site's several sharing that Redis (:mod:`spitemalice.server.redis_shared`).
  It listens on 127.0.0.1 only unless ``--host`` says otherwise: put a reverse proxy with
  TLS in front of it before anyone else can reach it (docs/playing.md).
* ``bot --connect URL [--player greedy]``: plays the seat whose link is ``URL`` until the
  game ends, then prints the outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from spitemalice import limits
from spitemalice.bots.players import PLAYERS
from spitemalice.cli._args import Parser, say, seed, share, whole
from spitemalice.errors import SpiteMaliceError
from spitemalice.stops import Terminated

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands

_port = whole(0, 65535, "a port")
_tables = whole(1, limits.MAX_INT)
_bot_delay = share(0, limits.MAX_SECONDS, "a delay", closed_low=True, closed_high=True)
"""``--bot-delay``: 0 to :data:`~spitemalice.limits.MAX_SECONDS` seconds (a bot's longest
decision), a finite number."""
_lease = share(0.2, 3600, "a lease", closed_low=True, closed_high=True)
"""``--lease-seconds``: 0.2 to 3600 seconds."""
_wait = share(0, 50, "a wait", closed_low=True, closed_high=True)
"""``--quickplay-wait``: 0 to 50 seconds (:data:`spitemalice.server.quickplay.MAX_WAIT_SECONDS`)."""
_EXTRA = "needs the play extra: pip install 'spitemalice[play]'"


def add_serve(commands: Commands) -> Parser:
    """Add ``serve`` to ``commands`` (argparse subparsers)."""
    serve = commands.add_parser("serve", help="run the play server: a lobby and tables in "
                                "the browser, a WebSocket protocol for programs")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                            "put a TLS reverse proxy in front before exposing it)")
    serve.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    serve.add_argument("--records", metavar="DIR", default=None,
                       help="folder for the tables' records (default: the user's data "
                            "directory, ~/.local/share/spitemalice/tables on Linux)")
    serve.add_argument("--bot-delay", type=_bot_delay, default=0.6, metavar="SECONDS",
                       help="how long a bot waits before each move (default 0.6)")
    serve.add_argument("--max-tables", type=_tables, default=limits.MAX_TABLES,
                       help=f"unfinished tables held at once (default {limits.MAX_TABLES})")
    serve.add_argument("--max-tables-per-client", type=_tables,
                       default=limits.MAX_TABLES_PER_CLIENT,
                       help="unfinished tables one address may open (default "
                            f"{limits.MAX_TABLES_PER_CLIENT})")
    serve.add_argument("--max-connections", type=_tables, default=limits.MAX_CONNECTIONS,
                       help="connections held at once (default "
                            f"{limits.MAX_CONNECTIONS:,}, lowered below the descriptor limit)")
    serve.add_argument("--max-connections-per-client", type=_tables,
                       default=limits.MAX_CONNECTIONS_PER_CLIENT,
                       help="connections one address may hold at once (default "
                            f"{limits.MAX_CONNECTIONS_PER_CLIENT})")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                       help="an origin whose pages may use the server, as the browser names "
                            "it (https://play.example.org), besides http://127.0.0.1:PORT and "
                            "http://localhost:PORT; repeat for more")
    serve.add_argument("--redis", metavar="URL", default=None,
                       help="share tables with the site's other server processes through "
                            "this Redis (redis://host:6379/0); needs the redis extra; "
                            "default: one process alone, no outside service")
    serve.add_argument("--socket-url", metavar="URL", default=None,
                       help="with --redis: this process's WebSocket address as clients "
                            "reach it, where other processes send its tables' players "
                            "(default ws://HOST:PORT/ws; behind a proxy, a path such as "
                            "/p/2/ws)")
    serve.add_argument("--lease-seconds", type=_lease, default=None, metavar="SECONDS",
                       help="with --redis: how long a table's lease lasts unrenewed, so how "
                            "soon a dead process's tables are taken over (default 10)")
    serve.add_argument("--quickplay-wait", type=_wait, default=20.0, metavar="SECONDS",
                       help="how long play now waits for other people before bots take the "
                            "empty seats (default 20, at most 50)")
    return serve


def add_bot(commands: Commands) -> Parser:
    """Add ``bot`` to ``commands`` (argparse subparsers)."""
    bot = commands.add_parser("bot", help="seat one of our bots at a remote table through "
                              "the play server's protocol")
    bot.add_argument("--connect", required=True, metavar="URL",
                     help="the seat's link, http://HOST:PORT/table/ID#seat=N&token=TOKEN")
    bot.add_argument("--player", default="greedy", choices=sorted(PLAYERS),
                     help="which bot plays the seat (default greedy)")
    bot.add_argument("--seed", type=seed, default=0, help="the bot's seed (default 0)")
    return bot


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until Ctrl-C (exit status 130) or SIGTERM, a supervisor's stop (0,
    after the same clean shutdown: docs/playing.md)."""
    try:
        from spitemalice.server.app import serve
        from spitemalice.server.store import default_directory
    except ImportError as missing:
        raise SpiteMaliceError(f"spitemalice serve {_EXTRA} ({missing.name} is missing)"
                               ) from None
    records = args.records or str(default_directory())
    try:
        serve(args.host, args.port, records, bot_delay=args.bot_delay,
              max_tables=args.max_tables, max_tables_per_client=args.max_tables_per_client,
              origins=args.allowed_origin, max_connections=args.max_connections,
              max_connections_per_client=args.max_connections_per_client,
              redis=args.redis, socket_url=args.socket_url,
              lease_seconds=args.lease_seconds, quickplay_wait=args.quickplay_wait)
    except Terminated:
        # uvicorn has shut down cleanly, then passed the SIGTERM on to the command line's
        # handler: a supervisor's stop, not an interruption
        say("spitemalice serve: stopped (SIGTERM)", file=sys.stderr)
    return 0


def run_bot(args: argparse.Namespace) -> int:
    """Play the linked seat to the end; exit 0 when the game ended.  Whatever the server
    does instead (refuses the connection, sends a message the bot cannot read, answers with
    an ``error``, closes first) is one line on stderr, the server's words escaped, and exit
    status 2 (:class:`~spitemalice.errors.SpiteMaliceError`)."""
    try:
        import websockets  # noqa: F401 - only to say which extra is missing

        from spitemalice.server.remote import RemoteBot, parse_link
    except ImportError as missing:
        raise SpiteMaliceError(f"spitemalice bot {_EXTRA} ({missing.name} is missing)"
                               ) from None
    bot = RemoteBot(parse_link(args.connect), args.player, args.seed, say=lambda line: None)
    try:
        outcome = asyncio.run(bot.run())
    except SpiteMaliceError as error:
        raise SpiteMaliceError(f"--connect: {error}") from None
    if outcome is None:
        raise SpiteMaliceError(f"--connect: the game did not end: {bot.said}")
    say(f"game over: {outcome.describe()}")
    return 0
