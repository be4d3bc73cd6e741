"""docs/variants.md teaches house rules written as data from what the library does: its example
file is the one that ships, and its table of names is the vocabulary, name for name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from spitemalice.rules.datarules import CONDITION_NAMES
from spitemalice.rules.datarules.vocabulary import FUNCTIONS, SCORE_NAMES

ROOT = Path(__file__).parents[2]
PAGE = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")


def test_the_pages_rule_set_file_is_the_example_that_ships() -> None:
    blocks = re.findall(r"^```toml\n(.*?)^```", PAGE, re.M | re.S)
    shipped = (ROOT / "examples" / "house-rules" / "payoff-first.toml").read_text(
        encoding="utf-8")
    assert blocks[0] == shipped


def _section(title: str) -> str:
    start = PAGE.index(f"\n### {title}\n")
    return PAGE[start: PAGE.index("\n### ", start + 1)]


NAME_ROW = r"^\| `([a-z_]+\.[a-z_]+)` \| (\w+) \| (.+) \|$"


def test_the_pages_table_of_names_is_the_vocabulary() -> None:
    rows = re.findall(NAME_ROW, _section("The conditions"), re.M)
    assert [(name, kind, meaning) for name, (kind, meaning) in CONDITION_NAMES.items()] == rows


def test_the_pages_table_of_score_names_is_the_scoring_vocabulary() -> None:
    rows = re.findall(NAME_ROW, _section("Scoring"), re.M)
    assert [(name, kind, meaning) for name, (kind, meaning) in SCORE_NAMES.items()] == rows


def test_the_pages_scoring_file_and_expressions_are_those_that_ship() -> None:
    """The Scoring section's file is examples/scoring/skip-bo.toml, and each expression of its
    table is the score of the file the suite compares with the rule set's own scoring."""
    section = _section("Scoring")
    block = re.findall(r"^```toml\n(.*?)^```", section, re.M | re.S)
    assert block == [(ROOT / "examples" / "scoring" / "skip-bo.toml").read_text(
        encoding="utf-8")]
    shown = re.findall(r"^\| (?!rule set)[^`|]+ \| `(.+)` \|$", section, re.M)
    shipped = {path.stem: tomllib.loads(path.read_text(encoding="utf-8"))["rule"][0]["values"][
        "score"] for path in (ROOT / "examples" / "scoring").glob("*.toml")}
    assert shown == [shipped[name] for name in ("blackwood-frey", "skip-bo", "g4a",
                                                 "by-parameters")]


def test_the_pages_table_of_functions_is_the_languages() -> None:
    rows = re.findall(r"^\| `(\w+)` \| ([\w, ]+) \| (\w+) \| (.+) \|$", PAGE, re.M)
    assert [(name, ", ".join(takes), gives, meaning)
            for name, (takes, gives, meaning) in FUNCTIONS.items()] == rows
