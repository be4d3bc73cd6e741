"""A position given as the wrong kind (the tryout s5 §6 fault class): every public function,
method and constructor that takes a whole state (:class:`~spitemalice.model.GameState`)
refuses a seat's view, and every one that takes a view
(:class:`~spitemalice.engine.views.SeatView`) refuses a whole state, each with an error that
names the function, what it takes and the function that takes what was given; ``None``, a
str or another object is refused the same way, saying what makes the right kind.  Nothing
given is changed; never a bare ``AttributeError`` from inside.

The members are found by walking the signatures of every module of the API reference
(docs/api), as tests/contract/test_rules_argument.py does for the rule book;
:func:`test_every_member_is_listed` fails when one appears without a row here.
"""

from __future__ import annotations

import copy
import importlib
import random
import re
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import api_walk

import spitemalice as sm
from spitemalice.bots.ismcts import IsmctsPlayer
from spitemalice.bots.players import GreedyPlayer
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import GameState

ROOT = Path(__file__).parents[2]


def _module(name: str) -> Any:
    return importlib.import_module(f"spitemalice.{name}")


(bots_base, heuristic, inference, ismcts, mcts, sampling, apply, check, coverage, invariants,
 legal, views, layout, notation, picture, position_check, serialize, table_view, audit, dynamic,
 roundtrip, tally) = map(_module, [
    "bots.base", "bots.heuristic", "bots.inference", "bots.ismcts", "bots.mcts", "bots.sampling",
    "engine.apply", "engine.check", "engine.coverage", "engine.invariants", "engine.legal",
    "engine.views", "formats.layout", "formats.notation", "formats.picture",
    "formats.position_check", "formats.serialize", "play.table_view", "validation.audit",
    "validation.dynamic", "validation.roundtrip", "validation.tally"])

BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, 4)
MOVES = sm.legal_moves(BF, STATE)
MOVE = MOVES[0]
VIEW = sm.view_of(STATE, STATE.seat)
SNAPSHOT = copy.deepcopy((STATE, VIEW))
RNG = random.Random(1)
GREEDY = GreedyPlayer(1)
HEURISTIC = heuristic.HeuristicPlayer(1)
MCTS = mcts.MctsPlayer(1)
ISMCTS = IsmctsPlayer(1, policy=GreedyPlayer(1))

Call = Callable[[Any], object]
S, V = "GameState", "SeatView"


def _env(module: str, make: Callable[[Any], Any], method: str, *after: Any,
         before: Any = None) -> Call:
    """The call of ``make(module).method(position, *after)`` (``method(before, position,
    *after)`` when ``before`` is given: a bot's rule book), the object made once."""
    made: list[Any] = []

    def call(position: Any) -> object:
        if not made:
            made.append(make(_module(module)))
        first = () if before is None else (before,)
        return getattr(made[0], method)(*first, position, *after)
    return call


def _policy_player(m: Any) -> Any:
    return m.PolicyPlayer(lambda observation, mask: int(mask.argmax()))


def _at(module: Any, name: str, before: tuple[Any, ...], after: tuple[Any, ...] = ()) -> Call:
    """The call of ``module.name(*before, position, *after)``."""
    return lambda p: getattr(module, name)(*before, p, *after)


def _catalogue(m: Any) -> Any:
    return m.ActionCatalogue(BF)


def _card_catalogue(m: Any) -> Any:
    return m.CardCatalogue(BF)


def _encoding(m: Any) -> Any:
    return m.Encoding(BF, 20)


def _layout(m: Any) -> Any:
    return _module("env.spaces").Encoding(BF, 20).layout


