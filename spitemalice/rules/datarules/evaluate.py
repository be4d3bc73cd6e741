"""Evaluating checked expressions with the safe evaluator ``simpleeval`` (the ``datarules``
extra), and the values a condition reads, computed from what the mover sees.

The expression's syntax tree is the one :mod:`~spitemalice.rules.datarules.check` passed,
parsed once when the file was read; each evaluation walks it with names bound to small
read-only views.  ``simpleeval`` runs no code of the file: it evaluates only the node kinds it
knows, with the operators and functions given here, and reads only the attributes listed in
:data:`ALLOWED_ATTRS`.  A view is computed only when the expression reads its group, once per
position for the mover's piles and once per candidate move for the move and its target.
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
from spitemalice.rules.datarules.vocabulary import CONDITION_NAMES, CONSTANTS
from spitemalice.rules.ruleset import Ruleset

EXTRA = "datarules"
INSTALL = f"pip install 'spitemalice[{EXTRA}]'"


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


ALLOWED_ATTRS = {View: {name.partition(".")[2] for name in CONDITION_NAMES}}
"""What the evaluator may read of a view: the words of the vocabulary, nothing else."""


def evaluator(text: str, tree: ast.expr) -> Callable[[Mapping[str, Any]], Any]:
    """A function of the names (a mapping) that evaluates the checked ``tree`` of ``text``.

    Raises:
        RulesetError: ``simpleeval`` is not installed (the message names the extra).
    """
    try:
        import simpleeval  # type: ignore[import-untyped,unused-ignore]
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


def move_views(ruleset: Ruleset, state: GameState, move: Move) -> dict[str, View]:
    """The ``move`` and ``target`` groups of a play or a discard, read from public cards."""
    wild = ruleset.wild_ranks
    seat = state.seat
    if type(move) is Play:
        rank = move.card.rank
        if move.pile == NEW_PILE:
            size, top, top_wild = 0, -1, False
        else:
            pile = state.builds[move.pile]
            size, top, top_wild = len(pile), state.build_tops[move.pile], pile[-1].rank in wild
        needs = top + 1 if top >= 0 else 1
        return {
            "move": View(kind="play", rank=rank, suit=move.card.suit, wild=rank in wild,
                         stands_for=needs, source=_SOURCES[move.zone], target="build",
                         pile=move.pile + 1, cards=1,
                         partner=move.owner is not None and move.owner != seat),
            "target": View(size=size, top=top, top_wild=top_wild, needs=needs),
        }
    assert isinstance(move, Discard)  # a filter is never given a pass
    owner = seat if move.owner is None else move.owner
    onto = state.seats[owner].discards[move.pile]
    card = move.cards[0]
    return {
        "move": View(kind="pair-discard" if len(move.cards) == 2 else "discard",
                     rank=card.rank, suit=card.suit, wild=card.rank in wild,
                     stands_for=card.rank, source="hand", target="discard",
                     pile=move.pile + 1, cards=len(move.cards), partner=owner != seat),
        "target": View(size=len(onto), top=_top(onto),
                       top_wild=bool(onto) and onto[-1].rank in wild, needs=-1),
    }


def position_views(ruleset: Ruleset, state: GameState, groups: Iterable[str]) -> dict[str, View]:
    """The groups of ``groups`` that describe the position (not the move), from what the seat
    on turn sees: its hand, the tops and sizes of its piles, the build piles, counts."""
    views = {}
    for group in groups:
        make = _POSITION.get(group)
        if make is not None:
            views[group] = make(ruleset, state)
    return views


def _hand(ruleset: Ruleset, state: GameState) -> View:
    hand = state.seats[state.seat].hand
    ranks = tuple(card.rank for card in hand)
    return View(size=len(hand), ranks=ranks,
                wild=sum(1 for rank in ranks if rank in ruleset.wild_ranks))


def _payoff(ruleset: Ruleset, state: GameState) -> View:
    piles = state.seats[state.seat].payoff
    tops = tuple(_top(pile) for pile in piles)
    return View(top=tops[0] if tops else -1, tops=tops, size=sum(map(len, piles)))


def _discards(ruleset: Ruleset, state: GameState) -> View:
    piles = state.seats[state.seat].discards
    sizes = tuple(map(len, piles))
    return View(tops=tuple(_top(pile) for pile in piles), sizes=sizes,
                empty=sizes.count(0))


def _builds(ruleset: Ruleset, state: GameState) -> View:
    tops = state.build_tops
    return View(count=len(tops), tops=tops, needs=tuple(top + 1 for top in tops),
                wild_tops=sum(1 for pile in state.builds if pile[-1].rank in ruleset.wild_ranks))


def _turn(ruleset: Ruleset, state: GameState) -> View:
    return View(moves=state.turn_moves, number=state.turn)


def _game(ruleset: Ruleset, state: GameState) -> View:
    players = len(state.seats)
    return View(players=players, teams=players // ruleset.team_size,
                team_size=ruleset.team_size, draw_size=len(state.draw))


_POSITION: dict[str, Callable[[Ruleset, GameState], View]] = {
    "hand": _hand, "payoff": _payoff, "discards": _discards, "builds": _builds,
    "turn": _turn, "game": _game}
