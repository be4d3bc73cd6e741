"""Scoring written as data: ``values = { score = "..." }`` in a ``[[rule]]`` table, one safe
arithmetic expression over the end-of-game quantities
(:data:`~spitemalice.rules.datarules.vocabulary.SCORE_NAMES`) and the rule set's parameters,
evaluated for each seat when a game ends (the ``spitemalice_score`` hook).

The built-in rule sets' scoring (``spitemalice.rules.defaults.spitemalice_score``: BF-17,
BF-18, SK-19, G4-14/15, HB-16) is one such expression each; docs/variants.md writes them.

A score is a whole number, 0 or more.  The type is checked when the file is read; the sign is
checked before any game, when the rule book is built, on end-of-game situations the rule set
can reach (:func:`probe`: every end, every winning team, pay-off counts 0, 1 and full per
team, empty and full hands and discard piles), and a negative score found there refuses the
file with the line and column of the expression.  Should a game still reach one, the score
hook refuses it the same way rather than record it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.limits import MAX_INT
from spitemalice.model import GameState
from spitemalice.rules.datarules.evaluate import View
from spitemalice.rules.datarules.plugins import ValuesRule
from spitemalice.rules.datarules.vocabulary import ENDS, ruleset_values
from spitemalice.rules.hookspecs import hookimpl
from spitemalice.rules.ruleset import Ruleset

Teams = tuple[tuple[int, ...], ...]


@attrs.frozen
class Quantities:
    """An end of game as a score expression sees it, without a :class:`GameState` (the probe
    makes them): per seat its pay-off, hand and discard-pile card counts."""

    end: str
    winner: int | None
    payoff: tuple[int, ...]
    hand: tuple[int, ...]
    discards: tuple[int, ...]
    turns: int = 0
    draw_size: int = 0

    @classmethod
    def of(cls, state: GameState, end: str, winner: int | None) -> Quantities:
        """The quantities of a final position ``state`` that ended with ``end``."""
        return cls(end, winner, tuple(seat.payoff_count for seat in state.seats),
                   tuple(len(seat.hand) for seat in state.seats),
                   tuple(sum(map(len, seat.discards)) for seat in state.seats),
                   state.turn, len(state.draw))


def seat_names(parameters: Mapping[str, Any], found: Quantities, teams: Teams, seat: int,
               wanted: frozenset[str]) -> dict[str, Any]:
    """The values of the names in ``wanted`` for ``seat`` (each an end-of-game quantity or a
    parameter of ``parameters``, as
    :func:`~spitemalice.rules.datarules.vocabulary.ruleset_values` gives them), as a score
    expression reads them."""
    mine = next(team for team in teams if seat in team)
    others = [team for team in teams if team is not mine]
    won = found.end == "win" and found.winner is not None
    values: dict[str, Any] = {
        "game.end": found.end, "game.won": won, "game.players": len(found.payoff),
        "game.teams": len(teams), "game.team_size": len(mine), "game.turns": found.turns,
        "game.draw_size": found.draw_size, "seat.won": won and found.winner in mine,
    }
    for word in ("payoff", "hand", "discards"):
        counts: tuple[int, ...] = getattr(found, word)
        values[f"seat.{word}"] = counts[seat]
        values[f"team.{word}"] = sum(counts[at] for at in mine)
        values[f"opponents.{word}"] = sum(counts[at] for team in others for at in team)
    values["opponents.payoffs"] = tuple(sum(found.payoff[at] for at in team)
                                        for team in others)
    return {name: values[name] if name in values else parameters[name] for name in wanted}


def views(values: Mapping[str, Any]) -> dict[str, Any]:
    """The names as the evaluator reads them: groups (``seat``) as views, parameters bare."""
    groups: dict[str, dict[str, Any]] = {}
    bare: dict[str, Any] = {}
    for name, value in values.items():
        group, dot, word = name.partition(".")
        if dot:
            groups.setdefault(group, {})[word] = value
        else:
            bare[name] = value
    return {**bare, **{group: View(**words) for group, words in groups.items()}}


@attrs.frozen
class Score:
    """A checked score expression: its text, evaluator, the names it reads and where it
    stands (``place``: ``FILE:LINE:COLUMN: rule CLAUSE: values.score``)."""

    text: str
    run: Callable[[Mapping[str, Any]], Any]
    names: frozenset[str]
    place: str

    def points(self, ruleset: Ruleset, found: Quantities, teams: Teams) -> tuple[int, ...]:
        """One score per seat.

        Raises:
            RulesetError: the expression gives a score below 0 or past
                :data:`~spitemalice.limits.MAX_INT` here (the message names the place, the
                score and the values it read).
        """
        scores = []
        parameters = ruleset_values(ruleset)
        for seat in range(len(found.payoff)):
            values = seat_names(parameters, found, teams, seat, self.names)
            points = int(self.run(views(values)))
            if not 0 <= points <= MAX_INT:
                read = ", ".join(f"{name} = {_shown(values[name])}" for name in sorted(values))
                raise RulesetError(
                    f"{self.place}: the score of seat {seat} is {points} when "
                    f"{read or 'the game ends'}; " + (
                        "a score is a whole number 0 or more: guard it (X if X > 0 else 0) "
                        "or write it so that it cannot fall below 0" if points < 0 else
                        f"a score has at most {len(str(MAX_INT))} digits (limits.MAX_INT)"))
            scores.append(points)
        return tuple(scores)


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | frozenset | set):
        return f"[{', '.join(map(str, sorted(value)))}]"
    return str(value)


def situations(ruleset: Ruleset, teams: Teams) -> Iterator[Quantities]:
    """End-of-game situations the rule set can reach, as :func:`probe` tries them: each
    team's pay-off cards 0, 1 or a full pile (0 or full past four teams), every end (a win by
    each team that has emptied its piles), hands and discard piles empty or full."""
    players = sum(len(team) for team in teams)
    full = max(1, ruleset.payoff_size or 30) * max(1, ruleset.payoff_piles)
    counts = (0, 1, full) if len(teams) <= 4 else (0, full)
    hands = ((0, 0), (ruleset.hand_size, ruleset.discard_piles * 3))
    for per_team in itertools.product(counts, repeat=len(teams)):
        payoff = [0] * players
        for team, count in zip(teams, per_team, strict=True):
            payoff[team[0]] = count  # a team's cards on its first seat
        ends: list[tuple[str, int | None]] = [
            ("win", team[0]) for team, count in zip(teams, per_team, strict=True) if not count]
        ends += [(end, None) for end in ENDS[1:]]
        for (end, winner), (hand, discards) in itertools.product(ends, hands):
            yield Quantities(end, winner, tuple(payoff), (hand,) * players,
                             (discards,) * players, turns=1 + 99 * bool(hand))


def probe(score: Score, ruleset: Ruleset, teams: Teams) -> None:
    """Evaluate ``score`` on every situation of :func:`situations`.

    Raises:
        RulesetError: a negative score in one of them (as :meth:`Score.points`).
    """
    for found in situations(ruleset, teams):
        score.points(ruleset, found, teams)


class ScoreRule(ValuesRule):
    """``values = { score = "..." }``: the rule set's scoring replaced by an expression (and
    any other values set as a values rule sets them)."""

    def __init__(self, spec: Any) -> None:
        super().__init__(spec)
        self._probed: set[tuple[Ruleset, Teams]] = set()

    @hookimpl
    def spitemalice_score(self, ruleset: Ruleset, state: GameState, kind: str,
                          winner: int | None, teams: Teams) -> tuple[int, ...]:
        score: Score = self.spec.score
        return score.points(ruleset, Quantities.of(state, kind, winner), teams)

    @hookimpl
    def spitemalice_conflicts(self, ruleset: Ruleset, plugins: list[str]) -> str | None:
        # the sign is checked here, before any game: the rule book's teams are its ruleset's
        count = ruleset.players // max(1, ruleset.team_size)
        teams = tuple(tuple(range(k, ruleset.players, count)) for k in range(count))
        key = (ruleset, teams)
        if key not in self._probed:
            probe(self.spec.score, ruleset, teams)
            self._probed.add(key)
        return super().spitemalice_conflicts(ruleset, plugins)
