"""The documentation site builds with ``mkdocs build --strict`` (a broken link, a missing page
or a docstring mkdocstrings cannot read fails it), its API reference covers the package,
and the examples of the tutorial and the learning page print what the pages show."""

from __future__ import annotations

import doctest
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with ``mkdocs build --strict`` (the build must pass)."""
    home = tmp_path_factory.mktemp("mkdocs")
    site = home / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "", "HOME": str(home)},
    )
    assert built.returncode == 0, built.stderr[-3000:]
    return site


def test_mkdocs_build_strict_passes_and_the_api_reference_is_there(built_site: Path) -> None:
    site = built_site
    assert (site / "index.html").is_file() and (site / "tutorial" / "index.html").is_file()
    api = {page: (site / "api" / page / "index.html").read_text(encoding="utf-8")
           for page in ("model", "engine", "rules", "records", "play", "env", "runs")}
    for page, names in {
        "model": ["spitemalice.model.GameState", "spitemalice.moves.parse_move"],
        "engine": ["spitemalice.engine.legal.legal_moves", "spitemalice.engine.apply.apply_move"],
        "rules": ["spitemalice.rules.loader.load", "spitemalice.rules.ruleset.Ruleset"],
        "records": ["spitemalice.formats.picture.position_svg",
                    "spitemalice.formats.schema.schema"],
        "play": ["spitemalice.study.simulate.simulate"],
        "runs": ["spitemalice.runs.loop.play_game"],
        "env": ["spitemalice.env.make", "spitemalice.env.actions.ActionCatalogue"],
    }.items():
        for name in names:
            assert f'id="{name}"' in api[page], (page, name)
    # Long signatures are formatted one parameter a line (ruff, in the docs extra), not cut
    # off in one long line.
    studies = (site / "api" / "runs" / "index.html").read_text(encoding="utf-8")
    start = studies.index('id="spitemalice.runs.provenance.describe_run"')
    signature = re.sub(r"<[^>]+>", "", studies[start:studies.index("</pre>", start)])
    assert "describe_run(\n    book: RuleBook,\n" in html.unescape(signature), signature
    # A console block's empty line is an empty line: no page shows doctest's marker for one
    # (the contributing page names it in its prose).
    shown = [page for page in site.rglob("*.html") if "&lt;BLANKLINE&gt;" in
             page.read_text(encoding="utf-8") and page.parent.name != "contributing"]
    assert not shown, shown
    # A docstring's example is code under "Examples:", not ">>>" lines that Markdown
    # renders as quotes nested three deep (tests/docs/test_docstring_examples.py).
    quoted = [page for page in (site / "api").rglob("*.html")
              if "<blockquote>" in page.read_text(encoding="utf-8")]
    assert not quoted, quoted
    assert 'href="contributing/"' in (site / "index.html").read_text(encoding="utf-8")  # nav
    # Sphinx roles in docstrings (docs/_ext/sphinx_roles.py): links where the target is on
    # the site, inline code where it is not, and never the raw role.
    assert ('<code><a class="autorefs autorefs-internal" title="IllegalMove '
            '(spitemalice.errors.IllegalMove)" href="../model/#spitemalice.errors.IllegalMove">'
            'IllegalMove</a></code>') in api["env"]  # :class:`~spitemalice.errors.IllegalMove`
    assert 'href="#spitemalice.env.aec.SpiteMaliceEnv.render">render()</a>' in api["env"]
    assert "<code>secrets</code>" in api["engine"]  # :mod:`secrets`: not on the site
    for page, text in api.items():
        for role in ("class", "func", "meth", "attr", "mod", "exc", "data"):
            assert f":{role}:`" not in text, (page, role)


FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")


def _source_blocks(text: str) -> tuple[list[str], list[str]]:
    """The fenced blocks of a page's Markdown (each as its first line that is not blank) and
    its level-2 headings outside them."""
    blocks: list[str] = []
    headings: list[str] = []
    lines = iter(text.splitlines())
    for line in lines:
        opened = FENCE.match(line)
        if not opened:
            if line.startswith("## "):
                headings.append(line[3:].strip())
            continue
        body = []
        for inner in lines:
            closing = FENCE.match(inner)
            if closing and closing.group(1)[0] == opened.group(1)[0] and \
                    len(closing.group(1)) >= len(opened.group(1)) and not closing.group(2):
                break
            body.append(inner)
        first = next((b.strip() for b in body if b.strip()), "")
        if first:
            blocks.append(first)
    return blocks, headings


def _site_page(site: Path, page: Path) -> Path:
    relative = page.relative_to(ROOT / "docs").with_suffix("")
    if relative.name == "index":
        return site / relative.parent / "index.html"
    return site / relative / "index.html"


def test_every_fenced_block_of_the_source_is_a_code_block_on_the_site(
        built_site: Path) -> None:
    """A fence whose info string has words after the language (```python file=...,
    ```console venv) was once left as paragraphs, the prose between two of them shown as
    code and the sections after them gone from the contents (docs/_ext/fences.py)."""
    pages = [p for p in (ROOT / "docs").rglob("*.md") if "_ext" not in p.parts]
    checked = 0
    for page in pages:
        blocks, headings = _source_blocks(page.read_text(encoding="utf-8"))
        rendered = _site_page(built_site, page).read_text(encoding="utf-8")
        code = [html.unescape(re.sub(r"<[^>]+>", "", found)) for found in
                re.findall(r"<pre[^>]*>(.*?)</pre>", rendered, re.S)]
        for first in blocks:
            assert any(first in " ".join(text.split()) or first in text for text in code), (
                f"{page.name}: the block starting {first!r} is not a code block on the site")
            checked += 1
        assert "<p>```" not in rendered and "<p>~~~" not in rendered, page.name
        shown = {html.unescape(re.sub(r"<[^>]+>", "", h)).replace("¶", "").strip()
                 for h in re.findall(r"<h2[^>]*>(.*?)</h2>", rendered, re.S)}
        for heading in headings:
            assert heading.replace("`", "") in shown, (page.name, heading)
    variants = _site_page(built_site, ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    assert 'class="filename">quick-malice/quick_malice.py<' in variants  # file= as the title
    assert checked > 100


def test_a_broken_reference_fails_the_strict_build(tmp_path: Path) -> None:
    """The check above could fail: a page naming a module that does not exist does."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# x\n\n::: spitemalice.no_such_module\n", encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.split("\nnav:")[0].replace("paths: [.]", f"paths: [{ROOT}]").replace(
        "[docs/_ext/", f"[{ROOT}/docs/_ext/")
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"],
                           cwd=tmp_path, capture_output=True, text=True, check=False,
                           env={"NO_MKDOCS_2_WARNING": "1", "PATH": "", "HOME": str(tmp_path)})
    assert built.returncode != 0
    assert "no_such_module" in built.stderr


