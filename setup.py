"""The optional compiled build (issue 22 section 5); everything else is in pyproject.toml.

A plain ``pip install .`` installs pure Python and needs no compiler.  With
``SPITEMALICE_COMPILE=1`` the modules in :data:`COMPILED` are compiled with mypyc, from this
same source, into C extensions that take their place (the ``.py`` files stay beside them as
the source).  mypyc type-checks the modules, so the build environment needs mypy, a C
compiler and the package's own dependencies; the simplest way is to install the package
first, then compile it over itself::

    pip install '.[rl]' mypy 'setuptools>=70.1'
    SPITEMALICE_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .

The compiled modules play identical games (``tests/engine/test_identical_games.py``, run against
both builds by ``.ci/run``).
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

COMPILED = [
    # the model (native Seat and GameState), the engine's per-move path and the
    # environments' per-step encoding
    "spitemalice/model.py",
    "spitemalice/engine/legal.py",
    "spitemalice/engine/sample.py",
    "spitemalice/engine/check.py",
    "spitemalice/engine/refusal.py",
    "spitemalice/engine/apply.py",
    "spitemalice/engine/copiers.py",
    "spitemalice/engine/flow.py",
    "spitemalice/engine/hands.py",
    "spitemalice/engine/shuffle.py",
    "spitemalice/engine/dealing.py",
    "spitemalice/env/actions.py",
    "spitemalice/env/card_actions.py",
    "spitemalice/env/batch.py",
    "spitemalice/env/kept.py",
    "spitemalice/env/legal_sets.py",
    "spitemalice/env/observation.py",
    "spitemalice/env/spaces.py",
]


HOW = ("pip install '.[rl]' mypy 'setuptools>=70.1', then SPITEMALICE_COMPILE=1 pip install "
       "--no-build-isolation --no-deps --force-reinstall .")

OLDEST_SETUPTOOLS = (70, 1)
"""The oldest setuptools that builds a wheel by itself: without build isolation an older one
(a fresh Python 3.11 venv has 65.5) fails with "invalid command 'bdist_wheel'"."""


def _extensions() -> list[object]:
    if os.environ.get("SPITEMALICE_COMPILE", "") != "1":
        return []
    import setuptools

    found = tuple(int(part) for part in setuptools.__version__.split(".")[:2]
                  if part.isdigit())
    if found < OLDEST_SETUPTOOLS:
        raise SystemExit(f"SPITEMALICE_COMPILE=1 needs setuptools 70.1 or later in the build "
                         f"environment (it has {setuptools.__version__}): {HOW}")
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(f"SPITEMALICE_COMPILE=1 needs mypy in the build environment: {HOW}"
                         ) from None
    extensions = mypycify(COMPILED, opt_level="3")
    _drop_stale_groups({ext.name for ext in extensions})
    return list(extensions)


def _drop_stale_groups(current: set[str]) -> None:
    """Delete the shared libraries of earlier module lists from ``build/``.  mypyc names the
    library of the compiled modules after the list (``<hash>__mypyc``); a build directory
    kept from a build with another list still holds the old one, setuptools packs every file
    there into the wheel, and a module then loads the old library: two ``GameState`` classes,
    and "takes a GameState, not GameState"."""
    for library in Path("build").glob("lib*/*__mypyc*"):
        if library.name.split(".")[0] not in current:
            library.unlink()


setup(ext_modules=_extensions())
