"""The command line's one table (issue 33, item 3): every command is owned by one module of
``spitemalice.cli``, named in :data:`spitemalice.cli.COMMANDS` with its ``add_<command>`` and
``run_<command>``; no module adds options to another's command or replaces its handler, and
the table's order is only the order ``--help`` lists the commands in."""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import io
import re
from pathlib import Path

import pytest

from spitemalice import cli
from spitemalice.cli import COMMANDS, Command, add_command, build_parser, main
from spitemalice.cli._args import Parser

CLI = Path(cli.__file__).parent
OWNERS = {name: command.module for name, command in COMMANDS.items()}
FUNCTIONS = {function: name for name, command in COMMANDS.items()
             for function in (command.add, command.run)}
"""Each command's ``add_*`` and ``run_*`` function, and the command it belongs to."""


def _fresh() -> tuple[Parser, argparse._SubParsersAction[Parser]]:
    parser = Parser(prog="spitemalice")
    return parser, parser.add_subparsers(dest="command", required=True, parser_class=Parser)


def _options(parser: argparse.ArgumentParser) -> list[tuple[str, ...]]:
    return [tuple(action.option_strings) or (action.dest,) for action in parser._actions]


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_commands_add_function_alone_adds_it_whole_with_its_handler(name: str) -> None:
    owner = COMMANDS[name]
    module = importlib.import_module(f"spitemalice.cli.{owner.module}")
    add, run = getattr(module, owner.add), getattr(module, owner.run)
    # Both are the owner's own functions, not names it imported from another module.
    assert (add.__module__, run.__module__) == (module.__name__, module.__name__)
    _, commands = _fresh()
    built = add(commands)
    assert set(commands.choices) == {name}  # it adds its command and no other
    assert commands.choices[name] is built
    assert built.get_default("handler") is None  # the handler comes from the table only
    # Every option of the command is there when its module alone built it.
    assert _options(built) == _options(_sub(build_parser(), name))
    assert _sub(build_parser(), name).get_default("handler") is run


def test_every_commands_functions_are_defined_in_one_module_only() -> None:
    defined: dict[str, list[str]] = {function: [] for function in FUNCTIONS}
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in defined:
                defined[node.name].append(path.stem)
    assert defined == {function: [OWNERS[name]] for function, name in FUNCTIONS.items()}


def test_help_lists_every_command_in_the_tables_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listed = re.findall(r"^    (\S+)\s", capsys.readouterr().out, flags=re.MULTILINE)
    assert listed == list(COMMANDS)


def test_the_tables_order_changes_only_the_listing() -> None:
    """Built in the reverse order, every command's help is the same."""
    parser, commands = _fresh()
    for name in reversed(COMMANDS):
        add_command(commands, name)
    whole = build_parser()
    for name in COMMANDS:
        assert _help(_sub(parser, name)) == _help(_sub(whole, name)), name
    assert list(commands.choices) == list(reversed(COMMANDS))


def _help(parser: argparse.ArgumentParser) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        parser.print_help()
    return out.getvalue().replace(parser.prog, "PROG")


# -- no module patches another's command (a source scan) ------------------------------------


def patches(source: str, module: str) -> list[str]:
    """What in the source of ``spitemalice.cli.<module>`` reaches into a command it does not
    own, or registers one the table does not name: a reference to another module's
    ``add_*`` or ``run_*``, a subparser looked up by name (``.choices``), a ``handler`` set
    outside :func:`spitemalice.cli.add_command`, a function name built from a string, a
    command added that the table does not give this module."""
    found = []
    owned = {name for name, owner in OWNERS.items() if owner == module}
    tree = ast.parse(source)
    for node in ast.walk(tree):
        line = f"{module}.py:{getattr(node, 'lineno', 0)}"
        used = (node.id if isinstance(node, ast.Name) else node.attr
                if isinstance(node, ast.Attribute) else None)
        if isinstance(node, ast.ImportFrom):
            found += [f"{line} imports {a.name} of {FUNCTIONS[a.name]}" for a in node.names
                      if a.name in FUNCTIONS and FUNCTIONS[a.name] not in owned]
        if used in FUNCTIONS and FUNCTIONS[used] not in owned and module != "__init__":
            found.append(f"{line} uses {used} of {FUNCTIONS[used]}")
        if used == "choices" or (isinstance(node, ast.Call) and ast.unparse(node.func) ==
                                 "getattr" and "'choices'" in map(ast.unparse, node.args)):
            found.append(f"{line} looks a command's parser up by name (.choices)")
        if isinstance(node, ast.keyword) and node.arg == "handler" and module != "__init__":
            found.append(f"{line} sets a handler; the table names it")
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(
                node.values[0], ast.Constant) and str(node.values[0].value).startswith(
                ("add_", "run_")):
            found.append(f"{line} builds a function's name from a string")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_parser"):
            name = ast.literal_eval(node.args[0]) if node.args and isinstance(
                node.args[0], ast.Constant) else None
            if name not in owned:
                found.append(f"{line} adds command {name!r}, not its own in the table")
    return found


def test_no_cli_module_patches_another_commands_parser_or_handler() -> None:
    found = [patch for path in sorted(CLI.glob("*.py"))
             for patch in patches(path.read_text(encoding="utf-8"), path.stem)]
    assert found == []


def test_the_scan_finds_the_patches_this_table_replaced() -> None:
    """What ``cli/interop.py`` and ``cli/records.py`` did before the table, and the lookup
    by a built name that ``build_parser`` did: each is found."""
    patched = '''
from spitemalice.cli.records import run_replay, run_show
def add_interop(commands):
    commands.add_parser("schema")
    choices = getattr(commands, "choices", {})
    choices["show"].add_argument("--svg")
    choices["show"].set_defaults(handler=run_show_svg)
def add_records(commands):
    getattr(commands, "choices", {}).get("simulate").add_argument("--record")
def build(module, name, commands):
    getattr(module, f"add_{name}")(commands)
    commands.add_parser("nowhere")
'''
    found = "\n".join(patches(patched, "schema"))
    lookups = {int(line.split()[0].split(":")[1]) for line in found.splitlines()
               if "(.choices)" in line}
    assert lookups == {5, 6, 7, 9}  # choices = ..., choices[...] twice, and records' --record
    for what in ("imports run_replay of replay", "imports run_show of show",
                 "sets a handler", "builds a function's name", "adds command 'nowhere'"):
        assert what in found, what
    assert "adds command 'schema'" not in found  # schema is the module's own


def test_each_table_entry_names_its_module_and_functions() -> None:
    """The names are written out (``add_<command>``, ``run_<command>``), so a grep for
    either finds the table and the definition."""
    for name, command in COMMANDS.items():
        assert isinstance(command, Command)
        function = name.replace("-", "_")
        assert (command.add, command.run) == (f"add_{function}", f"run_{function}")
        assert (CLI / f"{command.module}.py").is_file()
    text = (CLI / "__init__.py").read_text(encoding="utf-8")
    for command in COMMANDS.values():
        assert f'Command("{command.module}", "{command.add}", "{command.run}")' in text
