"""A count of one prints its noun in the singular, everywhere (the "1 games" class).

The class, found by grepping the f-strings of spitemalice/ and bench/ for a count followed by
a plural noun: every member now writes its count with :func:`spitemalice.wording.count_of`
(it also replaced the private ``_count`` copies in server/protocol.py and play/screen.py
and the inline ``'s' if n != 1`` forms).  The tests below drive the real printers with a
count of one, and :func:`test_no_new_count_is_printed_with_a_fixed_plural` keeps the class
closed: a new ``{n} games`` fails it unless the allow-list below says why ``n`` is never 1.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attrs
import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.cli._args import note_interrupted
from spitemalice.engine import apply_move, deal, legal_moves
from spitemalice.engine.check import check_move
from spitemalice.engine.invariants import limits_kept
from spitemalice.errors import IllegalMove
from spitemalice.moves import NEW_PILE, Play, Zone
from spitemalice.study.atlas_page import _coverage
from spitemalice.validation.judge import judge
from spitemalice.validation.report import GameStats
from spitemalice.wording import count_of

ROOT = Path(__file__).resolve().parents[2]
BF = sm.load("blackwood-frey")
ONE = re.compile(r"(?<![\d.,/])1 (?:[a-z-]+ )?(?:games|deals|moves|cards|plugins|clauses|seats|"
                 r"configurations|piles|positions)\b")


def no_one_plural(text: str) -> None:
    """No "1 games", "1 paired games", "1 discard piles" in ``text``."""
    assert not ONE.search(text), ONE.search(text)


# --- the helper

@pytest.mark.parametrize(("args", "kwargs", "text"), [
    ((1, "game"), {}, "1 game"),
    ((0, "game"), {}, "0 games"),
    ((2, "game"), {}, "2 games"),
    ((-1, "game"), {}, "-1 games"),
    ((1000, "deal"), {"spec": ","}, "1,000 deals"),
    ((1, "deal"), {"spec": ","}, "1 deal"),
    ((1, "pay-off pile"), {}, "1 pay-off pile"),
    ((3, "pay-off pile"), {}, "3 pay-off piles"),
    ((1, "match", "matches"), {}, "1 match"),
    ((2, "match", "matches"), {}, "2 matches"),
    ((2, "body", "bodies"), {}, "2 bodies"),
    ((1, "input"), {"spec": ">4"}, "   1 input"),
])
def test_count_of_agrees_with_its_count(args: tuple, kwargs: dict, text: str) -> None:
    assert count_of(*args, **kwargs) == text


def test_count_of_takes_a_numpy_whole_number() -> None:
    numpy = pytest.importorskip("numpy")
    assert count_of(numpy.int64(1), "game") == "1 game"


@pytest.mark.parametrize("n", [True, 1.0, "1", None])
def test_count_of_refuses_what_is_not_a_whole_number(n: object) -> None:
    with pytest.raises(TypeError, match="count_of counts a whole number"):
        count_of(n, "game")  # type: ignore[arg-type]


def test_count_of_refuses_a_noun_that_is_not_text() -> None:
    with pytest.raises(TypeError, match="as strings"):
        count_of(1, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="as strings"):
        count_of(2, "match", b"matches")  # type: ignore[arg-type]


# --- the printers, driven with a count of one

def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    main([*argv, "--jobs", "1"] if argv[0] != "validate" else list(argv))
    out = capsys.readouterr()
    return out.out + out.err


def test_simulate_coverage_over_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "simulate", "blackwood-frey", "--games", "1", "--coverage", "--quiet")
    assert "rule coverage over 1 game (" in text
    no_one_plural(text)


def test_compare_of_one_paired_game(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "compare", "blackwood-frey", "blackwood-frey", "--b-set", "hand_size=4",
               "--games", "1", "--until-decided", "10", "--batch", "1", "--quiet")
    assert "1 paired game (the same seeds)" in text
    assert "after 1 game (log-likelihood" in text
    assert "rule coverage over 1 paired game (" in text
    no_one_plural(text)


def test_tournament_of_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "tournament", "blackwood-frey", "--games", "1", "--quiet")
    assert "each bot against the one before it, 1 deal, each played" in text
    no_one_plural(text)


def test_ladder_of_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "ladder", "blackwood-frey", "--bots", "random,greedy", "--games", "1",
               "--all-games", "--quiet")
    assert "up to 1 deal per pair" in text
    no_one_plural(text)


def test_balance_of_one_game_and_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "balance", "blackwood-frey", "--bots", "random,greedy", "--games", "1",
               "--deals", "1", "--coverage-games", "1", "--no-base", "--quiet")
    assert "1 game of greedy in every seat, 1 deal per pair of tiers" in text
    assert "exercised by the 1 self-play game" in text
    no_one_plural(text)


def test_validate_of_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "validate", "blackwood-frey", "--games", "1")
    assert "1/1 game clean" in text and "of 1 clean game" in text
    assert "1/1 plugin" in text and "rule coverage over 1 game (" in text
    no_one_plural(text)


def test_an_interrupted_run_of_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    note_interrupted(1)
    assert "covers the 1 game finished" in capsys.readouterr().err


def test_validate_judges_one_greedy_game() -> None:
    one = GameStats(1, 100.0, 0.0, 1.0, (0.0, 1.0), {"win": 1}, 1, {"win": 1}, 100.0, (1, 0))
    checks, _ = judge(BF, one, one, {}, [], {})
    skipped = {check.name: check.skipped for check in checks}
    assert skipped["completion"].startswith("1 game by greedy seats")
    assert skipped["balance"].startswith("1 greedy game won")
    assert skipped["duration_moves"].startswith("1 greedy game here")


def test_invariants_name_one_discard_pile_and_one_pay_off_pile() -> None:
    state = deal(BF, 0)
    seat = attrs.evolve(state.seats[0], discards=state.seats[0].discards[:1],
                        payoff=state.seats[0].payoff[:1] * 2)
    problems = limits_kept(BF, attrs.evolve(state, seats=(seat, *state.seats[1:])))
    assert "seat 0 has 1 discard pile" in " ".join(problems)
    no_one_plural(" ".join(problems))


def test_a_limit_of_one_build_pile_is_named_in_the_singular() -> None:
    rules = sm.load("blackwood-frey", max_build_piles=1)
    state = deal(rules, 0)
    while len(state.builds) < 1:  # play, starting a build pile as soon as one can be
        moves = legal_moves(rules, state)
        starts = [m for m in moves if isinstance(m, Play) and m.pile == NEW_PILE]
        state = apply_move(rules, state, (starts or moves)[0])
    card = state.seats[state.seat].hand[0]
    with pytest.raises(IllegalMove, match="1 build pile is open, the most allowed"):
        check_move(rules, state, Play(Zone.HAND, card, NEW_PILE))


def test_the_atlas_page_of_one_configuration() -> None:
    assert _coverage({"a": {}}, ["a"]) == "Coverage: all 1 configuration."
    assert _coverage({"a": {}}, ["a", "b"]).startswith("Coverage: 1 of the 2 configurations;")


# --- the class stays closed

NOUNS = ["games", "deals", "moves", "turns", "decisions", "cards", "seats", "positions", "pairs",
         "errors", "violations", "files", "rows", "plays", "samples", "wins", "clauses",
         "configurations", "plugins", "warnings", "failures", "inputs", "cells", "workers",
         "reports", "entries", "piles", "scores", "tables", "orders", "implementations",
         "rounds", "items", "fields", "sets", "passes", "players", "ranks", "counts"]
# A count, up to two words that qualify the noun ("paired", "self-play", "build"), the plural.
COUNTED = re.compile(r"\{([^{}]*)\}((?: (?!of\b|per\b|in\b|a\b|the\b)[a-z][a-z-]*){0,2}) ("
                     + "|".join(NOUNS) + r")\b")

NEVER_ONE = {
    # "table ID has seats 0 to N": a table's id, not a count.
    ("spitemalice/server/spit_live.py", "table_id", "seats"),
    # "the record of game N seats [names]": "seats" is the verb, N the game's number.
    ("spitemalice/server/spit_restore.py", "entry.game", "seats"),
    # "NAME has seats 0 to N", "NAME's seats move at once": a rule set's name, not a count.
    ("spitemalice/cli/records.py", "book.name", "seats"),
    ("spitemalice/cli/arrival_records.py", "book.name", "seats"),
    # Rule sets take 2 to 8 seats (ruleset.MIN_SEATS), so a count of players or seats is >= 2.
    ("spitemalice/cli/ratings.py", "players", "players"),
    ("spitemalice/server/quickplay.py", "either", "players"),
    ("spitemalice/cli/ratings.py", "report.players", "players"),
    ("spitemalice/cli/simulate.py", "summary.players", "players"),
    ("spitemalice/formats/arrival_replay.py", "book.players", "seats"),
    ("spitemalice/cli/study.py", "named.players", "players"),
    ("spitemalice/cli/study.py", "book.players", "players"),
    ("spitemalice/env/observation.py", "n", "seats"),
    ("spitemalice/formats/picture.py", "len(table.seats)", "seats"),
    ("spitemalice/formats/position_check.py", "rules.players", "seats"),
    ("spitemalice/formats/records/making.py", "rules.players", "seats"),
    ("spitemalice/formats/records/making.py", "rules.players", "entries"),
    ("spitemalice/formats/replay.py", "book.players", "seats"),
    ("spitemalice/play/session.py", "rules.players", "seats"),
    ("spitemalice/play/session.py", "len(kinds)", "seats"),
    ("spitemalice/play/table_view.py", "len(view.seats)", "seats"),
    ("spitemalice/rules/checks.py", "rules.players", "seats"),
    ("spitemalice/rules/resolve.py", "seats", "seats"),
    ("spitemalice/rules/ruleset.py", "self.min_players", "players"),
    ("spitemalice/rules/ruleset.py", "self.max_players", "players"),
    ("spitemalice/rules/sheet.py", "high", "players"),
    ("spitemalice/rules/sheet.py", "number_word(rules.players)", "players"),
    ("spitemalice/rules/sheet.py", "low.capitalize()", "players"),
    ("spitemalice/study/atlas_page.py", "report['players']", "seats"),
    ("spitemalice/study/plot_ratings.py", "result.players", "players"),
    ("spitemalice/study/plot_ratings.py", "report.players", "players"),
    ("spitemalice/runs/provenance.py", "self.players", "players"),
    ("spitemalice/runs/loop.py", "rules.players", "seats"),
    ("spitemalice/runs/loop.py", "rules.players", "players"),
    ("spitemalice/testing/conformance.py", "players", "players"),
    ("spitemalice/validation/run.py", "book.players", "players"),
    ("spitemalice/validation/base.py", "players", "players"),
    ("spitemalice/validation/spread.py", "seats", "players"),
    ("spitemalice/validation/spread.py", "book.players", "seats"),
    ("spitemalice/validation/spread.py", "players", "players"),
    ("spitemalice/validation/static.py", "players", "players"),
    ("bench/rule_sets.py", "players", "seats"),
    # A blocked game ends after a pass by every seat: >= 2 passes.
    ("spitemalice/validation/termination.py", "len(state.seats)", "passes"),
    # A count above a limit of at least one (a hand size, a build-pile limit): >= 2.
    ("spitemalice/engine/invariants/piles.py", "len(seat.hand)", "cards"),
    ("spitemalice/engine/invariants/piles.py", "len(state.builds)", "piles"),
    ("spitemalice/formats/position_check.py", "len(builds)", "piles"),
    ("spitemalice/validation/static.py", "discard.max_cards", "cards"),
    # A live game refused once its idle turns reach the seats (>= 2).
    ("spitemalice/engine/invariants/ending.py", "idle_turns", "turns"),
    # A list of pile sizes ("[20, 19] cards"), not a count.
    ("spitemalice/engine/invariants/piles.py", "dealt", "cards"),
    # More cards than a whole deck holds, and a deck deals two seats at least.
    ("spitemalice/formats/position_check.py", "total", "cards"),
    ("spitemalice/env/arguments.py", "rules.deck.size", "cards"),
    # Whole packs: 52 cards or more.
    ("spitemalice/rules/sheet.py", "52 * packs + jokers", "cards"),
    # The branch for more than one pay-off pile (one pile has its own sentence).
    ("spitemalice/rules/sheet.py", "number_word(rules.payoff_piles)", "piles"),
    # Constants: REDEALS is 100, _MAX_DEPTH files, WINNABLE_GAMES.
    ("spitemalice/env/single.py", "REDEALS + 1", "deals"),
    ("spitemalice/rules/custom.py", "_MAX_DEPTH", "files"),
    ("spitemalice/testing/conformance.py", "WINNABLE_GAMES", "games"),
    # The move cap of a game, hundreds of moves.
    ("spitemalice/validation/dynamic.py", "cap", "moves"),
    # Every rule set has ranks 1 to 13 at least.
    ("spitemalice/validation/static.py", "len(ranks)", "ranks"),
    # Printed every 5,000 inputs; and twice the deals.
    ("bench/fuzz.py", "inputs", "inputs"),
    ("bench/search_cost.py", "2 * deals", "games"),
}
"""(file, the count's expression, the plural) that may stand as they are, each with why its
count is never 1."""

NOT_COUNTS = re.compile(r"^count_of\(|:[^:]*[%fegs]$")  # already counted; a rate or a share
NOT_A_COUNT_NOUN = {"wins", "plays", "deals", "pairs", "reports", "cards", "piles", "seats"}
"""Verbs and words that follow a name rather than a count ("{who} wins", "{rules.name} deals",
"{function} pairs", "{path} holds reports", "seat {index} starts with cards")."""


def _template(node: ast.JoinedStr) -> str:
    """An f-string (its implicit concatenations joined) as ``text {expression:spec} text``."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):
            spec = value.format_spec
            tail = "" if spec is None else ":" + "".join(
                str(v.value) if isinstance(v, ast.Constant) else "{}" for v in spec.values)
            parts.append("{" + ast.unparse(value.value) + tail + "}")
    return "".join(parts)


def _names(expression: str) -> bool:
    """The field names a thing (``{seat_name(...)}``, ``{index}``, ``{kind}``), not a count."""
    return bool(re.fullmatch(r"who|word|function|path|kind|index|seat|table\.id|rules\.name|"
                             r"self\.name|seat_name\(.*\)|top\.a", expression))


def fixed_plurals() -> set[tuple[str, str, str]]:
    found = set()
    for folder in ("spitemalice", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for match in COUNTED.finditer(_template(node)):
                    expression, noun = match.group(1), match.group(3)
                    if NOT_COUNTS.search(expression):
                        continue
                    if noun in NOT_A_COUNT_NOUN and _names(expression):
                        continue
                    found.add((path.relative_to(ROOT).as_posix(), expression, noun))
    return found


def test_no_new_count_is_printed_with_a_fixed_plural() -> None:
    new = fixed_plurals() - NEVER_ONE
    assert not new, ("a count printed with a fixed plural: write it with "
                     f"spitemalice.wording.count_of, or allow it in NEVER_ONE saying why: {new}")


def test_every_allowed_line_is_still_there() -> None:
    assert not NEVER_ONE - fixed_plurals(), "an allow-list entry no longer matches: remove it"
