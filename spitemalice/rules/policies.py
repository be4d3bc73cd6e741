"""The values that hooks answer with.

Each class is what one extension point decides (see :mod:`spitemalice.rules.hookspecs`).  A
:class:`~spitemalice.rules.book.RuleBook` asks every hook once and keeps these values, so the
engine's hot loop reads plain attributes instead of calling plugins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from spitemalice.cards import JOKER_RANK, Card, card_text, rank_text
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.guards import check_int, int_field
from spitemalice.moves import Move
from spitemalice.rules.events import event_names
from spitemalice.rules.findings import expects_names
from spitemalice.rules.ruleset import CompletedPolicy, FirstSeatRule
from spitemalice.wording import shown


def _cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(cards)


def _moves(moves: Iterable[Move]) -> tuple[Move, ...]:
    return tuple(moves)


def _expects(names: Iterable[str] | str) -> tuple[str, ...]:
    return (names,) if isinstance(names, str) else tuple(names)


def _reasons(reasons: Iterable[str]) -> tuple[str, ...]:
    return tuple(reasons)


@attrs.frozen
class Deck:
    """Deck composition.

    Attributes:
        cards: every card of the game except a separate pay-off pack, in any order.
        payoff_cards: a separate pack that only the pay-off piles are dealt from (Starturn's
            stack pack), or ``None`` when pay-off piles come from ``cards``.  Cards of this
            pack that are not dealt join the draw pile.
    """

    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    payoff_cards: tuple[Card, ...] | None = None

    @property
    def size(self) -> int:
        return len(self.cards) + len(self.payoff_cards or ())

    def rank_name(self, rank: int) -> str:
        """``rank`` (an ``int``) as this deck's cards write it, for every message a person
        reads that names a rank (a refusal, the table): ``A``, ``7``, ``Q`` where the cards
        are standard packs; the bare number where the deck holds numbered cards, as Skip-Bo's
        and Hasbro's do (their 1 is no ace, their 12 no queen: ``"1"``, ``"12"``); rank 0 as
        the deck's wild card of that rank writes itself (``*`` for a joker, ``SB`` for a
        SKIP-BO card).

        Raises:
            SpiteMaliceError: ``rank`` is not a whole number of 0 or more (a bool, a float,
                text, -1).
        """
        rank = check_int(rank, "rank (0 for a joker, 1 or more)")
        if rank == JOKER_RANK:
            return next((card_text(card) for card in self.cards if card.rank == JOKER_RANK),
                        rank_text(rank))
        numbered = any(not card.suit and card.rank != JOKER_RANK for card in self.cards)
        return str(rank) if numbered else rank_text(rank)


@attrs.frozen
class WildRule:
    """Wildcard behaviour.

    Attributes:
        wild_ranks: ranks whose cards are wild (0 = joker); an empty set means no wild cards.
        excluded: ranks a wild card may not stand for (1 here means a wild cannot start a pile).
    """

    wild_ranks: frozenset[int]
    excluded: frozenset[int]

    def is_wild(self, card: Card) -> bool:
        return card.rank in self.wild_ranks


@attrs.frozen
class CeilingRule:
    """Build ceiling.

    Attributes:
        ceiling: the rank whose card completes a build pile (12 for a queen).
        completed: ``"set-aside"`` keeps completed cards until a draw finds the draw pile
            empty; ``"shuffle-in"`` shuffles them into the draw pile at once.
    """

    ceiling: int = attrs.field(validator=int_field())
    completed: CompletedPolicy


@attrs.frozen
class DiscardRule:
    """Discard limits.

    Attributes:
        piles: discard piles per seat.
        forbidden: ranks that may not be discarded.
        max_cards: cards one discard may hold: 1, or 2 for a pair of equal rank.
    """

    piles: int = attrs.field(validator=int_field())
    forbidden: frozenset[int]
    max_cards: int = attrs.field(validator=int_field())


@attrs.frozen
class DealRule:
    """Deal and hands.

    Attributes:
        payoff_piles: pay-off piles per seat.
        payoff_size: cards per pay-off pile, or ``None`` to share the separate pay-off pack
            out equally (leftovers join the draw pile).
        hand_size: cards a hand is filled to at the start of a turn and when it empties.
        first_seat: how the first seat is chosen (``"cut"``, ``"cut-left"``, ``"youngest"`` or
            ``"higher-payoff-top"``; see :func:`spitemalice.engine.deal`).
    """

    payoff_piles: int = attrs.field(validator=int_field())
    payoff_size: int | None = attrs.field(validator=int_field())
    hand_size: int = attrs.field(validator=int_field())
    first_seat: FirstSeatRule


Seats = tuple[int, ...]


def _seat_groups(groups: Iterable[Iterable[int]]) -> tuple[Seats, ...]:
    return tuple(tuple(group) for group in groups)


@attrs.frozen
class PileAccess:
    """Which other seats' piles each seat may use (the partner-piles hook's answer).

    Attributes:
        play_from: ``play_from[seat]``: the other seats from whose pay-off tops and discard-pile
            tops ``seat`` may play (empty when a seat plays only from its own piles).
        discard_to: ``discard_to[seat]``: the other seats onto whose discard piles ``seat``
            may discard.
    """

    play_from: tuple[Seats, ...] = attrs.field(converter=_seat_groups)
    discard_to: tuple[Seats, ...] = attrs.field(converter=_seat_groups)


@attrs.frozen
class TeamRule:
    """Teams and what partners share, resolved once per rule book.

    Attributes:
        teams: the teams, each a tuple of seats in seat order; every seat is in exactly one
            team.  Without teams every seat is a team of its own: ``((0,), (1,), ...)``.
        access: which other seats' piles each seat may play from and discard onto.
    """

    teams: tuple[Seats, ...] = attrs.field(converter=_seat_groups)
    access: PileAccess

    @property
    def any(self) -> bool:
        """``True`` when some team has more than one seat."""
        return any(len(team) > 1 for team in self.teams)

    def team_of(self, seat: int) -> int:
        """The index in :attr:`teams` of the team that holds ``seat``.

        Raises:
            SpiteMaliceError: ``seat`` is in no team (not a seat of the game).
        """
        for index, team in enumerate(self.teams):
            if seat in team:
                return index
        seats = sorted(s for team in self.teams for s in team)
        raise SpiteMaliceError(f"seat {shown(seat)} is in no team; the seats are "
                               f"{min(seats, default=0)} to {max(seats, default=0)}")

    def label(self, index: int) -> str:
        """A team as text, its seats joined by ``+``: ``"0+2"``.

        Raises:
            SpiteMaliceError: ``index`` is not a team's index, 0 to ``len(teams) - 1``.
        """
        index = check_int(index, "a team's index", 0, len(self.teams) - 1)
        return "+".join(str(seat) for seat in self.teams[index])


def teams_text(teams: Sequence[Sequence[int]]) -> str:
    """Teams for a message or a layout: ``"teams 0+2, 1+3"``, or ``"no teams"`` when no team
    has two seats or more."""
    if not any(len(team) > 1 for team in teams):
        return "no teams"
    return "teams " + ", ".join("+".join(map(str, team)) or "(an empty team)"
                                for team in teams)


def same_teams(given: Sequence[Sequence[int]], want: Sequence[Sequence[int]]) -> bool:
    """Whether ``given`` names the teams ``want`` names: teams are sets of seats, so neither
    the order of the teams nor the order of the seats in a team counts (``1+3/0+2`` is
    ``0+2/1+3``); a seat named twice or an extra empty team does."""
    def key(teams: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
        return sorted(tuple(sorted(team)) for team in teams)
    return key(given) == key(want)


@attrs.frozen
class MoveFilter:
    """A forced-play rule's answer: the moves it allows and why it refuses the others.

    Attributes:
        allowed: the subset of the legal moves this rule allows.
        reason: the reason code given when a move outside ``allowed`` is tried.
        message: a sentence saying what the rule demands.
    """

    allowed: tuple[Move, ...] = attrs.field(converter=_moves)
    reason: str = "forced-play"
    message: str = "a forced play must be made first"


@attrs.frozen
class Clause:
    """One numbered clause of a rule sheet.

    Attributes:
        id: the clause id, such as ``"BF-7"``; scenario tests cite it.
        text: the rule in our own words.
        source: where the rule comes from (a source id of the rules dossier), or
            ``"ASSUMPTION"`` / ``"LIBRARY"`` for our own decisions.
        reasons: the illegal-move reason codes this clause is the authority for
            (:mod:`spitemalice.rules.reasons`; ``code@pile`` for one kind of pile).
        inherited_from: the rule set whose sheet this clause comes from
            (:func:`spitemalice.rules.registry.base_sheet`), ``""`` for a plugin's own clause; its
            scenario tests are the base rule set's.
        expects: names of findings this clause intends
            (:data:`spitemalice.rules.findings.EXPECTABLE`), say ``("stuck-seat",)`` for a rule
            that leaves a seat only a pass on purpose: validate and the conformance kit then
            report them as ``info`` citing this clause instead of failing or warning.
        events: names of the events this clause defines
            (:data:`spitemalice.rules.events.EVENTS`), say ``("pile-completed",)`` for the
            clause that says what a completed build pile does: rule coverage counts the
            clause exercised when one happens (besides the moves its ``reasons`` decide).

    Raises:
        RulesetError: ``expects`` names a finding that is not one of
            :data:`~spitemalice.rules.findings.EXPECTABLE`, or ``events`` an event that is not
            one of :data:`~spitemalice.rules.events.EVENTS` (the message names the clause).
    """

    id: str
    text: str
    source: str
    reasons: tuple[str, ...] = attrs.field(default=(), converter=_reasons)
    inherited_from: str = ""
    expects: tuple[str, ...] = attrs.field(default=(), converter=_expects)
    events: tuple[str, ...] = attrs.field(default=(), converter=_expects)

    @expects.validator
    @events.validator
    def _known(self, attribute: attrs.Attribute[tuple[str, ...]],
               value: tuple[str, ...]) -> None:
        try:
            (expects_names if attribute.name == "expects" else event_names)(value)
        except ValueError as error:
            raise RulesetError(f"clause {self.id}: {error}") from None
