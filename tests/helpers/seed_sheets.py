"""The committed rule sheets ``seeds/rules/NAME.txt``: every built-in rule set's sheet as the
code renders it (``tests/variants/test_seeds.py`` fails when a sheet and the code disagree).
After a change to a rule set that is MEANT to change its sheet::

    python tests/helpers/seed_sheets.py        # rewrites seeds/rules/*.txt
"""

from __future__ import annotations

from pathlib import Path

import spitemalice as sm
from spitemalice.files import make_folder, write_file
from spitemalice.rules.sheet import render_sheet

SEEDS = Path(__file__).parents[2] / "seeds" / "rules"


def write_seed_sheets(folder: str | Path = SEEDS, *, force: bool = False) -> list[Path]:
    """Write every built-in rule set's sheet to ``folder/NAME.txt``; the paths written.

    Raises:
        OutputError: a sheet is there already (without ``force``) or cannot be written
            (the library's one rule for files, :mod:`spitemalice.files`).
    """
    out = make_folder(folder)
    return [write_file(out / f"{info.name}.txt", render_sheet(sm.load(info.name)) + "\n",
                       force=force)
            for info in sm.installed() if info.kind == "ruleset" and info.built_in]


if __name__ == "__main__":
    for path in write_seed_sheets(force=True):
        print(path)
