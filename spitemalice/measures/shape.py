"""Designer metrics: the shape of a game, not only its outcome and length.

**Lead** in this family is measured in pay-off cards cleared: the game is won by the side
that first empties its pay-off pile (or piles: a team's are added up, clause PT-4), every
side starts with as many, so the side that has cleared the most is ahead.  The leader is the
side that has cleared strictly more than every other; while two sides are level there is no
leader.  A pay-off card is cleared when it is played from a pay-off pile.

Per game (:func:`game_shape`, from a finished game by one replay), and over games, each with
its 95% interval (:func:`shape_metrics`):

* ``lead_changes``: times the leader changed from one side to another (a level spell between
  two leaders counts when the side after it differs), per game; mean, Student's t.  CardStock
  reports lead changes (Kraaijeveld et al.); Browne's *Automatic Generation and Evaluation of
  Recombination Games* (2008) names the criterion "lead change".
* ``comeback``: the share of won games whose winner was not the leader at the half-way move
  (another side was ahead, or none was); Wilson.  Browne's "comeback" criterion.
* ``lead_for_good``: the share of a won game's moves made before the winner took the lead
  for good (from that move on it led to the end); lower = the winner was secure earlier;
  mean, Student's t.  Browne's "security" criterion, measured as the moment of the last
  lead change to the winner.
* ``choice_early``, ``choice_middle``, ``choice_late``: legal moves per decision in the first,
  middle and last third of a game's moves; means of the per-game means, Student's t.  Does
  choice narrow toward the end?  (Ludii's BranchingFactor, split by phase.)
* ``mattered``: the share of probed decisions (with more than one legal move of different
  effect, :func:`effect`) at which another legal move than the one made changes the winner:
  from the position, the move made and one other (of different effect, chosen by the game's
  seed) are each played out by greedy players to the end; the decision mattered when the two
  playouts end with different winners; Wilson.  DarwinDeck and CardStock play each move out
  many times; to keep it cheap, :data:`PROBES` decisions of each of the first
  :data:`PROBE_GAMES` games are probed, once each (two playouts), so the figure is a sample
  of decisions and its interval says how wide.
* ``skill_over_chance`` (:func:`skill_over_chance`): the strong tier's share of won games
  against the weak tier, above the fair share, scaled to 0..1: ``(s - f) / (1 - f)``, below 0
  counted as 0; 0 = the strong tier wins no more than chance, 1 = it always wins.  Its
  interval is the share's, mapped the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import attrs

from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_list, check_real, int_field
from spitemalice.measures.interval import COUNT, SHARE, Interval
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson
from spitemalice.model import GameResult, GameState
from spitemalice.moves import Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.wording import shown

SHAPE_METRICS: dict[str, str] = {
    "lead_changes": "times the leader (the side that has cleared the most pay-off cards) "
                    "changed, per game",
    "comeback": "share of won games whose winner did not lead at the half-way move",
    "lead_for_good": "share of a won game's moves made before the winner took the lead for "
                     "good; lower = secure earlier",
    "choice_early": "legal moves per decision in the first third of a game",
    "choice_middle": "legal moves per decision in the middle third of a game",
    "choice_late": "legal moves per decision in the last third of a game",
    "mattered": "share of probed decisions at which another legal move, played out by greedy "
                "players, changes the winner",
}
"""Metric name -> what it measures (the module text gives each formula and its source)."""

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
    def lead_for_good(self) -> float | None:
        """For a won game, the share of its moves made before the winner led to the end."""
        if self.winner is None or not self.leaders:
            return None
        at = len(self.leaders)
        while at > 0 and self.leaders[at - 1] == self.winner:
            at -= 1
        return at / len(self.leaders)

    def choice(self, third: int) -> float | None:
        """Mean legal moves per decision in third ``third`` (0, 1, 2) of the decisions.

        Raises:
            SpiteMaliceError: ``third`` not a whole number from 0 to 2.
        """
        check_int(third, "GameShape.choice's third", 0, 2)
        n = len(self.legal)
        part = self.legal[third * n // 3:(third + 1) * n // 3]
        return sum(part) / len(part) if part else None


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
    cleared = [0] * len(rules.teams.teams)
    leaders: list[int | None] = []
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
        if isinstance(move, Play) and move.zone is Zone.PAYOFF:
            owner = state.seat if move.owner is None else move.owner
            cleared[_side_of(rules, owner)] += 1
        leaders.append(_leader(cleared))
        state = apply_move(rules, state, move)
    winner = result.final.outcome.winner if result.final.outcome else None
    return GameShape(len(result.moves), tuple(leaders),
                     None if winner is None else _side_of(rules, winner), tuple(legal),
                     tuple(different), tuple(mattered))


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


def shape_metrics(shapes: Sequence[GameShape]) -> dict[str, Interval]:
    """Every metric of :data:`SHAPE_METRICS` over ``shapes``, each with its 95% interval
    (a share Wilson's, a mean Student's t)."""
    check_list(shapes, "shape_metrics", "shapes, a list of game shapes,",
               "[game_shape(rules, result)]")
    won = [s for s in shapes if s.winner is not None]
    probed = [m for s in shapes for m in s.mattered]
    found = {
        "lead_changes": mean_interval([float(s.lead_changes) for s in shapes], within=COUNT,
                                      unit=1.0),
        "comeback": wilson(sum(bool(s.comeback) for s in won), len(won)),
        "lead_for_good": mean_interval([s.lead_for_good for s in won
                                        if s.lead_for_good is not None], within=SHARE),
    }
    for third, name in enumerate(("choice_early", "choice_middle", "choice_late")):
        found[name] = mean_interval([c for s in shapes if (c := s.choice(third)) is not None],
                                    within=COUNT, unit=0.0)
    found["mattered"] = wilson(sum(probed), len(probed))
    return found


def skill_over_chance(share: Interval, fair: float = 0.5) -> Interval:
    """The strong tier's share of won games against the weak tier (``share``, with its
    interval) above the ``fair`` share, scaled to 0..1: ``(s - fair) / (1 - fair)``, below 0
    as 0 (the module text gives the source).

    Raises:
        SpiteMaliceError: ``fair`` no number above 0 and below 1.
    """
    if not 0 < check_real(fair, "skill_over_chance's fair", 0.0, 1.0, what="a share") < 1:
        raise SpiteMaliceError(f"skill_over_chance takes fair above 0 and below 1, not "
                               f"{shown(fair)}")

    def scaled(value: float) -> float:
        return min(1.0, max(0.0, (value - fair) / (1 - fair)))

    return Interval(scaled(share.estimate), scaled(share.low), scaled(share.high), share.n)
