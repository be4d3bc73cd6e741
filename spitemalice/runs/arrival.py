"""Games of a rule set whose seats move at once, in a simulation: the arrival policy.

With no clock, a seeded *arrival policy* decides whose intent lands first.  The one policy,
:class:`ReactionTimes`: each seat that may move decides an intent (its bot picks one of its
legal moves from its own view) and the intent arrives after a reaction time drawn for that
seat (log-normal, mean ``means[seat]`` milliseconds, spread ``spread``).  The earliest
intent lands: it is applied if it is still legal then (the touch rule, SP-9 in Spit: a card
that still fits is laid); else it is *stale*, counted, and its seat decides again from the
new position.  The policy, its seed and its numbers are part of the study's configuration
(:meth:`ReactionTimes.describe`).  Equal seeds give equal games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from spitemalice.engine.apply import apply_listed
from spitemalice.engine.deal import deal
from spitemalice.engine.shuffle import rng_for
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats.records.making import record_arrivals
from spitemalice.formats.records.record import ArrivalPolicy, GameRecord, SeatInfo
from spitemalice.guards import check_int, check_list, check_real, check_seed, int_field
from spitemalice.model import Outcome
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.rules.simultaneous import SimultaneousGame, SimultaneousState
from spitemalice.wording import given_text, shown

SeatBot = Callable[[Any, tuple[Any, ...], random.Random], Any]
"""A bot of a simultaneous game: ``bot(view, moves, rng)`` returns one of ``moves``."""


def random_bot(view: object, moves: tuple[Any, ...], rng: random.Random) -> Any:
    """Any legal move, uniformly at random (every simultaneous game has this bot)."""
    return moves[rng.randrange(len(moves))]


@attrs.frozen
class ReactionTimes:
    """The arrival policy: per-seat reaction times, the faster intent lands first.

    Attributes:
        means: each seat's mean reaction time in milliseconds (one value: every seat).
        spread: the log-normal's sigma (0 makes every reaction time its mean).

    Raises:
        SpiteMaliceError: a mean that is not a positive number of at most 60,000 ms, or a
            spread that is no number from 0 to 2.
    """

    means: tuple[float, ...] = (300.0,)
    spread: float = attrs.field(default=0.35, validator=lambda _, __, value: check_real(
        value, "the reaction-time spread", 0.0, 2.0, what="a log-normal sigma"))

    def __attrs_post_init__(self) -> None:
        if not self.means or any(not isinstance(m, int | float) or isinstance(m, bool)
                                 or not 0 < m <= 60_000 for m in self.means):
            raise SpiteMaliceError(f"reaction times are milliseconds above 0 and at most "
                                   f"60000, one for every seat or one per seat, not "
                                   f"{shown(list(self.means))}")

    def mean(self, seat: int) -> float:
        """Seat ``seat``'s mean reaction time (ms).

        Raises:
            SpiteMaliceError: ``seat`` not a whole number from 0 to
                :data:`~spitemalice.rules.ruleset.MAX_SEATS` less one.
        """
        return self._mean(_seat(seat, "ReactionTimes.mean"))

    def _mean(self, seat: int) -> float:
        return float(self.means[seat] if seat < len(self.means) else self.means[-1])

    def draw(self, rng: random.Random, seat: int) -> float:
        """One reaction time of ``seat`` (ms), log-normal around its mean.

        Raises:
            SpiteMaliceError: ``seat`` not a whole number from 0 to
                :data:`~spitemalice.rules.ruleset.MAX_SEATS` less one.
        """
        return self._draw(rng, _seat(seat, "ReactionTimes.draw"))

    def _draw(self, rng: random.Random, seat: int) -> float:
        """:meth:`draw` of a seat the game itself gives (play_arrival's, once per intent)."""
        sigma = float(self.spread)
        mu = math.log(self._mean(seat)) - sigma * sigma / 2  # so the mean is the mean
        return rng.lognormvariate(mu, sigma) if sigma else self._mean(seat)

    def describe(self, players: int) -> str:
        """The policy in one line, as outputs name it.

        Raises:
            SpiteMaliceError: ``players`` not a whole number from 1 to
                :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
        """
        _players(players, "ReactionTimes.describe")
        means = ", ".join(f"seat {s} {self._mean(s):g} ms" for s in range(players))
        return (f"reaction times ({means}; log-normal, spread {self.spread:g}): the faster "
                "intent lands first, a stale one is decided again")

    def as_dict(self, players: int) -> dict[str, Any]:
        """The policy as a study's configuration records it.

        Raises:
            SpiteMaliceError: ``players`` not a whole number from 1 to
                :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
        """
        _players(players, "ReactionTimes.as_dict")
        return {"policy": "reaction-times", "means_ms": [self._mean(s) for s in range(players)],
                "spread": self.spread, "distribution": "log-normal"}

    def as_policy(self, players: int) -> ArrivalPolicy:
        """The policy as a game record keeps it (``arrivals.policy``).

        Raises:
            SpiteMaliceError: ``players`` not a whole number from 1 to
                :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
        """
        _players(players, "ReactionTimes.as_policy")
        return ArrivalPolicy("reaction-times", tuple(self._mean(s) for s in range(players)),
                             float(self.spread), "log-normal")

    @classmethod
    def from_policy(cls, policy: ArrivalPolicy) -> ReactionTimes:
        """The policy a record's ``arrivals.policy`` names.

        Raises:
            SpiteMaliceError: it is no reaction-times policy with log-normal times, or its
                numbers are out of range (as the constructor refuses them).
        """
        if (policy.name, policy.distribution) != ("reaction-times", "log-normal"):
            raise SpiteMaliceError(f"the arrival policy {policy.name!r} with "
                                   f"{policy.distribution!r} times is not one this library "
                                   "plays; it plays 'reaction-times' with 'log-normal' times")
        return cls(tuple(policy.means_ms), policy.spread)


def _seat(seat: int, function: str) -> int:
    return check_int(seat, f"{function}'s seat", 0, MAX_SEATS - 1)


def _players(players: int, function: str) -> int:
    return check_int(players, f"{function}'s players", 1, MAX_SEATS,
                     constant="spitemalice.rules.ruleset.MAX_SEATS")


@attrs.frozen
class ArrivalGame:
    """One game played under an arrival policy.

    Attributes:
        final: the final state.
        log: each move applied, in order: ``(order, seat, move text, arrival in ms)``.
        stale: intents that no longer fitted when they arrived (decided again).

    Raises:
        SpiteMaliceError: ``stale`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    final: SimultaneousState
    log: tuple[tuple[int, int, str, float], ...]
    stale: int = attrs.field(validator=int_field(0))

    @property
    def outcome(self) -> Outcome:
        assert self.final.outcome is not None  # play_arrival plays every game to its end
        return self.final.outcome


def arrival_record(rules: RuleBook, played: ArrivalGame, policy: ReactionTimes,
                   bots: Sequence[str]) -> GameRecord:
    """The record of a game :func:`play_arrival` played: its seed, every move with its seat
    in the order applied and the time it arrived, the policy and the stale intents, the bots
    by name (seat kind) and the outcome.

    Raises:
        TypeError: ``rules`` is not a rule book.
        TypeError: ``bots`` is not a list (a bare str, say).
        SpiteMaliceError: the rule set is turn-based, or ``bots`` is not one name per seat.
    """
    check_book(rules, "arrival_record")
    check_list(bots, "arrival_record", "bots, a list of bot names,", '["greedy", "random"]')
    seats = [SeatInfo(f"{name}-{seat}", name) for seat, name in enumerate(bots)]
    return record_arrivals(rules, played.final.seed, [text for _, _, text, _ in played.log],
                           [ms for _, _, _, ms in played.log], seats=seats,
                           outcome=played.final.outcome, policy=policy.as_policy(rules.players),
                           stale=played.stale)


def game_bots(game: SimultaneousGame) -> Mapping[str, SeatBot]:
    """The bots a simultaneous game offers by name: ``random`` and the game's own ``BOTS``."""
    return {"random": random_bot, **getattr(game, "BOTS", {})}


def play_arrival(rules: RuleBook, bots: Sequence[SeatBot], seed: int,
                 policy: ReactionTimes) -> ArrivalGame:
    """Play one game of a simultaneous rule set from ``seed``, its intents ordered by
    ``policy`` (seeded by ``seed`` too), to its end (the rule set's move limit bounds it).

    Raises:
        TypeError: ``rules`` is not a rule book, ``bots`` is not a list, or a member is not
            a seat bot (a bot's name, say: the message names :func:`game_bots`); refused
            before the deal.
        SpiteMaliceError: the rule set is turn-based, or ``bots`` is not one per seat, or
            ``seed`` not a whole number from 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    check_book(rules, "play_arrival")
    check_list(bots, "play_arrival", "bots, a list of seat bots, one per seat,",
               "[random_bot, random_bot]")
    for seat, bot in enumerate(bots):
        if not callable(bot):  # else a bot's name failed mid-game, "'str' is not callable"
            name = (f"; a bot's name: game_bots(rules.simultaneous)[{shown(bot)}] is its bot"
                    if isinstance(bot, str) else "")
            raise TypeError(f"play_arrival takes bots, each a seat bot (a function bot(view, "
                            f"moves, rng) that returns one of moves), not {given_text(bot)} "
                            f"at bots[{seat}]{name}")
    check_seed(seed)
    game = rules.simultaneous
    if game is None or len(bots) != rules.players:
        raise SpiteMaliceError(f"play_arrival plays a rule set whose seats move at once with "
                               f"one bot per seat; {rules.name} is "
                               f"{'turn-based' if game is None else f'for {rules.players}'}")
    state: Any = deal(rules, seed)
    rng, choices = rng_for(seed, 0, "arrival"), rng_for(seed, 0, "bots")
    clock, stale = 0.0, 0
    pending: dict[int, tuple[float, Any]] = {}  # seat -> (arrival, move)
    log: list[tuple[int, int, str, float]] = []
    while state.outcome is None:
        movers = game.to_move(state)
        pending = {seat: intent for seat, intent in pending.items() if seat in movers}
        for seat in movers:
            if seat not in pending:
                moves = game.legal_moves(state, seat)
                move = bots[seat](state.view(seat), moves, choices)
                pending[seat] = (clock + policy._draw(rng, seat), move)
        seat = min(pending, key=lambda at: (pending[at][0], at))
        clock, move = pending.pop(seat)
        if move in game.legal_moves(state, seat):
            log.append((len(log), seat, str(move), round(clock, 3)))
            state = apply_listed(rules, state, move)
        else:
            stale += 1  # the position moved on: this seat decides again
    return ArrivalGame(state, tuple(log), stale)


def replayed_by_bots(record: GameRecord, rules: RuleBook) -> str | None:
    """Play a simulated game's record again: its seats' bots (the seat kinds) from its seed
    under its arrival policy.  ``""`` when that gives the record's moves, times, stale
    intents and outcome (moves compared as the game reads them, so ``S1.P5:KH > C1`` is
    ``S1.P5:KH>C1``); a sentence naming the first difference otherwise; ``None`` when the
    record cannot be played again (a seat that is no bot of the game, no arrival policy, a
    policy this library does not play, or no arrival log).

    Raises:
        TypeError: ``rules`` is not a rule book.
        SpiteMaliceError: the rule set is turn-based.
    """
    check_book(rules, "replayed_by_bots")
    game, log = rules.simultaneous, record.arrivals
    if game is None:
        raise SpiteMaliceError(f"replayed_by_bots plays a rule set whose seats move at once; "
                               f"{rules.name} is turn-based")
    offered = game_bots(game)
    if (log is None or log.policy is None or len(record.seats) != rules.players
            or any(seat.kind not in offered for seat in record.seats)):
        return None
    try:
        policy = ReactionTimes.from_policy(log.policy)
    except SpiteMaliceError:
        return None
    kinds = [seat.kind for seat in record.seats]
    played = play_arrival(rules, [offered[kind] for kind in kinds], record.seed, policy)
    again = arrival_record(rules, played, policy, kinds)
    for number, (ours, theirs) in enumerate(zip(
            zip(again.moves, again.arrivals.times_ms, strict=True),  # type: ignore[union-attr]
            zip(record.moves, log.times_ms, strict=True), strict=False), 1):
        if ours[1] != theirs[1] or not _same_move(game, ours[0], theirs[0]):
            return (f"its bots ({', '.join(kinds)}) playing again from seed {record.seed} "
                    f"under its arrival policy make move {number} {ours[0]!r} at "
                    f"{ours[1]!r} ms, where the record has {theirs[0]!r} at {theirs[1]!r} ms")
    if len(again.moves) != len(record.moves):
        return (f"its bots playing again make {len(again.moves)} move(s), where the record "
                f"has {len(record.moves)}")
    if log.stale != again.arrivals.stale:  # type: ignore[union-attr]
        return (f"its bots playing again have {again.arrivals.stale} stale intent(s), "  # type: ignore[union-attr]
                f"where the record has {log.stale}")
    return ""


def _same_move(game: SimultaneousGame, ours: str, theirs: str) -> bool:
    """Whether move texts ``ours`` and ``theirs`` name the same move as ``game`` reads them
    (spaces around a move's parts are read as absent); a text it cannot read is no match."""
    try:
        return bool(game.parse_move(ours) == game.parse_move(theirs))
    except SpiteMaliceError:
        return False
