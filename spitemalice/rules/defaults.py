"""The base rules: the default answer to every hook, from the :class:`Ruleset`'s values.

A :class:`~spitemalice.rules.book.RuleBook` asks these only when no rule-set or house-rule
plugin answers a hook.  They are plain functions, never registered with the plugins (so they
carry no ``@hookimpl`` marker, and no marker a plugin uses can put them first); each has its
hook's name and arguments (:mod:`spitemalice.rules.hookspecs`).
"""

from __future__ import annotations

from spitemalice.cards import JOKER_RANK, SKIP_BO, Card, numbered_cards, standard_pack
from spitemalice.guards import check_int
from spitemalice.limits import MAX_DECK_CARDS
from spitemalice.model import GameState, OutcomeKind
from spitemalice.rules.policies import (
    CeilingRule,
    DealRule,
    Deck,
    DiscardRule,
    PileAccess,
    WildRule,
)
from spitemalice.rules.ruleset import Ruleset
from spitemalice.wording import kind

NAME = "base"
_JOKER = Card(JOKER_RANK)  # a joker's plain face (standard_pack's)


def spitemalice_deck(ruleset: Ruleset) -> Deck:
    """Return the deck the Ruleset states: :func:`stated_deck`."""
    return stated_deck(ruleset)


def stated_deck(ruleset: Ruleset, joker: Card | None = None) -> Deck:
    """The deck ``ruleset``'s values state, every joker showing ``joker``'s face: ``None`` for
    a joker's plain face (``*``), or Skip-Bo's (:data:`~spitemalice.cards.SKIP_BO`).

    ``seat_packs`` standard packs, ``seat_jokers`` jokers and ``draw_pack`` numbered cards;
    a separate pay-off pack of ``payoff_pack`` numbered cards when that is not 0.  A plugin
    whose jokers have a face of their own answers ``spitemalice_deck`` with it (Skip-Bo's:
    ``stated_deck(ruleset, joker=spitemalice.SKIP_BO)``); the loader refuses any other deck
    (docs/hooks.md, ``spitemalice_deck``).

    Numbered cards are suitless, valued 1 up to the build ceiling and spread as evenly as the
    count allows: the lowest values get the extra copies (52 cards 1-15 = three runs and 1-7).

    Examples:
        >>> import spitemalice
        >>> deck = stated_deck(spitemalice.load("skip-bo").ruleset, joker=spitemalice.SKIP_BO)
        >>> len(deck.cards), deck.cards.count(spitemalice.SKIP_BO)
        (162, 18)

    Raises:
        TypeError: ``ruleset`` is not a :class:`Ruleset`, or ``joker`` is neither ``None``
            nor :data:`~spitemalice.cards.SKIP_BO` (the faces the notation reads), named.
    """
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"stated_deck takes a Ruleset (a RuleBook's .ruleset), not "
                        f"{kind(ruleset)}")
    if joker is None:
        joker = _JOKER
    elif joker is not SKIP_BO and joker is not _JOKER:  # cards are interned: one per value
        # another face would deal and play, but no record or state file could read it back
        raise TypeError(f"joker is a joker's face the notation reads: None (the plain joker, "
                        f"*) or spitemalice.SKIP_BO (SB), not {kind(joker)}")
    cards = standard_pack() * ruleset.seat_packs
    cards += (joker,) * ruleset.seat_jokers
    cards += numbered_pack(ruleset.draw_pack, ruleset.build_ceiling)
    payoff = numbered_pack(ruleset.payoff_pack, ruleset.build_ceiling) or None
    return Deck(cards, payoff)


def numbered_pack(size: int, top: int) -> tuple[Card, ...]:
    """``size`` suitless cards valued 1..``top``, as even as possible, low values first.

    Examples:
        >>> [card.rank for card in numbered_pack(5, 3)]
        [1, 1, 2, 2, 3]

    Raises:
        SpiteMaliceError: ``size`` is not 0 to :data:`~spitemalice.limits.MAX_DECK_CARDS`,
            or ``top`` not 1 to that bound.
    """
    size = check_int(size, "size", 0, MAX_DECK_CARDS, constant="spitemalice.limits.MAX_DECK_CARDS")
    top = check_int(top, "top", 1, MAX_DECK_CARDS, constant="spitemalice.limits.MAX_DECK_CARDS")
    runs, extra = divmod(size, top)
    return numbered_cards({value: runs + (value <= extra) for value in range(1, top + 1)
                           if runs + (value <= extra)})


