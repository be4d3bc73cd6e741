"""The code on the documentation pages runs (each page's blocks in order, one namespace)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


@pytest.mark.parametrize("page", ["docs/variants.md", "docs/hooks.md", "README.md"])
def test_every_python_block_on_the_page_runs(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))
    assert blocks, f"{page} has no python blocks"
    namespace: dict[str, object] = {"__name__": f"docs_{page}"}
    for block in blocks:
        exec(compile(block, f"{page}", "exec"), namespace)
    assert capsys.readouterr().out or page == "docs/hooks.md"
