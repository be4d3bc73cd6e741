"""A Griffe extension for the documentation site: Sphinx roles in docstrings become links.

The docstrings name other objects the Sphinx way (``:class:`Card```, ``:func:`~x.y.load```,
``:meth:`.reset```); mkdocstrings renders docstrings as Markdown, where such a role would show
as plain text.  Once Griffe has loaded a package, this extension rewrites every role in its
docstrings into an inline-code cross-reference for mkdocs-autorefs:

* the target is resolved as Python would from the docstring's place (the object's members,
  then its parents' scopes and their imports) or, failing that, as a full dotted path from
  the package; an alias (a name a module imports) is followed to the object it names;
* the reference is marked ``optional``: it becomes a link when the site renders the target
  (it has a docstring on an API page), and plain inline code otherwise (a private helper,
  a module outside the package such as ``secrets``), so ``mkdocs build --strict`` never fails
  on it;
* the shown text follows Sphinx: the target as written, its last part after ``~``, an explicit
  ``title <target>``, and ``()`` after a function or method.

A docstring written with Sphinx fields (``:param name:``, ``:returns:``; the hook specs, written
as pytest's are) is parsed as Sphinx style, so its fields render as the Google-style sections of
the other docstrings do.

Enabled in ``mkdocs.yml`` under the python handler's ``options.extensions`` as
``docs/_ext/sphinx_roles.py``.  It needs nothing from spitemalice itself.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

from griffe import Extension, GriffeError, Object, Parser

ROLE = re.compile(
    r":(?:py:)?(?P<kind>class|func|meth|attr|mod|exc|data|obj|const):`(?P<text>[^`]+)`")
"""A Sphinx cross-reference role: ``:kind:`text```."""
TITLED = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")
"""The ``title <target>`` form of a role's text."""
CALLABLE = frozenset({"func", "meth"})
"""Roles whose shown text Sphinx ends with ``()``."""
SPHINX_FIELD = re.compile(r"^\s*:(?:param \w+|returns?):", re.M)
"""A Sphinx field line: the docstring is parsed as Sphinx style."""


class SphinxRoles(Extension):
    """Rewrites the Sphinx roles of every docstring of a loaded package (module docstring)."""

    def on_package(self, *, pkg: Object, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            docstring = obj.docstring
            if docstring is not None and ":" in docstring.value:
                docstring.value = ROLE.sub(lambda role, at=obj: _reference(at, role),
                                           docstring.value)
                if SPHINX_FIELD.search(docstring.value):
                    docstring.parser = Parser.sphinx


def _objects(obj: Object) -> Iterator[Object]:
    """``obj`` and every object declared in it, depth first (aliases are left to their
    targets, which are declared elsewhere)."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)  # type: ignore[arg-type]


def _reference(at: Object, role: re.Match[str]) -> str:
    """The Markdown (inline HTML) that replaces ``role`` in the docstring of ``at``."""
    text = role["text"].strip()
    titled = TITLED.match(text)
    target = titled["target"] if titled else text
    linked = not target.startswith("!")  # ``!x``: shown, never linked (as Sphinx)
    target = target.lstrip("!~")
    if titled:
        title = titled["title"]
    else:
        title = target.rsplit(".", 1)[-1] if text.lstrip("!").startswith("~") \
            else target.lstrip(".")
        if role["kind"] in CALLABLE:
            title += "()"
    code = html.escape(title)
    path = _resolve(at, target) if linked else None
    if path is None:
        return f"<code>{code}</code>"
    return f'<code><autoref identifier="{html.escape(path)}" optional>{code}</autoref></code>'


def _resolve(at: Object, target: str) -> str | None:
    """The full path of the object ``target`` names from the docstring of ``at``, or
    ``None`` when it names nothing in the loaded packages."""
    name = target.lstrip(".")
    first, _, rest = name.partition(".")
    candidates = []
    try:
        base = at.resolve(first)
        candidates.append(f"{base}.{rest}" if rest else base)
    except GriffeError:
        pass
    candidates.append(name)  # a full dotted path from the package
    root = at.package
    for path in candidates:
        found = _lookup(root, path)
        if found is not None:
            return found
    return None


def _lookup(root: Object, path: str) -> str | None:
    """The path of the object at ``path`` (an alias followed to its target), if the package
    ``root`` holds it."""
    head, _, rest = path.partition(".")
    if head != root.name:
        return None
    try:
        found = root.get_member(rest) if rest else root
        if found.is_alias:
            found = found.final_target
    except (KeyError, GriffeError):
        return None
    return str(found.path)
