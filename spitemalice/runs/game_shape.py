"""One game's shape: its lead history (pay-off cards cleared per side, move by move), the
legal moves at each decision and, probed, whether its decisions mattered.

These are the per-game facts the designer metrics of :mod:`spitemalice.measures.shape` are
computed from (that module gives each metric's formula and source); they live with the
machinery of a run because every row of a run (:class:`~spitemalice.runs.runner.GameRow`)
carries them, so ``compare``, ``balance`` and a ``--games-out`` file have them without a
replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import attrs

from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.guards import check_int, int_field
from spitemalice.model import GameResult, GameState
from spitemalice.moves import Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import MAX_SEATS

PROBES = (1 / 6, 1 / 2, 5 / 6)
"""Where in a game the decisions ``mattered`` probes lie: the first decision with a choice
at or after each of these shares of its moves."""

PROBE_GAMES = 10
"""Games of a run whose decisions are probed for ``mattered`` (two playouts per probe)."""


@attrs.frozen
class GameShape:
    """One game's lead history and choices.

    Attributes:
        moves: moves made.
        leaders: the leading side after each move (``None``: no side ahead).
        winner: the winning side, or ``None``.
        legal: legal moves at each decision, in order.
        different: for each decision, whether its legal moves differ in immediate effect.
        mattered: for each probed decision, whether another move changed the winner.

    Raises:
        SpiteMaliceError: ``moves`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`, or ``winner`` one outside 0 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS` less one (a side).
    """

    moves: int = attrs.field(validator=int_field(0))
    leaders: tuple[int | None, ...]
    winner: int | None = attrs.field(validator=int_field(0, MAX_SEATS - 1, constant=""))
    legal: tuple[int, ...]
    different: tuple[bool, ...]
    mattered: tuple[bool, ...] = ()

    @property
    def lead_changes(self) -> int:
        """Times the leader changed from one side to another (level spells skipped)."""
        sides = [side for side in self.leaders if side is not None]
        return sum(a != b for a, b in pairwise(sides))

    @property
    def comeback(self) -> bool | None:
        """For a won game, whether the winner did not lead at the half-way move."""
        if self.winner is None or not self.leaders:
            return None
        return self.leaders[(len(self.leaders) - 1) // 2] != self.winner

    @property
    def lead_taken(self) -> int | None:
        """For a won game, the moves made before the winner took the lead for good (from
        that move on it led to the end); ``None`` for a game nobody won."""
        if self.winner is None or not self.leaders:
            return None
        at = len(self.leaders)
        while at > 0 and self.leaders[at - 1] == self.winner:
            at -= 1
        return at

    @property
    def lead_for_good(self) -> float | None:
        """For a won game, the share of its moves made before the winner led to the end."""
        taken = self.lead_taken
        return None if taken is None else taken / len(self.leaders)

    def legal_sums(self) -> tuple[int, int, int]:
        """Legal moves summed over the decisions of each third (first, middle, last) of the
        game: :meth:`choice` is each sum over its third's decisions
        (:func:`third_sizes`)."""
        n = len(self.legal)
        return tuple(sum(self.legal[t * n // 3:(t + 1) * n // 3])  # type: ignore[return-value]
                     for t in range(3))

    def choice(self, third: int) -> float | None:
        """Mean legal moves per decision in third ``third`` (0, 1, 2) of the decisions.

        Raises:
            SpiteMaliceError: ``third`` not a whole number from 0 to 2.
        """
        check_int(third, "GameShape.choice's third", 0, 2)
        n = len(self.legal)
        part = self.legal[third * n // 3:(third + 1) * n // 3]
        return sum(part) / len(part) if part else None


def third_sizes(decisions: int) -> tuple[int, int, int]:
    """How many of ``decisions`` fall in each third of a game (first, middle, last): the
    decisions ``t * n // 3`` up to ``(t + 1) * n // 3``, as :meth:`GameShape.choice` splits them.

    Raises:
        SpiteMaliceError: ``decisions`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    n = check_int(decisions, "third_sizes' decisions", 0)
    return n // 3, 2 * n // 3 - n // 3, n - 2 * n // 3


