"""One of the library's bots at a remote table, through the protocol only
(``spitemalice bot --connect URL``).

The bot is what any program in any language would be: it opens the server's WebSocket,
sends ``join`` with the seat and token of a seat's link, and answers each ``state`` in which
its seat is on turn with a ``move``, chosen by a bot of :data:`spitemalice.bots.players.PLAYERS`
from the seat's view alone (the view in the message, read back with
:func:`~spitemalice.formats.serialize.view_from_dict`, and its legal moves,
:func:`~spitemalice.engine.views.view_legal_moves`; the bot is asked as a table asks it,
:func:`~spitemalice.bots.base.move_from_view`).  It stops when the game ends.
"""

from __future__ import annotations

import http
import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import attrs

from spitemalice import guards, limits, wording
from spitemalice.bots.base import move_from_view
from spitemalice.bots.players import make_player
from spitemalice.engine.views import view_legal_moves
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats import strict_json
from spitemalice.formats.json_input import (
    WRONG,
    describe,
    read_int,
    read_list,
    read_object,
    read_str,
)
from spitemalice.formats.serialize import view_from_dict
from spitemalice.guards import int_field, whole_number
from spitemalice.model import Outcome
from spitemalice.rules.book import RuleBook
from spitemalice.rules.datarules.compile import compile_named
from spitemalice.rules.loader import check_installed_name, load_plugins
from spitemalice.rules.registry import load_plugin
from spitemalice.server.protocol import MAX_HOUSE_RULES, MAX_PARAMS, MAX_SEATS
from spitemalice.wording import clipped, for_terminal, printable


@attrs.frozen
class SeatLink:
    """What a seat's link holds: the server's WebSocket address, the table, seat and token."""

    socket: str
    table: str
    seat: int = attrs.field(validator=int_field())
    token: str


def parse_link(url: str) -> SeatLink:
    """A seat's link (``http://HOST:PORT/table/ID#seat=N&token=T``, as the lobby gives it).

    Raises:
        SpiteMaliceError: the text is not such a link; the message shows the form.
    """
    form = "http://HOST:PORT/table/ID#seat=N&token=TOKEN (the link the lobby gives a seat)"
    parts = urlsplit(url)
    fragment = parse_qs(parts.fragment)
    path = parts.path.rstrip("/").split("/")
    seat = fragment.get("seat", [""])[0]
    token = fragment.get("token", [""])[0]
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:  # a port that is not a number from 0 to 65535
        port_ok = False
    if (parts.scheme not in ("http", "https") or not parts.hostname or not port_ok
            or len(path) < 2 or path[-2] != "table" or whole_number(seat) is None
            or not token or not printable(token) or not printable(path[-1])):
        raise SpiteMaliceError(f"--connect {clipped(url, 80)!r}: expected a seat's link, {form}")
    scheme = "wss" if parts.scheme == "https" else "ws"
    base = "/".join(path[:-2])
    return SeatLink(f"{scheme}://{parts.netloc}{base}/ws", path[-1], int(seat), token)


MAX_SERVER_MESSAGE_BYTES = 16 * 1024 * 1024
"""Largest message the remote bot reads from a server, in bytes (16 MiB: a ``record``
message holds a whole game's record, a ``state`` message may hold the position's picture);
a longer one closes the connection (status 1009)."""

MAX_SERVER_DEPTH = limits.MAX_DEPTH
"""Deepest nesting of lists and objects read in a server's message (the deepest real one, a
``state`` with its view, nests 6)."""


