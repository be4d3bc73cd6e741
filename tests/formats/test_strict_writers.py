"""What the library writes as JSON with floats in it is strict JSON (try-out s7 H2: `compare
--json --until-decided` printed ``"llr": -Infinity``).  The writers (the class, found by
grepping ``json.dumps`` in spitemalice/cli and spitemalice/study): every ``--json`` (simulate,
compare, tournament, ladder, balance, validate's two), ``--games-out``'s JSON lines and
sidecar, validate's ``--record``, the atlas's data file; all go through
:func:`spitemalice.formats.strict_json.dumps`.  And the sequential test of ``compare
--until-decided`` that produced the infinity no longer decides on a few agreeing games."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from spitemalice import load
from spitemalice.cli import main
from spitemalice.formats.strict_json import dumps
from spitemalice.measures.sequential import sprt
from spitemalice.study import configuration
from spitemalice.study.compare import compare_until_decided

PACKAGE = Path(__file__).parents[2] / "spitemalice"


def _strict(text: str) -> object:
    def refuse(constant: str) -> object:
        raise AssertionError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def test_a_float_that_is_not_finite_is_written_as_null() -> None:
    data = {"llr": -math.inf, "ends": (math.nan, 1.5, [math.inf]), "n": 3}
    assert _strict(dumps(data)) == {"llr": None, "ends": [None, 1.5, [None]], "n": 3}
    assert "Infinity" in json.dumps(data)  # what the plain writer did


def test_every_json_writer_of_the_commands_and_studies_is_the_strict_one() -> None:
    found = [f"{path.relative_to(PACKAGE)}:{number}"
             for folder in ("cli", "study") for path in sorted((PACKAGE / folder).glob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"(?<!strict_)json\.dumps?\(", line)]
    assert found == []


def test_compare_json_with_until_decided_is_strict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "blackwood-frey", "blackwood-frey", "--house-rule",
                 "no-wild-on-wild", "--games", "4", "--until-decided", "10", "--batch", "2",
                 "--jobs", "1", "--no-coverage", "--json"]) == 0
    data = _strict(capsys.readouterr().out)
    assert isinstance(data, dict) and math.isfinite(data["until_decided"]["llr"])


def test_a_batch_of_games_all_won_under_both_decides_nothing() -> None:
    """Try-out s7 H1: 5 games, every one won under A and under B, were "less than 0.2"
    while the difference's own interval spanned +-43 points."""
    rules = load("blackwood-frey", [], {"payoff_size": 5})
    a, b = configuration(rules, ["greedy"], "A"), configuration(rules, ["greedy"], "B")
    result = compare_until_decided(a, b, "won", 0.2, 0, batch=5, max_games=10,
                                   coverage=False)
    assert result.sprt is not None and result.sprt.decision == "undecided"
    won = next(line for line in result.lines if line.statistic.name == "won")
    assert won.difference.high > 0.2  # the interval agrees: 0.2 is not ruled out


def test_the_least_variance_weighs_agreeing_pairs_as_h1_allows() -> None:
    """0/1 differences of mean 0.2 have variance at least 0.2 * 0.8: zero differences then
    decide "same" after 2 * 0.16 * log(19) / 0.04 = 23.6 pairs, not at once."""
    assert sprt([0.0] * 5, 0.2).decision == "same"  # without: at once
    assert sprt([0.0] * 23, 0.2, least_variance=0.16).decision == "undecided"
    assert sprt([0.0] * 24, 0.2, least_variance=0.16).decision == "same"
    with pytest.raises(ValueError,
                       match=r"least_variance, a finite number of 0 or more, not -1\.0$"):
        sprt([0.0, 1.0], 0.2, least_variance=-1.0)


def test_one_game_has_no_standard_deviation(capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out s7 L5: simulate --json of one game said "sd_moves": 0.0; the sample standard
    deviation of one value is undefined: null (NaN in Python)."""
    assert main(["simulate", "blackwood-frey", "--set", "payoff_size=5", "--games", "1",
                 "--json"]) == 0
    data = _strict(capsys.readouterr().out)
    assert isinstance(data, dict) and data["sd_moves"] is None and data["sd_turns"] is None
    assert main(["simulate", "blackwood-frey", "--set", "payoff_size=5", "--games", "2",
                 "--json"]) == 0
    two = _strict(capsys.readouterr().out)
    assert isinstance(two, dict) and two["sd_moves"] >= 0
