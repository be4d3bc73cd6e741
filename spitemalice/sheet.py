"""Rendering a rule sheet: the clauses of every plugin and the resolved parameters."""

from __future__ import annotations

import textwrap

import attrs

from spitemalice.rulebook import RuleBook
from spitemalice.ruleset import IDENTITY_FIELDS, Ruleset, field_help


def render_sheet(book: RuleBook, width: int = 88) -> str:
    """The rule sheet as text: title, plugins, numbered clauses with sources, parameters."""
    rules = book.ruleset
    lines = [f"{rules.title} — {rules.name} {rules.version}",
             f"plugins: {' + '.join(book.plugins)}", "", "Clauses"]
    for clause in book.clauses:
        body = textwrap.fill(f"{clause.id}  {clause.text} [{clause.source}]", width,
                             subsequent_indent=" " * (len(clause.id) + 2))
        lines.append(body)
    lines += ["", "Parameters (change with --set key=value)"]
    helps = field_help()
    names = [f.name for f in attrs.fields(Ruleset) if f.name not in IDENTITY_FIELDS]
    width_name = max(len(n) for n in names)
    for name in names:
        value = format_value(getattr(rules, name))
        lines.append(f"  {name.ljust(width_name)}  {value:<14} {helps[name]}")
    return "\n".join(lines)


def format_value(value: object) -> str:
    """A parameter value as ``--set`` takes it; rank sets as sorted numbers (``1,13``)."""
    if isinstance(value, frozenset):
        return ",".join(str(rank) for rank in sorted(value)) or "none"
    if value is None:
        return "unlimited"
    return str(value).lower() if isinstance(value, bool) else str(value)


def write_seed_sheets(folder: str) -> list[str]:
    """Write every installed rule set's sheet to ``folder/NAME.txt``; return the paths.

    This is how ``seeds/rules`` is made: ``write_seed_sheets("seeds/rules")``.
    """
    from pathlib import Path

    from spitemalice.registry import installed, load

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for info in installed():
        if info.kind == "ruleset" and info.origin.startswith("spitemalice_variants"):
            path = out / f"{info.name}.txt"
            path.write_text(render_sheet(load(info.name)) + "\n", encoding="utf-8")
            paths.append(str(path))
    return paths

