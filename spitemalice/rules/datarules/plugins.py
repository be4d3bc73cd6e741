"""The plugins a data house rule compiles to: one object per ``[[rule]]`` table, answering the
same hooks a Python house rule answers (:mod:`spitemalice.rules.hookspecs`).

* every rule: ``spitemalice_rule_sheet`` (its clause) and, with ``refuse_when``,
  ``spitemalice_conflicts``;
* ``forbid``: ``spitemalice_filter_moves``, refusing the moves of the kinds it names for which
  ``when`` holds;
* ``require``: ``spitemalice_filter_moves``, allowing only the moves for which the condition
  holds whenever one does;
* ``values``: a ``spitemalice_ruleset`` wrapper setting parameters from expressions over the
  rule set's own values; with ``score``, also ``spitemalice_score``
  (:mod:`~spitemalice.rules.datarules.scoring`).

A rule without a move filter has no ``spitemalice_filter_moves``, so it costs the engine
nothing during play.  A plugin pickles as its table (a worker process compiles it again).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.model import GameState
from spitemalice.moves import Discard, Move, Play
from spitemalice.rules.datarules.evaluate import Condition
from spitemalice.rules.hookspecs import hookimpl
from spitemalice.rules.policies import Clause, MoveFilter
from spitemalice.rules.ruleset import Ruleset, convert_param

Evaluator = Callable[[Mapping[str, Any]], Any]


@attrs.frozen
class Spec:
    """What a ``[[rule]]`` table compiled to (the evaluators made from checked expressions).

    Attributes:
        name: the plugin's name, ``FILE:CLAUSE``.
        clause: its rule-sheet clause.
        table: the table as read (what the plugin pickles as) and ``file``, ``index``: where.
        kinds: the move kinds a ``forbid`` rule names; ``condition``: its ``when`` or the
            ``require`` condition (``None``: always).
        reason, message: the refusal of a forbid or require rule.
        values: parameter -> evaluator, or a value given as itself, of a values rule.
        refuse_when, refusal: a test of the rule set that refuses the stack, and why.
        rebuild: compiles ``(table, file, index)`` again (how the plugin is unpickled).
        score: the ``values.score`` expression of a values rule
            (:class:`~spitemalice.rules.datarules.scoring.Score`), or ``None``.
    """

    name: str
    clause: Clause
    table: Mapping[str, Any]
    file: str
    index: int
    kinds: frozenset[str] = frozenset()
    condition: Condition | None = None
    reason: str = ""
    message: str = ""
    values: Mapping[str, Any] = attrs.field(factory=dict)
    refuse_when: Evaluator | None = None
    refusal: str = ""
    rebuild: Callable[..., Any] | None = None
    score: Any = None


class DataRule:
    """A ``[[rule]]`` table as a house-rule plugin: its clause, and its refusal of a stack."""

    KIND = "house-rule"

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.NAME = spec.name
        self.DESCRIPTION = spec.clause.text
        codes = spec.clause.reasons
        self.REASONS = {code: spec.message for code in codes} if spec.reason else codes

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        spec = self.spec
        return spec.rebuild, (dict(spec.table), spec.file, spec.index)

    @hookimpl
    def spitemalice_rule_sheet(self) -> list[Clause]:
        return [self.spec.clause]

    @hookimpl
    def spitemalice_conflicts(self, ruleset: Ruleset, plugins: list[str]) -> str | None:
        test = self.spec.refuse_when
        if test is None:
            return None
        from spitemalice.rules.datarules.vocabulary import ruleset_values
        if test(ruleset_values(ruleset)):
            return f"{self.NAME} cannot stack on {plugins[0]}: {self.spec.refusal}"
        return None


def _kind(move: Move) -> str:
    if type(move) is Play:
        return "play"
    assert isinstance(move, Discard)
    return "pair-discard" if len(move.cards) == 2 else "discard"


class ForbidRule(DataRule):
    """``forbid``: a move of one of the kinds named is refused while ``when`` holds."""

    @hookimpl
    def spitemalice_filter_moves(self, ruleset: Ruleset, state: GameState,
                                 moves: tuple[Move, ...]) -> MoveFilter | None:
        spec = self.spec
        kinds = spec.kinds
        holds = None if spec.condition is None else spec.condition.at(ruleset, state)
        allowed = tuple(move for move in moves if _kind(move) not in kinds or (
            holds is not None and not holds(move)))
        if len(allowed) == len(moves):
            return None
        return MoveFilter(allowed, spec.reason, spec.message)


class RequireRule(DataRule):
    """``require``: while some move satisfies the condition, only such moves are allowed."""

    @hookimpl
    def spitemalice_filter_moves(self, ruleset: Ruleset, state: GameState,
                                 moves: tuple[Move, ...]) -> MoveFilter | None:
        spec = self.spec
        assert spec.condition is not None  # a require rule always has one
        allowed = tuple(filter(spec.condition.at(ruleset, state), moves))
        if not allowed or len(allowed) == len(moves):
            return None
        return MoveFilter(allowed, spec.reason, spec.message)


class ValuesRule(DataRule):
    """``values``: parameters set from the rule set's own values, as a house rule's
    ``spitemalice_ruleset`` wrapper sets them."""

    @hookimpl(wrapper=True)
    def spitemalice_ruleset(self) -> Generator[None, Ruleset, Ruleset]:
        ruleset = yield
        from spitemalice.rules.datarules.vocabulary import ruleset_values
        names = ruleset_values(ruleset)
        changes = {}
        for field, value in self.spec.values.items():
            if not callable(value):
                changes[field] = value  # converted when the file was read
                continue
            result = value(names)
            if field == "max_build_piles" and result == 0:
                result = None  # 0 reads as no limit, and sets none
            try:
                changes[field] = convert_param(field, sorted(result) if isinstance(
                    result, frozenset | set) else result)
            except RulesetError as error:
                raise RulesetError(f"{self.NAME}: values.{field}: {error}") from None
        try:
            return attrs.evolve(ruleset, **changes)
        except (RulesetError, ValueError, TypeError) as error:
            raise RulesetError(f"{self.NAME} cannot stack on {ruleset.name}: {error}") from None