class LeadTracker:
    """Follows the lead of a game as its moves are made: :meth:`move` with the state before
    each move and the move; :attr:`leaders` is the leading side after each (``None``: no side
    ahead; a side is a team of ``rules``, or a seat without teams).

    Raises:
        TypeError: ``rules`` is not a rule book.
    """

    def __init__(self, rules: RuleBook) -> None:
        check_book(rules, "LeadTracker")
        self.rules = rules
        self.cleared = [0] * len(rules.teams.teams)
        self.leaders: list[int | None] = []

    def move(self, state: GameState, move: Move) -> None:
        """Count ``move``, made in ``state``: a play from a pay-off pile clears a card of the
        side that owns the pile."""
        if isinstance(move, Play) and move.zone is Zone.PAYOFF:
            owner = state.seat if move.owner is None else move.owner
            self.cleared[_side_of(self.rules, owner)] += 1
        self.leaders.append(_leader(self.cleared))


def _effect(state: GameState, move: Move) -> tuple[object, ...]:
    """What ``move`` does, with equal places made one: the card, where from (zone, pile,
    owner), and the build pile's top or the discard pile's cards it goes onto."""
    if isinstance(move, Pass):
        return ("pass",)
    if isinstance(move, Play):
        onto = None if move.pile < 0 else state.build_tops[move.pile]
        return ("play", move.card, move.zone, move.index, move.owner, onto)
    assert isinstance(move, Discard)
    owner = state.seat if move.owner is None else move.owner
    return ("discard", move.cards, owner, state.seats[owner].discards[move.pile])


def _side_of(rules: RuleBook, seat: int) -> int:
    """The side of ``seat``: its team, or the seat itself without teams."""
    return rules.teams.team_of(seat)


def game_shape(rules: RuleBook, result: GameResult, probe: bool = False) -> GameShape:
    """The :class:`GameShape` of a finished game of ``rules``, by replaying its moves from
    its deal (the legal moves at each decision, and the pay-off cards each side cleared);
    with ``probe``, its :data:`PROBES` decisions played out for ``mattered``.

    Raises:
        TypeError: ``rules`` is not a rule book.
    """
    check_book(rules, "game_shape")
    state = deal(rules, result.seed)
    lead = LeadTracker(rules)
    legal: list[int] = []
    different: list[bool] = []
    mattered: list[bool] = []
    marks = [int(share * len(result.moves)) for share in PROBES] if probe else []
    for index, move in enumerate(result.moves):
        moves = legal_moves(rules, state)
        legal.append(len(moves))
        effects = {_effect(state, m): m for m in moves}
        different.append(len(effects) > 1)
        if marks and index >= marks[0] and len(effects) > 1:
            marks.pop(0)
            mattered.append(_matters(rules, state, move, effects, result.seed + index))
        lead.move(state, move)
        state = apply_move(rules, state, move)
    return GameShape(len(result.moves), tuple(lead.leaders), winning_side(rules, result),
                     tuple(legal), tuple(different), tuple(mattered))


def winning_side(rules: RuleBook, result: GameResult) -> int | None:
    """The side (team, or seat without teams) of ``result``'s winner; ``None`` when no seat
    won.

    Raises:
        TypeError: ``rules`` is not a rule book.
    """
    check_book(rules, "winning_side")
    winner = result.final.outcome.winner if result.final.outcome else None
    return None if winner is None else _side_of(rules, winner)


def _matters(rules: RuleBook, state: GameState, made: Move,
             effects: dict[tuple[object, ...], Move], seed: int) -> bool:
    """Whether the move made and another of different effect (picked by ``seed``), each
    played out by greedy players, end with different winners."""
    others = [m for key, m in effects.items() if key != _effect(state, made)]
    other = others[seed % len(others)]
    return _playout(rules, state, made, seed) != _playout(rules, state, other, seed)


def _playout(rules: RuleBook, state: GameState, first: Move, seed: int) -> int | None:
    """The winning side when ``first`` is made in ``state`` and greedy players (seeded by
    ``seed``) play on to the end (the rules' turn limit ends every game)."""
    players = [GreedyPlayer(seed + seat) for seat in range(len(state.seats))]
    state = apply_move(rules, state, first)
    while state.outcome is None:
        state = apply_move(rules, state, players[state.seat].choose(
            rules, state, legal_moves(rules, state)))
    winner = state.outcome.winner
    return None if winner is None else _side_of(rules, winner)


def _leader(cleared: Sequence[int]) -> int | None:
    best = max(cleared)
    return cleared.index(best) if cleared.count(best) == 1 else None