def spitemalice_wild(ruleset: Ruleset) -> WildRule:
    """Return ``wild_ranks`` and ``wild_excluded``."""
    return WildRule(ruleset.wild_ranks, ruleset.wild_excluded)


def spitemalice_build_ceiling(ruleset: Ruleset) -> CeilingRule:
    """Return ``build_ceiling`` and ``completed_piles``."""
    return CeilingRule(ruleset.build_ceiling, ruleset.completed_piles)


def spitemalice_build_pile_limit(ruleset: Ruleset) -> int:
    """Return ``max_build_piles``, ``0`` for no limit (``None``)."""
    return ruleset.max_build_piles or 0


def spitemalice_discard_limits(ruleset: Ruleset) -> DiscardRule:
    """Return ``discard_piles``, ``discard_forbidden`` and ``max_discard_cards``."""
    return DiscardRule(
        ruleset.discard_piles, ruleset.discard_forbidden, ruleset.max_discard_cards
    )


def spitemalice_deal(ruleset: Ruleset) -> DealRule:
    """Return the deal the Ruleset states.

    ``payoff_size`` 0 means ``None``: share the separate pay-off pack out equally.  With 5 or
    more seats a non-zero ``payoff_size_many`` replaces ``payoff_size`` (Skip-Bo's 20-card
    piles, rules dossier §6 K4).
    """
    size = ruleset.payoff_size
    if ruleset.players >= 5 and ruleset.payoff_size_many:
        size = ruleset.payoff_size_many
    return DealRule(ruleset.payoff_piles, size or None, ruleset.hand_size, ruleset.first_seat)


def spitemalice_score(
    ruleset: Ruleset,
    state: GameState,
    kind: OutcomeKind,
    winner: int | None,
    teams: tuple[tuple[int, ...], ...],
) -> tuple[int, ...]:
    """Return each seat's points: its team's.

    Each team scores as one player, and every seat of a team shows the team's points (a
    seat alone is a team of one).  Win: ``win_bonus`` + ``points_per_card`` per card left in
    the other teams' pay-off piles.  Any other end under ``exhaustion="difference"``: the one
    team with fewest pay-off cards scores the sum over the other teams of (their cards - its
    cards); a tie for fewest, or ``exhaustion="tie"``, scores nothing."""
    counts = [sum(state.seats[seat].payoff_count for seat in team) for team in teams]
    points = [0] * len(teams)
    if kind == "win" and winner is not None:
        won = next(index for index, team in enumerate(teams) if winner in team)
        left = sum(counts) - counts[won]
        points[won] = ruleset.win_bonus + ruleset.points_per_card * left
    elif ruleset.exhaustion == "difference":
        fewest = min(counts)
        leaders = [index for index, count in enumerate(counts) if count == fewest]
        if len(leaders) == 1:
            points[leaders[0]] = sum(count - fewest for count in counts)
    scores = [0] * len(state.seats)
    for team, team_points in zip(teams, points, strict=True):
        for seat in team:
            scores[seat] = team_points
    return tuple(scores)


def spitemalice_teams(ruleset: Ruleset) -> tuple[tuple[int, ...], ...]:
    """Return ``team_size`` seats per team, partners sitting opposite.

    Team ``k`` holds seats ``k``, ``k + n``, ``k + 2n`` ... where ``n`` is the number of teams.
    """
    count = ruleset.players // ruleset.team_size
    return tuple(tuple(range(k, ruleset.players, count)) for k in range(count))


def spitemalice_partner_piles(
    ruleset: Ruleset, teams: tuple[tuple[int, ...], ...]
) -> PileAccess:
    """Return the access ``partner_piles`` gives: ``own`` (none), ``play`` (partners' piles to
    play from) or ``share`` (and their discard piles to discard onto)."""
    partners: list[tuple[int, ...]] = [()] * ruleset.players
    for team in teams:
        for seat in team:
            partners[seat] = tuple(other for other in team if other != seat)
    none: list[tuple[int, ...]] = [()] * ruleset.players
    play = partners if ruleset.partner_piles in ("play", "share") else none
    return PileAccess(play, partners if ruleset.partner_piles == "share" else none)
