"""Entry points naming a module, a class or an object; house-rule sheets; provenance marks.

Issue 8 §3 (registry items) and §2 (``spitemalice rules`` names who changed a parameter).
"""

from __future__ import annotations

import re
import sys
import types
from importlib.metadata import EntryPoint
from pathlib import Path

import attrs
import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.rules import registry
from spitemalice.rules.loader import built_in_rulesets, house_rule_sheet

# The turn-based rule sets: spit's seats move at once and its sheet covers its own codes
# (tests/variants/test_spit.py).
BUILT_IN = sorted(built_in_rulesets())


class ClassPlugin:
    NAME, KIND, DESCRIPTION = "as-class", "house-rule", "a house rule given as a class"
    made = 0

    def __init__(self) -> None:
        type(self).made += 1

    @sm.hookimpl
    def spitemalice_build_pile_limit(self, ruleset: sm.Ruleset) -> int:
        return 3


class NeedsArguments:
    NAME, KIND = "needs-arguments", "house-rule"

    def __init__(self, colour: str) -> None:
        self.colour = colour


class ThirdParty:
    NAME, KIND, DESCRIPTION = "aaa-third-party", "ruleset", "sorts before every built-in"

    @sm.hookimpl
    def spitemalice_ruleset(self) -> sm.Ruleset:
        base = registry.load_plugin("blackwood-frey", "ruleset")
        return attrs.evolve(base.RULESET, name=self.NAME)  # type: ignore[attr-defined]

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return registry.base_sheet("blackwood-frey", ruleset)


def not_a_plugin() -> None:
    """A function is not a plugin."""


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> dict[str, EntryPoint]:
    module = types.ModuleType("fake_plugins")
    module.ClassPlugin = ClassPlugin  # type: ignore[attr-defined]
    module.ThirdParty = ThirdParty  # type: ignore[attr-defined]
    module.NeedsArguments = NeedsArguments  # type: ignore[attr-defined]
    module.not_a_plugin = not_a_plugin  # type: ignore[attr-defined]
    module.instance = ClassPlugin.__new__(ClassPlugin)  # type: ignore[attr-defined]
    module.instance.NAME = "as-object"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_plugins", module)
    bare = types.ModuleType("fake_bare_module")  # a module whose plugin is a class inside
    monkeypatch.setitem(sys.modules, "fake_bare_module", bare)
    found = dict(registry._entry_points())
    for name, value in [("as-class", "fake_plugins:ClassPlugin"),
                        ("as-object", "fake_plugins:instance"),
                        ("needs-arguments", "fake_plugins:NeedsArguments"),
                        ("a-function", "fake_plugins:not_a_plugin"),
                        ("bare-module", "fake_bare_module"),
                        ("missing", "no_such_module_anywhere:Thing")]:
        found[name] = EntryPoint(name, value, registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: found)
    monkeypatch.setattr(registry, "_INSTANCES", {})
    return found


def test_a_class_is_instantiated_once_and_an_object_is_used_as_it_is(
        fake_entry_points: dict[str, EntryPoint]) -> None:
    ClassPlugin.made = 0
    rules = sm.load("blackwood-frey", ["as-class"])
    again = sm.load("uspcc", ["as-class"])
    assert rules.build_limit == 3 == again.build_limit and ClassPlugin.made == 1
    assert sm.load("blackwood-frey", ["as-object"]).ruleset.max_build_piles == 3


@pytest.mark.parametrize(("name", "says"), [
    ("needs-arguments", "is a class that cannot be made with no arguments"),
    ("a-function", "is a function; the entry point must name a module, a plugin class"),
    ("bare-module", "has KIND None; .* point it at the plugin class inside, module:Class"),
    ("missing", "failed to import: ModuleNotFoundError"),
])
def test_anything_else_is_refused_with_one_line_and_listed_as_broken(
        fake_entry_points: dict[str, EntryPoint], name: str, says: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(sm.RulesetError, match=says):
        registry.load_plugin(name)
    listed = {info.name: info for info in sm.installed()}
    assert listed[name].kind == "broken" and re.search(says, listed[name].description)
    for argv in (["simulate", "blackwood-frey", "--house-rule", name, "--games", "1"],
                 ["validate", "blackwood-frey", "--house-rule", name, "--games", "1"],
                 ["rules", name]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err


def test_a_house_rule_sheet_shows_it_on_each_built_in_rule_set_only(
        fake_entry_points: dict[str, EntryPoint]) -> None:
    """A third-party rule set (even one sorting first) is not where a house rule is shown."""
    fake_entry_points["aaa-third-party"] = EntryPoint(
        "aaa-third-party", "fake_plugins:ThirdParty", registry.GROUP)
    assert sm.load("aaa-third-party").name == "aaa-third-party"
    text = house_rule_sheet("pair-discards")
    shown = re.findall(r"^Clauses \(as stacked on (.*)\)$", text, re.M)
    named = {name for line in shown for name in line.split(", ")}
    assert named == set(BUILT_IN)
    assert "aaa-third-party" not in text
    stacks = text[text.index("Stacks on"):]
    assert all(f"  {name}:" in stacks for name in BUILT_IN)


def test_a_house_rule_sheet_on_the_rule_set_the_user_names(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "pair-discards", "--on", "uspcc"]) == 0
    out = capsys.readouterr().out
    assert "Clauses (as stacked on uspcc)" in out
    assert "  uspcc: max_discard_cards 1 -> 2" in out and "blackwood-frey" not in out
    assert main(["rules", "blackwood-frey", "--on", "uspcc"]) == 2
    assert main(["rules", "pair-discards", "--on", "no-such-rules"]) == 2


def test_rules_names_who_changed_each_parameter(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('title = "Mine"\nversion = "1"\nbase = "blackwood-frey"\n'
                    '[params]\nhand_size = 6\n', encoding="utf-8")
    assert main(["rules", str(path), "--house-rule", "unlimited-build-piles",
                 "--set", "payoff_size=13"]) == 0
    out = capsys.readouterr().out
    wrapped = r" .*\n(?: +\S.*\n)*? +"  # a description may run on over further lines
    assert re.search(rf"^ \*max_build_piles +unlimited{wrapped}\(was 4; changed by house rule "
                     r"unlimited-build-piles\)$", out, re.M)
    assert re.search(rf"^ \*hand_size +6{wrapped}\(was 5; changed by file mine.toml\)$", out, re.M)
    assert re.search(rf"^ \*payoff_size +13{wrapped}\(was 26; changed by override\)$", out, re.M)
    assert re.search(r"^  discard_piles +4 ", out, re.M)
    assert "BF-10  Each seat holds a hand of six." in out


@pytest.mark.parametrize("width", [78, 88])
def test_every_line_of_a_rule_sheet_fits_the_width_asked_for(width: int) -> None:
    """The terminal game prints the sheet at 78 columns, ``spitemalice rules`` at 88: the
    clauses and every parameter's description are wrapped to fit (a parameter's description
    once ran to 200 characters on one line)."""
    houses = [p.name for p in sm.installed() if p.kind == "house-rule"
              and p.name in ("mandatory-aces", "pair-discards", "unlimited-build-piles")]
    for info in sm.installed():
        if info.kind == "ruleset":
            sheet = sm.load(info.name, houses if info.name == "blackwood-frey" else ()
                            ).sheet_text(width)
            assert [line for line in sheet.splitlines() if len(line) > width] == []
