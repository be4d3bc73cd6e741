"""Making a record of a game: from its rule book, seed and moves (:func:`record_game`) or from
a played :class:`~spitemalice.model.GameResult` (:func:`record_result`), with what it takes to
load the rules again (:func:`ruleset_ref`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from spitemalice.errors import (
    NotationError,
    SpiteMaliceError,
)
from spitemalice.formats.records.record import (
    ArrivalLog,
    ArrivalPolicy,
    GameRecord,
    ParamValue,
    RulesetRef,
    SeatInfo,
    Undone,
)
from spitemalice.guards import check_int, check_list, check_seed
from spitemalice.limits import MAX_REAL
from spitemalice.model import GameResult, Outcome
from spitemalice.moves import Move, move_text, parse_move
from spitemalice.rules.book import RuleBook, check_book, require_turn_based
from spitemalice.rules.datarules.plugins import DataRule
from spitemalice.rules.ruleset import IDENTITY_FIELDS, Ruleset
from spitemalice.wording import shown


def ruleset_ref(rules: RuleBook) -> RulesetRef:
    """What a record must say to load ``rules`` again.

    The name is the rule-set plugin's (``rules.plugins[0]``) and the version that plugin's
    own; house rules are the house-rule plugins in order; the parameters are those that differ
    from what the rule set and house rules give by themselves.  A rule set read from a custom
    file is recorded as its base rule set, house rules and parameters (its file name, title
    and version are not needed to replay it and are not kept); a house rule the file wrote
    as data (a ``[[rule]]`` table) is recorded by name and by content, its table in
    ``data_rules``, since the file may not be where the record is replayed.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "ruleset_ref")
    return _ruleset_ref(rules)


def _ruleset_ref(rules: RuleBook) -> RulesetRef:
    """:func:`ruleset_ref` of a rule book already checked (record_game checked it)."""
    defaults = rules.plugins_ruleset()
    params = []
    for field in attrs.fields(Ruleset):
        if field.name in IDENTITY_FIELDS:
            continue
        value = getattr(rules.ruleset, field.name)
        if value != getattr(defaults, field.name):
            params.append((field.name, _param_out(value)))
    house_rules = tuple(
        name for name in rules.plugins[1:]
        if getattr(rules.plugin(name), "KIND", "house-rule") == "house-rule"
    )
    data_rules = tuple((name, plugin.spec.table) for name in house_rules
                       if isinstance(plugin := rules.plugin(name), DataRule))
    return RulesetRef(rules.plugins[0], rules.own.version, house_rules, tuple(sorted(params)),
                      data_rules)


