"""docs/variants.md, word for word, as a new user follows it: the files the page shows are
written into a new folder, the package is installed with pip into a fresh virtual environment,
and every command the page shows runs there; what each prints must be what the page shows, and
no traceback may appear anywhere.

The virtual environment sees the test environment's packages (spitemalice, pytest, setuptools)
through a ``.pth`` file, and pip installs with ``--no-deps --no-build-isolation``, so the test
needs no network and stays quick; the variant itself is a real pip-installed package found
through its entry point.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from helpers.examples import private_copy

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "variants.md"
BLOCK = re.compile(r"^```(\w+)[ \t]+([^\n]+)\n(.*?)^```", re.M | re.S)
CHECKER = doctest.OutputChecker()


def walkthrough_blocks() -> list[tuple[str, str, str]]:
    """(language, info, text) of the page's ``file=PATH`` and ``console venv`` blocks."""
    return BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def fresh_venv(folder: Path) -> Path:
    """A new virtual environment that also sees this test environment's packages; its
    interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    outer = sysconfig.get_paths()["purelib"]
    # `import` lines of a .pth run at start-up; addsitedir also reads the .pth files there
    # (an editable install of spitemalice is one).
    Path(purelib, "_test_environment.pth").write_text(
        f"import site; site.addsitedir({outer!r})\n", encoding="utf-8")
    return python


def command(python: Path, line: str) -> list[str]:
    """The argv that runs a command of the page inside the virtual environment."""
    argv = shlex.split(line)
    if argv[0] == "pip" and argv[1] == "install":
        return [str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation",
                "--no-index", *argv[2:]]
    if argv[0] == "spitemalice":
        return [str(python), "-m", "spitemalice", *argv[1:]]
    if argv[0] == "python":
        return [str(python), *argv[1:]]
    raise AssertionError(f"the walk-through runs pip, spitemalice and python, not {argv[0]!r}")


def test_the_page_has_the_whole_walkthrough() -> None:
    blocks = walkthrough_blocks()
    files = [info.removeprefix("file=") for _, info, _ in blocks if info.startswith("file=")]
    assert files == ["quick-malice/quick_malice.py", "quick-malice/pyproject.toml",
                     "quick-malice/tests/test_quick.py",
                     "three-card-discards/three_card_discards.py",
                     "three-card-discards/pyproject.toml",
                     "three-card-discards/tests/test_three_card_discards.py"]
    commands = [line for _, info, text in blocks if info == "venv"
                for line in text.splitlines() if line.startswith("$ ")]
    assert [c.split()[1] for c in commands] == ["pip", "spitemalice", "spitemalice", "python",
                                                "pip", "spitemalice", "python"]
    assert all(info == "venv" or info.startswith("file=") for _, info, _ in blocks)


def test_a_new_user_follows_docs_variants_md_word_for_word(tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    work = tmp_path / "work"
    work.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env |= {"PYTHONNOUSERSITE": "1", "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
    for language, info, text in walkthrough_blocks():
        if info.startswith("file="):
            path = work / info.removeprefix("file=")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            continue
        assert (language, info) == ("console", "venv")
        for line, expected in _commands(text):
            done = subprocess.run(command(python, line), cwd=work, env=env, capture_output=True,
                                  text=True, check=False, timeout=600)
            got = "\n".join(out.rstrip() for out in (done.stdout + done.stderr).splitlines())
            assert "Traceback" not in got, f"$ {line}\n{got}"
            assert done.returncode == 0, f"$ {line} exited {done.returncode}:\n{got}"
            want = "\n".join(expected).strip("\n") + "\n"
            assert CHECKER.check_output(want, got.strip("\n") + "\n", doctest.ELLIPSIS), (
                f"$ {line}\nthe page shows:\n{want}\nit printed:\n{got}")
    listed = subprocess.run(command(python, "spitemalice variants"), cwd=work, env=env,
                            capture_output=True, text=True, check=True).stdout
    assert re.search(r"^quick\s+ruleset\s+blackwood-frey with 12 pay-off cards", listed, re.M)


def _commands(text: str) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            found[-1][1].append(line)
    return found


@pytest.fixture(scope="module")
def faulty_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("faulty")
    source = private_copy("faulty-variants", tmp_path_factory.mktemp("sources"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "--target", str(target),
                    str(source)], check=True, capture_output=True)
    return target


def test_the_kit_finds_a_variant_that_can_never_be_won(
    faulty_site: Path, tmp_path: Path
) -> None:
    tests = tmp_path / "test_stubborn.py"
    tests.write_text("from spitemalice.testing.conformance import VariantConformance\n\n\n"
                     "class TestStubborn(VariantConformance):\n"
                     "    ruleset = 'stubborn-malice'\n"
                     "    games = 3\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(faulty_site)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests),
         "-k", "won or static"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 1, done.stdout[-3000:]
    assert "no game won in 100 greedy games" in done.stdout
    assert "1 failed, 1 passed" in done.stdout, done.stdout[-3000:]
