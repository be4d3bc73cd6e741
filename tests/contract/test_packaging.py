"""What pip installs is the whole library: every package folder is listed in pyproject.toml."""

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def test_every_package_folder_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "spitemalice").rglob("__init__.py")
    }
    assert found <= listed, f"not installed by pip: {sorted(found - listed)}"
    assert "spitemalice_variants" in listed


def test_every_data_file_in_the_package_is_installed() -> None:
    """Files that are not Python (the JSON Schemas) ship only if package-data names them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["spitemalice"]
    package = ROOT / "spitemalice"
    data = [p for p in package.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "__pycache__" not in p.parts]
    assert any(p.suffix == ".json" for p in data)
    unshipped = [p for p in data if not any(p.relative_to(package).match(g) for g in globs)]
    assert not unshipped, f"not installed by pip: {unshipped}"


def test_the_package_is_marked_typed_and_the_marker_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert (ROOT / "spitemalice" / "py.typed").is_file()
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["spitemalice"]


def test_the_learned_bots_weights_ship_small_and_load_without_pickle() -> None:
    """The ``learned`` bot's weights are package data (issue 39 §4): a few MB at most, plain
    arrays (``allow_pickle=False``), the network's layers and what it was trained for."""
    np = pytest.importorskip("numpy")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    weights = ROOT / "spitemalice" / "env" / "learned.npz"
    assert "env/*.npz" in config["tool"]["setuptools"]["package-data"]["spitemalice"]
    assert 0 < weights.stat().st_size < 4_000_000
    with np.load(weights, allow_pickle=False) as archive:
        layers = int(archive["layers"])
        assert {f"w{i}" for i in range(layers)} <= set(archive.files)
        assert str(archive["ruleset"]) == "blackwood-frey" and int(archive["players"]) == 2


def test_python_dash_m_runs_the_command_line() -> None:
    import subprocess
    import sys

    ran = subprocess.run([sys.executable, "-m", "spitemalice", "variants"],
                         capture_output=True, text=True, check=False, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr
    assert "blackwood-frey" in ran.stdout
    bad = subprocess.run([sys.executable, "-m", "spitemalice", "simulate", "no-such-rules"],
                         capture_output=True, text=True, check=False, cwd=ROOT)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1
