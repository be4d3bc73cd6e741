"""Things the worker-process tests send to workers: they live at the top level of an
importable module, so a worker rebuilds them by name (tests/runs/test_workers.py)."""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence

import attrs

import spitemalice as sm
from spitemalice.bots.players import RandomPlayer


class ShortPayoff:
    """A house rule as an object (not a module): pay-off piles of ``size`` cards."""

    NAME = "object-short-payoff"
    KIND = "house-rule"
    DESCRIPTION = "pay-off piles of a given size, as a plugin object"

    def __init__(self, size: int) -> None:
        self.size = size

    @sm.hookimpl(wrapper=True)
    def spitemalice_ruleset(self) -> Generator[None, sm.Ruleset, sm.Ruleset]:
        ruleset = yield
        return attrs.evolve(ruleset, payoff_size=self.size)

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return [sm.Clause("OS-1", f"Each pay-off pile holds {ruleset.payoff_size} cards.",
                          "a test of worker processes")]


class TimidPlayer(RandomPlayer):
    """A bot kind registered at run time (the first legal move, always)."""

    def choose(self, rules: sm.RuleBook, state: sm.GameState,
               moves: Sequence[sm.Move]) -> sm.Move:
        return moves[0]


@attrs.frozen
class DiesAt:
    """A per-game function whose worker process dies at game ``game``."""

    game: int

    def __call__(self, game: int) -> int:
        if game == self.game:
            os._exit(3)
        return game


@attrs.frozen
class RaisesUnpicklable:
    """A per-game function that raises an exception which cannot travel back."""

    def __call__(self, game: int) -> int:
        raise _Stubborn("lost", 7)


class _Stubborn(Exception):
    def __init__(self, text: str, code: int) -> None:
        super().__init__(f"{text} ({code})")


@attrs.frozen
class RaisesIllegal:
    """A per-game function that raises the library's IllegalMove in the worker."""

    def __call__(self, game: int) -> int:
        raise sm.IllegalMove("buried-card", "only the top card plays", "BF-8", "p3H")
