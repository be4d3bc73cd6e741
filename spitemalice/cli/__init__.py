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
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from spitemalice import __version__
from spitemalice.cli._args import INTERRUPTED, Parser, say
from spitemalice.errors import SpiteMaliceError
from spitemalice.stops import stop_on_sigterm
from spitemalice.wording import for_terminal

MODULES = ("simulate", "rulesets", "validate", "records", "interop", "study", "ratings", "play",
           "serve")
"""The modules of ``spitemalice.cli`` whose ``add_<module>`` registers commands, in the order
they run: ``records`` adds ``--record`` to ``simulate``, ``interop`` adds ``--svg`` to ``show``
and ``replay``."""
COMMANDS = {
    "simulate": ("simulate", "records"), "rules": ("rulesets",), "variants": ("rulesets",),
    "validate": ("validate",), "replay": ("records", "interop"),
    "check": ("records", "interop"), "show": ("records", "interop"), "schema": ("interop",),
    "compare": ("study",), "tournament": ("study",), "ladder": ("ratings",),
    "balance": ("ratings",), "play": ("play",),
    "serve": ("serve",), "bot": ("serve",),
}
"""Each command and the modules that build its parser."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; each subcommand sets ``handler`` (its ``run_*`` function,
    which takes the parsed arguments and returns the exit status).  With ``command``, only
    that command's parser: the modules of the others (and what they import) are not loaded,
    so a quick command starts quickly.

    Raises:
        KeyError: ``command`` is not one of :data:`COMMANDS`.
    """
    parser = Parser(prog="spitemalice", description="Spite and Malice rules, simulated.")
    parser.add_argument("--version", action="version", version=f"spitemalice {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    wanted = COMMANDS[command] if command is not None else MODULES
    for name in MODULES:
        if name in wanted:
            module = importlib.import_module(f"{__name__}.{name}")
            getattr(module, f"add_{name}")(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    _survive_any_encoding()
    given = list(sys.argv[1:] if argv is None else argv)
    command = given[0] if given and given[0] in COMMANDS else None
    args = build_parser(command).parse_args(given)
    try:
        with _sigterm_stops_cleanly():
            status = args.handler(args)
    except SpiteMaliceError as error:
        # One line, escaped: the message may quote a file, a record or a plugin.
        print(f"spitemalice: error: {for_terminal(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # A stop before a command's games began, or after they were written: nothing half done.
        say("spitemalice: interrupted", file=sys.stderr)
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
    previous = signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _survive_any_encoding() -> None:
    """Write characters the output encoding cannot hold (a lone surrogate in a name, a dash on
    an ASCII terminal) as backslash escapes instead of raising ``UnicodeEncodeError``."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # A closed or detached stream is left alone.
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")