@pytest.mark.parametrize("page", ["tutorial.md", "learning.md"])
def test_the_pages_examples_print_what_the_page_shows(page: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    blocks = PYTHON_BLOCK.findall(text)
    assert blocks and all(block.lstrip().startswith(">>>") for block in blocks)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {"__name__": page}, page,
                                               page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5


# The command line (every module of spitemalice.cli) and the plugin plumbing are documented as
# commands and hooks, not as API; so are the engine's steps behind its doors (engine.flow,
# engine.dealing, the turn-based deal behind spitemalice.engine.deal.deal, and engine.hands,
# finding a card in a hand for apply and check), the vectorised environment's loops
# (env.batch, behind spitemalice.env.vector), the segments they keep per game (env.kept, behind
# the vectorised environment and Encoding.observe), the legal actions as bits they keep
# (env.legal_sets, behind both), the messages of the model's refusals
# (field_refusals, behind Seat and GameState, whose docstrings state them) and the words of
# check_move's refusals that name the legal moves instead (engine.refusal_words).
NOT_API = {"spitemalice", "spitemalice.__main__",
           "spitemalice.engine", "spitemalice.engine.flow", "spitemalice.engine.dealing",
           "spitemalice.engine.refusal_words",
           "spitemalice.engine.hands", "spitemalice.env.batch", "spitemalice.env.kept",
           "spitemalice.env.legal_sets", "spitemalice.field_refusals"}


def test_every_module_of_the_package_has_a_place_in_the_api_reference() -> None:
    listed = {line.split()[1] for page in (ROOT / "docs" / "api").glob("*.md")
              for line in page.read_text(encoding="utf-8").splitlines()
              if line.startswith("::: ")}
    modules = {".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
               for path in (ROOT / "spitemalice").rglob("*.py")}
    missing = sorted(m for m in modules - listed - NOT_API
                     if m != "spitemalice.cli" and not m.startswith("spitemalice.cli."))
    assert not missing, (f"add a line '::: MODULE' for {missing} to a page under docs/api/ "
                         "(and the page to mkdocs.yml's nav)")
    assert not listed - modules, f"docs/api names modules that do not exist: {listed - modules}"


def test_sphinx_roles_become_references_resolved_from_the_docstrings_place(
        tmp_path: Path) -> None:
    griffe = pytest.importorskip("griffe")
    package = tmp_path / "toy"
    package.mkdir()
    (package / "__init__.py").write_text('"""Top."""\nfrom toy.parts import Card\n',
                                         encoding="utf-8")
    (package / "parts.py").write_text('''"""Parts."""
import secrets


class Card:
    """A card; see :meth:`flip`, :meth:`.flip`, :class:`~toy.parts.Card`, :func:`toy.Card`,
    :class:`the card <Card>`, :mod:`secrets`, :func:`!flip`, :func:`nowhere`."""

    def flip(self) -> None:
        """Turn it over (:class:`Card`)."""
''', encoding="utf-8")
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        loaded = griffe.load("toy", search_paths=[str(tmp_path)],
                             extensions=griffe.load_extensions("sphinx_roles"))
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))
    card = loaded["parts.Card"].docstring.value

    def ref(path: str, title: str) -> str:
        return f'<code><autoref identifier="{path}" optional>{title}</autoref></code>'

    assert re.split(r",\s+", card.split("; see ")[1]) == [
        ref("toy.parts.Card.flip", "flip()"), ref("toy.parts.Card.flip", "flip()"),
        ref("toy.parts.Card", "Card"), ref("toy.parts.Card", "toy.Card()"),  # alias followed
        ref("toy.parts.Card", "the card"), "<code>secrets</code>", "<code>flip()</code>",
        "<code>nowhere()</code>."]
    assert ref("toy.parts.Card", "Card") in loaded["parts.Card.flip"].docstring.value


def test_the_playing_page_shows_its_screenshots(built_site: Path) -> None:
    """docs/playing.md shows the browser tests' screenshots (issue 36 §1: a phone and a
    desktop table at the deal and at the end of a long game): each image it names is in
    docs/images, and the built page shows each, copied beside it."""
    source = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    named = re.findall(r"!\[[^\]]+\]\((images/[^)]+\.png)\)", source)
    for wanted in ("fit-start-1280x720", "fit-end-1280x720", "fit-start-390x844",
                   "fit-end-390x844"):
        assert f"images/{wanted}.png" in named, wanted
    page = (built_site / "playing" / "index.html").read_text(encoding="utf-8")
    for image in named:
        assert (ROOT / "docs" / image).is_file(), image
        assert f'src="../{image}"' in page, image
        assert (built_site / image).is_file(), image
