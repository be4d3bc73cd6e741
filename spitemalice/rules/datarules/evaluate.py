"""Evaluating checked expressions with the safe evaluator ``simpleeval`` (the ``datarules``
extra), and the values a condition reads, computed from what the mover sees.

The expression's syntax tree is the one :mod:`~spitemalice.rules.datarules.check` passed,
parsed once when the file was read; each evaluation walks it with names bound to small
read-only views.  ``simpleeval`` runs no code of the file: it evaluates only the node kinds it
knows, with the operators and functions given here, and reads only the attributes listed in
:data:`ALLOWED_ATTRS`.

The per-move cost is kept small (:class:`Condition`): only the names an expression reads are
computed, those of the position once per position and those of the move once per candidate,
each by a small function of its own (:data:`POSITION`, :data:`MOVE`); and since an expression
is a pure function of the names it reads, its answer is remembered for those values, so
``simpleeval`` walks the tree once per distinct combination, not once per move.
"""

from __future__ import annotations

import ast
import operator
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from spitemalice.errors import RulesetError
from spitemalice.model import GameState
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone
from spitemalice.rules.datarules.vocabulary import CONDITION_NAMES, CONSTANTS, SCORE_NAMES
from spitemalice.rules.ruleset import Ruleset

EXTRA = "datarules"
INSTALL = f"pip install 'spitemalice[{EXTRA}]'"


# A division or remainder by 0 gives 0.  A divisor written as 0 is refused when the file is
# read (check.py); one that a name makes 0 during play (x // turn.moves) gives 0, in conditions,
# values and scores alike, as docs/variants.md says.
def _safe_div(a: int, b: int) -> int:
    return a // b if b else 0


def _safe_mod(a: int, b: int) -> int:
    return a % b if b else 0


def _extreme(pick: Callable[[Iterable[int]], int]) -> Callable[[Iterable[int]], int]:
    def extreme(values: Iterable[int]) -> int:
        values = tuple(values)
        return pick(values) if values else -1
    return extreme


def _count(values: Iterable[int], value: int) -> int:
    return sum(1 for item in values if item == value)


FUNCTIONS = {"len": len, "count": _count, "lowest": _extreme(min), "highest": _extreme(max)}


def _operators() -> dict[type, Callable[..., Any]]:
    return {
        ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: _safe_div, ast.Mod: _safe_mod, ast.Eq: operator.eq,
        ast.NotEq: operator.ne, ast.Gt: operator.gt, ast.Lt: operator.lt, ast.GtE: operator.ge,
        ast.LtE: operator.le, ast.Not: operator.not_, ast.USub: operator.neg,
        ast.UAdd: operator.pos, ast.BitOr: operator.or_, ast.BitAnd: operator.and_,
        ast.In: lambda x, y: x in y, ast.NotIn: lambda x, y: x not in y,
    }


class View:
    """A group of names (``move``, ``hand`` ...) as the evaluator reads it: plain values."""

    __slots__ = ("__dict__",)

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


ALLOWED_ATTRS = {View: {name.partition(".")[2] for name in (*CONDITION_NAMES, *SCORE_NAMES)}}
"""What the evaluator may read of a view: the words of the vocabularies, nothing else."""


def evaluator(text: str, tree: ast.expr) -> Callable[[Mapping[str, Any]], Any]:
    """A function of the names (a mapping) that evaluates the checked ``tree`` of ``text``.

    Raises:
        RulesetError: ``simpleeval`` is not installed (the message names the extra).
    """
    try:
        import simpleeval  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise RulesetError(f"house rules written in a rule-set file ([[rule]] tables) need "
                           f"the safe expression evaluator simpleeval: {INSTALL}") from None
    local = threading.local()  # an evaluator keeps the names of its call: one per thread

    def run(names: Mapping[str, Any]) -> Any:
        evaluate = getattr(local, "evaluate", None)
        if evaluate is None:
            evaluate = simpleeval.EvalWithCompoundTypes(
                operators=_operators(), functions=dict(FUNCTIONS), names={},
                allowed_attrs=ALLOWED_ATTRS)
            local.evaluate = evaluate
        evaluate.names = {**CONSTANTS, **names}
        return evaluate.eval(text, previously_parsed=tree)

    return run


_SOURCES = {Zone.HAND: "hand", Zone.PAYOFF: "payoff", Zone.DISCARD: "discard"}


def _top(pile: tuple[Any, ...]) -> int:
    return pile[-1].rank if pile else -1


def _build(state: GameState, move: Move) -> tuple[Any, ...] | None:
    """The build pile a play goes onto (``None`` for a new one)."""
    pile = move.pile  # type: ignore[union-attr]
    return None if pile == NEW_PILE else state.builds[pile]


def _onto(state: GameState, move: Discard) -> tuple[Any, ...]:
    """The discard pile a discard goes onto (the mover's, or a partner's)."""
    owner = state.seat if move.owner is None else move.owner
    return state.seats[owner].discards[move.pile]


def _rank(move: Move) -> int:
    return move.card.rank if type(move) is Play else move.cards[0].rank  # type: ignore[union-attr]


def _target_top(ruleset: Ruleset, state: GameState, move: Move) -> int:
    if type(move) is Play:
        return -1 if move.pile == NEW_PILE else state.build_tops[move.pile]
    return _top(_onto(state, move))  # type: ignore[arg-type]


def _needs(ruleset: Ruleset, state: GameState, move: Move) -> int:
    if type(move) is not Play:
        return -1
    return 1 if move.pile == NEW_PILE else state.build_tops[move.pile] + 1


