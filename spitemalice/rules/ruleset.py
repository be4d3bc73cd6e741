"""The declarative rule set: every rule that a value can express.

A :class:`Ruleset` is frozen and validated when it is made: a bad value is refused with the
field's name and its valid range, and nothing is built.  Behaviour that a value cannot express
lives in plugins (see :mod:`spitemalice.rules.hookspecs`).  Parameter overrides from the command
line or a file go through :func:`override`, which converts text and refuses unknown names with
the closest valid one.
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Iterable
from typing import Any, Literal

import attrs

from spitemalice.errors import RulesetError
from spitemalice.guards import int_field, whole_number
from spitemalice.limits import MAX_DIGITS, MAX_INT
from spitemalice.wording import count_of, rank_names, why_not_whole
from spitemalice.wording import shown as _shown

CompletedPolicy = Literal["set-aside", "shuffle-in"]
FirstSeatRule = Literal["cut", "cut-left", "youngest", "higher-payoff-top"]
ExhaustionRule = Literal["difference", "tie"]
PartnerPiles = Literal["own", "play", "share"]


def _ranks(value: Iterable[int]) -> frozenset[int]:
    ranks = frozenset(int(rank) for rank in value)
    huge = [rank for rank in ranks if abs(rank) > MAX_INT]
    if huge:
        raise RulesetError(f"a rank is a whole number of at most {MAX_DIGITS} digits "
                           f"(spitemalice.limits.MAX_INT), not {_shown(huge[0])}")
    return ranks


MIN_SEATS = 2
"""The fewest seats any rule set may allow (``min_players``' least value)."""
MAX_SEATS = 8
"""The most seats any rule set may allow (``max_players``' greatest value); the command
line's ``--players`` takes 2 to 8 before a rule set narrows it."""


def seats_field() -> Any:
    """An attrs validator for a number of seats held by a public value (a study's
    ``players``): a whole number outside 1 to :data:`MAX_SEATS` is refused with
    :class:`~spitemalice.errors.SpiteMaliceError` naming the field and the bound."""
    return int_field(1, MAX_SEATS, constant="spitemalice.rules.ruleset.MAX_SEATS")


def side_field() -> Any:
    """An attrs validator for a side (a seat or a team) held by a public value (a winner):
    a whole number outside 0 to :data:`MAX_SEATS` less one is refused with
    :class:`~spitemalice.errors.SpiteMaliceError` naming the field and the bound."""
    return int_field(0, MAX_SEATS - 1, constant="")


def _between(low: int, high: int | None = None, note: str = "") -> Any:
    """A validator: a whole number from ``low`` to ``high`` (``None``: to
    :data:`~spitemalice.limits.MAX_INT`, so no number past the readers' bound is held);
    ``note`` ends the refusal (where another check narrows the range)."""
    def check(instance: object, attribute: attrs.Attribute, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesetError(f"{attribute.name} must be a whole number, not {_shown(value)}")
        if value < low or value > (MAX_INT if high is None else high):
            upper = (f"10**{MAX_DIGITS} - 1 (spitemalice.limits.MAX_INT)" if high is None
                     else high)
            raise RulesetError(f"{attribute.name} = {_shown(value)}: it must be at least "
                               f"{low} and at most {upper}{note}")

    return check


def _one_of(kind: object) -> Any:
    """A validator for a ``Literal`` field: the value is one of the type's own values."""
    choices: tuple[str, ...] = typing.get_args(kind)

    def check(instance: object, attribute: attrs.Attribute, value: str) -> None:
        if value not in choices:
            raise RulesetError(f"{attribute.name} = {_shown(value)}: choose one of "
                               f"{', '.join(choices)}")

    return check


def _optional_between(low: int, high: int | None = None) -> Any:
    check_int = _between(low, high)

    def check(instance: object, attribute: attrs.Attribute, value: int | None) -> None:
        if value is not None:
            check_int(instance, attribute, value)

    return check


def _field(default: Any, help: str, **kwargs: Any) -> Any:
    return attrs.field(default=default, metadata={"help": help}, **kwargs)


TEAMS_HINT = " (teams are played with --house-rule partnerships)"
"""The end of the refusal of a seat count that forms no whole teams, for teams set without a
plugin that forms them (``--set team_size=2``); taken out where one is loaded."""


@attrs.frozen(kw_only=True)
class Ruleset:
    """Every parameter of a rule set, validated on creation.

    Ranks are integers: 0 joker, 1 ace, 11 jack, 12 queen, 13 king (numbered decks use their
    numbers).  Counts are cards or piles.

    Raises:
        RulesetError: a value out of range or inconsistent with another; the message names the
            field and what would be valid.
    """

    name: str = _field("custom", "rule-set name used to load it")
    title: str = _field("Custom rule set", "human-readable title")
    version: str = _field("1", "version of the rule sheet")
    # Only the type here: the rule set's own range is checked after init, with its own message.
    players: int = _field(2, "seats in the game", validator=_between(-(2**31)))
    min_players: int = _field(2, "fewest seats the rule set allows",
                              validator=_between(MIN_SEATS, MAX_SEATS))
    max_players: int = _field(4, "most seats the rule set allows",
                              validator=_between(MIN_SEATS, MAX_SEATS))
    packs: int = _field(3, "standard 52-card packs in the deck", validator=_between(0, 12))
    packs_per_seat: bool = _field(False, "use one pack per seat instead of `packs`")
    jokers: int = _field(0, "jokers in the deck besides jokers_per_pack's",
                         validator=_between(0, 48))
    jokers_per_pack: int = _field(
        0, "jokers added with each standard pack (2 keeps a pack's own)", validator=_between(0, 4)
    )
    draw_pack: int = _field(
        0,
        "numbered cards 1..build_ceiling instead of standard packs (0 = standard packs)",
        validator=_between(0, 400),
    )
    payoff_pack: int = _field(
        0,
        "numbered cards 1..build_ceiling in a separate pay-off pack (0 = none)",
        validator=_between(0, 400),
    )
    wild_ranks: frozenset[int] = _field(
        frozenset({13}), "ranks that are wild (0 = joker, 13 = king)", converter=_ranks
    )
    wild_excluded: frozenset[int] = _field(
        frozenset({1}), "ranks a wild card may not stand for", converter=_ranks
    )
    build_ceiling: int = _field(12, "rank that completes a build pile", validator=_between(2, 30))
    max_build_piles: int | None = _field(
        4, "build piles open at once (unlimited = no limit)", validator=_optional_between(1)
    )
    completed_piles: CompletedPolicy = _field(
        "set-aside",
        "set-aside: kept until a draw finds the draw pile empty; shuffle-in: at once",
        validator=_one_of(CompletedPolicy),
    )
    recycle_under_tops: bool = _field(
        False,
        "when a draw finds the draw pile empty and no completed pile set aside, the cards "
        "under the build-pile tops are shuffled into a new draw pile (each pile keeps its rank)",
    )
    payoff_piles: int = _field(1, "pay-off piles per seat", validator=_between(1, 4))
    payoff_size: int = _field(
        26,
        "cards per pay-off pile (0 = share the pay-off pack out equally)",
        validator=_between(0, 60, " (0 only with a separate pay-off pack, payoff_pack)"),
    )
    payoff_size_many: int = _field(
        0,
        "cards per pay-off pile when 5 or more seats play (0 = payoff_size at every count)",
        validator=_between(0, 60),
    )
    hand_size: int = _field(5, "cards a hand is filled to", validator=_between(1, 12))
    first_seat: FirstSeatRule = _field(
        "cut",
        "cut: a seeded cut picks the dealer, who plays first; cut-left: the seat after that "
        "dealer plays first; youngest: seat 0 (the youngest player) plays first; "
        "higher-payoff-top: the higher pay-off top plays first, equal tops reshuffle",
        validator=_one_of(FirstSeatRule),
    )
    discard_piles: int = _field(4, "discard piles per seat", validator=_between(1, 8))
    discard_forbidden: frozenset[int] = _field(
        frozenset({1}), "ranks that may not be discarded", converter=_ranks
    )
    max_discard_cards: int = _field(
        1, "cards one discard may hold (2 = equal-rank pairs)", validator=_between(1, 2)
    )
    mandatory_ranks: frozenset[int] = _field(
        frozenset(), "ranks that must be played while one can be", converter=_ranks
    )
    wild_must_be_covered: bool = _field(
        False, "a wild card on a build pile must be covered before the turn ends"
    )
    exhaustion: ExhaustionRule = _field(
        "difference",
        "drawn hand scoring: difference (fewest pay-off cards scores the difference) or tie",
        validator=_one_of(ExhaustionRule),
    )
    win_bonus: int = _field(5, "points for emptying the pay-off piles", validator=_between(0))
    points_per_card: int = _field(
        1, "points per card left in opponents' pay-off piles", validator=_between(0)
    )
    match_target: int = _field(50, "points that win a match", validator=_between(1))
    turn_limit: int = _field(
        3000, "turns after which a game ends as 'turn-limit'", validator=_between(10)
    )
    team_size: int = _field(
        1, "seats per team, partners sitting opposite (1 = everyone plays alone)",
        validator=_between(1, 4),
    )
    partner_piles: PartnerPiles = _field(
        "play",
        "with teams: own = a seat plays only from its own piles; play = also from its partners' "
        "pay-off and discard piles; share = and it may discard onto its partners' discard piles",
        validator=_one_of(PartnerPiles),
    )

    def __attrs_post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise RulesetError(
                f"min_players = {self.min_players} is above max_players = {self.max_players}"
            )
        if not self.min_players <= self.players <= self.max_players:
            counts = (f"{self.min_players} players only" if self.min_players == self.max_players
                      else f"{self.min_players} to {self.max_players} players")
            raise RulesetError(f"{self.name} is for {counts}, not {self.players}")
        bad = sorted(r for name in RANK_SETS for r in getattr(self, name) if r < 0)
        if bad:
            raise RulesetError(f"ranks are 0 (joker) or more, not {rank_names(bad)}")
        if self.draw_pack and (self.packs or self.packs_per_seat):
            raise RulesetError(
                f"draw_pack = {count_of(self.draw_pack, 'numbered card')} "
                f"{'replaces' if self.draw_pack == 1 else 'replace'} the standard packs: "
                "set packs = 0 and packs_per_seat = false as well, or draw_pack = 0"
            )
        if self.players not in self.player_counts:
            # How teams are played is the partnerships house rule (teams of two): the
            # refusal says so, as the refusal of team_size without it does (checks.py); with a
            # plugin that forms the teams loaded, resolve.resolve_ruleset takes TEAMS_HINT out.
            if not self.player_counts:
                seats = (f"{self.min_players} players only" if self.min_players ==
                         self.max_players else f"{self.min_players} to {self.max_players} "
                         "players")
                raise RulesetError(
                    f"{self.name} is for {seats}, too few for two or more whole teams of "
                    f"{self.team_size}: leave team_size at 1, or play teams with --house-rule "
                    "partnerships on a rule set for 4 or 6 players, such as blackwood-frey or "
                    "skip-bo"
                )
            counts = " or ".join(map(str, self.player_counts))
            raise RulesetError(
                f"{self.name} plays in teams of {self.team_size}, partners sitting opposite, so "
                f"the seats must form two or more whole teams: {counts}, not {self.players}"
                f"{TEAMS_HINT}"
            )

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The seat counts this rule set allows: ``min_players`` to ``max_players``, and with
        teams (``team_size`` > 1) only those that form two or more whole teams."""
        size = self.team_size
        return tuple(n for n in range(self.min_players, self.max_players + 1)
                     if n % size == 0 and n >= 2 * size)

    @property
    def seat_packs(self) -> int:
        """Standard packs in the deck for this many players."""
        return self.players if self.packs_per_seat else self.packs

    @property
    def seat_jokers(self) -> int:
        """Jokers in the deck for this many players: ``jokers`` plus ``jokers_per_pack`` for
        each standard pack."""
        return self.jokers + self.jokers_per_pack * self.seat_packs

    @property
    def has_wild_cards(self) -> bool:
        """Whether the deck holds any wild card: kings or other ranks of standard packs, jokers,
        or wild numbers of a numbered deck."""
        if self.seat_jokers and 0 in self.wild_ranks:
            return True
        if self.seat_packs and any(1 <= rank <= 13 for rank in self.wild_ranks):
            return True
        numbered = self.draw_pack or self.payoff_pack
        return bool(numbered) and any(1 <= r <= self.build_ceiling for r in self.wild_ranks)


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in attrs.fields(Ruleset))
IDENTITY_FIELDS = ("name", "title", "version")
RANK_SETS = ("wild_ranks", "wild_excluded", "discard_forbidden", "mandatory_ranks")
"""The fields that hold sets of ranks: no rank below 0, none above the ranks the deck has."""
ENFORCED_FIELDS = ("mandatory_ranks", "wild_must_be_covered", "recycle_under_tops")
"""Fields that take effect only with a plugin that lists them in its ``ENFORCES`` attribute:
a move filter that gives them effect, or a rule set whose sheet states the option (skip-bo's
``recycle_under_tops``).  Loading a rule set where one of them differs from its default and no
loaded plugin lists it is refused, so that ``--set mandatory_ranks=1,2`` without the house rule
that enforces it is not silently ignored, and no sheet is silent about a rule in force."""

TEAM_FIELDS = ("team_size", "partner_piles")
"""Fields that, like :data:`ENFORCED_FIELDS`, need a loaded plugin that lists them in its
``ENFORCES`` (the ``partnerships`` house rule), but only when set away from the rule set's own
value (by ``--set``, a TOML file or a record): a rule set may play in teams of its own, while
``--set team_size=2`` alone would form teams that no clause of the sheet states."""


def field_help() -> dict[str, str]:
    """Each parameter's one-line description, by name."""
    return {f.name: f.metadata.get("help", "") for f in attrs.fields(Ruleset)}


def closest(name: str, names: Iterable[str]) -> str:
    """A ``' (did you mean "x"?)'`` hint for a misspelt ``name``, or ``""`` (the name in
    double quotes, as TOML and JSON write a string and :func:`spitemalice.wording.shown`
    shows the misspelt one)."""
    match = difflib.get_close_matches(name, list(names), n=1)
    return f" (did you mean {_shown(match[0])}?)" if match else ""


_WORDS: dict[str, dict[str, int | None]] = {
    "max_build_piles": {"unlimited": None, "none": None},
    "payoff_size": {"equal": 0, "share": 0},
}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, "*": 0, "JOKER": 0}
_DEFAULTS: dict[str, Any] = {}


def _default(name: str) -> Any:
    if not _DEFAULTS:
        _DEFAULTS.update(attrs.asdict(Ruleset(), recurse=False))
    return _DEFAULTS[name]


def convert_param(name: str, value: Any) -> Any:
    """``value`` for parameter ``name`` in the field's type: text from the command line
    (``"1,13"``, ``"unlimited"``, ``"true"``) or a TOML value (``[1, 13]``, ``3``, ``true``).

    Raises:
        RulesetError: an unknown parameter (with the closest valid name) or a value of the
            wrong type (with the form expected); ranges are checked when the rule set is made.
    """
    if name not in FIELD_NAMES or name in IDENTITY_FIELDS:
        valid = [n for n in FIELD_NAMES if n not in IDENTITY_FIELDS]
        raise RulesetError(f"unknown parameter {_shown(name)}{closest(name, valid)}; "
                           "`spitemalice rules NAME` lists every parameter")
    return _convert(name, value)


def _convert(name: str, value: Any) -> Any:
    """Turn a value from the command line (text) or a file (text or TOML value) into the
    field's type.

    Raises:
        RulesetError: the value has the wrong type for the field; the message names the field
            and the expected form.
    """
    default = _default(name)
    words = _WORDS.get(name, {})
    if isinstance(value, str) and value.strip().lower() in words:
        return words[value.strip().lower()]
    if value is None and None in words.values():
        return None
    if isinstance(default, bool):
        return _bool(name, value)
    if isinstance(default, frozenset):
        parts = value.replace(",", " ").split() if isinstance(value, str) else value
        if isinstance(value, str) and value.strip().lower() == "none":
            parts = []
        elif isinstance(value, str) and (not parts or "" in [
                item.strip() for item in value.split(",")]):
            # An empty value (or item) read as no ranks would turn a slip of the keyboard
            # into a rule: "none" says it.
            raise RulesetError(f"{name} is a list of ranks such as {name}=13 or {name}=0,13, "
                               f"or {name}=none for no rank; not an empty value"
                               + ("" if not parts else f" in {_shown(value)}"))
        if not isinstance(parts, list | tuple | set | frozenset):
            raise RulesetError(f"{name} is a list of ranks such as 1,13 (or none), not "
                               f"{_shown(value)}")
        return frozenset(_rank(name, part) for part in parts)
    if isinstance(default, int):
        alternatives = f" or {_shown(next(iter(words)))}" if words else ""
        if isinstance(value, str):
            return _int(name, value.strip(), alternatives)
        if not isinstance(value, int) or isinstance(value, bool) or _too_long(value):
            raise RulesetError(f"{name} is a whole number{alternatives}, not {_shown(value)}"
                               f"{why_not_whole(value)}")
        return value
    if not isinstance(value, str):
        raise RulesetError(f"{name} is text, not {_shown(value)}")
    return value.strip()


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if value.strip().lower() in ("true", "yes", "1", "on"):
            return True
        if value.strip().lower() in ("false", "no", "0", "off"):
            return False
    raise RulesetError(f"{name} is true or false, not {_shown(value)}")


def _rank(name: str, part: Any) -> int:
    """One rank of a rank set: a whole number, or A, J, Q, K, * (joker) as text."""
    if isinstance(part, int) and not isinstance(part, bool) and not _too_long(part):
        return part
    if isinstance(part, str):
        text = part.strip().upper()
        if text in _RANK_WORDS:
            return _RANK_WORDS[text]
        rank = whole_number(text)
        if rank is not None:
            return rank
    raise RulesetError(
        f"{name}: {_shown(part)} is not a rank{why_not_whole(part)}; write whole numbers "
        "(1 = ace, 13 = king, 0 = joker) or A, J, Q, K, *")


def _int(name: str, text: str, alternatives: str = "") -> int:
    number = whole_number(text.removeprefix("-"))
    if number is None:
        raise RulesetError(f"{name} is a whole number{alternatives}, not {_shown(text)}"
                           f"{why_not_whole(text)}")
    return -number if text.startswith("-") else number


def _too_long(number: int) -> bool:
    """Whether ``number`` has more than :data:`MAX_DIGITS` digits (checked by size, as
    printing a huge integer is itself refused by Python)."""
    return abs(number) >= 10**MAX_DIGITS