# Each member "module:qualname(parameter)" -> the call with the position given, the kind it
# takes, and the error raised (the environments raise SpiteMaliceError for every bad
# argument: spitemalice/env/arguments.py).
MEMBERS: dict[str, tuple[Call, str, type[Exception]]] = {
    # engine: the per-move paths (checked as before, or on the failure path only)
    "spitemalice.engine.legal:legal_moves(state)": (lambda p: sm.legal_moves(BF, p), S, TypeError),
    "spitemalice.engine.legal:base_moves(state)": (
        lambda p: legal.base_moves(BF, p), S, TypeError),
    "spitemalice.engine.sample:random_move(state)": (
        lambda p: _module("engine.sample").random_move(BF, p, random.Random(1)), S, TypeError),
    "spitemalice.engine.apply:apply_move(state)": (
        lambda p: sm.apply_move(BF, p, MOVE), S, TypeError),
    "spitemalice.engine.apply:apply_listed(state)": (
        lambda p: apply.apply_listed(BF, p, MOVE), S, TypeError),
    "spitemalice.engine.apply:team_won(state)": (
        lambda p: apply.team_won(BF, p, 0), S, TypeError),
    "spitemalice.engine.check:check_move(state)": (
        lambda p: sm.check_move(BF, p, MOVE), S, TypeError),
    "spitemalice.engine.check:is_legal(state)": (lambda p: sm.is_legal(BF, p, MOVE), S, TypeError),
    "spitemalice.engine.check:decisions(state)": (
        lambda p: check.decisions(BF, p, MOVE), S, TypeError),
    "spitemalice.engine.check:filter_answers(state)": (
        lambda p: check.filter_answers(BF, p, MOVES), S, TypeError),
    "spitemalice.engine.coverage:Recorder.move(state)": (
        lambda p: coverage.Recorder(BF).move(p, MOVE), S, TypeError),
    **{f"{getattr(invariants, name).__module__}:{name}(state)": (
        _at(invariants, name, (BF,)), S, TypeError)
       for name in ("card_conservation", "build_piles_well_formed", "limits_kept",
                    "live_game_can_move", "outcome_declared", "outcome_fits_the_end",
                    "counters_in_range", "outcome_scored", "discard_piles_hold_allowed_ranks",
                    "emptied_payoff_ends_the_game", "dealt_as_the_sheet_says",
                    "state_violations", "check_state")},
    "spitemalice.engine.invariants.ending:EndFacts.of(state)": (
        lambda p: invariants.EndFacts.of(p), S, TypeError),
    "spitemalice.engine.invariants.transitions:discard_ends_the_turn(before)": (
        lambda p: invariants.discard_ends_the_turn(p, MOVE, STATE), S, TypeError),
    "spitemalice.engine.invariants.transitions:discard_ends_the_turn(after)": (
        lambda p: invariants.discard_ends_the_turn(STATE, MOVE, p), S, TypeError),
    "spitemalice.engine.invariants.transitions:payoff_only_shrinks(before)": (
        lambda p: invariants.payoff_only_shrinks(p, STATE), S, TypeError),
    "spitemalice.engine.invariants.transitions:payoff_only_shrinks(after)": (
        lambda p: invariants.payoff_only_shrinks(STATE, p), S, TypeError),
    **{f"{getattr(invariants, name).__module__}:{name}(before)": (
        _at(invariants, name, (BF,), (MOVE, STATE)),
        S, TypeError) for name in ("transition_violations", "check_transition")},
    **{f"{getattr(invariants, name).__module__}:{name}(after)": (
        _at(invariants, name, (BF, STATE, MOVE)),
        S, TypeError) for name in ("transition_violations", "check_transition")},
    "spitemalice.engine.views:view_of(state)": (lambda p: sm.view_of(p, 0), S, TypeError),
    "spitemalice.engine.views:stand_in_state(view)": (
        lambda p: views.stand_in_state(p), V, TypeError),
    "spitemalice.engine.views:view_legal_moves(view)": (
        lambda p: sm.view_legal_moves(BF, p), V, TypeError),
    "spitemalice.engine.views:ViewPlayer.choose(state)": (
        lambda p: sm.ViewPlayer(lambda rules, view: MOVE).choose(BF, p, MOVES), S, TypeError),
    "spitemalice.engine.views:ViewPlayer.choose_from_view(view)": (
        lambda p: sm.ViewPlayer(lambda rules, view: MOVE).choose_from_view(BF, p, MOVES), V,
        TypeError),
    "spitemalice.rules.book:RuleBook.score(state)": (
        lambda p: BF.score(p, "win", 0), S, TypeError),
    "spitemalice.outcome:GameResult(final)": (
        lambda p: sm.GameResult(4, 0, p, ()), S, TypeError),
    # bots (random's choose and choose_from_view read no position; the rest check theirs)
    "spitemalice.bots.base:SearchPlayer.choose(state)": (
        lambda p: MCTS.choose(BF, p, MOVES), S, TypeError),
    "spitemalice.bots.base:SearchPlayer.choose_from_view(view)": (
        lambda p: MCTS.choose_from_view(BF, p, MOVES), V, TypeError),
    "spitemalice.bots.base:move_from_view(view)": (
        lambda p: bots_base.move_from_view(GREEDY, BF, p, MOVES), V, TypeError),
    "spitemalice.bots.players:GreedyPlayer.choose(state)": (
        lambda p: GREEDY.choose(BF, p, MOVES), S, TypeError),
    "spitemalice.bots.players:GreedyPlayer.choose_from_view(view)": (
        lambda p: GREEDY.choose_from_view(BF, p, MOVES), V, TypeError),
    "spitemalice.bots.heuristic:HeuristicPlayer.choose(state)": (
        lambda p: HEURISTIC.choose(BF, p, MOVES), S, TypeError),
    "spitemalice.bots.heuristic:HeuristicPlayer.choose_from_view(view)": (
        lambda p: HEURISTIC.choose_from_view(BF, p, MOVES), V, TypeError),
    "spitemalice.bots.heuristic:decide(view)": (
        lambda p: heuristic.decide(BF, p, MOVES), V, TypeError),
    "spitemalice.bots.heuristic:rank_moves(view)": (
        lambda p: heuristic.rank_moves(BF, p, MOVES), V, TypeError),
    "spitemalice.bots.inference:LastMoverHands(view)": (
        lambda p: inference.LastMoverHands(BF, p, 1), V, TypeError),
    "spitemalice.bots.inference:LastMoverHands.at_turn_start(view)": (
        lambda p: inference.LastMoverHands.at_turn_start(BF, p), V, TypeError),
    "spitemalice.bots.inference:last_mover(view)": (
        lambda p: inference.last_mover(p), V, TypeError),
    "spitemalice.bots.inference:check_other_seat(view)": (
        lambda p: inference.check_other_seat(p, 1), V, TypeError),
    "spitemalice.bots.mcts:find_route(world)": (
        lambda p: mcts.find_route(BF, p, 0), S, TypeError),
    "spitemalice.bots.mcts:search_route(world)": (
        lambda p: mcts.search_route(BF, p, 0), S, TypeError),
    "spitemalice.bots.mcts:turn_key(state)": (lambda p: mcts.turn_key(p, 0), S, TypeError),
    "spitemalice.bots.ismcts:play_out_reward(view)": (
        lambda p: ismcts.play_out_reward(BF, p, GREEDY), V, TypeError),
    "spitemalice.bots.ismcts:public_count(view)": (
        lambda p: ismcts.public_count(p, 1), V, TypeError),
    "spitemalice.bots.sampling:hidden_pool(view)": (
        lambda p: sampling.hidden_pool(BF, p), V, TypeError),
    "spitemalice.bots.sampling:Sampler(view)": (lambda p: sampling.Sampler(BF, p), V, TypeError),
    "spitemalice.bots.sampling:determinize(view)": (
        lambda p: sampling.determinize(BF, p, RNG), V, TypeError),
    # environments
    "spitemalice.env.actions:ActionCatalogue.move(state)": (
        _env("env.actions", _catalogue, "move", 0), S, SpiteMaliceError),
    "spitemalice.env.actions:ActionCatalogue.actions(state)": (
        _env("env.actions", _catalogue, "actions", MOVE), S, SpiteMaliceError),
    "spitemalice.env.actions:ActionCatalogue.legal_actions(state)": (
        _env("env.actions", _catalogue, "legal_actions", MOVES), S, SpiteMaliceError),
    "spitemalice.env.actions:ActionCatalogue.action_list(state)": (
        _env("env.actions", _catalogue, "action_list", MOVES), S, SpiteMaliceError),
    "spitemalice.env.actions:ActionCatalogue.legal_list(state)": (
        _env("env.actions", _catalogue, "legal_list"), S, SpiteMaliceError),
    "spitemalice.env.card_actions:CardCatalogue.move(state)": (
        _env("env.card_actions", _card_catalogue, "move", 0), S, SpiteMaliceError),
    "spitemalice.env.card_actions:CardCatalogue.actions(state)": (
        _env("env.card_actions", _card_catalogue, "actions", MOVE), S, SpiteMaliceError),
    "spitemalice.env.card_actions:CardCatalogue.legal_actions(state)": (
        _env("env.card_actions", _card_catalogue, "legal_actions", MOVES), S,
        SpiteMaliceError),
    "spitemalice.env.card_actions:CardCatalogue.action_list(state)": (
        _env("env.card_actions", _card_catalogue, "action_list", MOVES), S, SpiteMaliceError),
    "spitemalice.env.card_actions:CardCatalogue.legal_list(state)": (
        _env("env.card_actions", _card_catalogue, "legal_list"), S, SpiteMaliceError),
    "spitemalice.env.learned:PolicyPlayer.choose_from_view(view)": (
        _env("env.learned", _policy_player, "choose_from_view", MOVES, before=BF), V,
        TypeError),
    "spitemalice.env.learned:LearnedPlayer.choose_from_view(view)": (
        _env("env.learned", lambda m: m.LearnedPlayer(1), "choose_from_view", MOVES,
             before=BF), V, TypeError),
    "spitemalice.env.observation:ObservationLayout.encode(view)": (
        _env("env.spaces", _layout, "encode"), V, SpiteMaliceError),
    "spitemalice.env.observation:ObservationLayout.encode_state(state)": (
        _env("env.spaces", _layout, "encode_state", 0), S, SpiteMaliceError),
    "spitemalice.env.observation:ObservationLayout.encode_bytes(state)": (
        _env("env.spaces", _layout, "encode_bytes", 0), S, SpiteMaliceError),
    **{f"spitemalice.env.spaces:Encoding.{name}(state)": (
        _env("env.spaces", _encoding, name, 0), S, SpiteMaliceError)
       for name in ("mask", "move", "observe", "play")},
    # formats
    "spitemalice.formats.layout:describe_position(state)": (
        lambda p: layout.describe_position(p), S, TypeError),
    "spitemalice.formats.layout:describe_view(view)": (
        lambda p: layout.describe_view(p), V, TypeError),
    "spitemalice.formats.notation:format_position(state)": (
        lambda p: sm.format_position(p), S, TypeError),
    "spitemalice.formats.notation:format_view(view)": (
        lambda p: notation.format_view(p), V, TypeError),
    "spitemalice.formats.picture:position_svg(position)": (
        lambda p: picture.position_svg(p), S + " or " + V, TypeError),
    "spitemalice.formats.position_check:check_position(state)": (
        lambda p: position_check.check_position(BF, p), S, TypeError),
    "spitemalice.formats.position_check:check_shape(state)": (
        lambda p: position_check.check_shape(p), S, TypeError),
    "spitemalice.formats.position_check:check_view(view)": (
        lambda p: position_check.check_view(BF, p), V, TypeError),
    "spitemalice.formats.serialize:state_to_dict(state)": (
        lambda p: serialize.state_to_dict(p), S, TypeError),
    "spitemalice.formats.serialize:dumps_state(state)": (
        lambda p: serialize.dumps_state(p), S, TypeError),
    "spitemalice.formats.serialize:view_to_dict(view)": (
        lambda p: serialize.view_to_dict(p), V, TypeError),
    "spitemalice.formats.serialize:dumps_view(view)": (
        lambda p: serialize.dumps_view(p), V, TypeError),
    # play
    "spitemalice.play.table_view:describe(view)": (
        lambda p: table_view.describe(BF, p, (), None, 0), V, TypeError),
    # validation
    "spitemalice.validation.roundtrip:RoundTrip.problem(state)": (
        lambda p: roundtrip.RoundTrip(BF).problem(p, MOVES), S, TypeError),
}

