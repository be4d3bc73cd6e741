"""The game record as a value: what it says of its rules (:class:`RulesetRef`), its seats, its
deal, its moves, its outcome and what was taken back (:class:`GameRecord`); the format's name
and version.  The format itself is described in :mod:`spitemalice.formats.records`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import attrs

from spitemalice import wording
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_seed, int_field, real_field
from spitemalice.model import Outcome
from spitemalice.rules.book import RuleBook

FORMAT = "spitemalice-record"


VERSION = 1
"""The record format version this library writes and the newest it reads."""


ParamValue = int | bool | str | None | tuple[int, ...]
"""A recorded parameter's value: rank sets are sorted tuples (a frozenset in a Ruleset)."""


@attrs.frozen
class RulesetRef:
    """What a record says about its rules.

    Attributes:
        name: the rule set's name (what :func:`~spitemalice.load` takes).
        version: the rule set's version when the record was made.
        house_rules: house-rule names, in the order applied.
        params: ``(field, value)`` pairs, sorted by field, for every parameter that differs
            from the rule set's own (house rules applied); rank sets are sorted tuples.
        data_rules: ``(name, table)`` for each house rule among ``house_rules`` that a
            rule-set file wrote as data (``"FILE.toml:CLAUSE"``, a ``[[rule]]`` table as
            read): the rule itself, by content, so a record made under a file replays where
            the file is not (the JSON form has no ``data_rules`` field without one).
    """

    name: str
    version: str
    house_rules: tuple[str, ...]
    params: tuple[tuple[str, ParamValue], ...]
    data_rules: tuple[tuple[str, Mapping[str, Any]], ...] = attrs.field(default=(), hash=False)

    @property
    def param_dict(self) -> dict[str, ParamValue]:
        return dict(self.params)


@attrs.frozen
class SeatInfo:
    """Who sat at a seat: a ``name`` and a ``kind`` (``"human"``, ``"greedy"``...)."""

    name: str
    kind: str


@attrs.frozen
class RecordFinding:
    """What ``spitemalice validate`` found wrong in a recorded game (the failure record).

    Attributes:
        invariant: the broken invariant's name (a function of :mod:`spitemalice.engine.invariants`)
            or the kind of fault (``"crash"``, ``"non-termination"``, ...).
        message: what broke, as validate reported it.
    """

    invariant: str
    message: str


@attrs.frozen
class Undone:
    """One undo in a game's record: the game went back to its first ``at`` moves, and
    ``moves`` (made after those, in order) were taken back.

    Raises:
        SpiteMaliceError: ``at`` below 0 or of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits.
    """

    at: int = attrs.field(validator=int_field(0))
    moves: tuple[str, ...]


TAKEOVER_REASONS = ("left", "out of time")
"""Why a bot took a person's seat over (:class:`Takeover`): the person was away longer than
the table's grace, or the table's move clock ran out on the seat's turn."""


@attrs.frozen
class Takeover:
    """A bot took a person's seat over for the rest of the game (a play server's table,
    :mod:`spitemalice.server.leavers`).

    Attributes:
        seat: the seat taken over.
        at: the moves made before it; the bot made every move of the seat from move
            ``at + 1`` on.
        player: the bot's kind (``"heuristic"``).
        why: one of :data:`TAKEOVER_REASONS`: ``"left"`` or ``"out of time"``.

    Raises:
        SpiteMaliceError: ``seat`` or ``at`` below 0 or of more than
            :data:`~spitemalice.limits.MAX_DIGITS` digits.
    """

    seat: int = attrs.field(validator=int_field(0))
    at: int = attrs.field(validator=int_field(0))
    player: str
    why: str


@attrs.frozen
class ArrivalPolicy:
    """The seeded policy that ordered a simulated game's intents
    (:class:`~spitemalice.runs.arrival.ReactionTimes`), as its record keeps it.

    Attributes:
        name: the policy's name (``"reaction-times"``).
        means_ms: each seat's mean reaction time in milliseconds.
        spread: the spread of the reaction times (the log-normal's sigma).
        distribution: the distribution of the reaction times (``"log-normal"``).

    Raises:
        SpiteMaliceError: ``spread`` a number past :data:`~spitemalice.limits.MAX_REAL` in
            size (the policy's own bounds are :class:`~spitemalice.runs.arrival.ReactionTimes`').
    """

    name: str
    means_ms: tuple[float, ...]
    spread: float = attrs.field(validator=real_field())
    distribution: str


@attrs.frozen
class ArrivalLog:
    """When each move of a game whose seats move at once arrived (Spit): the record's
    ``arrivals``.

    Attributes:
        times_ms: each move's arrival in milliseconds after the deal, one per move, in the
            order the moves were applied (never decreasing: the first to arrive is applied
            first).
        policy: the :class:`ArrivalPolicy` of a simulated game, or ``None`` for a game whose
            times are a table's clock.
        stale: intents that arrived after the position had moved on (refused and decided
            again); they are not moves and change nothing.
    """

    times_ms: tuple[float, ...]
    policy: ArrivalPolicy | None = None
    stale: int = attrs.field(default=0, validator=int_field(0))


