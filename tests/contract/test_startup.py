"""Start-up (issue 22 section 6): ``import spitemalice`` loads nothing until a name is used,
and a command loads only the modules of its own parser."""

from __future__ import annotations

import ast
import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice import cli

INIT = Path(sm.__file__)


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = code + "\nimport sys\nprint(' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    return set(done.stdout.split())


def test_the_lazy_table_names_what_the_type_checking_imports_name() -> None:
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If)
                 and "TYPE_CHECKING" in ast.unparse(node.test))
    imported = {alias.name: node.module for node in block.body
                if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert imported == sm._WHERE
    assert set(sm.__all__) == set(sm._WHERE)


def test_every_public_name_is_its_modules_own_object() -> None:
    import importlib

    for name, module in sm._WHERE.items():
        assert getattr(sm, name) is getattr(importlib.import_module(module), name), name
    assert sm.engine.legal_moves is sm.legal_moves  # a package module, on first use
    assert "legal_moves" in dir(sm) and "RuleBook" in dir(sm)
    with pytest.raises(AttributeError, match="no attribute 'lgeal_moves'"):
        sm.lgeal_moves  # noqa: B018


def test_import_spitemalice_loads_no_module_of_it_and_neither_attrs_nor_pluggy() -> None:
    loaded = _loaded_after("import spitemalice")
    assert {m for m in loaded if m.startswith("spitemalice.")} == set()
    assert not {"attrs", "pluggy", "numpy"} & loaded
    used = _loaded_after("import spitemalice as sm\nsm.deal(sm.load('g4a'), 1)")
    assert {"spitemalice.engine", "spitemalice.rules.loader", "pluggy"} <= used


def test_variants_loads_neither_the_engine_nor_studies_nor_validation() -> None:
    loaded = _loaded_after("import io, contextlib\nfrom spitemalice.cli import main\n"
                           "with contextlib.redirect_stdout(io.StringIO()):\n"
                           "    main(['variants'])")
    heavy = {m for m in loaded if m.startswith(("spitemalice.engine", "spitemalice.study",
                                                "spitemalice.validation", "spitemalice.play",
                                                "spitemalice.formats"))}
    assert heavy == set()
    assert "spitemalice_variants.blackwood_frey" in loaded


def _help(parser: object, command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])  # type: ignore[attr-defined]
    return out.getvalue()


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_a_commands_own_parser_is_the_whole_command_lines_parser_for_it(command: str) -> None:
    whole = cli.build_parser()
    assert _help(cli.build_parser(command), command) == _help(whole, command)
    assert set(cli.COMMANDS) == set(whole._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def test_every_module_and_package_of_the_top_level_loads_as_an_attribute() -> None:
    """``spitemalice.NAME`` loads each module and package of the top level on first use (the
    lazy table ``_PACKAGES``), so a new one (``runs``, ``measures``, ``wording``...) cannot be
    forgotten there."""
    import spitemalice

    root = Path(spitemalice.__file__).parent
    names = {path.stem for path in root.glob("*.py")} | {
        path.parent.name for path in root.glob("*/__init__.py")}
    names -= {"__init__", "__main__"}
    missing = sorted(name for name in names if not hasattr(spitemalice, name))
    assert missing == []