# Members that take a position and are left as they are, with the reason.
LEFT_ALONE = {
    "spitemalice.rules.defaults:spitemalice_score(state)": (
        "the base rules' scoring hook, asked only by RuleBook.score, which checked the "
        "state; this module's public face is stated_deck and numbered_pack"),
    "spitemalice.engine.legal:move_groups(state)": (
        "a step of base_moves, random_move and CardCatalogue.legal_list, each of which has "
        "checked that the state is a live GameState"),
    **{f"spitemalice.{member}(state)": (
        "a step of the per-move paths and the doors that check a state against the rule "
         "book, given the state and rule book they checked the types of")
       for member in ("engine.configuration:configuration_problem",
                      "engine.configuration:foreign_state",
                      "engine.configuration:check_configuration",
                      "engine.configuration:decoded", "engine.legal:foreign")},
    "spitemalice.runs.game_shape:LeadTracker.move(state)": (
        "fed the states of a game the runner or game_shape plays or replays"),
    "spitemalice.bots.base:Player.choose(state)": "a Protocol's method: no body to check in",
    "spitemalice.bots.players:RandomPlayer.choose(state)": (
        "never reads the state (a uniform pick among the moves given), as it never reads the "
        "rules (tests/contract/test_rules_argument.py)"),
    "spitemalice.bots.players:RandomPlayer.choose_from_view(view)": (
        "never reads the view (a uniform pick among the moves given), as RandomPlayer.choose "
        "never reads the state"),
    **{f"spitemalice.rules.hookspecs:{name}(state)": (
        "a hook's specification: the engine calls the plugins' hooks with its own state")
       for name in ("spitemalice_filter_moves", "spitemalice_end_of_game",
                    "spitemalice_completed_pile", "spitemalice_team_won", "spitemalice_score")},
    **{f"spitemalice.rules.datarules.plugins:{name}.spitemalice_filter_moves(state)": (
        "a data house rule's hook: the engine calls it with its own state")
       for name in ("ForbidRule", "RequireRule")},
    "spitemalice.rules.datarules.evaluate:Condition.at(state)": (
        "asked by a data house rule's hook with the engine's own state"),
    "spitemalice.rules.datarules.scoring:ScoreRule.spitemalice_score(state)": (
        "a data house rule's scoring hook: the engine calls it with its own final state"),
    "spitemalice.rules.datarules.scoring:Quantities.of(state)": (
        "asked by the scoring hook with the engine's own final state"),
    "spitemalice.play.table_view:TableView(view)": (
        "the result of describe, which checks its view; not made by callers"),
    **{f"spitemalice.play.table_view:played_move({name})": (
        "the session's own positions around a move it has just made or replayed")
       for name in ("before", "after")},
    "spitemalice.validation.tally:Tally.add_game(final)": (
        "the validation report's own tally of the games it plays itself"),
    **{f"spitemalice.validation.{member}(state)": (
        "a step of a validation run, given the states of the games it plays itself "
        "(tests/contract/test_rules_argument.py, INTERNAL)")
       for member in ("audit:audit_position", "audit:answering_filters", "audit:candidates",
                      "audit:filters_hold", "audit:other_seats", "dynamic:stuck",
                      "dynamic:step_violation", "dynamic:step_problem")},
    **{f"spitemalice.engine.invariants.run:{member}": (
        "the runners' body once they have checked their arguments; the validator's checked "
        "games give it their own states (tests/contract/test_rules_argument.py, INTERNAL)")
       for member in ("unchecked_state_violations(state)",
                      "unchecked_transition_violations(before)",
                      "unchecked_transition_violations(after)")},
    **{f"spitemalice.server.watching:{name}(state)": (
        "a spectator's message, built by a table from its own game's state")
       for name in ("public", "public_view")},
    "spitemalice.env.others:bots_move(state)": (
        "a step of an environment's reset and step, given the environment's own game"),
    "spitemalice.openspiel:Progress(game_state)": (
        "an OpenSpiel game's progress, made by the game itself (None or the state it reached)"),
    **{f"spitemalice.openspiel:Config.{name}(state)": (
        "called by the OpenSpiel game with its own state, once per step")
       for name in ("legal", "move")},
}


