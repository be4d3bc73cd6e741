"""The optional compiled build (setup.py, issue 22 section 5).  ``.ci/run`` compiles the
package with mypyc over the suite's environment once the suite has passed, and runs this
file, tests/engine/test_identical_games.py and tests/env/test_env_vector.py there with
``SPITEMALICE_EXPECT_COMPILED=1``; in the usual run the same modules must be the pure-Python
source."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import importlib.util
import os
from pathlib import Path

import pytest

SETUP = Path(__file__).parents[2] / "setup.py"


def _modules() -> list[str]:
    """The modules setup.py's COMPILED lists (read, not imported: importing runs setup())."""
    tree = ast.parse(SETUP.read_text(encoding="utf-8"))
    listed = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                  and any(getattr(t, "id", "") == "COMPILED" for t in node.targets))
    paths = ast.literal_eval(listed)
    return [path.removesuffix(".py").replace("/", ".") for path in paths]


def test_the_compiled_list_names_modules_of_the_package() -> None:
    for name in _modules():
        assert importlib.util.find_spec(name) is not None, name


@pytest.mark.parametrize("name", _modules())
def test_each_listed_module_is_compiled_exactly_when_the_build_is(name: str) -> None:
    loaded = importlib.import_module(name).__file__ or ""
    compiled = loaded.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert compiled == (os.environ.get("SPITEMALICE_EXPECT_COMPILED") == "1"), loaded


def test_the_compiled_build_names_the_setuptools_it_needs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Without build isolation a fresh Python 3.11 venv's setuptools 65.5 failed with
    # "invalid command 'bdist_wheel'": setup.py says what it needs before that.
    import runpy

    import setuptools

    setup_py = Path(__file__).resolve().parents[2] / "setup.py"
    monkeypatch.setenv("SPITEMALICE_COMPILE", "1")
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    monkeypatch.setattr(setuptools, "__version__", "65.5.0")
    with pytest.raises(SystemExit, match=r"setuptools 70\.1 or later .*it has 65\.5\.0"):
        runpy.run_path(str(setup_py))
    monkeypatch.delenv("SPITEMALICE_COMPILE")
    runpy.run_path(str(setup_py))  # a plain build asks nothing of setuptools' version
