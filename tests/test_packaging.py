"""What pip installs is the whole library: every package folder is listed in pyproject.toml."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_every_package_folder_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "spitemalice").rglob("__init__.py")
    }
    assert found <= listed, f"not installed by pip: {sorted(found - listed)}"
    assert "spitemalice_variants" in listed
