"""A MkDocs hook: fenced code blocks whose info string carries words after the language
(```` ```python file=quick-malice/quick_malice.py ````, ```` ```console venv ````) reach the
site as code blocks.

Those words are for the test suite (tests/docs/test_walkthrough.py writes each ``file=``
block to its file and runs each ``console venv`` block in a fresh virtual environment);
pymdownx.superfences does not know them and would leave the whole block as paragraphs.  Each
such fence is rewritten, in the Markdown the site is built from only, to the language alone,
with a ``file=`` path as the block's title.
"""

from __future__ import annotations

import re
from typing import Any

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<lang>[\w+-]+)[ \t]+"
                   r"(?P<rest>[^{\n]*?)[ \t]*$", re.M)


def _plain(match: re.Match[str]) -> str:
    title = re.search(r"(?:^|\s)file=(\S+)", match["rest"])
    shown = f' title="{title.group(1)}"' if title else ""
    return f"{match['indent']}{match['fence']}{match['lang']}{shown}"


def plain_fences(markdown: str) -> str:
    """``markdown`` with every fence's extra words dropped (a ``file=`` path kept as the
    title)."""
    return FENCE.sub(_plain, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs' hook: the page's Markdown as the site renders it."""
    return plain_fences(markdown)
