"""The messages the play server sends, each built from what its seat may know.

A ``state`` message is built from one :class:`~spitemalice.play.table_view.TableView` (the
seat's :func:`~spitemalice.view_of` plus the public seats and move log) and nothing else, so
two tables that differ only in cards a seat cannot see send that seat the same bytes
(``tests/server/test_server_privacy.py``).  The other messages carry public things only: the rules,
who sits where, the move log, a refusal of the seat's own move.  Shapes:
``spitemalice schema message``, ``$defs/to-client``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spitemalice.formats.picture import isolated, position_svg
from spitemalice.formats.records.making import ruleset_ref
from spitemalice.formats.records.record import DealCommitment, GameRecord
from spitemalice.formats.records.writing import dumps_record, record_to_dict
from spitemalice.formats.serialize import view_to_dict
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone
from spitemalice.play.session import Refusal
from spitemalice.play.table_view import Played, TableView
from spitemalice.rules.book import RuleBook
from spitemalice.server.protocol import PROTOCOL


def zones(move: Move, seat: int) -> tuple[str | None, str | None]:
    """The picture zones (``data-zone`` of :mod:`spitemalice.formats.picture`) that ``move``
    by ``seat`` takes its card from and puts it on: ``("seat0-hand", "build2")``;
    ``(None, None)`` for a pass."""
    if isinstance(move, Play):
        owner = seat if move.owner is None else move.owner
        source = {Zone.HAND: f"seat{seat}-hand",
                  Zone.PAYOFF: f"seat{owner}-payoff{move.index + 1}",
                  Zone.DISCARD: f"seat{owner}-discard{move.index + 1}"}[move.zone]
        return source, "build-new" if move.pile == NEW_PILE else f"build{move.pile + 1}"
    if isinstance(move, Discard):
        owner = seat if move.owner is None else move.owner
        return f"seat{seat}-hand", f"seat{owner}-discard{move.pile + 1}"
    return None, None


def _cards(move: Move) -> list[str]:
    if isinstance(move, Play):
        return [str(move.card)]
    if isinstance(move, Discard):
        return [str(card) for card in move.cards]
    return []


def _last(table: TableView) -> dict[str, Any] | None:
    played = table.last
    if played is None:
        return None
    source, target = zones(played.move, played.seat)
    if played.completed:  # the pile left the table: its number names the next pile now
        target = None
    elif target == "build-new":  # it is the last open pile now (a new pile is never complete)
        target = f"build{len(table.builds)}" if table.builds else None
    return noted({"number": table.moves_made, "seat": played.seat, "move": played.text,
                  "from": source, "to": target, "completed": played.completed}, played)


def noted(entry: dict[str, Any], played: Played) -> dict[str, Any]:
    """``entry`` (a move in a message's ``last`` or ``log``) with ``note``, the words of
    :func:`~spitemalice.play.table_view.completion_note`, when ``played`` completed its build
    pile; unchanged otherwise."""
    if played.note:
        entry["note"] = played.note
    return entry


def state(table: TableView, game: int, *, log: Sequence[Played] | None = None,
          picture: bool = False, ruleset: str = "") -> dict[str, Any]:
    """The ``state`` message for ``table``'s seat.

    Args:
        table: the seat's table view (:meth:`~spitemalice.play.session.Session.table_view`).
        game: the game's number at the table (1, then one more per rematch).
        log: every move so far, when the client's log must be replaced (on join, undo,
            rematch); ``None`` leaves it out (``last`` is then the one new entry).
        picture: add the position drawn as SVG (``picture``).
        ruleset: the rule set's name, for the picture's caption.
    """
    legal = []
    for move in table.legal:
        source, target = zones(move, table.viewer)
        legal.append({"move": str(move), "cards": _cards(move), "from": source, "to": target})
    message: dict[str, Any] = {
        "type": "state", "game": game, "number": table.moves_made, "last": _last(table),
        "view": view_to_dict(table.view, table.teams), "legal": legal,
        "may_open": table.may_open,
    }
    if log is not None:
        message["log"] = [noted({"seat": played.seat, "move": played.text}, played)
                          for played in log]
    if picture:
        message["picture"] = position_svg(
            table.view, caption=_caption(table, ruleset), teams=table.teams,
            names=[seat.name for seat in table.seats], new_pile=table.may_open)
    return message


def dealt(commitment: DealCommitment, seed: int | None, dealer: int | None) -> dict[str, Any]:
    """The ``deal`` field of ``state`` and ``public``: the scheme and the ``commitment`` to
    the deal's seed (64 hex digits: :mod:`spitemalice.formats.commitment`), shown from the
    first move on; once the game is over (``seed`` given, else ``None``) also the ``seed``
    (decimal text: a 128-bit number is no JavaScript number), the ``dealer`` and the
    ``salt`` that let anyone recompute it.  Before the end nothing here tells a card: the
    salt and the seed stay with the server."""
    field: dict[str, Any] = {"scheme": commitment.scheme, "commitment": commitment.sha256}
    if seed is not None:
        field.update(seed=str(seed), dealer=dealer, salt=commitment.salt,
                     check="spitemalice check RECORD (the game's record), or: printf '%s' "
                     f"'{commitment.scheme}:{seed}:{'none' if dealer is None else dealer}:"
                     f"{commitment.salt}' | sha256sum")
    return field


def _caption(table: TableView, ruleset: str) -> str:
    played = table.last
    if played is None:
        return f"{ruleset}: the deal"
    who = isolated(table.seats[played.seat].name)
    done = ", completing its build pile" if played.completed else ""
    return f"{ruleset}, move {table.moves_made}: {who} played {played.text}{done}"


def seat_list(names: Sequence[tuple[str, str]], connected: Sequence[bool]) -> list[dict[str, Any]]:
    """Who sits where: per seat its number, name, player (``"human"`` or a bot kind) and
    whether a client sits there now."""
    return [{"seat": seat, "name": name, "player": player, "connected": here}
            for seat, ((name, player), here) in enumerate(zip(names, connected, strict=True))]


def welcome(table_id: str, seat: int, game: int, rules: RuleBook,
            seats: list[dict[str, Any]], undo: bool, replaced: bool = False,
            match: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``welcome`` message: the table, the seat, the rules (with ``data_rules``, the
    tables of a rule-set file's house rules, as a record carries them) and the rule sheet;
    with ``replaced``, this join took the seat from another connection (which was told);
    ``match``: the running score of the match the table plays
    (:func:`spitemalice.server.matches.standing`), ``None`` for single games."""
    ref = ruleset_ref(rules)
    named: dict[str, Any] = {"name": ref.name, "house_rules": list(ref.house_rules),
                             "params": {key: list(value) if isinstance(value, tuple) else value
                                        for key, value in ref.params}}
    if ref.data_rules:  # a table opened from a rule-set file: its rules, as a record has them
        named["data_rules"] = record_to_dict(GameRecord(ref, (), 0, None, ()))[
            "ruleset"]["data_rules"]
    return {"type": "welcome", "protocol": PROTOCOL, "table": table_id, "seat": seat,
            "game": game, "ruleset": named,
            "seats": seats, "sheet": rules.sheet_text(), "undo": undo, "replaced": replaced,
            "match": match}


def seats(listed: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``seats`` message: who sits at the table now."""
    return {"type": "seats", "seats": listed}


def refused(refusal: Refusal) -> dict[str, Any]:
    """The ``refused`` message for a move the rules do not allow (reason, clause and the
    clause's text, all from the refusal of the seat's own move)."""
    return {"type": "refused", "move": refusal.move, "reason": refusal.reason,
            "clause": refusal.clause, "clause_text": refusal.clause_text,
            "message": refusal.message}


def hint(move: Move, player: str) -> dict[str, Any]:
    """The ``hint`` message: what ``player`` (a bot kind) would play."""
    return {"type": "hint", "move": str(move), "player": player}


def record(game: GameRecord, name: str) -> dict[str, Any]:
    """The ``record`` message: a finished game's record as the text of a record file
    (a string, not an object, so a client whose numbers are doubles, as JavaScript's are,
    saves the 128-bit seed exactly), with a file name to save it under."""
    return {"type": "record", "name": name, "text": dumps_record(game) + "\n"}
