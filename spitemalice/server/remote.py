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

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import attrs

from spitemalice.bots.base import move_from_view
from spitemalice.bots.players import make_player
from spitemalice.engine.views import view_legal_moves
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats import strict_json
from spitemalice.formats.json_input import read_int, read_list, read_object, read_str
from spitemalice.formats.serialize import view_from_dict
from spitemalice.guards import int_field, whole_number
from spitemalice.model import Outcome
from spitemalice.rules.book import RuleBook
from spitemalice.rules.datarules.compile import compile_named
from spitemalice.rules.loader import load_plugins
from spitemalice.rules.registry import load_plugin
from spitemalice.wording import clipped, for_terminal


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
    if (parts.scheme not in ("http", "https") or not parts.netloc or len(path) < 2
            or path[-2] != "table" or whole_number(seat) is None or not token):
        raise SpiteMaliceError(f"--connect {clipped(url, 80)!r}: expected a seat's link, {form}")
    scheme = "wss" if parts.scheme == "https" else "ws"
    base = "/".join(path[:-2])
    return SeatLink(f"{scheme}://{parts.netloc}{base}/ws", path[-1], int(seat), token)


def read_server_message(text: str | bytes) -> dict[str, Any]:
    """One message of the server, as a JSON object (read strictly:
    :func:`spitemalice.formats.strict_json.loads`).

    Raises:
        SpiteMaliceError: the text is not UTF-8 JSON, names a key twice in one object, or is
            not an object.
    """
    try:
        data = strict_json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except strict_json.DuplicateKey as error:
        raise SpiteMaliceError(f"the server sent {error.at('a message')}") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise SpiteMaliceError(f"the server sent a message that is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise SpiteMaliceError("the server sent a message that is not a JSON object")
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

    async def run(self) -> Outcome | None:
        """Join, play until the game ends, return its outcome (``None`` if the server
        closed the connection first).

        Raises:
            OSError: the server cannot be reached.
        """
        import websockets

        async with websockets.connect(self.link.socket, max_size=2**24) as socket:
            await socket.send(json.dumps({"type": "join", "table": self.link.table,
                                          "seat": self.link.seat, "token": self.link.token}))
            async for text in socket:
                answer = self.answer(read_server_message(text))
                if answer is not None:
                    await socket.send(json.dumps(answer))
                if self.outcome is not None or self.problems:
                    break
        return self.outcome

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """What to send back to one server message (``None``: nothing).

        Raises:
            SpiteMaliceError: a ``welcome`` or ``state`` whose fields do not fit the protocol
                (the message names the field), rules the library cannot load, or a ``state``
                before the ``welcome``.
        """
        kind = message.get("type")
        if kind == "welcome":
            self.rules = _rules_of(message)
        elif kind == "state":
            return self._on_state(message)
        elif kind in ("error", "refused"):
            self.problems += 1
            self.say(f"the server said: {for_terminal(str(message.get('message')))}")
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
        view = view_from_dict(message["view"], self.rules)
        if view.outcome is not None:
            self.outcome = view.outcome
            return None
        if view.seat != self.link.seat or not legal:
            return None
        move = move_from_view(self.player, self.rules, view, view_legal_moves(self.rules, view))
        number = played + 1
        self.sent = (number, time.perf_counter())
        return {"type": "move", "move": str(move), "number": number}


def _from_server(fault: str, message: str) -> SpiteMaliceError:
    """The error of a server message whose fields do not fit the protocol (the
    :data:`~spitemalice.formats.json_input.ErrorMaker` this module's reads take)."""
    return SpiteMaliceError(f"the server sent a message that does not fit the protocol: "
                            f"{message}")


def _rules_of(welcome: dict[str, Any]) -> RuleBook:
    """The rule book a ``welcome`` message names (its rule set, house rules and parameters,
    and one player per seat).  Fields a newer server adds are let be.

    Raises:
        SpiteMaliceError: a field missing or of the wrong type; the rules cannot be loaded.
    """
    read_object(welcome, "welcome", ("ruleset", "seats"), error=_from_server, strict=False)
    ruleset = read_object(welcome["ruleset"], "welcome.ruleset",
                          ("name", "house_rules", "params"), error=_from_server, strict=False)
    where = "welcome.ruleset.house_rules"
    house_rules = [read_str(name, f"{where}[{i}]", error=_from_server)
                   for i, name in enumerate(read_list(ruleset["house_rules"], where,
                                                      error=_from_server))]
    params = read_object(ruleset["params"], "welcome.ruleset.params", (), error=_from_server,
                         strict=False)
    seats = read_list(welcome["seats"], "welcome.seats", error=_from_server)
    tables = read_object(ruleset.get("data_rules", {}), "welcome.ruleset.data_rules", (),
                         error=_from_server, strict=False)
    plugins = [compile_named(name, tables[name]) if name in tables
               else load_plugin(name, "house-rule") for name in house_rules]
    return load_plugins(read_str(ruleset["name"], "welcome.ruleset.name", error=_from_server),
                        plugins, {**params, "players": len(seats)})
