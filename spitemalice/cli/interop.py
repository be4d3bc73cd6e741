"""The subcommands and options that meet other programs and people: ``schema`` and the
``--svg`` pictures of ``show`` and ``replay``.

* ``spitemalice schema NAME`` prints the JSON Schema ``NAME`` (record, state, view,
  ruleset; :mod:`spitemalice.formats.schema`).
* ``spitemalice show POSITION --ruleset NAME --svg FILE`` writes the position (or view) as
  an SVG picture (:func:`spitemalice.formats.picture.position_svg`) instead of laying it out
  as text.
* ``spitemalice replay FILE --svg DIR`` also writes one picture per position:
  ``DIR/move-0000.svg`` for the deal, ``DIR/move-0001.svg`` after the first move, and on.

Pictures are written by the library's one rule for files (:mod:`spitemalice.files`):
never through a symbolic link, never over a file already there unless ``--force`` is given,
and every name checked before the first picture is written.  A file or folder that cannot be
written is an :class:`~spitemalice.errors.OutputError` (one line, exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from spitemalice.cli._args import add_force, say
from spitemalice.cli.records import record_rules, run_replay, run_show, shown_position
from spitemalice.errors import RecordError, SpiteMaliceError
from spitemalice.files import check_new, make_folder, write_file
from spitemalice.formats.picture import position_svg
from spitemalice.formats.replay import replay
from spitemalice.formats.schema import SCHEMA_NAMES, schema_text
from spitemalice.wording import for_terminal


def add_interop(commands: Any) -> None:
    """Register ``schema`` on ``commands`` (argparse subparsers) and add ``--svg`` to its
    ``show`` and ``replay`` commands (call it after those are registered)."""
    sch = commands.add_parser("schema", help="print the JSON Schema of a document the "
                              "library writes or reads")
    sch.add_argument("name", choices=SCHEMA_NAMES, metavar="NAME",
                     help=f"one of {', '.join(SCHEMA_NAMES)}")
    sch.set_defaults(handler=run_schema)
    choices = getattr(commands, "choices", {})
    if "show" in choices:
        choices["show"].add_argument("--svg", type=Path, metavar="FILE",
                                     help="write the position as an SVG picture to FILE")
        add_force(choices["show"])
        choices["show"].set_defaults(handler=run_show_svg)
    if "replay" in choices:
        choices["replay"].add_argument("--svg", type=Path, metavar="DIR",
                                       help="also write one SVG picture per position into DIR "
                                       "(move-0000.svg is the deal)")
        add_force(choices["replay"])
        choices["replay"].set_defaults(handler=run_replay_svg)


def run_schema(args: argparse.Namespace) -> int:
    """Print the schema's JSON text as shipped."""
    sys.stdout.write(for_terminal(schema_text(args.name), lines=True))
    return 0


def run_show_svg(args: argparse.Namespace) -> int:
    """``show``: the text layout, or with ``--svg FILE`` the picture written to FILE."""
    if args.svg is None:
        return run_show(args)
    if args.svg.suffix.lower() != ".svg":  # an SVG text in a .png file opens as nothing
        raise SpiteMaliceError(f"--svg {for_terminal(str(args.svg))}: name a .svg file (the "
                               "picture is SVG text)")
    check_new(args.svg, force=args.force, what="--svg")
    book, position = shown_position(args)
    caption = f"{args.ruleset}: {'view' if 'view=' in ' '.join(args.position) else 'position'}"
    write_file(args.svg, position_svg(position, caption=caption, teams=book.teams.teams),
               force=args.force, what="--svg")
    say(f"wrote {for_terminal(str(args.svg))}")
    return 0


def run_replay_svg(args: argparse.Namespace) -> int:
    """``replay``: with ``--svg DIR``, write a picture per position first, then print the
    replay as usual (its exit status: 1 when a move cannot be replayed)."""
    if args.svg is not None:
        _replay_pictures(args.file, args.svg, args.force)
    return run_replay(args)


def _replay_pictures(file: Path, directory: Path, force: bool) -> None:
    """Every position's picture, ``DIR/move-NNNN.svg``; every name is checked before the
    first is written, so a refused run writes nothing."""
    record, book = record_rules(file)
    make_folder(directory, what="--svg")
    paths = [directory / f"move-{number:04d}.svg" for number in range(len(record.moves) + 1)]
    for path in paths:
        check_new(path, force=force, what="--svg")
    states = replay(record, book)
    name = record.ruleset.name
    try:
        # zip stops before the outcome check that follows the last state
        for number, (path, state) in enumerate(zip(paths, states, strict=False)):
            what = "the deal" if number == 0 else (
                f"move {number}: {record.moves[number - 1]}")
            write_file(path, position_svg(state, caption=f"{name}, {what}",
                                          teams=book.teams.teams), force=force, what="--svg")
    except RecordError:
        pass  # the pictures stop at the bad move; run_replay reports it
