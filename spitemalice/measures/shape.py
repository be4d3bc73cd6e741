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

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_list, check_real
from spitemalice.measures.interval import COUNT, SHARE, Interval
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson
from spitemalice.runs.game_shape import (
    PROBE_GAMES,
    PROBES,
    GameShape,
    LeadTracker,
    game_shape,
    third_sizes,
    winning_side,
)
from spitemalice.runs.runner import GameRow
from spitemalice.wording import shown

__all__ = ["PROBES", "PROBE_GAMES", "SHAPE_METRICS", "GameShape", "LeadTracker", "game_shape",
           "row_choice", "row_lead_for_good", "row_metrics", "shape_metrics",
           "skill_over_chance", "third_sizes", "winning_side"]

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


def row_choice(row: GameRow, third: int) -> float | None:
    """Mean legal moves per decision in third ``third`` (0, 1, 2) of the game of ``row``
    (:meth:`GameShape.choice` from the row's sums); ``None`` for a third without decisions
    or a row without the sums (a format-1 games file).

    Raises:
        SpiteMaliceError: ``third`` not a whole number from 0 to 2.
    """
    check_int(third, "row_choice's third", 0, 2)
    total = (row.legal_early, row.legal_middle, row.legal_late)[third]
    size = third_sizes(row.moves)[third]
    return None if total is None or not size else total / size


def row_lead_for_good(row: GameRow) -> float | None:
    """The share of the moves of ``row``'s game made before its winner took the lead for
    good (:attr:`GameShape.lead_for_good`); ``None`` for a game nobody won or a row without
    ``lead_taken``."""
    if row.lead_taken is None or not row.moves:
        return None
    return row.lead_taken / row.moves


def row_metrics(rows: Sequence[GameRow]) -> dict[str, Interval]:
    """:func:`shape_metrics` from game rows (what ``compare``, ``balance`` and a
    ``--games-out`` file hold): equal to it over the same games.  A metric whose column some
    row lacks (a format-1 games file) is left out rather than computed from part of the
    games.

    Raises:
        TypeError: ``rows`` is not a list of game rows.
    """
    check_list(rows, "row_metrics", "rows, a list of game rows,", "run.rows[0]")
    for row in rows:
        if not isinstance(row, GameRow):
            raise TypeError(f"row_metrics takes rows, a list of GameRow, not "
                            f"{type(row).__name__} among them")
    found: dict[str, Interval] = {}
    if all(r.lead_changes is not None for r in rows):
        found["lead_changes"] = mean_interval([float(r.lead_changes or 0) for r in rows],
                                              within=COUNT, unit=1.0)
    won = [r for r in rows if r.winner is not None]
    if all(r.comeback is not None for r in won) and all(r.lead_changes is not None
                                                        for r in rows):
        found["comeback"] = wilson(sum(bool(r.comeback) for r in won), len(won))
        found["lead_for_good"] = mean_interval(
            [share for r in won if (share := row_lead_for_good(r)) is not None], within=SHARE)
    if all(r.legal_early is not None for r in rows):
        for third, name in enumerate(("choice_early", "choice_middle", "choice_late")):
            found[name] = mean_interval(
                [c for r in rows if (c := row_choice(r, third)) is not None], within=COUNT,
                unit=0.0)
    if all(r.probed is not None for r in rows):
        found["mattered"] = wilson(sum(r.mattered or 0 for r in rows),
                                   sum(r.probed or 0 for r in rows))
    return found
