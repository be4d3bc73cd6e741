"""The optional compiled build (issue 22 section 5); everything else is in pyproject.toml.

A plain ``pip install .`` installs pure Python and needs no compiler.  With
``SPITEMALICE_COMPILE=1`` the modules in :data:`COMPILED` are compiled with mypyc, from this
same source, into C extensions that take their place (the ``.py`` files stay beside them as
the source).  mypyc type-checks the modules, so the build environment needs mypy, a C
compiler and the package's own dependencies; the simplest way is to install the package
first, then compile it over itself::

    pip install '.[rl]' mypy setuptools
    SPITEMALICE_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .

The compiled modules play identical games (``tests/engine/test_identical_games.py``, run against
both builds by ``.ci/run``).
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    # the engine's per-move path and the environments' per-step encoding
    "spitemalice/engine/legal.py",
    "spitemalice/engine/check.py",
    "spitemalice/engine/refusal.py",
    "spitemalice/engine/apply.py",
    "spitemalice/engine/flow.py",
    "spitemalice/engine/shuffle.py",
    "spitemalice/engine/deal.py",
    "spitemalice/env/actions.py",
    "spitemalice/env/observation.py",
    "spitemalice/env/spaces.py",
]


def _extensions() -> list[object]:
    if os.environ.get("SPITEMALICE_COMPILE", "") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("SPITEMALICE_COMPILE=1 needs mypy in the build environment: pip "
                         "install '.[rl]' mypy setuptools, then SPITEMALICE_COMPILE=1 pip "
                         "install --no-build-isolation --no-deps --force-reinstall .") from None
    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=_extensions())