def own_version(rules: RuleBook) -> str:
    """The version of the rule-set plugin itself (``rules.plugins[0]``), before any house
    rule or custom file wraps it.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "own_version")
    return rules.own.version


def _param_out(value: Any) -> ParamValue:
    if isinstance(value, frozenset):
        return tuple(sorted(value))
    return value


def record_game(
    rules: RuleBook,
    seed: int,
    moves: Sequence[Move | str] = (),
    *,
    seats: Sequence[SeatInfo | str] | None = None,
    dealer: int | None = None,
    outcome: Outcome | None = None,
    undone: Sequence[Undone] = (),
) -> GameRecord:
    """A record of the game dealt by ``seed`` (and ``dealer``) and played with ``moves``.

    Args:
        seats: a :class:`~spitemalice.formats.records.record.SeatInfo` or a kind
            (``"greedy"``) per seat; default ``"seat N"`` of kind ``"unknown"``.
        outcome: the game's outcome once it has ended (``final_state.outcome``).
        undone: the moves taken back during the game, each undo in order
            (:class:`~spitemalice.formats.records.record.Undone`).

    Raises:
        TypeError: ``seats`` is a bare str (a list is wanted).
        TypeError: ``moves`` is a bare str (a list is wanted).
        SpiteMaliceError: ``seats`` does not have one entry per seat, a seed outside 0 to
            :data:`~spitemalice.limits.MAX_SEED`, or a dealer that is not a seat.
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        NotationError: a move given as text does not parse (the message names its index and
            what would be right): a record holds only moves the notation reads back.
        TypeError: ``undone`` is not a list (a str, ``None`` or a number, say),
            naming the function and what a right value looks like.
    """
    check_book(rules, "record_game")  # in parameter order: of two wrong, the first is named
    require_turn_based(rules, "record_game")
    check_seed(seed)
    check_list(moves, "record_game", "moves, a list of moves or move texts,",
               '["AS>B+", "pass"]')
    check_list(seats, "record_game", "seats, a list of seats or names,",
               '["me", "greedy"]', none=True)
    if dealer is not None:
        check_int(dealer, "dealer", 0, rules.players - 1)
    check_list(undone, "record_game", "undone, a list of undone moves,",
               '[Undone(2, ("AS>B+",))]')
    infos = _seat_infos(rules, seats)
    texts = tuple(_written(m, index) for index, m in enumerate(moves))
    teams = rules.teams.teams if rules.teams.any else ()
    return GameRecord(_ruleset_ref(rules), infos, seed, dealer, texts, outcome, teams,
                      undone=tuple(undone))


def _seat_infos(rules: RuleBook, seats: Sequence[SeatInfo | str] | None) -> tuple[SeatInfo, ...]:
    """One :class:`SeatInfo` per seat: as given, a kind named ``kind-N``, or ``seat N``.

    Raises:
        SpiteMaliceError: not one entry per seat.
    """
    if seats is None:
        infos = tuple(SeatInfo(f"seat {i}", "unknown") for i in range(rules.players))
    else:
        infos = tuple(
            s if isinstance(s, SeatInfo) else SeatInfo(f"{s}-{i}", s) for i, s in enumerate(seats)
        )
    if len(infos) != rules.players:
        raise SpiteMaliceError(f"a record of {rules.players} seats needs {rules.players} seat "
                               f"entries, not {len(infos)}")
    return infos


def record_arrivals(
    rules: RuleBook,
    seed: int,
    moves: Sequence[Any],
    times_ms: Sequence[float],
    *,
    seats: Sequence[SeatInfo | str] | None = None,
    outcome: Outcome | None = None,
    policy: ArrivalPolicy | None = None,
    stale: int = 0,
) -> GameRecord:
    """A record of a game whose seats move at once (Spit): dealt by ``seed``, its ``moves``
    applied in the order they arrived, each at its time in ``times_ms`` (milliseconds after
    the deal).  Each move names its seat, so the record says who moved what and when.

    Args:
        moves: the game's moves, or their texts (each parsed by the game's ``parse_move``
            and written as its ``str``).
        times_ms: one arrival time per move, never decreasing.
        seats: as :func:`record_game` takes them.
        outcome: the game's outcome once it has ended.
        policy: the arrival policy of a simulated game; ``None`` for a table's clock.
        stale: intents that arrived too late and were decided again.

    Raises:
        TypeError: ``rules`` is not a rule book, or ``moves``, ``times_ms`` or ``seats`` is
            not a list.
        SpiteMaliceError: the rule set is turn-based (use :func:`record_game`), a seed out of
            range, not one time per move, a time that is not a number of at least 0 or is
            earlier than the one before it, or not one seat entry per seat.
        NotationError: a move text the game does not read (naming its index).
    """
    check_book(rules, "record_arrivals")
    game = rules.simultaneous
    if game is None:
        raise SpiteMaliceError(f"record_arrivals records a rule set whose seats move at once; "
                               f"{rules.name} is turn-based (use record_game)")
    check_seed(seed)
    check_list(moves, "record_arrivals", "moves, a list of moves or move texts,",
               '["S0:spit", "S1:spit"]')
    check_list(times_ms, "record_arrivals", "times_ms, a list of milliseconds,", "[120.5, 130]")
    check_list(seats, "record_arrivals", "seats, a list of seats or names,",
               '["me", "greedy"]', none=True)
    if len(times_ms) != len(moves):
        raise SpiteMaliceError(f"record_arrivals: {len(times_ms)} time(s) for {len(moves)} "
                               "move(s); give one arrival time per move")
    times = _arrival_times(times_ms)
    texts = []
    for index, move in enumerate(moves):
        try:
            texts.append(str(game.parse_move(move if isinstance(move, str) else str(move))))
        except NotationError as error:
            raise NotationError(f"record_arrivals: move {index} is not a move: {error}",
                                error.reason) from None
    return GameRecord(_ruleset_ref(rules), _seat_infos(rules, seats), seed, None, tuple(texts),
                      outcome, arrivals=ArrivalLog(times, policy,
                                                   check_int(stale, "stale", 0)))


def _arrival_times(times_ms: Sequence[float]) -> tuple[float, ...]:
    """``times_ms`` as floats, each a number of at least 0, none earlier than the one before.

    Raises:
        SpiteMaliceError: a time that is not, naming its index.
    """
    times: list[float] = []
    for index, time in enumerate(times_ms):
        # compared with the bound before float(): 10**400 is OverflowError there
        if (isinstance(time, bool) or not isinstance(time, int | float) or not time >= 0
                or time > MAX_REAL or (times and time < times[-1])):
            raise SpiteMaliceError(f"record_arrivals: times_ms[{index}] is {shown(time)}; "
                                   "each time is a number of milliseconds from 0 to "
                                   "limits.MAX_REAL, never earlier than the one before it")
        times.append(float(time))
    return tuple(times)


def _written(move: Move | str, index: int) -> str:
    """``move``'s text for a record: a move object written out, a text parsed and written as
    the notation writes it."""
    if not isinstance(move, str):
        return move_text(move)
    try:
        return move_text(parse_move(move))
    except NotationError as error:
        raise NotationError(f"record_game: move {index} is not a move: {error}",
                            error.reason) from None


def record_result(rules: RuleBook, result: GameResult,
                  seats: Sequence[SeatInfo | str] | None = None,
                  dealer: int | None = None) -> GameRecord:
    """The record of a :class:`~spitemalice.model.GameResult` (``seed``, ``moves``,
    ``final``) played with ``dealer`` (``None``: the seeded cut, as ``play_game`` deals).

    Raises:
        TypeError: ``seats`` is a bare str (a list is wanted).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "record_result")
    require_turn_based(rules, "record_result")
    check_list(seats, "record_result", "seats, a list of seats or names,",
               '["me", "greedy"]', none=True)
    return record_game(rules, result.seed, result.moves, seats=seats, dealer=dealer,
                       outcome=result.final.outcome)
