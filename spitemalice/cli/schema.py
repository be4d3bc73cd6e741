"""``spitemalice schema NAME``: print the JSON Schema ``NAME`` (record, state, view, ruleset;
:mod:`spitemalice.formats.schema`), for the programs that read or write the library's
documents.

The pictures of ``show --svg`` and ``replay --svg`` are those commands' own options
(:mod:`spitemalice.cli.records`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from spitemalice.cli._args import Parser
from spitemalice.formats.schema import SCHEMA_NAMES, schema_text
from spitemalice.wording import for_terminal

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands


def add_schema(commands: Commands) -> Parser:
    """Add ``schema`` to ``commands`` (argparse subparsers)."""
    sch = commands.add_parser("schema", help="print the JSON Schema of a document the "
                              "library writes or reads")
    sch.add_argument("name", choices=SCHEMA_NAMES, metavar="NAME",
                     help=f"one of {', '.join(SCHEMA_NAMES)}")
    return sch


def run_schema(args: argparse.Namespace) -> int:
    """Print the schema's JSON text as shipped."""
    sys.stdout.write(for_terminal(schema_text(args.name), lines=True))
    return 0