def read_server_message(text: str | bytes) -> dict[str, Any]:
    """One message of the server, as a JSON object with a ``type`` that is a string, read as
    strictly as the server reads a client's (:func:`spitemalice.formats.strict_json.loads`,
    within :data:`MAX_SERVER_MESSAGE_BYTES` and :data:`MAX_SERVER_DEPTH`): a server is a
    stranger's program too.

    Raises:
        SpiteMaliceError: the text is too long, not UTF-8 JSON, nested too deep, names a key
            twice in one object, holds a number of too many digits, is not an object or its
            ``type`` is not a string; the message says which.
    """
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > MAX_SERVER_MESSAGE_BYTES:
        raise SpiteMaliceError(f"the server sent a message of {size:,} bytes; at most "
                               f"{MAX_SERVER_MESSAGE_BYTES:,} are read")
    try:
        decoded = text.decode("utf-8") if isinstance(text, bytes) else text
        depth = guards.json_depth(decoded)
        if depth > MAX_SERVER_DEPTH:
            raise SpiteMaliceError(f"the server sent a message nested {depth:,} deep; at most "
                                   f"{MAX_SERVER_DEPTH} levels of lists and objects are read")
        data = strict_json.loads(decoded)
    except strict_json.DuplicateKey as error:
        raise SpiteMaliceError(f"the server sent {error.at('a message')}") from None
    except SpiteMaliceError:
        raise
    except (UnicodeDecodeError, ValueError) as error:
        raise SpiteMaliceError("the server sent a message that is not JSON: "
                               f"{for_terminal(clipped(str(error), 120))}") from None
    except RecursionError:  # a fallback only: the depth bound refuses deep nesting first
        raise SpiteMaliceError("the server sent a message nested too deep to read") from None
    if not isinstance(data, dict):
        raise SpiteMaliceError("the server sent a message that is not a JSON object but "
                               f"{describe(data)}")
    if not isinstance(data.get("type"), str):
        shown_type = describe(data["type"]) if "type" in data else "missing"
        raise SpiteMaliceError(f"the server sent a message whose type is {shown_type}, not a "
                               "string")
    return data


