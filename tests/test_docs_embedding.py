"""docs/embedding.md: every python block runs, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "embedding.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.M | re.S)


def test_the_page_has_code_blocks() -> None:
    assert len(BLOCKS) >= 6


def test_the_code_blocks_run_in_order(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "embedding_page"}
    for number, block in enumerate(BLOCKS, 1):
        try:
            exec(compile(block, f"{PAGE.name} block {number}", "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"{PAGE.name} python block {number} fails: {error!r}") from error