def _changed() -> object:
    """What a refused call must leave as it was besides the state and view: the bots' and the
    shared generator's draws, the ISMCTS bot's last search and what it inferred this turn."""
    return (RNG.getstate(), *(bot.rng.getstate() for bot in (GREEDY, HEURISTIC, MCTS, ISMCTS)),
            ISMCTS.tree, ISMCTS._inferred, ISMCTS._no_route)


def _display(member: str) -> str:
    """The name the message gives: the qualified name (a class's for its constructor)."""
    return member.partition(":")[2].partition("(")[0]


def _bad(kind: str) -> list[Any]:
    """The wrong positions for a member taking ``kind``: the other kind of position (the
    common slip), None, a str and another object."""
    other = {S: [VIEW], V: [STATE]}.get(kind, [])
    return [*other, None, "x", object()]


def _cases() -> list[tuple[str, Any]]:
    return [(member, bad) for member in sorted(MEMBERS) for bad in _bad(MEMBERS[member][1])]


@pytest.mark.parametrize(("member", "bad"), _cases(),
                         ids=lambda x: x if isinstance(x, str) and ":" in x else type(x).__name__)
def test_a_wrong_position_is_refused_by_name_and_changes_nothing(member: str, bad: Any) -> None:
    call, kind, error = MEMBERS[member]
    before = _changed()
    with pytest.raises(error) as raised:
        call(bad)
    message = str(raised.value)
    name = _display(member)
    assert re.search(rf"\b{re.escape(name)}\b[^:]* takes ", message), message
    if kind == S and isinstance(bad, type(VIEW)):
        assert "takes a GameState, not a seat's view (SeatView): " in message
    elif kind == V and isinstance(bad, GameState):
        assert "takes a seat's view (SeatView), not a whole GameState: " in message
        assert "spitemalice.view_of(state, seat)" in message
    elif kind in (S, V):
        assert "spitemalice.deal(rules, seed)" in message or \
            "spitemalice.view_of(state, seat)" in message, message
        assert message.endswith({None: "not None", "x": 'not the str "x"'}.get(
            bad, "not object")), message
    else:
        assert "a GameState or a seat's view (SeatView)" in message, message
    assert not isinstance(raised.value, AttributeError)
    assert raised.value.__suppress_context__ or raised.value.__context__ is None
    assert (STATE, VIEW) == SNAPSHOT
    assert _changed() == before


