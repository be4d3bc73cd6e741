"""What a new user tripped on (issue 19 item 6): install lines, errors that say what to do,
readable output by default, a readable repr, and the README's test command."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice import NOTATION_REASONS
from spitemalice.cli import main
from spitemalice.formats import format_view, parse_view

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_no_page_installs_spitemalice_from_a_package_index() -> None:
    # spitemalice is not published: `pip install spitemalice` fails; extras of an installed
    # copy (`pip install 'spitemalice[rl]'`) resolve from that copy and are fine.
    bare = [f"{page.name}: {line.strip()}" for page in DOCS
            for line in page.read_text(encoding="utf-8").splitlines()
            if re.search(r"pip install (-q )?spitemalice(\s|$)", line)]
    assert not bare, bare


def test_the_tutorials_wheel_is_the_one_pip_builds() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version == sm.__version__
    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    assert f"dist/spitemalice-{version}-py3-none-any.whl" in tutorial
    assert "pip wheel --no-deps -w dist ." in tutorial


def test_legal_moves_of_a_view_names_the_function_that_takes_one() -> None:
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, seed=1)
    view = sm.view_of(state, state.seat)
    with pytest.raises(TypeError, match=r"spitemalice\.view_legal_moves\(rules, view\)"):
        sm.legal_moves(rules, view)
    for call in (lambda: sm.apply_move(rules, view, sm.Pass()),
                 lambda: sm.is_legal(rules, view, sm.Pass()),
                 lambda: sm.check_move(rules, view, sm.Pass())):
        with pytest.raises(TypeError, match="takes a GameState, not a seat's view"):
            call()
    assert sm.view_legal_moves(rules, view) == sm.legal_moves(rules, state)  # what it names


@pytest.mark.parametrize(("parse", "text", "reason"), [
    (sm.parse_card, 7, "not-text"), (sm.parse_card, "ZZ", "not-a-card"),
    (sm.parse_card, "0", "not-a-card"), (sm.parse_card, "9" * 500, "too-long"),
    (sm.parse_move, "9H", "not-a-move"), (sm.parse_move, "9H>X1", "not-a-move"),
    (sm.parse_move, "9H>D0", "pile-number"), (sm.parse_move, "ZZ>D1", "not-a-card"),
    (sm.parse_move, "9H>D1" * 100, "too-long"),
])
def test_a_notation_error_has_a_stable_reason_like_an_illegal_move(parse, text, reason) -> None:
    with pytest.raises(sm.NotationError) as error:
        parse(text)
    assert error.value.reason == reason


POSITION = "QH:AC,5D:-|-|-|-/KS:-:-|-|-|- - rest - on=0"


@pytest.mark.parametrize(("text", "reason"), [
    (POSITION.replace(" on=0", ""), "field-missing"),
    (POSITION + " on=1", "field-repeated"), (POSITION + " colour=red", "field-unknown"),
    (POSITION + " turn=x", "field-value"), (POSITION.replace(" - rest", " rest"), "sections"),
    (POSITION.replace("QH:", "QH,ZZ:"), "not-a-card"),
    (POSITION.replace("QH:", "?3,QH:"), "view-form"), (POSITION + " view=0", "view-form"),
])
def test_every_position_error_has_its_reason(bf: sm.RuleBook, text: str, reason: str) -> None:
    with pytest.raises(sm.NotationError) as error:
        sm.parse_position(text, bf)
    assert error.value.reason == reason


@pytest.mark.parametrize(("field", "says"), [
    ("turn=x", "the digits 0 to 9"), ("turn=٣", "the digits 0 to 9"),
    ("turn=" + "9" * 81, "at most 80 digits"),
])
def test_a_position_number_names_the_digit_limit_only_when_it_is_what_is_wrong(
        bf: sm.RuleBook, field: str, says: str) -> None:
    """"turn=x" was refused as not a number "of at most 80 digits": the limit was not what
    was wrong (the fault the rule-set reader had too)."""
    with pytest.raises(sm.NotationError) as error:
        sm.parse_position(f"{POSITION} {field}", bf)
    assert says in str(error.value) and ("80 digits" in says) == ("80" in str(error.value))


@given(st.text(alphabet="AQK2910SHDC*?:,|/-~+>=onturviewP. ", max_size=60))
def test_every_notation_error_the_readers_raise_has_a_published_reason(text: str) -> None:
    rules = sm.load("blackwood-frey")
    for parse in (sm.parse_card, sm.parse_move, lambda t: sm.parse_position(t, rules),
                  lambda t: parse_view(t, rules)):
        try:
            parse(text)
        except sm.NotationError as error:
            assert error.reason in NOTATION_REASONS and error.reason != "syntax", error
        except sm.SpiteMaliceError:
            pass  # a position the rules cannot hold is a PositionError, not a notation one


def test_repr_of_a_state_is_its_position_notation_and_of_a_view_only_the_view() -> None:
    rules = sm.load("blackwood-frey", payoff_size=13)
    state = sm.deal(rules, seed=16)
    shown = repr(state)
    assert shown.startswith("GameState('") and len(shown) < 1000
    assert sm.parse_position(shown[len("GameState('"):-2], rules) == state
    view = sm.view_of(state, 1)
    text = repr(view)
    assert text == f"SeatView({format_view(view)!r})"
    hidden = " ".join(str(card) for card in state.seats[0].hand)
    assert hidden not in text and "?5" in text  # seat 0's hand is a count in seat 1's view


def test_replay_lays_positions_out_on_a_terminal_and_writes_the_notation_into_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "games"
    assert main(["simulate", "blackwood-frey", "--set", "payoff_size=3", "--games", "1",
                 "--record", str(folder), "--quiet"]) == 0
    capsys.readouterr()
    record = str(folder / "game-00000.json")
    for terminal, flags, pretty in ((True, [], True), (False, [], False),
                                    (True, ["--notation"], False), (False, ["--pretty"], True)):
        monkeypatch.setattr("sys.stdout.isatty", lambda terminal=terminal: terminal)
        assert main(["replay", record, *flags]) == 0
        out = capsys.readouterr().out
        assert ("discard piles" in out) is pretty
        assert (re.search(r"^\s+0  deal\s+\S+:\S+", out, re.M) is not None) is not pretty


def test_the_readme_and_ci_run_the_suite_on_every_core() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert readme[2] == "```sh" and readme[5] == "```"  # the first two lines: two commands
    assert readme[4].endswith(".venv/bin/python -m pytest -q -n auto")
    assert "-m pytest -q -n auto" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(dep.startswith("pytest-xdist") for dep in extras["test"])
    assert "spitemalice[kit" in extras["test"][0] and {"pytest>=8", "hypothesis>=6.100"} == \
        set(extras["kit"])