class RemoteBot:
    """A bot that plays one seat of a remote table through the protocol.

    Args:
        link: the seat's link (:func:`parse_link`).
        player: the bot kind (``"greedy"``...).
        seed: the bot's seed.
        on_move: called with the seconds from sending each move to receiving the ``state``
            that announces it (``bench/serve_load.py`` measures the server with it).
        say: where lines for a person go (the bot's moves are not said; errors and the end
            are).
    """

    def __init__(self, link: SeatLink, player: str = "greedy", seed: int = 0, *,
                 on_move: Callable[[float], None] | None = None,
                 say: Callable[[str], None] = print) -> None:
        self.link = link
        self.player = make_player(player, seed)
        self.on_move = on_move
        self.say = say
        self.rules: RuleBook | None = None
        self.sent: tuple[int, float] | None = None
        self.outcome: Outcome | None = None
        self.problems = 0
        self.moved: str | None = None
        """Where a ``moved`` message sent the bot (another process of the site)."""
        self.address = link.socket
        """The WebSocket address the bot reached last (the link's, or where ``moved``
        sent it)."""
        self.said = ""
        """What the server said when the game did not end: its ``error`` or ``refused``
        message, or its close code and reason; escaped."""

    async def run(self) -> Outcome | None:
        """Join, play until the game ends, return its outcome (``None`` if the server
        closed the connection first, or answered with an ``error`` or ``refused``: then
        :attr:`said` holds what it said).

        Everything the server sends is read as a stranger's input: a message is read by
        :meth:`receive`, and what the connection itself does wrong (an HTTP status other than
        the upgrade, a handshake or frame that breaks the WebSocket protocol, a message over
        :data:`MAX_SERVER_MESSAGE_BYTES`, a close with an error) is one
        :class:`~spitemalice.errors.SpiteMaliceError` whose message quotes the server's
        words escaped (:func:`~spitemalice.wording.for_terminal`).

        Raises:
            SpiteMaliceError: the server cannot be reached, refuses the connection, breaks
                the protocol, closes with an error, or sends a message the bot cannot read.
        """
        import websockets
        from websockets.exceptions import (
            ConnectionClosed,
            InvalidStatus,
            WebSocketException,
        )

        try:
            for _ in range(MAX_MOVES_TO + 1):
                async with websockets.connect(self.address, max_size=MAX_SERVER_MESSAGE_BYTES,
                                              open_timeout=OPEN_SECONDS) as socket:
                    await socket.send(json.dumps({"type": "join", "table": self.link.table,
                                                  "seat": self.link.seat,
                                                  "token": self.link.token}))
                    async for text in socket:
                        answer = self.receive(text)
                        if answer is not None:
                            await socket.send(json.dumps(answer))
                        if self.outcome is not None or self.problems or self.moved:
                            break
                    if self.moved is None and self.outcome is None and not self.problems:
                        self.said = _closed_words(socket.close_code, socket.close_reason)
                if self.moved is None:
                    break
                self.address, self.moved = self.moved, None
            else:
                raise SpiteMaliceError(f"moved {MAX_MOVES_TO + 1} times: the table is nowhere")
        except InvalidStatus as error:
            status = error.response.status_code
            raise SpiteMaliceError(f"the server refused the connection with HTTP status "
                                   f"{status} ({_status_words(status)}); is the link a seat's "
                                   "link of a spitemalice server?") from None
        except ConnectionClosed as error:  # closed with an error code, or the frames broke
            frame = error.rcvd or error.sent
            raise SpiteMaliceError("the connection broke: " + (
                _closed_words(frame.code, frame.reason) if frame is not None
                else "it ended without a closing handshake")) from None
        except WebSocketException as error:
            raise SpiteMaliceError("the server does not speak the WebSocket protocol: "
                                   f"{_quoted(str(error))}") from None
        except OSError as error:  # TimeoutError is one: no answer within OPEN_SECONDS
            raise SpiteMaliceError("cannot reach the server: "
                                   f"{_quoted(str(error) or type(error).__name__)}") from None
        return self.outcome

    def receive(self, text: str | bytes) -> dict[str, Any] | None:
        """What to send back to one message's text as the server sent it (``None``:
        nothing): :func:`read_server_message`, then :meth:`answer`.

        Raises:
            SpiteMaliceError: as those two.
        """
        return self.answer(read_server_message(text))

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """What to send back to one server message (``None``: nothing).

        Raises:
            SpiteMaliceError: a ``welcome`` or ``state`` whose fields do not fit the protocol
                (the message names the field), a ``welcome`` naming a rule set that is not
                installed (or a file's path) or rules the library refuses, or a ``state``
                before the ``welcome``.
        """
        kind = message.get("type")
        if kind == "welcome":
            self.rules = _rules_of(message)
        elif kind == "state":
            return self._on_state(message)
        elif kind == "moved":
            self.moved = moved_to(self.address, message.get("socket"))
        elif kind in ("error", "refused"):
            self.problems += 1
            words = message.get("message")
            self.said = f"the server said {kind}: " + (
                _quoted(words) if isinstance(words, str)
                else f"(its message is {describe(words)})")
            self.say(self.said)
        return None

    def _on_state(self, message: dict[str, Any]) -> dict[str, Any] | None:
        read_object(message, "state", ("number", "view", "legal"), error=_from_server,
                    strict=False)
        played = read_int(message["number"], "state.number", error=_from_server)
        legal = read_list(message["legal"], "state.legal", error=_from_server)
        if self.sent is not None and played >= self.sent[0]:
            if self.on_move is not None:
                self.on_move(time.perf_counter() - self.sent[1])
            self.sent = None
        if self.rules is None:
            raise SpiteMaliceError("the server sent a state before its welcome")
        try:
            view = view_from_dict(message["view"], self.rules, "state.view")
        except SpiteMaliceError as error:
            raise _from_server(WRONG, str(error)) from None
        if view.outcome is not None:
            self.outcome = view.outcome
            return None
        if view.seat != self.link.seat or not legal:
            return None
        move = move_from_view(self.player, self.rules, view, view_legal_moves(self.rules, view))
        number = played + 1
        self.sent = (number, time.perf_counter())
        return {"type": "move", "move": str(move), "number": number}


MAX_MOVES_TO = 3
"""Most ``moved`` answers the bot follows for one seat."""