# Calls that with a real position would search for long: their rows are checked by the
# refusal only.
SLOW = {"SearchPlayer.choose", "SearchPlayer.choose_from_view"}


@pytest.mark.parametrize("member", sorted(MEMBERS))
def test_each_call_runs_with_the_right_position(member: str) -> None:
    """The rows call what they name: with the right kind of position the call gets past the
    check (it returns, or fails with another message)."""
    call, kind, _ = MEMBERS[member]
    if _display(member) in SLOW:
        return
    for right in ([STATE] if kind == S else [VIEW] if kind == V else [STATE, VIEW]):
        try:
            call(right)
        except Exception as error:  # another argument's own check
            assert " takes a GameState" not in str(error)
            assert " takes a seat's view" not in str(error)


def test_the_tryout_example() -> None:
    with pytest.raises(TypeError, match=r"^view_legal_moves takes a seat's view \(SeatView\), "
                       r"not a whole GameState: list a whole state's moves with "
                       r"spitemalice.legal_moves\(rules, state\), or take a seat's view of it "
                       r"with spitemalice.view_of\(state, seat\)$"):
        sm.view_legal_moves(BF, STATE)  # type: ignore[arg-type]


# ---- completeness: every member of the API reference that takes a position has a row ----

POSITION = re.compile(r"^(GameState|SeatView|AnyState|StateT)( \| (GameState|SeatView|None))*$")


