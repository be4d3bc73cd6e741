"""Checking a data house rule's expression once, when its file is read: its syntax, its names,
its types and its size.  What passes is evaluated, move after move, by the safe evaluator
(:mod:`spitemalice.rules.datarules.evaluate`) and can fail there on nothing but a fault of the
library.

An expression is one line of a small language written like Python or a spreadsheet formula:
numbers, texts in quotes, ``true``/``false``, lists ``[1, 2]``, the names of
:mod:`~spitemalice.rules.datarules.vocabulary`, the comparisons ``== != < <= > >= in not in``,
``and or not``, the arithmetic ``+ - * // %`` on whole numbers (a divisor written as 0 is
refused; one that is 0 during play gives 0), ``| & -`` on rank lists (union,
common part, difference), ``X if TEST else Y``, and the functions of
:data:`~spitemalice.rules.datarules.vocabulary.FUNCTIONS`.  Nothing else parses: no
attribute but a vocabulary name's, no indexing, no assignment, no lambda, no method call.
"""

from __future__ import annotations

import ast
import difflib
import warnings
from collections.abc import Mapping

import attrs

from spitemalice import limits
from spitemalice.rules.datarules.vocabulary import (
    BOOL,
    CONSTANTS,
    FUNCTIONS,
    HIDDEN,
    INT,
    INTS,
    TEXT,
    TEXTS,
    TYPE_WORDS,
)


@attrs.frozen
class Fault(Exception):
    """A fault of an expression: what is wrong and what would be right, and where it starts
    (``offset``: characters from the expression's start)."""

    message: str
    offset: int = 0

    def __str__(self) -> str:
        return self.message


@attrs.frozen
class Checked:
    """An expression that passed: its syntax tree, its type, and the vocabulary names it
    reads (``move.rank``; a bare name such as ``payoff_size`` for a value expression)."""

    text: str
    tree: ast.expr
    type: str
    names: frozenset[str]


_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
            ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in"}
_ARITHMETIC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
_SET_OPS = {ast.BitOr: "|", ast.BitAnd: "&", ast.Sub: "-"}


def check(text: str, names: Mapping[str, str], want: str) -> Checked:
    """Parse and check ``text`` against ``names`` (name -> type); its type must be ``want``.

    Raises:
        Fault: a syntax error, a construct the language lacks, an unknown or hidden name, a
            type error, or an expression longer than
            :data:`~spitemalice.limits.MAX_CONDITION_CHARS` or deeper than
            :data:`~spitemalice.limits.MAX_CONDITION_DEPTH`.
    """
    if len(text) > limits.MAX_CONDITION_CHARS:
        raise Fault(f"the expression is {len(text)} characters long; at most "
                    f"{limits.MAX_CONDITION_CHARS} are allowed (limits.MAX_CONDITION_CHARS): "
                    "split the rule in two")
    if not text.strip():
        raise Fault(f"the expression is empty: write {TYPE_WORDS[want]} expression such as "
                    f"{_EXAMPLE[want]}")
    try:
        with warnings.catch_warnings():  # "invalid decimal literal" and the like: a fault below
            warnings.simplefilter("ignore")
            tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as error:
        where = _offset(text.strip(), error.lineno or 1, (error.offset or 1) - 1, chars=True)
        raise Fault(f"not a valid expression ({error.msg}): write names, numbers and "
                    "operators such as move.rank > target.top and target.size > 0",
                    where + _lead(text)) from None
    except (RecursionError, MemoryError, ValueError):
        raise Fault(f"the expression is nested deeper than {limits.MAX_CONDITION_DEPTH} "
                    "levels (limits.MAX_CONDITION_DEPTH)") from None
    checker = _Checker(text, names)
    found = checker.type(tree, 1)
    if found != want:
        raise Fault(f"the expression gives {TYPE_WORDS[found]}, but here it must give "
                    f"{TYPE_WORDS[want]}, such as {_EXAMPLE[want]}", _lead(text))
    return Checked(text, tree, found, frozenset(checker.used))


_EXAMPLE = {BOOL: "move.rank == 1", INT: "payoff_size - 5", INTS: "wild_ranks | {1, 2}",
            TEXT: '"set-aside"', TEXTS: '["play"]'}


def _lead(text: str) -> int:
    return len(text) - len(text.lstrip())


def _offset(text: str, line: int, col: int, chars: bool = False) -> int:
    """The character offset in ``text`` of (1-based ``line``, 0-based ``col``); ``col`` counts
    UTF-8 bytes as the syntax tree does, unless ``chars``."""
    lines = text.split("\n")
    line = max(1, min(line, len(lines)))
    before = sum(len(part) + 1 for part in lines[: line - 1])
    here = lines[line - 1]
    if not chars:
        col = len(here.encode("utf-8")[:col].decode("utf-8", "ignore"))
    return before + max(0, min(col, len(here)))


