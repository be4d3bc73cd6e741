"""``spitemalice variants`` and ``spitemalice rules``: what is installed, and what a rule set
(or a house rule) says.

* ``spitemalice variants`` lists the installed rule sets and house rules, one a line.
* ``spitemalice rules RULESET`` prints the rule sheet and parameters of the rule set as loaded
  (house rules and ``--set`` applied); ``spitemalice rules HOUSE-RULE`` prints a house rule's
  own clauses, stacked on each built-in rule set or on ``--on RULESET`` only.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from spitemalice.cli._args import (
    Parser,
    add_allow_files,
    add_rules_args,
    load_rules,
    rule_params,
    say,
)
from spitemalice.errors import RulesetError
from spitemalice.rules.loader import house_rule_sheet
from spitemalice.rules.registry import installed, kind_of
from spitemalice.rules.sheet import render_sheet

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands


def add_rules(commands: Commands) -> Parser:
    """Add ``rules`` to ``commands`` (argparse subparsers)."""
    rules = commands.add_parser("rules", help="print the sheet and parameters of a rule set "
                                "(or of a house rule)")
    add_rules_args(rules)
    add_allow_files(rules)
    rules.add_argument("--on", metavar="RULESET",
                       help="for a house rule: show it stacked on this rule set only (default: "
                            "on each built-in rule set)")
    return rules


def add_variants(commands: Commands) -> Parser:
    """Add ``variants`` to ``commands`` (argparse subparsers)."""
    return commands.add_parser("variants", help="list installed rule sets and house rules")


def run_rules(args: argparse.Namespace) -> int:
    """Print the sheet of a rule set, or a house rule's own sheet.

    Raises:
        RulesetError: ``--on`` given for a rule set, or the rules cannot be loaded.
    """
    if kind_of(args.ruleset) == "house-rule":  # a house rule's own sheet
        say(house_rule_sheet(args.ruleset, args.house_rule, rule_params(args), on=args.on,
                             allow_files=args.allow_files))
        return 0
    if args.on:
        raise RulesetError(f"--on applies to a house rule's sheet; {args.ruleset!r} is a rule "
                           f"set: stack a house rule on it with --house-rule")
    say(render_sheet(load_rules(args)))
    return 0


def run_variants(args: argparse.Namespace) -> int:
    """Print each installed rule set and house rule: name, kind, description."""
    infos = installed()
    width = max((len(info.name) for info in infos), default=0)
    for info in infos:
        say(f"{info.name.ljust(width)}  {info.kind:<10}  {info.description}")
    return 0