def members_of(module: types.ModuleType) -> set[str]:
    """``"module:qualname(param)"`` for every parameter annotated with a position (a
    ``GameState``, a ``SeatView``, either, or either or ``None``; or ``AnyState`` and
    ``StateT``, the model's names for a state parameter of the compiled modules, typed
    ``object`` and checked by the function) of every public function, method and
    constructor defined in ``module``."""
    return {f"{module.__name__}:{qualname}({p.name})"
            for qualname, p in api_walk.parameters(module) if POSITION.match(str(p.annotation))}


def test_every_member_is_listed() -> None:
    if api_walk.compiled():
        pytest.skip("the compiled build's functions have no signatures; the pure build's walk")
    found = set().union(*map(members_of, api_walk.imported_modules()))
    api_walk.assert_listed(found, set(MEMBERS) | set(LEFT_ALONE))


def test_the_member_walk_finds_a_new_member() -> None:
    """The completeness test can fail: a function taking a position is found, one taking
    something that merely holds one is not."""
    module = types.ModuleType("planted")
    exec("from __future__ import annotations\n"
         "def takes(state: GameState, n: int) -> None: ...\n"
         "def other(states: tuple[GameState, ...]) -> None: ...\n"
         "def compiled(state: AnyState, given: StateT) -> StateT: ...\n"
         "def loose(state: object) -> None: ...\n"
         "class Taker:\n"
         "    def __init__(self, view: SeatView) -> None: ...\n"
         "    def go(self, before: GameState, after: GameState | None) -> None: ...\n",
         module.__dict__)
    assert members_of(module) == {"planted:takes(state)", "planted:compiled(state)",
                                  "planted:compiled(given)", "planted:Taker(view)",
                                  "planted:Taker.go(before)", "planted:Taker.go(after)"}