class _Checker:
    def __init__(self, text: str, names: Mapping[str, str]) -> None:
        self.text = text.strip()
        self.lead = _lead(text)
        self.names = names
        self.used: set[str] = set()

    def fault(self, node: ast.AST, message: str) -> Fault:
        line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        return Fault(message, _offset(self.text, line, col) + self.lead)

    def type(self, node: ast.expr, depth: int) -> str:
        if depth > limits.MAX_CONDITION_DEPTH:
            raise self.fault(node, f"the expression is nested deeper than "
                             f"{limits.MAX_CONDITION_DEPTH} levels "
                             "(limits.MAX_CONDITION_DEPTH): split the rule in two")
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise self.fault(node, f"{_construct(node)} is not part of the rule language: "
                             "use names, numbers, texts, lists, comparisons, and/or/not, "
                             "+ - * // %, X if TEST else Y and "
                             f"{', '.join(FUNCTIONS)}(...)")
        found: str = method(node, depth + 1)
        return found

    def expect(self, node: ast.expr, depth: int, want: str, what: str) -> None:
        found = self.type(node, depth)
        if found != want:
            raise self.fault(node, f"{what} must be {TYPE_WORDS[want]}, but "
                             f"{_source(self.text, node)!r} is {TYPE_WORDS[found]}")

    def _Constant(self, node: ast.Constant, depth: int) -> str:
        value = node.value
        if isinstance(value, bool):
            return BOOL
        if isinstance(value, int):
            if abs(value) > limits.MAX_CONDITION_NUMBER:
                raise self.fault(node, f"the number {value} is larger than "
                                 f"{limits.MAX_CONDITION_NUMBER} (limits.MAX_CONDITION_NUMBER)")
            return INT
        if isinstance(value, str):
            return TEXT
        raise self.fault(node, f"{value!r} is neither a whole number, a text in quotes nor "
                         "true/false")

    def _Name(self, node: ast.Name, depth: int) -> str:
        name = node.id
        if name in CONSTANTS:
            return BOOL
        if name in self.names:
            self.used.add(name)
            return self.names[name]
        if name in HIDDEN:
            raise self.fault(node, _hidden(name, HIDDEN[name]))
        group = sorted(n for n in self.names if n.startswith(f"{name}."))
        if group:
            raise self.fault(node, f"{name} is a group of names, not a value: use one of "
                             f"{', '.join(group)}")
        raise self.fault(node, _unknown(name, self.names))

    def _Attribute(self, node: ast.Attribute, depth: int) -> str:
        if not isinstance(node.value, ast.Name):
            raise self.fault(node, f"{_source(self.text, node)!r} is not a name the rules "
                             "know: a name is a group and a word, such as move.rank")
        name = f"{node.value.id}.{node.attr}"
        if name in self.names:  # a score reads the opponents' hands: the game is over
            self.used.add(name)
            return self.names[name]
        for hidden in (name, node.value.id):
            if hidden in HIDDEN:
                raise self.fault(node, _hidden(name, HIDDEN[hidden]))
        if name not in self.names:
            raise self.fault(node, _unknown(name, self.names))
        self.used.add(name)
        return self.names[name]

    def _BoolOp(self, node: ast.BoolOp, depth: int) -> str:
        word = "and" if isinstance(node.op, ast.And) else "or"
        for value in node.values:
            self.expect(value, depth, BOOL, f"each side of {word!r}")
        return BOOL

    def _UnaryOp(self, node: ast.UnaryOp, depth: int) -> str:
        if isinstance(node.op, ast.Not):
            self.expect(node.operand, depth, BOOL, "what follows 'not'")
            return BOOL
        if isinstance(node.op, ast.USub | ast.UAdd):
            self.expect(node.operand, depth, INT, "a number's sign applies to a number: it")
            return INT
        raise self.fault(node, "'~' is not part of the rule language: use not, or -")

    def _BinOp(self, node: ast.BinOp, depth: int) -> str:
        left = self.type(node.left, depth)
        if left == INTS and type(node.op) in _SET_OPS:
            self.expect(node.right, depth, INTS, f"the right side of {_SET_OPS[type(node.op)]!r}")
            return INTS
        sign = _ARITHMETIC.get(type(node.op))
        if sign is None:
            raise self.fault(node, f"{_construct(node)} is not part of the rule language: the "
                             "operators are + - * // % on numbers and | & - on rank lists")
        if left != INT:
            raise self.fault(node.left, f"{sign!r} works on whole numbers, but "
                             f"{_source(self.text, node.left)!r} is {TYPE_WORDS[left]}")
        self.expect(node.right, depth, INT, f"the right side of {sign!r}")
        if sign in ("//", "%") and _constant(node.right) == 0:
            raise self.fault(node.right, f"{_source(self.text, node)!r} divides by 0, which "
                             "has no value: divide by a number other than 0 (a name whose "
                             f"value is 0 during play makes {sign!r} give 0, docs/variants.md)")
        return INT

    def _Compare(self, node: ast.Compare, depth: int) -> str:
        left, left_node = self.type(node.left, depth), node.left
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.type(right_node, depth)
            sign = _COMPARE.get(type(op), "is")
            if sign in ("in", "not in"):
                inside = {INT: INTS, TEXT: TEXTS}.get(left)
                if right != inside:
                    raise self.fault(right_node, f"{sign!r} asks whether a value is in a list "
                                     f"of its kind: {_source(self.text, left_node)!r} is "
                                     f"{TYPE_WORDS[left]}, so the right side must be "
                                     f"{TYPE_WORDS.get(inside or '', 'a list')}, not "
                                     f"{TYPE_WORDS[right]}")
            elif sign in ("==", "!="):
                if left != right:
                    raise self.fault(right_node, f"{sign!r} compares values of one kind: "
                                     f"{_source(self.text, left_node)!r} is {TYPE_WORDS[left]} "
                                     f"and {_source(self.text, right_node)!r} is "
                                     f"{TYPE_WORDS[right]}")
            elif sign == "is":
                raise self.fault(node, "'is' is not part of the rule language: use ==")
            elif left != INT or right != INT:
                bad = left_node if left != INT else right_node
                raise self.fault(bad, f"{sign!r} compares whole numbers, but "
                                 f"{_source(self.text, bad)!r} is "
                                 f"{TYPE_WORDS[left if left != INT else right]}")
            left, left_node = right, right_node
        return BOOL

    def _IfExp(self, node: ast.IfExp, depth: int) -> str:
        self.expect(node.test, depth, BOOL, "the test after 'if'")
        body = self.type(node.body, depth)
        self.expect(node.orelse, depth, body, "the value after 'else' (like the one before "
                    "'if')")
        return body

    def _Call(self, node: ast.Call, depth: int) -> str:
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise self.fault(node, f"{_source(self.text, node)!r} calls something that is "
                             f"not a function of the rule language ({', '.join(FUNCTIONS)})")
        spec = FUNCTIONS.get(node.func.id)
        if spec is None:
            raise self.fault(node, f"{node.func.id}() is not a function of the rule language"
                             f"{_closest(node.func.id, FUNCTIONS)}; the functions are "
                             f"{', '.join(FUNCTIONS)}")
        takes, gives, _ = spec
        if len(node.args) != len(takes):
            shown = ", ".join(TYPE_WORDS[t] for t in takes)
            raise self.fault(node, f"{node.func.id}() takes {len(takes)} argument(s) "
                             f"({shown}), not {len(node.args)}")
        for index, (arg, want) in enumerate(zip(node.args, takes, strict=True)):
            self.expect(arg, depth, want, f"argument {index + 1} of {node.func.id}()")
        return gives

    def _List(self, node: ast.List | ast.Tuple | ast.Set, depth: int) -> str:
        kinds = {self.type(element, depth) for element in node.elts}
        if kinds <= {INT}:
            return INTS
        if kinds == {TEXT}:
            return TEXTS
        raise self.fault(node, "a list holds whole numbers only, or texts only, such as "
                         '[1, 2] or ["play", "discard"]')

    _Tuple = _Set = _List


