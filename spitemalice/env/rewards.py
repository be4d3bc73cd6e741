"""What a seat is paid at the end of a game: the reward options of every environment.

* ``"score"`` (the default): the seat's score for the game under the rule set's scoring,
  ``Outcome.scores[seat]``.
* ``"win-loss"``: +1 when the seat's team won (a seat alone is its own team), -1 when another
  team won, 0 for a game nobody won (``drawn``, ``blocked``, ``turn-limit``).  Under
  ``"score"`` a loss and a game nobody won can pay alike (0 where the rule set scores only
  the winner), and a game nobody won can pay a seat more than 0 (blackwood-frey scores a
  drawn game by the difference of the pay-off piles, BF-18); ``"win-loss"`` tells them
  apart.
* ``"zero-sum"``: the seat's score less the mean score of the other seats, so the rewards of
  one game add up to 0 (with 2 seats: the score difference).

Rewards are 0 until the game ends.
"""

from __future__ import annotations

from spitemalice.errors import SpiteMaliceError
from spitemalice.model import Outcome
from spitemalice.rules.book import RuleBook

REWARDS = ("score", "win-loss", "zero-sum")
"""The reward options, in the order the module docstring gives them."""


def checked_reward(kind: object) -> str:
    """``kind`` if it is one of :data:`REWARDS`.

    Raises:
        SpiteMaliceError: any other value, naming the options.
    """
    if kind not in REWARDS:
        raise SpiteMaliceError(f"reward is one of {', '.join(REWARDS)}, not {kind!r}")
    return str(kind)


def final_rewards(rules: RuleBook, outcome: Outcome, kind: str) -> tuple[float, ...]:
    """Each seat's reward (a float per seat, in seat order) for a game that ended with
    ``outcome``, under the reward option ``kind`` (module docstring).
    """
    scores = outcome.scores
    if kind == "score":
        return tuple(float(score) for score in scores)
    if kind == "zero-sum":
        total, others = sum(scores), len(scores) - 1
        return tuple(float(score - (total - score) / others) if others else 0.0
                     for score in scores)
    if outcome.winner is None:
        return (0.0,) * len(scores)
    winners = rules.teams.teams[rules.teams.team_of(outcome.winner)]
    return tuple(1.0 if seat in winners else -1.0 for seat in range(len(scores)))
