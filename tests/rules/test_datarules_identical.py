"""A house rule written as data plays the same games as its Python plugin, and refuses the
same moves with the same reasons and clauses (the method of tests/engine/test_identical_games:
digests of seeded games, here the data form's compared with the Python form's).

Four built-in house rules (variants/) and the two rules docs/variants.md teaches in Python
(three-card-discards, from the page's own code block; descending discards) are compared.
"""

from __future__ import annotations

import re
import types
from pathlib import Path

import pytest
from helpers.game_digests import _digest, _seeded_game

import spitemalice as sm
from spitemalice.bots.players import RandomPlayer

ROOT = Path(__file__).parents[2]
FILES = ROOT / "examples" / "house-rules"
DATA = Path(__file__).parent / "data"


def _docs_plugin() -> types.ModuleType:
    """three-card-discards as docs/variants.md writes it (its ``python file=`` block)."""
    page = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    code = re.search(r"```python file=three-card-discards/three_card_discards.py\n(.*?)```",
                     page, re.S)
    assert code is not None, "docs/variants.md lost the three-card-discards plugin"
    module = types.ModuleType("three_card_discards")
    exec(compile(code.group(1), "three_card_discards.py", "exec"), module.__dict__)
    return module


def _descending() -> types.ModuleType:
    module = types.ModuleType("descending_discards")
    source = (DATA / "descending_discards.py").read_text(encoding="utf-8")
    exec(compile(source, "descending_discards.py", "exec"), module.__dict__)
    return module


# data file -> (base rule set, the Python house rule: an installed name or a module maker)
PAIRS = {
    "mandatory-aces": ("blackwood-frey", "mandatory-aces"),
    "no-wild-discards": ("blackwood-frey", "no-wild-discards"),
    "natural-ace-two": ("blackwood-frey", "natural-ace-two"),
    "no-wild-on-wild": ("skip-bo", "no-wild-on-wild"),
    "three-card-discards": ("blackwood-frey", _docs_plugin),
    "descending-discards": ("blackwood-frey", _descending),
}


def _books(name: str, players: int) -> tuple[sm.RuleBook, sm.RuleBook]:
    base, python = PAIRS[name]
    data = sm.load(FILES / f"{name}.toml", players=players)
    if isinstance(python, str):
        return data, sm.load(base, [python], players=players)
    plugin = python()
    variant = sm.load_plugin(base, "ruleset")
    return data, sm.RuleBook.from_plugins(variant, [plugin], {"players": players})


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("lineup", ["random", "greedy", "mixed"])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_data_form_plays_the_same_games(name: str, lineup: str, players: int) -> None:
    data, python = _books(name, players)
    for seed in (11, 29):
        assert _digest(_seeded_game(data, lineup, seed)) == _digest(
            _seeded_game(python, lineup, seed)), f"{name} {lineup} seed {seed}"


def _refusals(rules: sm.RuleBook, state: sm.GameState,
              candidates: list[sm.Move]) -> list[tuple[str, str, str]]:
    found = []
    for move in candidates:
        try:
            sm.check_move(rules, state, move)
        except sm.IllegalMove as refused:
            found.append((str(move), refused.reason, refused.clause))
    return found


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_data_form_refuses_the_same_moves_for_the_same_reasons(name: str) -> None:
    data, python = _books(name, 2)
    base = sm.load(PAIRS[name][0])
    refused = 0
    for seed in (3, 7, 11):
        state = sm.deal(data, seed)
        player = RandomPlayer(seed)
        while not state.is_over and state.turn < 60:
            candidates = list(sm.legal_moves(base, state))  # what the base rules allow
            mine, theirs = _refusals(data, state, candidates), _refusals(python, state,
                                                                         candidates)
            assert mine == theirs, f"{name} seed {seed} turn {state.turn}"
            refused += len(mine)
            assert sm.legal_moves(data, state) == sm.legal_moves(python, state)
            moves = sm.legal_moves(data, state)
            state = sm.apply_move(data, state, player.choose(data, state, moves))
    assert refused > 0, f"{name}: no move was refused, so nothing was compared"


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_rule_changes_some_game_of_its_base(name: str) -> None:
    data, _ = _books(name, 2)
    base = sm.load(PAIRS[name][0])
    games = [(lineup, seed) for lineup in ("random", "greedy") for seed in (11, 29)]
    assert any(_digest(_seeded_game(data, lineup, seed)) != _digest(
        _seeded_game(base, lineup, seed)) for lineup, seed in games), (
        f"{name} plays every game as its base does: the comparison would prove nothing")
