"""``validate`` as a value (issue 33, item 8): a frozen :class:`Validation` whose ``run()``
gives the report, the steps after the games a table of callables, the package ``__init__`` a
face, and no import circle inside the package."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import attrs
import pytest

import spitemalice as sm
from spitemalice import validation
from spitemalice.errors import SpiteMaliceError
from spitemalice.validation import STEPS, Report, Step, Validation, validate_book
from spitemalice.validation.steps import Plan

PACKAGE = Path(validation.__file__).parent
QUICK = sm.load("blackwood-frey", payoff_size=5)


class _Crashing:
    """A house rule whose move filter crashes from turn 3: every game fails."""

    NAME, KIND = "crashing", "house-rule"

    @sm.hookimpl
    def spitemalice_filter_moves(self, ruleset: Any, state: Any, moves: Any) -> None:
        if state.turn >= 3:
            raise RuntimeError("boom")


def test_a_validation_is_a_frozen_value_compared_by_what_it_holds() -> None:
    one = Validation(QUICK, games=3, seed=2)
    assert one == Validation(QUICK, games=3, seed=2)
    assert one != Validation(QUICK, games=3, seed=3)
    assert one != Validation(sm.load("blackwood-frey", payoff_size=5), games=3, seed=2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        one.games = 4  # type: ignore[misc]
    assert one.steps == STEPS


def test_validate_book_is_the_value_run() -> None:
    made = Validation(QUICK, games=3, seed=2).run().as_dict()
    assert made == validate_book(QUICK, games=3, seed=2).as_dict()
    names = [check["name"] for check in made["checks"]]  # type: ignore[attr-defined]
    assert names[-5:] == ["games at every seat count", "house rules stacked in both orders",
                          "completion", "balance", "duration_moves"]  # every step ran


def test_a_bad_argument_is_refused_when_the_value_is_made() -> None:
    """Made, a validation can run: a wrong job count is refused before any check runs."""
    with pytest.raises(SpiteMaliceError, match="jobs"):
        Validation(QUICK, games=3, jobs=0)
    with pytest.raises(TypeError, match=r"^Validation takes a RuleBook"):
        Validation("blackwood-frey")  # type: ignore[arg-type]


def test_only_the_steps_given_run_in_order_each_from_the_plan_and_the_report() -> None:
    book = sm.RuleBook.from_plugins(sm.load_plugin("blackwood-frey", "ruleset"), [_Crashing()])
    seen: list[tuple[str, Plan]] = []

    def noted(name: str) -> Step:
        def run(plan: Plan, report: Report) -> Report:
            seen.append((name, plan))
            return attrs.evolve(report, checks=(*report.checks, validation.Check(
                name, True, f"after {len(report.checks)} checks")))
        return Step(name, run)

    report = Validation(book, games=3, seed=1, steps=(noted("first"), noted("second"))).run()
    assert [name for name, _ in seen] == ["first", "second"]
    plan = seen[0][1]
    assert plan.book is book and plan.seed == 1 and plan.own == ("crashing",)
    assert plan.failure is not None and plan.failure.invariant == "crash"
    names = [check.name for check in report.checks]
    assert names[-2:] == ["first", "second"]
    assert "the judgement of the games" not in names and report.reproduction is None
    assert report.checks[-1].figure == f"after {len(names) - 1} checks"


def test_a_step_cut_short_is_named_with_every_step_after_it() -> None:
    def stopped(plan: Plan, report: Report) -> Report:
        raise KeyboardInterrupt

    done = Step("done", lambda plan, report: report)
    report = Validation(QUICK, games=3, seed=1, steps=(
        done, Step("stopped", stopped), Step("never", lambda plan, report: report))).run()
    assert report.interrupted and report.not_run == ("stopped", "never")


def test_the_package_init_is_a_face() -> None:
    """Only a docstring, imports from the package's modules and ``__all__``; each name it
    gives is defined in a module."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    kinds = {type(node).__name__ for node in tree.body[1:]}
    assert kinds == {"ImportFrom", "Assign"}
    assigned = [ast.unparse(n.targets[0]) for n in tree.body if isinstance(n, ast.Assign)]
    assert assigned == ["__all__"]
    defined = [name for name in validation.__all__ if name != "STEPS"
               and getattr(validation, name).__module__ == validation.__name__]
    assert defined == []


def _imports(path: Path) -> set[str]:
    """The modules of the package ``path`` imports, those imported only for type checking
    too (a circle there is one a maintainer still has to follow)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "spitemalice.validation."):
            found.add((node.module or "").rpartition(".")[2])
    return found


def test_no_module_of_the_package_imports_one_that_imports_it_back() -> None:
    graph = {path.stem: _imports(path) for path in PACKAGE.glob("*.py")}
    assert "failure" in graph["tally"] and "failure" in graph["dynamic"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()) - seen:
            if nxt == goal or reaches(nxt, goal, seen | {nxt}):
                return True
        return False

    assert [name for name in sorted(graph) if reaches(name, name, set())] == []


@pytest.mark.parametrize(("steps", "says"), [
    (None, "steps, a list of Step values, e.g. list(STEPS), not None"),
    ("seat counts", 'not the str "seat counts"'),
    ([STEPS[0], 1], "step 1 is int"),
])
def test_steps_that_are_not_a_list_of_steps_are_refused_when_the_value_is_made(
        steps: Any, says: str) -> None:
    """A wrong ``steps`` is refused before any game, naming what was wrong (it used to fail
    after every game was played, in the middle of the steps)."""
    with pytest.raises(TypeError, match="Validation takes steps") as refused:
        Validation(QUICK, games=1, steps=steps)
    assert says in str(refused.value)


def test_a_list_of_steps_is_kept_as_a_tuple_so_the_value_hashes() -> None:
    value = Validation(QUICK, games=1, steps=list(STEPS[:1]))
    assert value.steps == STEPS[:1] and isinstance(value.steps, tuple)
    assert hash(value) == hash(Validation(QUICK, games=1, steps=STEPS[:1]))
