"""The example packages of ``examples/``, installed by tests from private copies.

pip builds a package from a source folder by writing ``build/`` and ``*.egg-info`` into that
folder; two test workers installing the same example at once raced there (a fixture's pip
install failed in a CI run). Each install copies the example first, so no two builds share a
folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLES = Path(__file__).parents[2] / "examples"


def private_copy(name: str, folder: Path) -> Path:
    """``examples/NAME`` copied into ``folder`` (without build output): the path to install."""
    copy = folder / name
    shutil.copytree(EXAMPLES / name, copy,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    return copy