def _constant(node: ast.expr) -> int | None:
    """The value of a whole-number expression written without names (``0``, ``-0``,
    ``2 - 2``), or ``None``."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _constant(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult):
        left, right = _constant(node.left), _constant(node.right)
        if left is None or right is None:
            return None
        return {ast.Add: left + right, ast.Sub: left - right,
                ast.Mult: left * right}[type(node.op)]
    return None


def _construct(node: ast.AST) -> str:
    words = {"Subscript": "indexing with [ ]", "Lambda": "a lambda", "ListComp": "a "
             "comprehension", "SetComp": "a comprehension", "GeneratorExp": "a comprehension",
             "DictComp": "a comprehension", "Dict": "a table { : }", "Starred": "'*'",
             "NamedExpr": "':='", "JoinedStr": "an f-text", "Await": "await",
             "Pow": "'**'", "Div": "'/' (use // for whole numbers)", "MatMult": "'@'",
             "LShift": "'<<'", "RShift": "'>>'", "BitXor": "'^'", "BitOr": "'|'",
             "BitAnd": "'&'", "Slice": "a slice"}
    name = type(getattr(node, "op", node)).__name__
    return words.get(name, words.get(type(node).__name__, f"{type(node).__name__}"))


def _source(text: str, node: ast.AST) -> str:
    return ast.get_source_segment(text, node) or ast.unparse(node)


def _closest(name: str, names: Mapping[str, object]) -> str:
    match = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
    return f" (did you mean {match[0]}?)" if match else ""


def _unknown(name: str, names: Mapping[str, str]) -> str:
    groups = sorted({n.partition(".")[0] for n in names if "." in n})
    listing = (f"the groups are {', '.join(groups)}" if groups else
               "the names are the rule set's parameters (spitemalice rules NAME lists them)")
    return (f"unknown name {name}{_closest(name, names)}; {listing} (docs/variants.md lists "
            "every name)")


def _hidden(name: str, why: str) -> str:
    return (f"{name} would read a hidden card ({why}); a condition reads only what the "
            "mover sees: its hand, the tops of its piles, the build piles and counts")