COMMIT_SCHEME = "spitemalice-deal-v1"
"""The one way a deal's commitment is made (:mod:`spitemalice.formats.commitment`): the
``scheme`` every :class:`DealCommitment` names."""


def _hex(size: int) -> Any:
    """A validator: a text of ``size`` lowercase hex digits."""
    def check(instance: object, attribute: attrs.Attribute, value: object) -> None:
        if not (isinstance(value, str) and len(value) == size
                and all(c in "0123456789abcdef" for c in value)):
            raise SpiteMaliceError(f"commitment.{attribute.name}: {size} lowercase hex digits "
                                   f"(0-9, a-f), not {wording.given_text(value)}")
    return check


@attrs.frozen
class DealCommitment:
    """What a game server announced of a deal before its first move, kept in the record
    (the JSON form has no ``commitment`` field without one); the record's ``seed`` and
    ``dealer`` reveal what it hid.

    Attributes:
        sha256: the commitment every seat and spectator was shown: the SHA-256, as 64
            lowercase hex digits, of the ASCII text ``spitemalice-deal-v1:SEED:DEALER:SALT``
            (:func:`~spitemalice.formats.commitment.preimage`).
        salt: 128 random bits (32 lowercase hex digits) from :mod:`secrets`, hashed with the
            seed so the commitment hides it whatever the seed.
        deal_sha256: the SHA-256 of the deal itself, the dealt position in the position
            notation (:func:`~spitemalice.formats.commitment.deal_digest`).
        scheme: :data:`COMMIT_SCHEME`.

    Raises:
        SpiteMaliceError: a field that is not that many lowercase hex digits, or another
            scheme.
    """

    sha256: str = attrs.field(validator=_hex(64))
    salt: str = attrs.field(validator=_hex(32))
    deal_sha256: str = attrs.field(validator=_hex(64))
    scheme: str = attrs.field(default=COMMIT_SCHEME)

    @scheme.validator
    def _known(self, attribute: attrs.Attribute, value: object) -> None:
        if value != COMMIT_SCHEME:
            raise SpiteMaliceError(f"commitment.scheme: {COMMIT_SCHEME!r} (the one this "
                                   f"library knows), not {wording.given_text(value)}")


@attrs.frozen
class GameRecord:
    """One game, from the deal to its last move so far.

    Attributes:
        ruleset: the rules (:class:`RulesetRef`).
        seats: one :class:`SeatInfo` per seat.
        seed: the deal's seed.
        dealer: the dealer given to the deal, or ``None`` for the seeded cut.
        moves: the moves in order, as text.
        outcome: the outcome once the game has ended, else ``None``.
        teams: the teams, each a tuple of seats, in a game with teams; ``()`` otherwise.
        finding: for a game ``spitemalice validate`` recorded as failing, what broke; else
            ``None`` (the JSON form then has no ``finding`` field).
        undone: every undo of the game, in order (:class:`Undone`); ``()`` when no move was
            taken back (the JSON form then has no ``undone`` field).
        arrivals: in a game whose seats move at once, when each move arrived
            (:class:`ArrivalLog`); ``None`` in a turn-based game (the JSON form then has no
            ``arrivals`` field).
        commitment: the :class:`DealCommitment` a game server announced before the first
            move, or ``None`` (the JSON form then has no ``commitment`` field).
        takeovers: each seat a bot took over from a person during the game, in order
            (:class:`Takeover`); ``()`` when none was (the JSON form then has no
            ``takeovers`` field).

    Raises:
        SpiteMaliceError: a seed outside 0 to :data:`~spitemalice.limits.MAX_SEED`, which no
            reader would read back, or a dealer of more than
            :data:`~spitemalice.limits.MAX_DIGITS` digits.
    """

    ruleset: RulesetRef
    seats: tuple[SeatInfo, ...]
    seed: int = attrs.field(validator=lambda _, __, seed: check_seed(seed))
    dealer: int | None = attrs.field(validator=int_field())
    moves: tuple[str, ...]
    outcome: Outcome | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    finding: RecordFinding | None = None
    undone: tuple[Undone, ...] = ()
    arrivals: ArrivalLog | None = None
    commitment: DealCommitment | None = None
    takeovers: tuple[Takeover, ...] = ()

    @property
    def practice(self) -> bool:
        """Whether moves were taken back (``undone``): the player then saw cards drawn after
        them, so the game is practice, never evidence of how well a seat plays."""
        return bool(self.undone)


def require_record(record: object, function: str) -> None:
    """Refuse ``record`` unless it is a :class:`GameRecord`; for a file's path or a record's
    text, say which function reads it.

    Raises:
        TypeError: naming ``function``, what was given and what would be right.
    """
    if isinstance(record, GameRecord):
        return
    given = wording.given_text(record)
    if isinstance(record, str | os.PathLike | bytes):
        given += (": read a record file first with spitemalice.load_record(path) (or a "
                  "record's JSON text with spitemalice.formats.loads_record(text))")
    elif isinstance(record, RuleBook):
        given = "a RuleBook (are the arguments in order? the record comes first)"
    raise TypeError(f"{function} takes a GameRecord (what spitemalice.load_record(path) or "
                    f"spitemalice.record_game returns), not {given}")
