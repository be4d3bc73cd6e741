"""The balance atlas, ``docs/atlas.md``: one command makes the data, the pictures and the page.

    python bench/atlas.py [--jobs N | --scheduler ADDRESS] [--games N] [--deals N]

For every configuration of :func:`spitemalice.study.atlas.entries` missing from the data file
(``docs/atlas/atlas.json``) it plays a :func:`balance <spitemalice.study.balance.balance>`
report and writes the file at once, so a run stopped by Ctrl-C, a crash or a lost machine
resumes with the next configuration; then it draws the pictures (``docs/atlas/*.png``) and
renders the page from the data file alone.  ``--render-only`` skips the games.  Run it with
``nice``: the default settings take a few CPU-hours (the page says how many).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from spitemalice.runs import parallel
from spitemalice.stops import stop_on_sigterm
from spitemalice.study.atlas import Entry, elapsed, entries, run
from spitemalice.study.atlas_page import draw, render
from spitemalice.wording import count_of

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "atlas"
PAGE = ROOT / "docs" / "atlas.md"

GAMES = 2000
"""Self-play games per configuration: the first position's share of won games to about
+-2.2 points (two sides; fewer won games widen it)."""

DEALS = 500
"""Deals per pair of tiers (1000 games): a share of won games to about +-3.1 points, a skill
gradient to about +-4 points."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--render-only", action="store_true",
                        help="draw the pictures and render the page from the data file")
    parallel.add_arguments(parser)
    args = parser.parse_args()
    # SIGTERM stops the run as Ctrl-C does: the workers end with it, finished entries stay.
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    FOLDER.mkdir(parents=True, exist_ok=True)
    data_file = FOLDER / "atlas.json"
    if not args.render_only:
        start = time.monotonic()
        todo = entries()

        def done(entry: Entry, report: dict[str, object]) -> None:
            print(f"{entry.key}: {report['cpu_seconds']} CPU-s; {elapsed(start)} so far",
                  flush=True)

        try:
            with parallel.backend(args) as (jobs, client):
                run(data_file, args.games, args.deals, args.seed, todo, done, jobs, client)
        except KeyboardInterrupt:
            print("interrupted: run the same command again to resume", file=sys.stderr)
            return 130
    from spitemalice.formats import strict_json

    data = strict_json.loads(data_file.read_text(encoding="utf-8"))
    draw(data, FOLDER)
    PAGE.write_text(render(data, [entry.key for entry in entries()]), encoding="utf-8")
    pictures = count_of(len(data["reports"]), "report's", "reports'")
    print(f"wrote {PAGE.relative_to(ROOT)} and {pictures} pictures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
