"""Scoring written as data (issue 34 §1: ``values = { score = "..." }``) scores every game as
the Python scoring of the rule set it rewrites (the method of test_datarules_identical: seeded
games played under both, here their outcomes, every final position scored for every end and
winner, and whole matches compared).

The files: examples/scoring/ writes Blackwood-Frey's (BF-17, BF-18), Skip-Bo's (SK-19) and
G4A's (G4-14, G4-15) scoring with numbers, and the library's default scoring once over the
rule set's parameters (by-parameters.toml), checked on each of those rule sets, Hasbro's
(HB-16) and a partnership game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer, RandomPlayer
from spitemalice.rules.datarules.scoring import ENDS
from spitemalice.runs.loop import play_game
from spitemalice.study.match import play_match

FILES = Path(__file__).parents[2] / "examples" / "scoring"

# (file, base rule set, house rules, parameters): each compared with the base's own scoring
CASES = {
    "blackwood-frey": ("blackwood-frey.toml", "blackwood-frey", (), {}),
    "blackwood-frey short": ("blackwood-frey.toml", "blackwood-frey", (), {"turn_limit": 40}),
    "blackwood-frey 3": ("blackwood-frey.toml", "blackwood-frey", (),
                         {"players": 3, "turn_limit": 60, "payoff_size": 13}),
    "skip-bo": ("skip-bo.toml", "skip-bo", (), {"payoff_size": 10}),
    "skip-bo short": ("skip-bo.toml", "skip-bo", (), {"turn_limit": 40}),
    "g4a": ("g4a.toml", "g4a", (), {}),
    "by-parameters blackwood-frey": ("by-parameters.toml", "blackwood-frey", (),
                                     {"turn_limit": 50}),
    "by-parameters skip-bo": ("by-parameters.toml", "skip-bo", (),
                              {"payoff_size": 10, "turn_limit": 80}),
    "by-parameters hasbro": ("by-parameters.toml", "hasbro", (), {"turn_limit": 80}),
    "by-parameters partnerships": ("by-parameters.toml", "blackwood-frey", ("partnerships",),
                                   {"players": 4, "turn_limit": 60}),
}


def _file_on(name: str, base: str, tmp_path: Path) -> Path:
    """The file with its base replaced (by-parameters.toml stacked on another rule set)."""
    text = (FILES / name).read_text(encoding="utf-8")
    path = tmp_path / name
    path.write_text(text.replace('base = "blackwood-frey"', f'base = "{base}"'),
                    encoding="utf-8")
    return path


def _books(case: str, tmp_path: Path) -> tuple[sm.RuleBook, sm.RuleBook]:
    name, base, house_rules, params = CASES[case]
    data = sm.load(_file_on(name, base, tmp_path), list(house_rules), dict(params))
    python = sm.load(base, list(house_rules), dict(params))
    assert data.score_hooks and not python.score_hooks
    return data, python


def _players(rules: sm.RuleBook, seed: int) -> list[sm.Player]:
    return [(GreedyPlayer, RandomPlayer)[(seat + seed) % 2](seed * 10 + seat)
            for seat in range(rules.players)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_data_scoring_scores_every_game_as_the_python_scoring(
        case: str, tmp_path: Path) -> None:
    data, python = _books(case, tmp_path)
    kinds: set[str] = set()
    scored = 0
    for seed in range(12):
        mine = play_game(data, _players(data, seed), seed).final
        theirs = play_game(python, _players(python, seed), seed).final
        assert mine == theirs, f"{case} seed {seed}"  # the same game, the same outcome
        assert mine.outcome is not None
        kinds.add(mine.outcome.kind)
        scored += any(mine.outcome.scores)
        # every end and every winner on this final position, not only the one it had
        for kind in ENDS:
            for winner in (range(data.players) if kind == "win" else (None,)):
                points = data.score(mine, kind, winner)
                assert points == python.score(mine, kind, winner), (
                    f"{case} seed {seed} {kind} {winner}")
                scored += any(points)
    assert scored, f"{case}: no game scored a point, so nothing was compared"


def test_the_drawn_hand_branch_is_compared() -> None:
    """Short games end drawn with a leader, so BF-18's difference is scored, not only 0."""
    data = sm.load(FILES / "blackwood-frey.toml", [], {"turn_limit": 40})
    outcomes = [play_game(data, _players(data, seed), seed).final.outcome
                for seed in range(8)]
    assert any(o is not None and o.kind != "win" and any(o.scores) for o in outcomes)


@pytest.mark.parametrize("case", ["blackwood-frey short", "skip-bo", "g4a"])
def test_a_match_scores_the_same(case: str, tmp_path: Path) -> None:
    data, python = _books(case, tmp_path)
    for seed in (1, 2):
        mine = play_match(data, _players(data, seed), seed, target=30, max_games=8)
        theirs = play_match(python, _players(python, seed), seed, target=30, max_games=8)
        assert (mine.totals, mine.winner) == (theirs.totals, theirs.winner)
        assert [g.final.outcome for g in mine.games] == [g.final.outcome for g in theirs.games]


def test_a_scoring_clause_is_exercised_by_the_ends_it_scores() -> None:
    rules = sm.load(FILES / "skip-bo.toml")
    clause = next(c for c in rules.clauses if c.id == "SC-1")
    assert clause.events == ("win", "drawn", "blocked", "turn-limit")
