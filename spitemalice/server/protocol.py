"""The play server's protocol: JSON messages over one WebSocket, read and written here.

Every message is one JSON object with a ``type``.  A client sends (schema
``spitemalice schema message``, ``$defs/to-server``):

* ``catalog``: asks for the installed rule sets, house rules and players;
* ``create``: opens a table (``ruleset``, an installed rule set's name, or ``ruleset_file``,
  a rule-set file's text (:mod:`spitemalice.server.rulefile`); ``house_rules``, ``params``,
  and ``seats``: per seat a ``name`` and a ``player``, ``"human"`` or a bot kind; for a rule
  set whose seats move at once, ``reaction_ms``: its bots' mean reaction time,
  :mod:`spitemalice.server.spit_live`); ``clock``, seconds per move (:data:`CLOCK_SECONDS`;
  absent: no move clock), ``grace``, seconds a person's seat may stay without a connection
  (:data:`GRACE_SECONDS`), and ``takeover``, the bot that then takes the seat over
  (:mod:`spitemalice.server.leavers`);
* ``join``: sits at seat ``seat`` of table ``table`` with that seat's ``token``
  (``picture: true`` asks for the SVG picture of each position too);
* ``watch``: watches table ``table`` as a spectator, with no seat (``picture`` as for
  ``join``);
* ``tables``: asks for the public tables (and what became of the tables in ``mine``);
* ``claim``: takes free seat ``seat`` of a public table (a new token for it comes back);
* ``move``: a move's text (``"9H>B2"``), optionally with the ``seat`` it is for and its
  ``number`` (moves played so far + 1), so a stale or misdirected move is refused;
* ``hint``, ``undo``, ``rematch``, ``record``: what the table page's buttons do;
* ``react``: a seat's ``reaction``, one of :data:`REACTIONS` (no free text), sent on to
  every seat and spectator of the table (:mod:`spitemalice.server.reactions`).
* ``quickplay``: waits for a table of ``ruleset`` with ``players`` seats (optional: the
  rule set's first count) under seat name ``name`` (optional), with whoever else waits for
  the same, or bots after the server's stated wait; ``unqueue`` stops waiting
  (:mod:`spitemalice.server.quickplay`).

The server answers with ``catalog``, ``created``, ``welcome``, ``state``, ``refused``,
``error``, ``seats``, ``hint``, ``record``, ``tables``, ``claimed``, ``reaction`` and
``takeover`` (a bot took a person's seat over; a ``state`` or ``public`` carries ``clock``,
the time left for the seat on turn, at a table with a move clock), to quick play
``queued``, ``matched`` and ``unqueued`` (at a table whose
seats move at once, ``spit`` instead of ``state``), and a spectator
with ``watching`` and ``public`` (``$defs/to-client``); a process of a site of several
answers a ``join`` or ``claim`` for another's table with ``moved``, the owner's socket
(:mod:`spitemalice.server.shared`).  ``state`` and ``public`` carry ``deal``, the commitment
to the game's deal (:func:`spitemalice.server.messages.dealt`: ``scheme`` and
``commitment``; once the game is over also ``seed``, ``dealer``, ``salt``, ``check``);
docs/playing.md shows
a whole exchange.  Reading is strict: a message over
:data:`~spitemalice.limits.MAX_MESSAGE_BYTES`, malformed JSON, an unknown ``type``, a
missing or unknown field or a value of the wrong type is a :class:`ProtocolError` whose
``code`` names the kind of fault and whose message names the field and what it should be.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from spitemalice import guards, limits
from spitemalice.errors import ProtocolError
from spitemalice.formats import strict_json
from spitemalice.formats.json_input import (
    describe,
    read_bool,
    read_int,
    read_list,
    read_object,
    read_str,
    wrong,
)
from spitemalice.formats.strict_json import path_of
from spitemalice.rules.ruleset import closest
from spitemalice.server import rulefile
from spitemalice.wording import a_or_an

PROTOCOL = 1
"""The protocol version this server speaks (``welcome`` and ``catalog`` carry it)."""

MAX_SEATS = 12
"""Most seats a ``create`` message may list (no rule set seats more)."""

MAX_HOUSE_RULES = 16
"""Most house rules a ``create`` message may list."""

MAX_PARAMS = 32
"""Most parameters a ``create`` message may set."""

MAX_TOKEN_CHARS = 64
"""Longest ``table`` id or ``token`` read (the server makes 22 and 32 characters)."""


ERROR_CODES: dict[str, str] = {
    "too-large": "the message is longer than the server reads",
    "rate-limited": "messages came faster than the server takes them",
    "bad-json": "the message is not a JSON object",
    "unknown-type": "the message's type is not one the server knows",
    "missing-field": "a field the message needs is missing",
    "unknown-field": "the message has a field its type does not have",
    "wrong-type": "a field's value has the wrong JSON type or is out of range",
    "not-joined": "the message needs a seat: join a table first",
    "already-joined": "this connection already sits at a seat",
    "no-table": "no table has that id on this server",
    "bad-token": "the token is not that seat's",
    "seat-not-free": "the seat is not free for anyone to take (a private table, a bot's "
                     "seat, or someone sits there)",
    "watchers-full": "the table has as many spectators as it takes",
    "seat-taken": "another connection joined this connection's seat, which it now holds; "
                  "this one sits nowhere and is closed",
    "not-your-seat": "the message is for a seat this connection does not sit at",
    "not-on-turn": "that is for the seat on turn, and this seat is not",
    "not-a-move": "the move's text is not a move",
    "stale": "the move's number is not the next move's",
    "game-over": "the game has ended",
    "game-not-over": "that is only possible once the game has ended",
    "no-undo": "undo is not possible now",
    "bad-rules": "the rule set, house rules, parameters or seats cannot be used",
    "too-many-tables": "this client has as many unfinished tables as it may",
    "server-full": "the server holds as many tables as it may",
    "real-time": "hint, undo, claim, a move clock and reactions are for turn-based "
                 "tables; a table whose "
                 "seats move at once (Spit) has none of them",
    "bad-reaction": "the reaction is not one of the fixed set",
    "taken-over": "a bot plays this seat for the rest of the game (its person left or ran "
                  "out of time)",
    "already-queued": "this connection waits for quick play already",
    "not-queued": "this connection waits in no quick-play queue",
    "server-error": "the server could not keep a change (its records folder cannot be "
                    "written; every seat at the table is told), or could not answer",
}
"""Every ``error`` code the server sends, with what it means."""


@attrs.frozen
class SeatRequest:
    """One seat of a ``create`` message: who sits there (``name``) and what plays it
    (``player``: :data:`spitemalice.play.HUMAN`, ``"human"``, for a seat a client takes, a
    person's browser or a program; or a bot kind)."""

    name: str
    player: str


@attrs.frozen
class Message:
    """A client's message, read and checked for form (not yet for meaning).

    Attributes:
        type: the kind (``"move"``, ``"join"``...).
        fields: the message's other fields, each of the type the schema gives it; a
            ``create`` message's ``seats`` are :class:`SeatRequest` values.
    """

    type: str
    fields: Mapping[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        """The field ``name``, or ``default`` when the message leaves it out."""
        return self.fields.get(name, default)


# Per kind: required and optional fields, each with its reader.
_STR, _INT, _BOOL, _SEATS, _NAMES, _PARAMS = "str", "int", "bool", "seats", "names", "params"
_IDS = "ids"
_FILE = "file"
_CLOCK, _GRACE, _REACTION = "clock", "grace", "reaction"

CLOCK_SECONDS = (5, 3600)
"""The seconds per move a table's move clock may give (``create.clock``): 5 s to an hour."""

GRACE_SECONDS = (5, 3600)
"""The seconds a person's seat may be waited for without a connection (``create.grace``)
before a bot takes it over: 5 s to an hour."""

REACTIONS: dict[str, tuple[str, str]] = {
    "hello": ("\N{WAVING HAND SIGN}", "Hello!"),
    "nice": ("\N{THUMBS UP SIGN}", "Nice move!"),
    "wow": ("\N{FACE WITH OPEN MOUTH}", "Wow!"),
    "oops": ("\N{SMILING FACE WITH OPEN MOUTH AND COLD SWEAT}", "Oops!"),
    "thinking": ("\N{THINKING FACE}", "Let me think..."),
    "hurry": ("\N{HOURGLASS WITH FLOWING SAND}", "Your move!"),
    "thanks": ("\N{PERSON WITH FOLDED HANDS}", "Thanks!"),
    "good-game": ("\N{CLAPPING HANDS SIGN}", "Good game!"),
}
"""The reactions a seat may send (``react``): per name its emoji and its words.  A fixed
set, no free text, so there is nothing to moderate."""
KINDS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "catalog": ({}, {}),
    "create": ({"seats": _SEATS}, {"ruleset": _STR, "ruleset_file": _FILE,
                                   "house_rules": _NAMES, "params": _PARAMS, "public": _BOOL,
                                   "match": _BOOL, "reaction_ms": _INT, "clock": _CLOCK,
                                   "grace": _GRACE, "takeover": _STR}),
    "join": ({"table": _STR, "seat": _INT, "token": _STR}, {"picture": _BOOL}),
    "watch": ({"table": _STR}, {"picture": _BOOL}),
    "tables": ({}, {"mine": _IDS}),
    "claim": ({"table": _STR, "seat": _INT}, {}),
    "move": ({"move": _STR}, {"seat": _INT, "number": _INT}),
    "hint": ({}, {}),
    "undo": ({}, {}),
    "rematch": ({}, {}),
    "record": ({}, {}),
    "react": ({"reaction": _REACTION}, {}),
    "quickplay": ({"ruleset": _STR}, {"players": _INT, "name": _STR}),
    "unqueue": ({}, {}),
}
"""The kinds a client may send: required and optional fields besides ``type``."""


def read_message(data: str | bytes) -> Message:
    """A client's message from the text of one WebSocket message.

    Raises:
        ProtocolError: too long, not a JSON object, an object naming a key twice, an unknown
            type, a missing or unknown field, or a value of the wrong type; the message names
            the field and the form it should have.
    """
    parsed = _parse(data)
    if not isinstance(parsed, dict):
        raise ProtocolError("bad-json", f"the message is {describe(parsed)}; send one JSON "
                            'object with a "type" field, such as {"type": "catalog"}')
    kind = parsed.get("type")
    # a str first: a list or an object is no key of KINDS, and asking would raise TypeError
    if not isinstance(kind, str) or kind not in KINDS:
        shown = "missing" if "type" not in parsed else describe(kind)
        hint = closest(kind, KINDS) if isinstance(kind, str) else ""
        raise ProtocolError("unknown-type", f"type: {shown} is not a message type{hint}; the "
                            f"types are {', '.join(KINDS)}")
    required, optional = KINDS[kind]
    # The fields' faults are the shared reader's (json_input), raised as ProtocolErrors: its
    # kinds of fault are this protocol's codes missing-field, unknown-field and wrong-type.
    read_object(parsed, kind, ("type", *required), tuple(optional), error=ProtocolError,
                owner=f"{a_or_an(kind)} message")
    fields = {name: _READERS[required.get(name) or optional[name]](value, f"{kind}.{name}")
              for name, value in parsed.items() if name != "type"}
    return Message(kind, fields)


def _parse(data: str | bytes) -> Any:
    """The JSON value of a message's text, read within the message bounds (a ``create``
    message with a rule-set file's text may be longer, :data:`rulefile.ALLOWANCE`)."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size <= limits.MAX_MESSAGE_BYTES:
        return _parse_within(data)
    too_large = ProtocolError("too-large", f"the message is {size:,} bytes; the server reads "
                              f"messages of at most {limits.MAX_MESSAGE_BYTES:,} bytes (a "
                              "create message with a ruleset_file, at most "
                              f"{limits.MAX_MESSAGE_BYTES + rulefile.ALLOWANCE:,})")
    if size > limits.MAX_MESSAGE_BYTES + rulefile.ALLOWANCE:
        raise too_large
    try:
        parsed = _parse_within(data)
    except ProtocolError:
        raise too_large from None
    if not rulefile.may_be_long(parsed):
        raise too_large
    return parsed


def _parse_within(data: str | bytes) -> Any:
    """The JSON value of a message's text whose length was checked."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        if guards.json_depth(text) > 4:  # the deepest message, create, nests 3
            raise ProtocolError("bad-json", "the message nests lists and objects more than "
                                "4 deep; no message of this protocol does")
        return strict_json.loads(text)
    except (UnicodeDecodeError, ValueError) as error:
        if isinstance(error, ProtocolError):
            raise
        if isinstance(error, strict_json.DuplicateKey):
            raise ProtocolError("bad-json", error.at("message")) from None
        if not isinstance(error, json.JSONDecodeError | UnicodeDecodeError):
            # guards.json_int: valid JSON, but a number past the digits any field takes
            raise ProtocolError("wrong-type", f"the message holds {error}") from None
        shown = str(error).split(": line")[0] if isinstance(error, json.JSONDecodeError) else ""
        raise ProtocolError("bad-json", "the message is not JSON" + (f" ({shown})" if shown
                            else "") + '; send one JSON object such as {"type": "catalog"}'
                            ) from None


def _read_int(value: Any, path: str) -> int:
    # a seat or a move's number: at most 2**31 - 1, so a 32-bit signed integer holds it
    return read_int(value, path, 0, maximum=2**31 - 1, error=ProtocolError)


def _read_bool(value: Any, path: str) -> bool:
    return read_bool(value, path, error=ProtocolError)


def _read_name(value: Any, path: str, longest: int = limits.MAX_NAME_CHARS) -> str:
    return read_str(value, path, longest=longest, error=ProtocolError)


def _read_names(value: Any, path: str) -> tuple[str, ...]:
    names = read_list(value, path, most=MAX_HOUSE_RULES, noun="name", error=ProtocolError)
    return tuple(_read_name(name, f"{path}[{i}]") for i, name in enumerate(names))


MAX_IDS = 50
"""Most table ids a ``tables`` message asks about (``mine``)."""


def _read_ids(value: Any, path: str) -> tuple[str, ...]:
    ids = read_list(value, path, most=MAX_IDS, noun="table id", error=ProtocolError)
    return tuple(_read_name(item, f"{path}[{i}]", MAX_TOKEN_CHARS) for i, item in enumerate(ids))


def _read_params(value: Any, path: str) -> dict[str, int | bool | str | None]:
    if not isinstance(value, dict) or len(value) > MAX_PARAMS:
        raise wrong(path, f"an object of at most {MAX_PARAMS} parameters", value, ProtocolError)
    params: dict[str, int | bool | str | None] = {}
    for key, item in value.items():
        _read_name(key, f"{path} key")
        if item is not None and not isinstance(item, int | bool | str):
            raise wrong(path_of(path, (key,)), "a whole number, true/false, a string or null",
                        item, ProtocolError)
        params[key] = item
    return params


def _read_seats(value: Any, path: str) -> tuple[SeatRequest, ...]:
    seats = read_list(value, path, least=1, most=MAX_SEATS, noun="seat", error=ProtocolError)
    requests = []
    for i, seat in enumerate(seats):
        where = f"{path}[{i}]"
        read_object(seat, where, ("name", "player"), error=ProtocolError, owner="a seat")
        requests.append(SeatRequest(
            _read_name(seat["name"], f"{where}.name", limits.MAX_SEAT_NAME_CHARS),
            _read_name(seat["player"], f"{where}.player")))
    return tuple(requests)


def _read_clock(value: Any, path: str) -> int:
    return read_int(value, path, CLOCK_SECONDS[0], maximum=CLOCK_SECONDS[1],
                    error=ProtocolError)


def _read_grace(value: Any, path: str) -> int:
    return read_int(value, path, GRACE_SECONDS[0], maximum=GRACE_SECONDS[1],
                    error=ProtocolError)


def _read_reaction(value: Any, path: str) -> str:
    name = _read_name(value, path)
    if name not in REACTIONS:
        raise ProtocolError("bad-reaction", f"{path}: {describe(name)} is not a reaction; "
                            f"the reactions are {', '.join(REACTIONS)} (a fixed set: no "
                            "free text)")
    return name


_LONGEST = {"join.table": MAX_TOKEN_CHARS, "watch.table": MAX_TOKEN_CHARS,
            "claim.table": MAX_TOKEN_CHARS,
            "join.token": MAX_TOKEN_CHARS, "move.move": limits.MAX_MOVE_CHARS,
            "quickplay.name": limits.MAX_SEAT_NAME_CHARS}


def _read_field(value: Any, path: str) -> str:
    return _read_name(value, path, _LONGEST.get(path, limits.MAX_NAME_CHARS))


_READERS: dict[str, Callable[[Any, str], Any]] = {
    _STR: _read_field, _INT: _read_int, _BOOL: _read_bool, _SEATS: _read_seats,
    _NAMES: _read_names, _PARAMS: _read_params, _IDS: _read_ids,
    _FILE: rulefile.read_file_text, _CLOCK: _read_clock, _GRACE: _read_grace,
    _REACTION: _read_reaction}


def encode(message: Mapping[str, Any]) -> str:
    """A server message as the compact JSON text sent (keys in the order built, no spaces):
    equal messages are equal bytes."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(code: str, message: str) -> dict[str, Any]:
    """An ``error`` message (``code`` one of :data:`ERROR_CODES`)."""
    return {"type": "error", "error": code, "message": message}
