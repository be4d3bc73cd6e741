"""Every clause of every installed rule set and house rule is cited by at least one test.

Citations are found by a static scan of the test files for clause markers, so the check does
not depend on which tests a run selects (``-k``, ``--lf``).
"""

from __future__ import annotations

from pathlib import Path

import spitemalice as sm
from spitemalice.testing.conformance import clause_citations

TESTS = Path(__file__).resolve().parents[1]
ROOT_DIR = Path(__file__).parents[2]


def cited_clauses() -> dict[str, set[str]]:
    """Clause id -> the test files (relative names) that cite it."""
    return {clause_id: {str(path.relative_to(TESTS)) for path in paths}
            for clause_id, paths in clause_citations([TESTS]).items()}


def installed_clauses() -> tuple[dict[str, str], list[str]]:
    """Clause id -> the plugin configuration it was read from, and any house rule whose
    clauses could not be read because it loads on no installed rule set."""
    plugins = sm.installed()
    rulesets = [p.name for p in plugins if p.kind == "ruleset"]
    house_rules = [p.name for p in plugins if p.kind == "house-rule"]
    clauses: dict[str, str] = {}
    for name in rulesets:
        for clause in sm.load(name).clauses:
            clauses.setdefault(clause.id, name)
    unreadable = []
    for rule in house_rules:
        bases = ["blackwood-frey", *(r for r in rulesets if r != "blackwood-frey")]
        loaded = False
        for base in bases:
            if base not in rulesets:
                continue
            try:
                book = sm.load(base, [rule])
            except sm.RulesetError:
                continue
            loaded = True
            for clause in book.clauses:
                clauses.setdefault(clause.id, f"{base} + {rule}")
        if not loaded:
            unreadable.append(rule)
    return clauses, unreadable


def test_no_installed_plugin_is_broken() -> None:
    broken = [f"{p.name}: {p.description}" for p in sm.installed() if p.kind == "broken"]
    assert not broken, "plugins that fail to import: " + "; ".join(broken)


def test_every_house_rule_loads_on_some_rule_set() -> None:
    _, unreadable = installed_clauses()
    assert not unreadable, f"house rules that stack on no installed rule set: {unreadable}"


def test_every_clause_is_cited_by_a_test() -> None:
    clauses, _ = installed_clauses()
    assert clauses, "no installed rule set has any clause"
    cited = cited_clauses()
    missing = sorted((cid, where) for cid, where in clauses.items() if cid not in cited)
    assert not missing, "clauses no test cites: " + ", ".join(
        f"{cid} ({where})" for cid, where in missing
    )


def test_every_cited_clause_exists() -> None:
    clauses, _ = installed_clauses()
    for path in (ROOT_DIR / "examples" / "house-rules").glob("*.toml"):  # data house rules
        clauses = {*clauses, *(c.id for c in sm.load(path).clauses)}
    cited = cited_clauses()
    unknown = sorted((cid, sorted(files)) for cid, files in cited.items() if cid not in clauses)
    assert not unknown, "tests cite clauses no installed rule sheet has: " + ", ".join(
        f"{cid} in {files}" for cid, files in unknown
    )


def test_clause_ids_are_unique_within_each_rule_sheet() -> None:
    for plugin in sm.installed():
        if plugin.kind != "ruleset":
            continue
        ids = [clause.id for clause in sm.load(plugin.name).clauses]
        assert len(ids) == len(set(ids)), f"{plugin.name} repeats a clause id"


def test_marker_scan_finds_known_citations(tmp_path: Path) -> None:
    """The scan itself works: it sees this project's blackwood-frey citations."""
    cited = cited_clauses()
    assert "BF-1" in cited and "BF-23" in cited
    assert "variants/test_blackwood_frey.py" in cited["BF-7"]
    name = "clause"  # spelt apart so that the scan does not read these samples as citations
    sample = f'@pytest.mark.{name}("X-1")\n@{name}("X-2", "X-3")\nbook.{name}("X-4")'
    path = tmp_path / "sample.py"
    path.write_text(sample, encoding="utf-8")
    assert set(clause_citations([path])) == {"X-1", "X-2", "X-3"}
