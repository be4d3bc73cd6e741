"""The ``spitemalice`` command line: :func:`main` and the parser that joins the commands.

Each command lives in its own module and registers itself (``add_simulate``, ``add_records``,
...); what they share (argument types, the rule-set arguments, the exit status of an
interrupted run) is :mod:`spitemalice.cli._args`.

Every error a user can cause ends in one line on stderr and exit status 2; no traceback.
Output survives any terminal encoding: a character the terminal cannot show is written as a
backslash escape rather than ending the command.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from spitemalice import __version__
from spitemalice.cli._args import INTERRUPTED, Parser
from spitemalice.cli.interop import add_interop
from spitemalice.cli.play import add_play
from spitemalice.cli.records import add_records
from spitemalice.cli.rulesets import add_rulesets
from spitemalice.cli.serve import add_serve
from spitemalice.cli.simulate import add_simulate
from spitemalice.cli.study import add_study
from spitemalice.cli.validate import add_validate
from spitemalice.errors import SpiteMaliceError


def build_parser() -> argparse.ArgumentParser:
    """The whole command line's parser; each subcommand sets ``handler`` (its ``run_*``
    function, which takes the parsed arguments and returns the exit status)."""
    parser = Parser(prog="spitemalice", description="Spite and Malice rules, simulated.")
    parser.add_argument("--version", action="version", version=f"spitemalice {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    add_simulate(commands)
    add_rulesets(commands)  # rules, variants
    add_validate(commands)
    add_records(commands)  # replay, check, show; simulate --record
    add_interop(commands)  # schema; show --svg, replay --svg
    add_study(commands)  # compare, tournament
    add_play(commands)
    add_serve(commands)  # serve, bot --connect (the play extra)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    _survive_any_encoding()
    args = build_parser().parse_args(argv)
    try:
        with _sigterm_stops_cleanly():
            status = args.handler(args)
    except SpiteMaliceError as error:
        print(f"spitemalice: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        # The reader (say `| head`) closed the pipe; stop quietly, as other tools do.
        sys.stderr.close()
        return 0
    return int(status or 0)


@contextlib.contextmanager
def _sigterm_stops_cleanly() -> Iterator[None]:
    """While a command runs, SIGTERM stops it as Ctrl-C does: the run unwinds, so ``--jobs``
    worker processes are ended with it instead of being left running.  The previous handler
    comes back afterwards (``main`` may be called from a program or a test)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _survive_any_encoding() -> None:
    """Write characters the output encoding cannot hold (a lone surrogate in a name, a dash on
    an ASCII terminal) as backslash escapes instead of raising ``UnicodeEncodeError``."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # A closed or detached stream is left alone.
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")