def _target_size(ruleset: Ruleset, state: GameState, move: Move) -> int:
    pile = _build(state, move) if type(move) is Play else _onto(state, move)  # type: ignore[arg-type]
    return len(pile) if pile else 0


def _target_top_wild(ruleset: Ruleset, state: GameState, move: Move) -> bool:
    pile = _build(state, move) if type(move) is Play else _onto(state, move)  # type: ignore[arg-type]
    return bool(pile) and pile[-1].rank in ruleset.wild_ranks  # type: ignore[index]


def _kind(ruleset: Ruleset, state: GameState, move: Move) -> str:
    if type(move) is Play:
        return "play"
    return "pair-discard" if len(move.cards) == 2 else "discard"  # type: ignore[union-attr]


def _partner(ruleset: Ruleset, state: GameState, move: Move) -> bool:
    owner = move.owner  # type: ignore[union-attr]
    return owner is not None and owner != state.seat


MoveGetter = Callable[[Ruleset, GameState, Move], Any]
PositionGetter = Callable[[Ruleset, GameState], Any]

MOVE: dict[str, MoveGetter] = {
    "move.kind": _kind,
    "move.rank": lambda r, s, m: _rank(m),
    "move.suit": lambda r, s, m: (m.card if type(m) is Play else m.cards[0]).suit,  # type: ignore[union-attr]
    "move.wild": lambda r, s, m: _rank(m) in r.wild_ranks,
    "move.stands_for": lambda r, s, m: _needs(r, s, m) if type(m) is Play else _rank(m),
    "move.source": lambda r, s, m: _SOURCES[m.zone] if type(m) is Play else "hand",
    "move.target": lambda r, s, m: "build" if type(m) is Play else "discard",
    "move.pile": lambda r, s, m: m.pile + 1,  # type: ignore[union-attr]
    "move.cards": lambda r, s, m: 1 if type(m) is Play else len(m.cards),  # type: ignore[union-attr]
    "move.partner": _partner,
    "target.size": _target_size,
    "target.top": _target_top,
    "target.top_wild": _target_top_wild,
    "target.needs": _needs,
}
"""How each name of the move and its target is read from a candidate move."""


def _mine(state: GameState) -> Any:
    return state.seats[state.seat]


def _wild_tops(ruleset: Ruleset, state: GameState) -> int:
    return sum(1 for pile in state.builds if pile[-1].rank in ruleset.wild_ranks)


POSITION: dict[str, PositionGetter] = {
    "hand.size": lambda r, s: len(_mine(s).hand),
    "hand.ranks": lambda r, s: tuple(card.rank for card in _mine(s).hand),
    "hand.wild": lambda r, s: sum(1 for card in _mine(s).hand if card.rank in r.wild_ranks),
    "payoff.top": lambda r, s: _top(_mine(s).payoff[0]) if _mine(s).payoff else -1,
    "payoff.tops": lambda r, s: tuple(_top(pile) for pile in _mine(s).payoff),
    "payoff.size": lambda r, s: sum(map(len, _mine(s).payoff)),
    "discards.tops": lambda r, s: tuple(_top(pile) for pile in _mine(s).discards),
    "discards.sizes": lambda r, s: tuple(map(len, _mine(s).discards)),
    "discards.empty": lambda r, s: sum(1 for pile in _mine(s).discards if not pile),
    "builds.count": lambda r, s: len(s.builds),
    "builds.tops": lambda r, s: s.build_tops,
    "builds.needs": lambda r, s: tuple(top + 1 for top in s.build_tops),
    "builds.wild_tops": _wild_tops,
    "turn.moves": lambda r, s: s.turn_moves,
    "turn.number": lambda r, s: s.turn,
    "game.players": lambda r, s: len(s.seats),
    "game.teams": lambda r, s: len(s.seats) // r.team_size,
    "game.team_size": lambda r, s: r.team_size,
    "game.draw_size": lambda r, s: len(s.draw),
}
"""How each name of the position is read from what the seat on turn sees."""

MEMO = 4096
"""Answers a condition remembers (for as many combinations of the values it reads); past
that it forgets them all and starts again."""


class Condition:
    """A checked condition, ready to be asked about the candidate moves of a position.

    Args:
        text: the expression.
        tree: its checked syntax tree.
        names: the vocabulary names it reads.

    Raises:
        RulesetError: ``simpleeval`` is not installed (the message names the extra).
    """

    def __init__(self, text: str, tree: ast.expr, names: Iterable[str]) -> None:
        self.run = evaluator(text, tree)
        ordered = sorted(names)
        self.position = tuple(n for n in ordered if n in POSITION)
        self.per_move = tuple(n for n in ordered if n in MOVE)
        self._position = tuple(POSITION[n] for n in self.position)
        self._move = tuple(MOVE[n] for n in self.per_move)
        self._memo: dict[tuple[Any, ...], bool] = {}

    def at(self, ruleset: Ruleset, state: GameState) -> Callable[[Move], bool]:
        """Whether the condition holds for a candidate move of ``state`` (a function of it)."""
        known = tuple(get(ruleset, state) for get in self._position)
        getters, memo = self._move, self._memo

        def holds(move: Move) -> bool:
            key = known + tuple(get(ruleset, state, move) for get in getters)
            found = memo.get(key)
            if found is None:
                found = bool(self.run(self._views(key)))
                if len(memo) >= MEMO:
                    memo.clear()
                memo[key] = found
            return found

        return holds

    def _views(self, values: tuple[Any, ...]) -> dict[str, View]:
        groups: dict[str, dict[str, Any]] = {}
        for name, value in zip((*self.position, *self.per_move), values, strict=True):
            group, _, word = name.partition(".")
            groups.setdefault(group, {})[word] = value
        return {group: View(**words) for group, words in groups.items()}
