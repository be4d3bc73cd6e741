"""Wrong-typed arguments other than a rule book or a position (tryout s5 §7, §8): each public
function of :mod:`spitemalice` (its ``__all__``) and the environment helpers refuses a wrong
type of its main argument (a record, a name, a path, a move, text) with an error that names
the function and what would be right, and changes nothing; and every public function taking
a sequence (bots, moves, house rules, seats) refuses a bare str, saying it wants a list.

The rule book has its own file (tests/test_rules_argument.py), as have the state and the
view (tests/test_position_argument.py).
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
import spitemalice.env as env
from spitemalice.errors import NotationError, SpiteMaliceError

BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, 3)
MOVES = sm.legal_moves(BF, STATE)
RECORD = sm.record_game(BF, 3, [MOVES[0]])
SNAPSHOT = copy.deepcopy((BF.ruleset, STATE, RECORD))

BAD: list[Any] = [None, 3, object(), BF]  # and a str, where a str is wrong

# Each member: the call with its main argument given, the error, and the words the message
# starts with (the function and what it takes).
Call = Callable[[Any], object]
TOP: dict[str, tuple[Call, type[Exception], str, bool]] = {
    # name: (call, error, the message's start, whether a str is wrong too)
    "load": (sm.load, TypeError, "load takes ", False),
    "load_record": (sm.load_record, TypeError, "load_record takes a record file's path", False),
    "load_plugin": (sm.load_plugin, TypeError, "load_plugin takes a plugin's name", False),
    "base_sheet": (lambda x: sm.base_sheet(x, BF.ruleset), TypeError,
                   "base_sheet takes an installed rule set's name", False),
    "check_record": (sm.check_record, TypeError, "check_record takes a GameRecord", True),
    "replay": (lambda x: list(sm.replay(x)), TypeError, "replay takes a GameRecord", True),
    "move_text": (sm.move_text, TypeError, "move_text takes a move", True),
    "parse_cards": (sm.parse_cards, NotationError, "cards are text", False),
    "parse_card": (sm.parse_card, NotationError, "a card is text", False),
    "parse_move": (sm.parse_move, NotationError, "a move is text", False),
    "parse_position": (lambda x: sm.parse_position(x, BF), NotationError,
                       "a position is text", False),
    "env.gym_id": (env.gym_id, SpiteMaliceError, "gym_id takes a rule set's name", False),
    **{f"env.{name}": ((lambda name: lambda x: getattr(env, name)(
        x, **({"num_envs": 2} if name == "vector_env" else {})))(name), SpiteMaliceError,
        "ruleset is an installed rule set's name", False)
       for name in ("make", "parallel_env", "single_agent", "vector_env")},
}
# Checked elsewhere: the functions whose main argument is a rule book, a state or a view.
ELSEWHERE = {"apply_move", "check_move", "deal", "is_legal", "legal_moves", "record_game",
             "view_legal_moves", "view_of", "stand_in_state", "format_position"}
# Left as they are, with the reason.
LEFT_ALONE = {
    "sort_hand": "the converter of every Seat's hand (on the per-move path); a model helper",
    "build_ranks": "a per-pile helper of the engine's per-move path; a model helper",
    "installed": "takes no argument",
    "numbered_pack": "refused already: size and top are checked as whole numbers (check_int)",
    "hookimpl": "pluggy's marker, not the library's",
    "OutcomeKind": "a Literal type, not a function",
}


def _cases() -> list[tuple[str, Any]]:
    return [(name, bad) for name in sorted(TOP)
            for bad in BAD + (["file.json"] if TOP[name][3] else [])
            if not (bad is BF and name.startswith("env.") and name != "env.gym_id")]


@pytest.mark.parametrize(("name", "bad"), _cases(),
                         ids=lambda x: x if isinstance(x, str) and x != "file.json"
                         else type(x).__name__)
def test_a_wrong_main_argument_is_refused_by_name_and_changes_nothing(name: str,
                                                                       bad: Any) -> None:
    call, error, start, _ = TOP[name]
    with pytest.raises(error) as raised:
        call(bad)
    message = str(raised.value)
    assert message.startswith(start), message
    assert type(raised.value) is not AttributeError
    assert {None: "None", 3: "int", BF: "RuleBook"}.get(bad, "") in message, message
    assert (BF.ruleset, STATE, RECORD) == SNAPSHOT


@pytest.mark.parametrize(("call", "says"), [
    (lambda: sm.check_record("file.json"), 'not the str "file.json": read a record file first '
     "with spitemalice.load_record(path)"),
    (lambda: sm.check_record(Path("file.json")), "not a path (PosixPath): read a record file "
     "first with spitemalice.load_record(path)"),
    (lambda: sm.check_record(BF), "not a RuleBook (are the arguments in order? the record "
     "comes first)"),
    (lambda: sm.load(BF), "not a RuleBook: it is loaded already (rules.rebuild(name=value) "
     "changes its parameters)"),
    (lambda: sm.load(None), "load takes an installed rule set's name or a rule-set file's path "
     "(a str or os.PathLike), not None"),
    (lambda: env.gym_id(BF), "not RuleBook: give rules.ruleset.name"),
    (lambda: sm.move_text("AS>B+"), "not str: it is a move's text already"),
])
def test_the_tryout_examples_say_what_is_right(call: Callable[[], object], says: str) -> None:
    with pytest.raises((TypeError, SpiteMaliceError)) as raised:
        call()
    assert says.replace("PosixPath", type(Path()).__name__) in str(raised.value)


def test_every_top_level_function_was_checked() -> None:
    """Walk ``spitemalice.__all__`` and the environment helpers: each function has a row (or
    is checked by another file, or is left alone with the reason)."""
    found = {name for name in sm.__all__ if callable(getattr(sm, name))
             and not inspect.isclass(getattr(sm, name))}
    found |= {f"env.{name}" for name in env.__all__ if inspect.isfunction(getattr(env, name))}
    found -= {"Pile", "ViewBot"}  # type aliases
    listed = set(TOP) | ELSEWHERE | set(LEFT_ALONE)
    assert found - listed == set(), "add a row to TOP (or LEFT_ALONE, with the reason)"
    assert listed - found == set(), "rows for members that are gone"
