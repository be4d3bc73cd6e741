"""docs/embedding.md's Security section states the rules the library keeps (issue 20): every
bound of spitemalice.limits with its value, and each rule with the one place that keeps it."""

from __future__ import annotations

import re
from pathlib import Path

from spitemalice import limits

DOC = Path(__file__).parents[2] / "docs" / "embedding.md"


def _security() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("## Security"):]


def _value(cell: str) -> float:
    cell = cell.replace(",", "").strip()
    power = re.fullmatch(r"10\*\*(\d+) - 1", cell)
    return 10 ** int(power.group(1)) - 1 if power else float(cell)


def test_every_bound_is_in_the_table_with_its_value() -> None:
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", _security(), re.M))
    bounds = {name: value for name, value in vars(limits).items()
              if name.isupper() and isinstance(value, int | float)}
    assert set(bounds) <= set(rows), sorted(set(bounds) - set(rows))
    assert {name: _value(rows[name]) for name in bounds} == bounds


def test_each_rule_names_the_place_that_keeps_it() -> None:
    section = _security()
    for place in ("spitemalice.wording.for_terminal", "spitemalice.files",
                  "spitemalice.engine.deal.new_seed()", "spitemalice.env.arguments",
                  "spitemalice.limits", "--force", "OutputError", "end-of-game kind"):
        assert place in section, place
