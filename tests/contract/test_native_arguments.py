"""Arguments the compiled build would check first (issue: the native-arguments fault class).

mypyc (the optional compiled build, setup.py) checks an argument annotated with a native type
(``int``, ``int | None``, ``str``, ``tuple``...) before the function's own check runs, with
its own ``TypeError``, and takes a bool where ``int`` is annotated; so the public functions of
the compiled modules type such arguments ``object`` and check them themselves.  Here every
one of them is given ``"1"``, ``1.5``, ``True``, ``None`` (where it is not allowed),
``10**90`` and ``-1``: each is refused with the library's error (the function's own type:
``TypeError`` for check_move's seat, as before; ``SpiteMaliceError`` everywhere else), the
message names the parameter and the bound or the type it takes, and nothing given changes.

The file runs against both builds (``.ci/run`` runs it over the compiled install).  In the
pure build, :func:`test_no_public_member_of_a_compiled_module_takes_a_native_type` walks the
signatures of the compiled modules (those of the API reference) and fails on a public
parameter typed ``int``, ``str``... (the compiled build would check it first) or typed
``object`` without a row here.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.machinery
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import spitemalice as sm
from spitemalice import model
from spitemalice.engine import apply, check, legal, refusal, shuffle
from spitemalice.env import actions, card_actions, observation, spaces
from spitemalice.errors import IllegalMove, SpiteMaliceError

ROOT = Path(__file__).parents[2]
BF = sm.load("blackwood-frey")  # two seats, build ceiling 12
STATE = sm.deal(BF, 4)
MOVE = sm.legal_moves(BF, STATE)[0]
SNAPSHOT = copy.deepcopy(STATE)
CARDS = [1, 2, 3, 4, 5]
CATALOGUE = actions.ActionCatalogue(BF)
CARDS_CATALOGUE = card_actions.CardCatalogue(BF)
ENCODING = spaces.Encoding(BF, 4)
LAYOUT = ENCODING.layout
CLAUSES = {**BF.clause_for, "1": "a clause for the reason code 1"}
SIZES = {"hand": 5, "payoff": 1, "discard": 4, "builds": 4, "seats": 2, "depth": 4}

BAD: list[Any] = ["1", 1.5, True, None, 10**90, -1]


BOUND = {"seed": "spitemalice.limits.MAX_SEED", "counter": "spitemalice.limits.MAX_INT"}


def _shuffle(name: str, param: str) -> Callable[[Any], object]:
    """A call of the shuffle function ``name`` with ``param`` given the value (a good seed
    and counter otherwise)."""
    func = getattr(shuffle, name)
    given = {"seed": 1, "counter": 0}
    if name == "derive_seed":
        return lambda value: func(value, "x")
    cards = () if name == "rng_for" else (CARDS,)
    return lambda value: func(*cards, *({**given, param: value}).values())


def _layout(name: str) -> Callable[[Any], object]:
    return lambda value: observation.ObservationLayout(**{**SIZES, name: value})


# member -> (call with the value, values allowed among BAD, error type, words the message
# holds: the parameter's name and the bound or the type it takes).  A value allowed is
# called and must succeed.
SEAT_TYPE = (TypeError, ["seat", "(int)"])
SEAT_RANGE = (IllegalMove, ["seat", "seats are 0 to 1"])
MEMBERS: dict[str, tuple[Callable[[Any], object], list[Any], type[Exception], list[str]]] = {
    "engine.check.check_move(seat)": (
        lambda v: check.check_move(BF, STATE, MOVE, v), [None], *SEAT_TYPE),
    "engine.check.decisions(seat)": (
        lambda v: check.decisions(BF, STATE, MOVE, v), [None], *SEAT_TYPE),
    "engine.check.rank_reason(need)": (
        lambda v: check.rank_reason(BF, MOVE.card, v), [], SpiteMaliceError,
        ["need", "from 1 to 12"]),
    "engine.refusal.refuse(reason)": (
        lambda v: refusal.refuse(v, MOVE, CLAUSES), ["1"], TypeError, ["reason", "(a str)"]),
    "engine.refusal.refuse(message)": (
        lambda v: refusal.refuse("wrong-rank", MOVE, CLAUSES, v), ["1"], TypeError,
        ["message", "(a str)"]),
    "engine.refusal.refuse(where)": (
        lambda v: refusal.refuse("wrong-rank", MOVE, CLAUSES, "", v), ["1"], TypeError,
        ["where", "(a str)"]),
    "engine.apply.apply_move(seat)": (
        lambda v: apply.apply_move(BF, STATE, MOVE, v), [None], *SEAT_TYPE),
    "engine.legal.legal_moves(seat)": (
        lambda v: legal.legal_moves(BF, STATE, v), [None], SpiteMaliceError,
        ["seat", "from 0 to 1"]),
    "engine.apply.team_won(seat)": (
        lambda v: apply.team_won(BF, STATE, v), [], SpiteMaliceError, ["seat", "from 0 to 1"]),
    "model.build_ranks(removed)": (
        lambda v: model.build_ranks(STATE.draw[:3], v), [], SpiteMaliceError,
        ["removed", "spitemalice.limits.MAX_DECK_CARDS"]),
    **{f"engine.shuffle.{name}({param})": (
        _shuffle(name, param), [], SpiteMaliceError, [param, BOUND[param]])
       for name in ("rng_for", "derive_seed", "shuffled", "shuffled_list")
       for param in ("seed", "counter") if (name, param) != ("derive_seed", "counter")},
    "engine.shuffle.rng_for(purpose)": (
        lambda v: shuffle.rng_for(1, 0, v), ["1"], SpiteMaliceError, ["purpose", "(a str)"]),
    "env.actions.ActionCatalogue.move(action)": (
        lambda v: CATALOGUE.move(STATE, v), [], SpiteMaliceError,
        ["action", f"from 0 to {CATALOGUE.size - 1}"]),
    "env.actions.ActionCatalogue.number(action)": (
        lambda v: CATALOGUE.number(v), [], SpiteMaliceError,
        ["action", f"from 0 to {CATALOGUE.size - 1}"]),
    "env.actions.ActionCatalogue.describe(action)": (
        lambda v: CATALOGUE.describe(v), [], SpiteMaliceError,
        ["action", f"from 0 to {CATALOGUE.size - 1}"]),
    "env.card_actions.CardCatalogue.move(action)": (
        lambda v: CARDS_CATALOGUE.move(STATE, v), [], SpiteMaliceError,
        ["action", f"from 0 to {CARDS_CATALOGUE.size - 1}"]),
    "env.card_actions.CardCatalogue.number(action)": (
        lambda v: CARDS_CATALOGUE.number(v), [], SpiteMaliceError,
        ["action", f"from 0 to {CARDS_CATALOGUE.size - 1}"]),
    "env.card_actions.CardCatalogue.describe(action)": (
        lambda v: CARDS_CATALOGUE.describe(v), [], SpiteMaliceError,
        ["action", f"from 0 to {CARDS_CATALOGUE.size - 1}"]),
    **{f"env.observation.ObservationLayout({name})": (
        _layout(name), [], SpiteMaliceError,
        [name, f"from {1 if name in ('seats', 'depth') else 0} to 1,000",
         "spitemalice.limits.MAX_DECK_CARDS"]) for name in SIZES},
    "env.observation.ObservationLayout.encode_state(viewer)": (
        lambda v: LAYOUT.encode_state(STATE, v), [], SpiteMaliceError,
        ["viewer", "from 0 to 1"]),
    "env.observation.ObservationLayout.encode_bytes(viewer)": (
        lambda v: LAYOUT.encode_bytes(STATE, v), [], SpiteMaliceError,
        ["viewer", "from 0 to 1"]),
    "env.spaces.LegalDiscrete(n)": (
        lambda v: spaces.LegalDiscrete(v, lambda: None), [], SpiteMaliceError,
        ["n (the number of actions)", "from 1 to", "spitemalice.limits.MAX_INT"]),
    "env.spaces.Encoding(discard_depth)": (
        lambda v: spaces.Encoding(BF, v), [], SpiteMaliceError,
        ["discard_depth", "from 1 to 156"]),
    "env.spaces.Encoding(catalogue)": (
        lambda v: spaces.Encoding(BF, 20, v), [], SpiteMaliceError,
        ["catalogue", "'slot'", "'card'"]),
    "env.spaces.make_catalogue(catalogue)": (
        lambda v: spaces.make_catalogue(BF, v), [], SpiteMaliceError,
        ["catalogue", "'slot'", "'card'"]),
    "env.spaces.Encoding.mask(seat)": (
        lambda v: ENCODING.mask(STATE, v), [], SpiteMaliceError, ["seat", "from 0 to 1"]),
    "env.spaces.Encoding.move(action)": (
        lambda v: ENCODING.move(STATE, v), [], SpiteMaliceError,
        ["action", f"from 0 to {CATALOGUE.size - 1}"]),
    "env.spaces.Encoding.play(action)": (
        lambda v: ENCODING.play(STATE, v), [], SpiteMaliceError,
        ["action", f"from 0 to {CATALOGUE.size - 1}"]),
    "env.spaces.Encoding.observe(seat)": (
        lambda v: ENCODING.observe(STATE, v), [], SpiteMaliceError, ["seat", "from 0 to 1"]),
}
# Doors in Python before a compiled step, checked here as the compiled members are: deal
# dispatches a simultaneous rule book before the compiled turn-based deal (engine.dealing,
# whose deal_turns takes the checked seed and dealer), so the walk below does not meet it.
DOORS: dict[str, tuple[Callable[[Any], object], list[Any], type[Exception], list[str]]] = {
    "engine.deal.deal(seed)": (
        lambda v: sm.deal(BF, v), [None], SpiteMaliceError,
        ["seed", "spitemalice.limits.MAX_SEED"]),
    "engine.deal.deal(dealer)": (
        lambda v: sm.deal(BF, 1, v), [None], SpiteMaliceError, ["dealer", "from 0 to 1"]),
}
# A seat that is an int but not on turn: check_move's refusal (IllegalMove) names the seats.
SEAT_MEMBERS = ["engine.check.check_move(seat)", "engine.check.decisions(seat)",
                "engine.apply.apply_move(seat)"]
# Parameters typed ``object`` that take anything (no row needed).
ANY_VALUE = {"engine.refusal.refuse(move)", "engine.shuffle.derive_seed(parts)",
             "engine.legal.not_a_state(given)", "env.actions.not_a_listed_move(given)",
             "model.require_state(state)"}
# A parameter typed natively on purpose: an error factory given the library's own text
# (not_a_state's, foreign's and require_state's names; foreign's state, which its callers have
# checked is a GameState), the engine's own constructors, given values the engine made
# (new_seat, new_state, engine.copiers.state_copier, and move_groups, a step of checked
# doors: tests/contract/test_position_argument.py leaves it alone), and a GameState's counters,
# which are C integers of the native class in the compiled build (GameState's docstring:
# a counter that is not an int is refused there with mypyc's TypeError; the pure build
# refuses it with its own, naming the field, and takes numpy's integers as ints), and the
# observation's segment writers, public for env.kept, given what the encoders read from
# states checked where they came in.
NATIVE_KEPT = {"engine.legal.not_a_state(functions)", "engine.legal.foreign(function)",
               "engine.legal.foreign(state)", "model.require_state(function)",
               "model.require_state(other)", "model.new_seat(_slots)", "model.new_seat(payoff)",
               "model.new_seat(discards)", "engine.copiers.state_copier(changed)",
               "engine.legal.move_groups(state)",
               *(f"model.new_state({field})" for field in (
                   "seats", "builds", "seat", "turn", "turn_moves", "idle_turns", "seed",
                   "shuffles", "build_removed")),
               *(f"model.GameState({counter})" for counter in (
                   "seat", "turn", "turn_moves", "idle_turns", "seed", "shuffles")),
               "env.observation.value_bytes(value)",
               *(f"env.observation.check_fits({name})" for name in ("count", "most", "what")),
               *(f"env.observation.header_bytes({name})" for name in (
                   "on_turn", "viewer", "n", "turn_moves", "idle_turns", "draw", "completed",
                   "over", "turn"))}


def _observable() -> object:
    """What a refused call could change: the state, the list shuffled, and what the
    encoding and catalogue answer for the state."""
    return (copy.deepcopy(STATE), list(CARDS),
            {seat: {key: value.tolist() for key, value in ENCODING.observe(STATE, seat).items()}
             for seat in (0, 1)},
            ENCODING.mask(STATE, STATE.seat).tolist(), LAYOUT.encode_state(STATE, 0).tolist(),
            [CATALOGUE.describe(action) for action in range(CATALOGUE.size)])


BEFORE = _observable()
CASES = [(member, value) for member in {**MEMBERS, **DOORS} for value in BAD]


@pytest.mark.parametrize(("member", "value"), CASES, ids=[f"{m}-{v!r:.12}" for m, v in CASES])
def test_a_bad_value_is_refused_by_the_library_naming_the_parameter(member: str,
                                                                    value: Any) -> None:
    call, allowed, error, words = {**MEMBERS, **DOORS}[member]
    if any(value is ok for ok in allowed):
        call(value)
        return
    if member in SEAT_MEMBERS and type(value) is int:
        error, words = SEAT_RANGE
    with pytest.raises(Exception) as caught:
        call(value)
    assert type(caught.value) is error, \
        f"{member}({value!r}) raised {type(caught.value).__name__}: {caught.value}"
    message = str(caught.value)
    for word in words:
        assert word in message, (member, value, message)
    if type(value) is int and value > 10**80:
        assert "about 91 digits" in message  # never printed in full
    assert _observable() == BEFORE
    assert STATE == SNAPSHOT


def test_a_good_value_still_works_in_each_form() -> None:
    seat = STATE.seat
    assert check.check_move(BF, STATE, MOVE, seat) is None
    assert check.decisions(BF, STATE, MOVE, seat)[2:] == check.decisions(BF, STATE, MOVE)[1:]
    assert apply.team_won(BF, STATE, np.int64(seat)) is True
    assert check.rank_reason(BF, MOVE.card, np.int64(12)) in ("wrong-rank", "wild-excluded")
    assert shuffle.shuffled(CARDS, np.int64(7), 2) == shuffle.shuffled(CARDS, 7, 2)
    assert shuffle.derive_seed(np.uint8(7), "x") == shuffle.derive_seed(7, "x")
    assert ENCODING.mask(STATE, np.int64(seat)).tolist() == ENCODING.mask(STATE, seat).tolist()
    assert LAYOUT.encode_state(STATE, np.int8(1)).tolist() == \
        LAYOUT.encode_state(STATE, 1).tolist()
    action = int(np.flatnonzero(ENCODING.mask(STATE, seat))[0])
    assert ENCODING.move(STATE, np.int64(action)) == ENCODING.move(STATE, action)
    assert spaces.LegalDiscrete(np.int64(3), lambda: None).n == 3


def test_filter_answers_takes_any_sequence_of_moves() -> None:
    moves = sm.legal_moves(BF, STATE)
    assert check.filter_answers(BF, STATE, list(moves)) == check.filter_answers(BF, STATE, moves)


def test_the_engines_own_shuffles_are_unchanged() -> None:
    """The engine shuffles through unchecked twins: the same orders as the public
    functions."""
    assert shuffle._shuffled_list(CARDS, 5, 3) == shuffle.shuffled_list(CARDS, 5, 3)
    assert shuffle._rng(5, 3, "cut").random() == shuffle.rng_for(5, 3, "cut").random()


# -- the walk: which public parameters of the compiled modules are typed how ---------------

NATIVE = {"int", "float", "complex", "str", "bytes", "bool", "tuple", "list", "dict", "set",
          "frozenset"}


def _compiled_api_modules() -> list[str]:
    """The modules setup.py compiles that the API reference documents (engine.flow is not
    API)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                  and any(getattr(t, "id", "") == "COMPILED" for t in node.targets))
    modules = [p.removesuffix(".py").replace("/", ".") for p in ast.literal_eval(listed)]
    documented = "".join(path.read_text(encoding="utf-8")
                         for path in (ROOT / "docs" / "api").glob("*.md"))
    return [name for name in modules if re.search(rf"^::: {re.escape(name)}$", documented,
                                                  re.MULTILINE)]


