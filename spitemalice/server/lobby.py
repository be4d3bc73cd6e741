"""The lobby's side of the protocol: what a table may have (``catalog``), the rules a
``create`` message asks for, and the ``created`` answer with each person's link.

A ``create`` message names an installed rule set and installed house rules (never a file: a
client cannot make the server read one), or carries a rule-set file's text instead of the
rule set's name (:mod:`spitemalice.server.rulefile`: data only, never a path), and one seat
per player of the game.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from spitemalice import limits
from spitemalice.bots.players import PLAYERS, STRONGEST, check_player, make_player
from spitemalice.errors import ProtocolError, RulesetError, SpiteMaliceError
from spitemalice.formats.strict_json import path_of
from spitemalice.play.session import HUMAN
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load, turn_based_rulesets
from spitemalice.rules.registry import installed
from spitemalice.rules.ruleset import closest, convert_param
from spitemalice.server import rulefile
from spitemalice.server.protocol import PROTOCOL, Message
from spitemalice.server.store import TableEntry
from spitemalice.wording import shown

HINT_PLAYER = STRONGEST
"""The bot whose move a ``hint`` message gives."""


@functools.cache
def _installed() -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    rulesets, house_rules = [], []
    for info in installed():
        if info.kind == "ruleset":
            book = load(info.name)
            if book.simultaneous is not None:  # no live table for seats moving at once yet
                continue
            counts = list(book.ruleset.player_counts)
            rulesets.append({"name": info.name, "description": info.description,
                             "players": counts})
        elif info.kind == "house-rule":
            house_rules.append({"name": info.name, "description": info.description})
    return rulesets, house_rules


@functools.cache
def _can_seat(kind: str) -> bool:
    """Whether a bot of ``kind`` can be made here (a plugin bot whose extra is missing, the
    learned bot without the rl extra, cannot: the catalog does not offer it)."""
    try:
        make_player(kind, 0)
    except SpiteMaliceError:
        return False
    return True


def catalog() -> dict[str, Any]:
    """The ``catalog`` message: installed rule sets (with their seat counts), house rules,
    the players a seat may have (``"human"`` and every bot kind that can be made here), and
    the longest rule-set file a ``create`` message may carry (``ruleset_file_bytes``)."""
    rulesets, house_rules = _installed()
    players = [HUMAN, *filter(_can_seat, PLAYERS)]
    return {"type": "catalog", "protocol": PROTOCOL, "rulesets": rulesets,
            "house_rules": house_rules, "players": players,
            "ruleset_file_bytes": limits.MAX_RULESET_FILE_BYTES}


def table_rules(message: Message, live: bool = False) -> tuple[RuleBook, list[str], list[str]]:
    """The rule book, the seat kinds and the names a ``create`` message asks for (every
    seat may be a bot's: a table to watch, :mod:`spitemalice.server.watching`).

    With ``live`` the message names a rule set whose seats move at once, for a live table
    (:mod:`spitemalice.server.spit_live`); without it such rules are refused (the
    turn-based tables cannot play them), as ``reaction_ms`` is.

    A message with ``ruleset_file`` opens the table with that rule-set file's rules
    (:func:`spitemalice.server.rulefile.file_rules`), the house rules and parameters it
    names added after the file's own.

    Raises:
        ProtocolError: ``bad-rules``: a rule set or house rule that is not installed, both
            or neither of ``ruleset`` and ``ruleset_file``, a rule-set file the reader
            refuses (its message, with the line and column), a player that is neither
            ``"human"`` nor a bot, or rules the library refuses (the seat count among them),
            rules whose seats move at once without ``live`` (a rule-set file based on
            spit), turn-based rules with it, or ``reaction_ms`` without it; the message says
            what would do.
    """
    rulesets, house_rules = _installed()
    name, text = message.get("ruleset"), message.get("ruleset_file")
    if (name is None) == (text is None):
        raise ProtocolError("bad-rules", "create: give the rules one way: ruleset (an "
                            "installed rule set's name) or ruleset_file (a rule-set file's "
                            f"text), not {'both' if text is not None else 'neither'}")
    if text is None and not (live and name in moving_at_once()):
        _known(name, [r["name"] for r in rulesets], "create.ruleset", "rule set")
    chosen = message.get("house_rules", ())
    for i, rule in enumerate(chosen):
        _known(rule, [h["name"] for h in house_rules], f"create.house_rules[{i}]", "house rule")
    seats = message.get("seats")
    players = [HUMAN, *PLAYERS]
    for i, seat in enumerate(seats):
        _known(seat.player, players, f"create.seats[{i}].player", "player")
    kinds = [seat.player for seat in seats]
    given = message.get("params", {})
    for key, value in given.items():
        try:
            convert_param(key, value)
        except RulesetError as problem:  # the type is checked here, to name the field
            raise ProtocolError("bad-rules", f"{path_of('create.params', (key,))}: "
                                f"{problem}") from None
    params = {**given, "players": len(seats)}
    if text is not None:
        rules = rulefile.file_rules(text, chosen, params)
    else:
        try:
            rules = load(name, chosen, params)
        except RulesetError as problem:
            raise ProtocolError("bad-rules", str(problem)) from None
    _check_live(message, rules, live)
    _check_bots(rules, kinds)
    return rules, kinds, [seat.name for seat in seats]


def _check_bots(rules: RuleBook, kinds: Sequence[str]) -> None:
    """Refuse a bot that cannot play ``rules`` (the ``learned`` bot plays only the rule set
    it was trained for) before a table opens.

    Raises:
        ProtocolError: ``bad-rules``, naming the seat and what the bot plays.
    """
    for i, kind in enumerate(kinds):
        if kind != HUMAN:
            try:
                check_player(kind, rules)
            except SpiteMaliceError as problem:
                raise ProtocolError("bad-rules", f"create.seats[{i}].player: "
                                    f"{problem}") from None


def _check_live(message: Message, rules: RuleBook, live: bool) -> None:
    """Refuse rules whose seats move at once for a turn-based table (a rule-set file based
    on spit) and turn-based rules for a live one, and ``reaction_ms`` for a turn-based one.

    Raises:
        ProtocolError: ``bad-rules``, saying what would do.
    """
    if message.get("reaction_ms") is not None and rules.simultaneous is None:
        raise ProtocolError("bad-rules", "create.reaction_ms: the bots' reaction time is for a "
                            f"rule set whose seats move at once (spit); leave it out for "
                            f"{rules.name}")
    if (rules.simultaneous is not None) != live:
        raise ProtocolError("bad-rules", f"{rules.plugins[0]}'s seats move at once; open its "
                            "live table by the rule set's name (create.ruleset, or the page "
                            "/spit), not from a rule-set file" if rules.simultaneous is not None
                            else f"{rules.name} is turn-based; its table is the lobby's")


@functools.cache
def moving_at_once() -> frozenset[str]:
    """The installed rule sets whose seats move at once (Spit)."""
    every = {info.name for info in installed() if info.kind == "ruleset"}
    return frozenset(every - set(turn_based_rulesets()))


def _known(name: str, names: Sequence[str], path: str, what: str) -> None:
    if name not in names:
        raise ProtocolError("bad-rules", f"{path}: {shown(name)} is not an installed {what}"
                            f"{closest(name, names)}; choose one of {', '.join(names)}")


def created(entry: TableEntry, tokens: Sequence[str | None]) -> dict[str, Any]:
    """The ``created`` message: per seat its link and token (``None`` for a bot's), and
    the table's watch link (``/watch/ID``)."""
    seats = []
    for number, (seat, token) in enumerate(zip(entry.seats, tokens, strict=True)):
        link = None if token is None else f"/table/{entry.table}#seat={number}&token={token}"
        seats.append({"seat": number, "name": seat.name, "player": seat.player,
                      "token": token, "link": link})
    return {"type": "created", "table": entry.table, "seats": seats,
            "watch": f"/watch/{entry.table}"}


__all__ = ["HINT_PLAYER", "catalog", "created", "moving_at_once", "table_rules"]
