"""The studies of a rule set: many games summarised (``simulate``), paired comparisons,
matches, tournaments, ladders, balance and the atlas, with their pictures.  The machinery they
run on is :mod:`spitemalice.runs`; what they measure with is :mod:`spitemalice.measures`.

Every study is built on :func:`~spitemalice.runs.runner.play_one`, which plays game ``g`` of a
configuration from a seed derived from the run seed and ``g``: a game is a pure function of
(configuration, bots, seed), so any backend may play the games in any order.

Import from here: :func:`play_game` (one game played by bots), :func:`play_match` (games to a
target score), :func:`simulate` (many games, summarised), :func:`configuration` and
:func:`play_one` (a configuration's game ``g``), :func:`compare` and
:func:`compare_until_decided` (two configurations on the same seeds).
"""

from spitemalice.runs.loop import play_game
from spitemalice.runs.runner import Configuration, GameRow, configuration, play_one
from spitemalice.study.compare import Comparison, compare, compare_until_decided
from spitemalice.study.match import MatchResult, play_match
from spitemalice.study.simulate import Summary, simulate

__all__ = ["Comparison", "Configuration", "GameRow", "MatchResult", "Summary", "compare",
           "compare_until_decided", "configuration", "play_game", "play_match", "play_one",
           "simulate"]
