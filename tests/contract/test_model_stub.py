"""spitemalice/model.pyi, the type checkers' view of the model, and spitemalice/model.py agree.

model.py writes Seat and GameState by hand (so that the compiled build makes them native
classes); the stub declares them as the attrs classes they behave as, so that a user's
type-checked ``attrs.evolve(state, draw=...)`` is checked field by field.  With the stub
beside it, ``mypy spitemalice`` reads the stub and no longer checks model.py's body: the test
here runs mypy on model.py itself (and the compiled build's mypyc checks it too, ``.ci/run``).
The mypy tests run where mypy is installed (the ``dev`` extra; ``.ci/run`` installs it for
the compiled build and runs this file there) and skip elsewhere, saying so.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

import spitemalice

ROOT = Path(__file__).parents[2]
SOURCE = ROOT / "spitemalice" / "model.py"
STUB = ROOT / "spitemalice" / "model.pyi"
CLASSES = ("Seat", "GameState")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _all(tree: ast.Module) -> list[str]:
    node = next(node for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                and any(getattr(t, "id", "") == "__all__"
                        for t in (node.targets if isinstance(node, ast.Assign)
                                  else [node.target])))
    assert node.value is not None
    return list(ast.literal_eval(node.value))


def _public_defined(tree: ast.Module) -> set[str]:
    """The public names a module defines at its top (functions, classes, assignments; not
    what it imports for its own use)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    return next(node for node in tree.body if isinstance(node, ast.ClassDef)
                and node.name == name)


def _fields(cls: ast.ClassDef) -> list[tuple[str, str]]:
    """The instance fields a class body declares, in order, with their annotations' text
    (ClassVar declarations are no fields)."""
    return [(node.target.id, ast.unparse(node.annotation)) for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
            and not ast.unparse(node.annotation).startswith("ClassVar")]


def _members(cls: ast.ClassDef) -> set[str]:
    """The public methods and properties a class body defines."""
    return {node.name for node in cls.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}


def test_the_stub_exports_the_names_the_module_exports() -> None:
    source, stub = _tree(SOURCE), _tree(STUB)
    assert _all(stub) == _all(source)
    exported = set(_all(source))
    # Every public name model.py defines is declared in the stub (the names __all__ lists
    # that come from spitemalice.outcome are re-exported there), and nothing more.
    stub_names = _public_defined(stub) | {alias.asname or alias.name for node in stub.body
                                          if isinstance(node, ast.ImportFrom)
                                          for alias in node.names if alias.asname}
    assert _public_defined(source) <= stub_names
    assert _public_defined(stub) <= _public_defined(source)
    assert exported <= stub_names


@pytest.mark.parametrize("name", CLASSES)
def test_the_stub_declares_each_class_with_the_same_fields_in_order(name: str) -> None:
    source, stub = _class(_tree(SOURCE), name), _class(_tree(STUB), name)
    assert _fields(stub) == _fields(source)
    assert _members(stub) == _members(source)
    decorators = [ast.unparse(node) for node in stub.decorator_list]
    assert decorators == ["attrs.frozen"]  # what makes mypy's attrs plugin take it
    # The constructor takes the fields in the same order (its parameters, after self).
    init = next(node for node in source.body
                if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    assert [arg.arg for arg in init.args.args[1:]] == [field for field, _ in _fields(source)]


def test_the_runtime_classes_carry_the_fields_the_stub_declares() -> None:
    import attrs

    for name in CLASSES:
        cls = getattr(spitemalice, name)
        declared = [field for field, _ in _fields(_class(_tree(STUB), name))]
        assert [field.name for field in attrs.fields(cls)] == declared
        assert list(cls.__match_args__) == declared


def test_the_stub_is_shipped_beside_the_module() -> None:
    """The package data lists the stub (pyproject.toml): an installed spitemalice, the compiled
    build among them, has model.pyi beside model.py and py.typed."""
    package = Path(spitemalice.__file__).parent
    assert (package / "model.pyi").is_file()
    assert (package / "py.typed").is_file()
    data = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"model.pyi"' in data


# ---- mypy: model.py's body, and a user's attrs.evolve ----------------------------------------


def _mypy(*args: str, cwd: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is not installed (the test extra brings it)")
    env = {**os.environ}
    env.pop("MYPYPATH", None)
    if path is not None:
        env["MYPYPATH"] = path
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                           "--no-error-summary", "--hide-error-context", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
                          check=False)


def test_mypy_checks_the_body_of_model_py() -> None:
    """``mypy spitemalice`` reads model.pyi; mypy given model.py itself checks its body
    (with the project's configuration, from the repository)."""
    done = _mypy("spitemalice/model.py", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


USER = textwrap.dedent("""\
    import attrs

    from spitemalice.engine.deal import deal
    from spitemalice.model import GameState, Seat
    from spitemalice.rules.loader import load

    state = deal(load("blackwood-frey"), 1)
    shorter: GameState = attrs.evolve(state, draw=state.draw[:-1], turn=3)
    seat: Seat = attrs.evolve(state.seats[0], hand=())
    names = [field.name for field in attrs.fields(GameState)]
    again = GameState(state.seats, [], list(state.draw), (), seat=1)
    """)
WRONG = textwrap.dedent("""\
    wrong_draw = attrs.evolve(state, draw=3)
    wrong_turn = attrs.evolve(state, turn="3")
    no_field = attrs.evolve(state, drew=())
    """)


def test_a_users_attrs_evolve_of_a_state_is_type_checked(tmp_path: Path) -> None:
    """What docs/hooks.md shows (``attrs.evolve(state, draw=...)``) type-checks, and a wrong
    field value or name is reported, as for the attrs class the state was."""
    package = Path(spitemalice.__file__).parent.parent
    installed = Path(sysconfig.get_paths()["purelib"]).resolve()
    # A source checkout is found through MYPYPATH; an installed package (the compiled build)
    # through the interpreter's site-packages (PEP 561: py.typed), where MYPYPATH may not point.
    path = None if package.resolve() == installed else str(package)
    (tmp_path / "good.py").write_text(USER, encoding="utf-8")
    (tmp_path / "bad.py").write_text(USER + WRONG, encoding="utf-8")
    good = _mypy("good.py", cwd=tmp_path, path=path)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _mypy("bad.py", cwd=tmp_path, path=path)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    errors = [line for line in bad.stdout.splitlines() if ": error:" in line]
    lines = len(USER.splitlines())
    assert [line.split(":")[1] for line in errors] == [str(lines + 1), str(lines + 2),
                                                       str(lines + 3)], bad.stdout
    assert '"draw"' in errors[0] and '"turn"' in errors[1] and '"drew"' in errors[2], bad.stdout
