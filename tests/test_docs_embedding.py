"""docs/embedding.md and docs/formats.md: every python block runs, in order, in one
namespace per page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = ["embedding.md", "formats.md"]


def blocks(page: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)


def test_the_embedding_page_has_its_code_blocks() -> None:
    assert len(blocks("embedding.md")) >= 6


@pytest.mark.parametrize("page", PAGES)
def test_the_code_blocks_run_in_order(page, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": page.removesuffix(".md")}
    for number, block in enumerate(blocks(page), 1):
        try:
            exec(compile(block, f"{page} block {number}", "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"{page} python block {number} fails: {error!r}") from error
