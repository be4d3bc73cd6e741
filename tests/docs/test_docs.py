"""Every code block of README.md and docs/*.md runs, and what it prints is what the page shows
(Sybil).  The convention is written down in docs/contributing.md:

* ``python`` blocks that start with ``>>>`` are doctests: each output is compared.  Other
  ``python`` blocks run too and must print nothing (output a page does not show is output
  nobody checked).  A page's blocks run in order in one namespace, in a fresh folder.
* ``console`` blocks hold ``$ spitemalice ...`` commands, each followed by its output; the
  command runs through the installed console script from the repository's root and its
  output (stdout and stderr) is compared, ``...`` standing for any text.
* ``toml`` blocks with a ``base`` key are rule-set files: they are loaded.
* A block that must not run (installation commands) follows ``<!-- skip: next "why" -->``.
* ``file=PATH`` and ``console venv`` blocks belong to the walk-through of docs/variants.md,
  which tests/docs/test_walkthrough.py runs in a fresh virtual environment.
* ``sh``, ``json``, ``toml`` (other than rule-set files), ``text`` and bare blocks are
  illustrations; any other language fails the test until the convention covers it.

New pages are picked up by the glob: nothing to register.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import pytest
from sybil import Example, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ILLUSTRATIONS = {"sh", "json", "toml", "text", ""}  # "": a bare fence, a grammar
FENCE = re.compile(r"^\s*```(\w*)[ \t]*(\S*)")
WALKTHROUGH = re.compile(r"^(venv|file=\S+)$")  # run by tests/docs/test_walkthrough.py
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS


def fence_languages(text: str) -> set[str]:
    """The language of every opening code fence (``""`` for none); a fence with anything
    after the language must be a walk-through block (``venv`` or ``file=PATH``)."""
    languages, inside = set(), False
    for line in text.splitlines():
        match = FENCE.match(line)
        if match:
            if not inside:
                extra = match.group(2)
                languages.add(match.group(1) if not extra or WALKTHROUGH.match(extra)
                              else f"{match.group(1)} {extra}")
            inside = not inside
    return languages


class SilentPython:
    """Run a plain python block; fail if it prints (the page would not show the output)."""

    def __init__(self) -> None:
        self.run = PythonEvaluator()

    def __call__(self, example: Example) -> str | None:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            self.run(example)
        if printed.getvalue():
            return ("this block prints, but the page does not show it; write it as a doctest "
                    f"(>>>) with its output:\n{printed.getvalue()}")
        return None


class DocPython(PythonCodeBlockParser):
    """``>>>`` blocks as doctests (``...`` matches any text), other blocks silent."""

    def __init__(self) -> None:
        super().__init__(doctest_optionflags=FLAGS)
        self.codeblock_parser = CodeBlockParser("python", SilentPython())


def console_script() -> str:
    """The installed ``spitemalice`` console script next to this interpreter."""
    script = Path(sys.executable).parent / "spitemalice"
    assert script.exists(), f"no console script at {script}: pip install the package"
    return str(script)


def run_console(example: Example) -> str | None:
    """Run each ``$ spitemalice ...`` line and compare its output with the lines below it."""
    commands: list[tuple[str, list[str]]] = []
    for line in example.parsed.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        elif line.strip():
            return f"console block text before the first command: {line!r}"
    if not commands:
        return "a console block without a `$ spitemalice ...` command"
    for command, expected in commands:
        argv = shlex.split(command)
        if argv[0] != "spitemalice":
            return f"console blocks run spitemalice commands only, not {argv[0]!r}"
        if {"|", ">", "<", "&&", ";"} & set(argv):
            return f"no shell runs a console block: no pipes or redirections in {command!r}"
        _clear_docs_outputs(argv)
        done = subprocess.run([console_script(), *argv[1:]], cwd=ROOT, capture_output=True,
                              text=True, check=False, timeout=300,
                              env={**os.environ, "COLUMNS": "100"})
        got = "\n".join(line.rstrip() for line in (done.stdout + done.stderr).splitlines())
        want = "\n".join(line.rstrip() for line in expected).strip("\n")
        if not CHECKER.check_output(want + "\n", got.strip("\n") + "\n", FLAGS):
            return f"$ {command}\nexpected:\n{want}\ngot:\n{got}"
    return None


def _clear_docs_outputs(argv: list[str]) -> None:
    """Remove the folder a sample's ``--out /tmp/spitemalice-docs-...`` names: ``tune``
    resumes the journal it finds there, so a second run of the page (or another checkout's
    run on this machine) would print another search than the page shows."""
    for flag, value in itertools.pairwise(argv):
        if flag == "--out" and value.startswith(f"{tempfile.gettempdir()}/spitemalice-docs-"):
            shutil.rmtree(value, ignore_errors=True)


def load_ruleset_file(example: Example) -> None:
    """A ``toml`` block with a ``base`` key is a rule-set file: it must load."""
    import spitemalice as sm

    if not re.search(r"^base\s*=", example.parsed, re.M):
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.toml"
        path.write_text(example.parsed, encoding="utf-8")
        sm.load(str(path))


SYBIL = Sybil(parsers=[DocPython(), CodeBlockParser("console", run_console),
                       CodeBlockParser("toml", load_ruleset_file), SkipParser()])


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_block_runs_and_prints_what_the_page_shows(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    languages = fence_languages(page.read_text(encoding="utf-8"))
    unknown = languages - ILLUSTRATIONS - {"python", "console"}
    assert not unknown, f"{page.name}: code blocks in {sorted(unknown)}: see docs/contributing.md"
    document = SYBIL.parse(page)
    skipped = []
    for example in document:
        try:
            example.evaluate()
        except unittest.SkipTest as reason:  # a skipped block: the blocks after it still run
            skipped.append(str(reason))
    # every skip marker skipped its block, and nothing else was skipped
    markers = re.findall(r'^<!-- skip: next "', page.read_text(encoding="utf-8"), re.M)
    assert len(skipped) == len(markers), skipped


def test_the_checker_catches_output_that_differs_from_the_page(tmp_path: Path) -> None:
    page = tmp_path / "wrong.md"
    page.write_text("```python\n>>> print(1 + 1)\n3\n```\n", encoding="utf-8")
    with pytest.raises(Exception, match="Expected"):
        for example in SYBIL.parse(page):
            example.evaluate()
    silent = tmp_path / "loud.md"
    silent.write_text("```python\nprint('unseen')\n```\n", encoding="utf-8")
    with pytest.raises(Exception, match="the page does not show it"):
        for example in SYBIL.parse(silent):
            example.evaluate()
    console = tmp_path / "console.md"
    console.write_text("```console\n$ spitemalice variants\nno such line\n```\n",
                       encoding="utf-8")
    with pytest.raises(Exception, match="expected:"):
        for example in SYBIL.parse(console):
            example.evaluate()