def moved_to(socket: str, target: object) -> str:
    """The WebSocket address a ``moved`` message names (``target``, maybe a path),
    resolved against the address the bot reached (``socket``).

    Raises:
        SpiteMaliceError: ``target`` is no string, not a ``ws``/``wss`` address or a path,
            or names another host than ``socket``'s (the seat's token goes only to the
            server its link names).
    """
    if not isinstance(target, str) or not target.startswith(("ws://", "wss://", "/")):
        raise _from_server(WRONG, f"moved.socket is {describe(target)}, not "
                           "ws://host:port/ws or a path")
    address = urljoin(socket, target)
    if urlsplit(address).hostname != urlsplit(socket).hostname:
        raise SpiteMaliceError(f"the server sent the bot to another host "
                               f"({_quoted(address, 80)}); the seat's token goes only to "
                               "the server its link names")
    return address


OPEN_SECONDS = 10.0
"""Seconds the bot waits for the server to accept the connection and the upgrade."""


def _quoted(text: str, longest: int = 200) -> str:
    """Text the server wrote, for a message: cut to ``longest`` characters and every
    character a terminal would act on escaped."""
    return for_terminal(clipped(text, longest))


def _closed_words(code: int | None, reason: str | None) -> str:
    """How the server closed the connection, for a message: ``code 1008, reason "..."``."""
    words = f"the server closed it with code {code}" if code is not None else \
        "it ended without a closing handshake"
    return words + (f", reason {wording.shown(reason)}" if reason else "")


def _status_words(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "not a status HTTP defines"


def _from_server(fault: str, message: str) -> SpiteMaliceError:
    """The error of a server message whose fields do not fit the protocol (the
    :data:`~spitemalice.formats.json_input.ErrorMaker` this module's reads take)."""
    return SpiteMaliceError(f"the server sent a message that does not fit the protocol: "
                            f"{message}")


def _rules_of(welcome: dict[str, Any]) -> RuleBook:
    """The rule book a ``welcome`` message names (its rule set, house rules and parameters,
    and one player per seat).  Fields a newer server adds are let be.  The rule set and
    house rules are installed ones, by name: a server that names a file's path is refused
    (:func:`~spitemalice.rules.loader.check_installed_name`), so a server cannot make the
    bot open a file; a rule-set file's house rules come as their tables (``data_rules``).

    Raises:
        SpiteMaliceError: a field missing, of the wrong type or past its bound; a rule set
            that is a path or not installed; rules the library refuses.
    """
    read_object(welcome, "welcome", ("ruleset", "seats"), error=_from_server, strict=False)
    ruleset = read_object(welcome["ruleset"], "welcome.ruleset",
                          ("name", "house_rules", "params"), error=_from_server, strict=False)
    where = "welcome.ruleset.house_rules"
    house_rules = [read_str(name, f"{where}[{i}]", longest=limits.MAX_NAME_CHARS,
                            error=_from_server)
                   for i, name in enumerate(read_list(ruleset["house_rules"], where,
                                                      most=MAX_HOUSE_RULES, noun="name",
                                                      error=_from_server))]
    params = read_object(ruleset["params"], "welcome.ruleset.params", (), error=_from_server,
                         strict=False)
    if len(params) > MAX_PARAMS:
        raise _from_server(WRONG, f"welcome.ruleset.params: {len(params):,} parameters; a "
                           f"rule set has at most {MAX_PARAMS}")
    seats = read_list(welcome["seats"], "welcome.seats", least=1, most=MAX_SEATS, noun="seat",
                      error=_from_server)
    name = read_str(ruleset["name"], "welcome.ruleset.name", longest=limits.MAX_NAME_CHARS,
                    error=_from_server)
    check_installed_name(name, field="welcome.ruleset.name", owner="a server's welcome")
    # a rule-set file's house rules arrive as their tables (by content, never a path)
    tables = read_object(ruleset.get("data_rules", {}), "welcome.ruleset.data_rules", (),
                         error=_from_server, strict=False)
    plugins = [compile_named(rule, tables[rule]) if rule in tables
               else load_plugin(rule, "house-rule") for rule in house_rules]
    return load_plugins(name, plugins, {**params, "players": len(seats)})