def _types(annotation: str) -> list[str]:
    """The outer types of an annotation's text (``"int | None"`` -> ``["int", "None"]``)."""
    parts, depth, current = [], 0, ""
    for char in annotation:
        depth += char == "["
        depth -= char == "]"
        if char == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [part.strip().split("[")[0] for part in [*parts, current]]


def _parameters() -> dict[str, str]:
    """``"engine.check.check_move(seat)"`` -> the annotation's text, for every parameter of
    every public function, class and method of the compiled API modules."""
    found: dict[str, str] = {}
    for name in _compiled_api_modules():
        module = importlib.import_module(name)
        short = name.removeprefix("spitemalice.")
        for attr, obj in vars(module).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
                continue
            funcs = [(f"{short}.{attr}", obj.__init__ if inspect.isclass(obj) else obj)]
            if inspect.isclass(obj):
                funcs += [(f"{short}.{attr}.{member}", getattr(value, "__func__", value))
                          for member, value in vars(obj).items()
                          if not member.startswith("_") and callable(
                              getattr(value, "__func__", value))]
            for label, func in funcs:
                if not inspect.isfunction(func):
                    continue
                for param in inspect.signature(func).parameters.values():
                    if param.name not in ("self", "cls"):
                        found[f"{label}({param.name})"] = str(param.annotation)
    return found


def _pure() -> bool:
    return not (check.__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@pytest.mark.skipif(not _pure(), reason="compiled functions show no signature to walk; the "
                    "pure build's walk covers the same source")
def test_no_public_member_of_a_compiled_module_takes_a_native_type() -> None:
    parameters = _parameters()
    assert "engine.check.check_move(seat)" in parameters  # the walk finds the members
    compiled_classes = {attr for name in _compiled_api_modules()
                        for attr, obj in vars(importlib.import_module(name)).items()
                        if inspect.isclass(obj) and obj.__module__ == name}
    native = {label for label, annotation in parameters.items()
              if set(_types(annotation)) & (NATIVE | compiled_classes)}
    assert native == NATIVE_KEPT, "typed natively: the compiled build checks these first"
    typed_object = {label.replace(".__init__(", "(") for label, annotation
                    in parameters.items() if "object" in _types(annotation)}
    assert typed_object - ANY_VALUE == set(MEMBERS), "a parameter typed object needs a row"
