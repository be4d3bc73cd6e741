"""docs/studying.md prints what it shows: every console command (run in-process) and the
Python doctest.  The Sybil doc tests of every page will cover it too; until then this keeps
the page honest."""

import doctest
import re
import shlex
from pathlib import Path

import pytest

from spitemalice.cli import main

PAGE = Path(__file__).parents[2] / "docs" / "studying.md"
CONSOLE = re.compile(r"(<!-- skip: next [^\n]*-->\n)?```console\n(.*?)```", re.DOTALL)
PYTHON = re.compile(r"```python\n(.*?)```", re.DOTALL)
CHECKER = doctest.OutputChecker()


def _commands() -> list[tuple[str, str]]:
    found = []
    for skip, body in CONSOLE.findall(PAGE.read_text(encoding="utf-8")):
        if not skip:
            first, *output = body.splitlines()
            found.append((first.removeprefix("$ "), "\n".join(output) + "\n"))
    return found


@pytest.mark.parametrize("command, shown", _commands())
def test_the_command_prints_what_the_page_shows(command: str, shown: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    argv = shlex.split(command)
    assert argv[0] == "spitemalice"
    assert main(argv[1:]) == 0
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert CHECKER.check_output(shown, printed, doctest.ELLIPSIS), printed


def test_the_python_example_prints_what_the_page_shows(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # In an empty folder, as the page's blocks run (docs/contributing.md): `tune` writes its
    # output folder there.
    monkeypatch.chdir(tmp_path)
    source = "\n".join(PYTHON.findall(PAGE.read_text(encoding="utf-8")))
    test = doctest.DocTestParser().get_doctest(source, {}, "studying.md", str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.tries >= 5 and runner.failures == 0
