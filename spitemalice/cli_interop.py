"""The subcommands that meet other programs: ``schema`` (and the ``--svg`` pictures).

* ``spitemalice schema NAME`` prints the JSON Schema ``NAME`` (record, state, view,
  ruleset; :mod:`spitemalice.schema`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from spitemalice.schema import SCHEMA_NAMES, schema_text


def add_interop(commands: Any) -> None:
    """Register ``schema`` on ``commands`` (argparse subparsers)."""
    sch = commands.add_parser("schema", help="print the JSON Schema of a document the "
                              "library writes or reads")
    sch.add_argument("name", choices=SCHEMA_NAMES, metavar="NAME",
                     help=f"one of {', '.join(SCHEMA_NAMES)}")
    sch.set_defaults(handler=run_schema)


def run_schema(args: argparse.Namespace) -> int:
    """Print the schema's JSON text as shipped."""
    sys.stdout.write(schema_text(args.name))
    return 0
