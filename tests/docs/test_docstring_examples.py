"""The examples in the package's docstrings (``>>>`` lines under an ``Examples:`` section)
run and print what they show, and each sits under that heading, which the API reference
renders as code (a bare ``>>>`` line renders as nested quotes)."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "spitemalice"
EXAMPLE = re.compile(r"^\s*>>> ", re.MULTILINE)


def _modules_with_examples() -> list[str]:
    return sorted(".".join(path.relative_to(ROOT).with_suffix("").parts)
                  for path in PACKAGE.rglob("*.py")
                  if EXAMPLE.search(path.read_text(encoding="utf-8")))


MODULES = _modules_with_examples()


def test_there_are_docstring_examples_to_run() -> None:
    assert len(MODULES) >= 4, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_a_docstrings_examples_print_what_they_show(name: str) -> None:
    module = importlib.import_module(name)
    tests = [test for test in doctest.DocTestFinder().find(module) if test.examples]
    assert tests, f"{name} holds '>>> ' lines that no docstring runs"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of {name} print otherwise"


@pytest.mark.parametrize("name", MODULES)
def test_each_example_sits_under_an_examples_heading(name: str) -> None:
    text = (ROOT / Path(*name.split("."))).with_suffix(".py").read_text(encoding="utf-8")
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if not EXAMPLE.match(line):
            continue
        indent = len(line) - len(line.lstrip())
        above = next(earlier for earlier in reversed(lines[:number])
                     if earlier.strip() and len(earlier) - len(earlier.lstrip()) < indent)
        assert above.strip() == "Examples:", f"{name} line {number + 1}: {line.strip()}"
