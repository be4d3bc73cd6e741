"""docs/variants.md teaches house rules written as data from what the library does: its example
file is the one that ships, and its table of names is the vocabulary, name for name."""

from __future__ import annotations

import re
from pathlib import Path

from spitemalice.rules.datarules import CONDITION_NAMES
from spitemalice.rules.datarules.vocabulary import FUNCTIONS

ROOT = Path(__file__).parents[2]
PAGE = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")


def test_the_pages_rule_set_file_is_the_example_that_ships() -> None:
    blocks = re.findall(r"^```toml\n(.*?)^```", PAGE, re.M | re.S)
    shipped = (ROOT / "examples" / "house-rules" / "payoff-first.toml").read_text(
        encoding="utf-8")
    assert blocks[0] == shipped


def test_the_pages_table_of_names_is_the_vocabulary() -> None:
    rows = re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| (\w+) \| (.+) \|$", PAGE, re.M)
    assert [(name, kind, meaning) for name, (kind, meaning) in CONDITION_NAMES.items()] == rows


def test_the_pages_table_of_functions_is_the_languages() -> None:
    rows = re.findall(r"^\| `(\w+)` \| ([\w, ]+) \| (\w+) \| (.+) \|$", PAGE, re.M)
    assert [(name, ", ".join(takes), gives, meaning)
            for name, (takes, gives, meaning) in FUNCTIONS.items()] == rows
