"""The ``spitemalice`` command line: :func:`main`, and :data:`COMMANDS`, the one table of
which module owns each command.

A command's module defines ``add_<command>(commands)``, which adds the command's parser with
every option it takes, and ``run_<command>(args)``, its handler; :data:`COMMANDS` names both,
so a maintainer finds a command's code from its name here (or by grepping for
``add_<command>``).  No module adds options to another's command or replaces its handler
(tests/cli/test_cli_table.py).  What the commands share (argument types, the rule-set arguments,
the options of a command that plays games, the exit status of an interrupted run) is
:mod:`spitemalice.cli._args`.

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
from typing import TYPE_CHECKING, NamedTuple

from spitemalice import __version__
from spitemalice.cli._args import INTERRUPTED, Parser, say
from spitemalice.errors import SpiteMaliceError, command_line_text
from spitemalice.stops import stop_on_sigterm
from spitemalice.wording import for_terminal

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands


class Command(NamedTuple):
    """Where a command's code is: its module of ``spitemalice.cli``, the function there that
    adds its parser and options (``add(commands) -> parser``, ``commands`` an argparse
    subparsers object) and its handler (``run(args) -> exit status``)."""

    module: str
    add: str
    run: str


COMMANDS: dict[str, Command] = {
    "simulate": Command("simulate", "add_simulate", "run_simulate"),
    "rules": Command("rulesets", "add_rules", "run_rules"),
    "variants": Command("rulesets", "add_variants", "run_variants"),
    "validate": Command("validate", "add_validate", "run_validate"),
    "replay": Command("records", "add_replay", "run_replay"),
    "check": Command("records", "add_check", "run_check"),
    "show": Command("records", "add_show", "run_show"),
    "schema": Command("schema", "add_schema", "run_schema"),
    "compare": Command("study", "add_compare", "run_compare"),
    "tournament": Command("study", "add_tournament", "run_tournament"),
    "ladder": Command("ratings", "add_ladder", "run_ladder"),
    "balance": Command("ratings", "add_balance", "run_balance"),
    "tune": Command("tune", "add_tune", "run_tune"),
    "metrics": Command("metrics", "add_metrics", "run_metrics"),
    "play": Command("play", "add_play", "run_play"),
    "serve": Command("serve", "add_serve", "run_serve"),
    "bot": Command("serve", "add_bot", "run_bot"),
}
"""Each command, the module that owns it, its parser's function and its handler.  The order
is only the order ``spitemalice --help`` lists the commands in: each command's parser is
built from its own module alone, so no entry depends on another's coming first."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; each subcommand's ``handler`` default is its ``run_*``
    function (:data:`COMMANDS`), which takes the parsed arguments and returns the exit status.
    With ``command``, only that command's parser: the modules of the others (and what they
    import) are not loaded, so a quick command starts quickly.

    Raises:
        KeyError: ``command`` is not one of :data:`COMMANDS`.
    """
    parser = Parser(prog="spitemalice", description="Spite and Malice rules, simulated.")
    parser.add_argument("--version", action="version", version=f"spitemalice {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMANDS if command is None else [command]:
        add_command(commands, name)
    return parser


def add_command(commands: Commands, name: str) -> Parser:
    """Add command ``name`` to ``commands``: its module's parser, its handler as the
    ``handler`` default.  The parser is returned.

    Raises:
        KeyError: ``name`` is not one of :data:`COMMANDS`.
    """
    owner = COMMANDS[name]
    module = importlib.import_module(f"{__name__}.{owner.module}")
    command: Parser = getattr(module, owner.add)(commands)
    command.set_defaults(handler=getattr(module, owner.run))
    return command


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    _survive_any_encoding()
    given = list(sys.argv[1:] if argv is None else argv)
    if not given:
        # Nothing asked: the whole help, so the commands are listed (argparse alone would
        # print one line saying a command is required, naming none of them).
        build_parser().print_help(sys.stderr)
        say("\nspitemalice: error: a command is needed: one of those listed above",
            file=sys.stderr)
        return 2
    command = given[0] if given and given[0] in COMMANDS else None
    args = build_parser(command).parse_args(given)
    try:
        with _sigterm_stops_cleanly():
            status = args.handler(args)
    except SpiteMaliceError as error:
        # One line, escaped: the message may quote a file, a record or a plugin.
        print(f"spitemalice: error: {for_terminal(command_line_text(error))}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # A stop before a command's games began, or after they were written: nothing half done.
        say("spitemalice: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader (say `| head`) closed the pipe; stop quietly, as other tools do.  Only
        # the command line's own process closes its stderr (so that the interpreter's last
        # flush of stdout says nothing): a program calling main(argv), a test runner among
        # them, keeps its streams.
        if argv is None:
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

