"""A rule book given as something else (issue: the rules argument's fault class): every public
function, method and constructor that takes a :class:`~spitemalice.rules.book.RuleBook`
refuses a rule set's name, ``None`` or another object with an error that names the function,
``RuleBook`` and :func:`spitemalice.load`, and changes nothing; never a bare
``AttributeError`` from inside.

The members are found by walking the signatures of every module of the API reference
(docs/api); :func:`test_every_member_is_listed` fails when one appears without a row here.
"""

from __future__ import annotations

import copy
import importlib
import inspect
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
from spitemalice.moves import Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.validation import Validation, validate_book


def _module(name: str) -> Any:
    """``spitemalice.<name>``, the module (a package may give a function of the same name:
    ``spitemalice.formats.replay``, ``spitemalice.study.simulate``, ``spitemalice.runs.loop``)."""
    return importlib.import_module(f"spitemalice.{name}")


bots_base, heuristic, inference, ismcts, mcts, sampling = map(_module, [
    "bots.base", "bots.heuristic", "bots.inference", "bots.ismcts", "bots.mcts", "bots.sampling"])
apply, check, coverage, invariants, legal = map(_module, [
    "engine.apply", "engine.check", "engine.coverage", "engine.invariants", "engine.legal"])
parse, position_check, records, replay, serialize = map(_module, [
    "formats.parse", "formats.position_check", "formats.records", "formats.replay",
    "formats.serialize"])
session = _module("play.session")
checks, registry = map(_module, ["rules.checks", "rules.registry"])
balance, balance_coverage, ladder, match, runner = map(
    _module, ["study.balance", "study.balance_coverage", "study.ladder", "study.match",
              "runs.runner"])
simulate, tournament = map(_module, ["study.simulate", "study.tournament"])
loop = _module("runs.loop")
audit, base, dynamic, intent, judge, recheck, roundtrip, spread, static, termination = map(
    _module, ["validation.audit", "validation.base", "validation.dynamic", "validation.intent",
              "validation.judge", "validation.recheck", "validation.roundtrip",
              "validation.spread", "validation.static", "validation.termination"])
shrink, steps = map(_module, ["validation.shrink", "validation.steps"])

ROOT = Path(__file__).parents[2]
BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, 4)  # the seat on turn has a play, but none from its pay-off pile
MOVES = sm.legal_moves(BF, STATE)
MOVE = MOVES[0]
VIEW = sm.view_of(STATE, STATE.seat)
assert isinstance(MOVE, Play) and not any(
    isinstance(m, Play) and m.zone is Zone.PAYOFF for m in MOVES)
SNAPSHOT = copy.deepcopy((STATE, VIEW))
CARD = MOVE.card
RECORD = sm.record_game(BF, 4, [MOVE])
RNG = random.Random(1)
GREEDY = GreedyPlayer(1)
HEURISTIC = heuristic.HeuristicPlayer(1)
MCTS = mcts.MctsPlayer(1)
ISMCTS = IsmctsPlayer(1, policy=GreedyPlayer(1))

# The bad rule books: a rule set's name (the common slip), None, and any other object.
BAD: list[Any] = ["blackwood-frey", None, object()]

Call = Callable[[Any], object]


def _env(name: str) -> Call:
    def call(rules: Any) -> object:
        env = importlib.import_module("spitemalice.env")
        return getattr(env, name)(rules, **({"num_envs": 2} if "Vector" in name else {}))
    return call


def _envs_module(module: str, name: str) -> Call:
    def call(rules: Any) -> object:
        return getattr(importlib.import_module(f"spitemalice.env.{module}"), name)(
            rules, *([None] * _arity(module, name)))
    return call


def _call(module: Any, name: str, *after: Any) -> Call:
    """The call of ``module.name(rules, *after)``."""
    return lambda rules: getattr(module, name)(rules, *after)


def _text_first(module: Any, name: str) -> Call:
    """The call of a reader ``module.name(text, rules)`` on the text ``"{}"``."""
    return lambda rules: getattr(module, name)("{}", rules)


def _arity(module: str, name: str) -> int:
    """How many arguments after ``rules`` an environment helper takes without defaults."""
    func = getattr(importlib.import_module(f"spitemalice.env.{module}"), name)
    return sum(1 for p in list(inspect.signature(func).parameters.values())[1:]
               if p.default is p.empty)


# Each member: "module:qualname" -> the call with the rules given, and the error it raises.
# Arguments other than the rule book are dummies where the check comes first; real ones
# (the state of seed 4, its legal moves and view) where the check is made only once reading
# the rules failed (the per-move paths), so the call must come to read them.
MEMBERS: dict[str, tuple[Call, type[Exception]]] = {
    # engine: the per-move paths, checked on failure only
    "spitemalice.engine.legal:legal_moves": (lambda r: sm.legal_moves(r, STATE), TypeError),
    "spitemalice.engine.sample:random_move": (
        lambda r: _module("engine.sample").random_move(r, STATE, random.Random(1)), TypeError),
    "spitemalice.engine.apply:apply_move": (lambda r: sm.apply_move(r, STATE, MOVE), TypeError),
    "spitemalice.engine.apply:apply_listed": (
        lambda r: apply.apply_listed(r, STATE, MOVE), TypeError),
    "spitemalice.engine.apply:team_won": (lambda r: apply.team_won(r, STATE, 0), TypeError),
    "spitemalice.engine.check:check_move": (lambda r: sm.check_move(r, STATE, MOVE), TypeError),
    "spitemalice.engine.check:is_legal": (lambda r: sm.is_legal(r, STATE, MOVE), TypeError),
    "spitemalice.engine.check:decisions": (
        lambda r: check.decisions(r, STATE, MOVE), TypeError),
    "spitemalice.engine.check:rank_reason": (
        lambda r: check.rank_reason(r, CARD, 1), TypeError),
    "spitemalice.engine.check:filter_answers": (
        lambda r: check.filter_answers(r, STATE, MOVES), TypeError),
    # engine: checked at the start
    "spitemalice.engine.deal:deal": (lambda r: sm.deal(r, 1), TypeError),
    "spitemalice.engine.coverage:Recorder": (lambda r: coverage.Recorder(r), TypeError),
    "spitemalice.engine.views:view_legal_moves": (
        lambda r: sm.view_legal_moves(r, VIEW), TypeError),
    "spitemalice.engine.views:ViewPlayer.choose": (
        lambda r: sm.ViewPlayer(lambda rules, view: MOVE).choose(r, STATE, MOVES), TypeError),
    "spitemalice.engine.views:ViewPlayer.choose_from_view": (
        lambda r: sm.ViewPlayer(lambda rules, view: MOVE).choose_from_view(r, VIEW, MOVES),
        TypeError),
    **{f"{getattr(invariants, name).__module__}:{name}": (
        _call(invariants, name, STATE), TypeError)
       for name in ("card_conservation", "build_piles_well_formed", "limits_kept",
                    "live_game_can_move", "outcome_declared", "outcome_fits_the_end",
                    "counters_in_range", "outcome_scored", "discard_piles_hold_allowed_ranks",
                    "emptied_payoff_ends_the_game", "dealt_as_the_sheet_says",
                    "state_violations", "check_state")},
    "spitemalice.engine.invariants.ending:end_problems": (
        lambda r: invariants.end_problems(r, "win", 0, None), TypeError),
    "spitemalice.engine.invariants.ending:live_counter_problems": (
        lambda r: invariants.live_counter_problems(r, 2, 0, 0, 0), TypeError),
    "spitemalice.engine.invariants.run:transition_violations": (
        lambda r: invariants.transition_violations(r, STATE, MOVE, STATE), TypeError),
    "spitemalice.engine.invariants.run:check_transition": (
        lambda r: invariants.check_transition(r, STATE, MOVE, STATE), TypeError),
    # bots: greedy's choose methods and the heuristic's helpers on failure only
    "spitemalice.bots.base:SearchPlayer.choose": (
        lambda r: MCTS.choose(r, STATE, MOVES), TypeError),
    "spitemalice.bots.base:SearchPlayer.choose_from_view": (
        lambda r: MCTS.choose_from_view(r, VIEW, MOVES), TypeError),
    "spitemalice.bots.base:move_from_view": (
        lambda r: bots_base.move_from_view(GREEDY, r, VIEW, MOVES), TypeError),
    "spitemalice.bots.players:GreedyPlayer.choose": (
        lambda r: GREEDY.choose(r, STATE, MOVES), TypeError),
    "spitemalice.bots.players:GreedyPlayer.choose_from_view": (
        lambda r: GREEDY.choose_from_view(r, VIEW, MOVES), TypeError),
    "spitemalice.bots.heuristic:HeuristicPlayer.choose": (
        lambda r: HEURISTIC.choose(r, STATE, MOVES), TypeError),
    "spitemalice.bots.heuristic:HeuristicPlayer.choose_from_view": (
        lambda r: HEURISTIC.choose_from_view(r, VIEW, MOVES), TypeError),
    "spitemalice.bots.heuristic:decide": (lambda r: heuristic.decide(r, VIEW, MOVES), TypeError),
    "spitemalice.bots.players:check_player": (
        lambda r: _module("bots.players").check_player("greedy", r), TypeError),
    "spitemalice.bots.heuristic:rank_moves": (
        lambda r: heuristic.rank_moves(r, VIEW, MOVES), TypeError),
    "spitemalice.bots.inference:pile_tops": (lambda r: inference.pile_tops(r, ()), TypeError),
    "spitemalice.bots.inference:reach": (
        lambda r: inference.reach(r, [5], [(0, 1)], [2, 3]), TypeError),
    "spitemalice.bots.inference:LastMoverHands": (
        lambda r: inference.LastMoverHands(r, VIEW, 1), TypeError),
    "spitemalice.bots.inference:LastMoverHands.at_turn_start": (
        lambda r: inference.LastMoverHands.at_turn_start(r, VIEW), TypeError),
    "spitemalice.bots.mcts:find_route": (lambda r: mcts.find_route(r, STATE, 0), TypeError),
    "spitemalice.bots.mcts:search_route": (lambda r: mcts.search_route(r, STATE, 0), TypeError),
    "spitemalice.bots.ismcts:play_out_reward": (
        lambda r: ismcts.play_out_reward(r, VIEW, GREEDY), TypeError),
    "spitemalice.bots.sampling:hidden_pool": (
        lambda r: sampling.hidden_pool(r, VIEW), TypeError),
    "spitemalice.bots.sampling:Sampler": (lambda r: sampling.Sampler(r, VIEW), TypeError),
    "spitemalice.bots.sampling:determinize": (
        lambda r: sampling.determinize(r, VIEW, RNG), TypeError),
    # the environments refuse every bad argument with SpiteMaliceError (env/arguments.py)
    **{f"spitemalice.env.{module}:{name}": (_env(name), SpiteMaliceError)
       for module, name in (("aec", "SpiteMaliceEnv"), ("parallel", "SpiteMaliceParallelEnv"),
                            ("single", "SingleAgentEnv"), ("vector", "SelfPlayVectorEnv"))},
    "spitemalice.env.actions:ActionCatalogue": (
        _envs_module("actions", "ActionCatalogue"), SpiteMaliceError),
    "spitemalice.env.card_actions:CardCatalogue": (
        _envs_module("card_actions", "CardCatalogue"), SpiteMaliceError),
    "spitemalice.env.spaces:make_catalogue": (
        lambda r: _module("env.spaces").make_catalogue(r, "card"), SpiteMaliceError),
    # (a real depth, so that the refusal is the rule book's)
    "spitemalice.env.spaces:Encoding": (
        lambda r: _module("env.spaces").Encoding(r, 20), SpiteMaliceError),
    # bots from policies (bots' convention: TypeError for a rule book of the wrong type)
    "spitemalice.env.learned:PolicyPlayer.choose_from_view": (
        lambda r: _module("env.learned").PolicyPlayer(lambda o, m: 0).choose_from_view(
            r, VIEW, MOVES), TypeError),
    "spitemalice.env.learned:LearnedPlayer.choose_from_view": (
        lambda r: _module("env.learned").LearnedPlayer(1).choose_from_view(r, VIEW, MOVES),
        TypeError),
    "spitemalice.env.learned:LearnedPlayer.check_rules": (
        lambda r: _module("env.learned").LearnedPlayer(1).check_rules(r), TypeError),
    # formats
    "spitemalice.formats.parse:parse_position": (
        lambda r: parse.parse_position("x", r), TypeError),
    "spitemalice.formats.parse:parse_view": (lambda r: parse.parse_view("x", r), TypeError),
    **{f"spitemalice.formats.position_check:{name}": (
        _call(position_check, name, STATE), TypeError)
       for name in ("check_position", "check_view")},
    "spitemalice.formats.commitment:commit": (
        lambda r: _module("formats.commitment").commit(r, 4, None), TypeError),
    "spitemalice.formats.commitment:deal_digest": (
        lambda r: _module("formats.commitment").deal_digest(r, 4, None), TypeError),
    "spitemalice.formats.commitment:deal_problem": (
        lambda r: _module("formats.commitment").deal_problem(RECORD, r), TypeError),
    "spitemalice.formats.records.making:ruleset_ref": (lambda r: records.ruleset_ref(r), TypeError),
    "spitemalice.formats.records.making:own_version": (lambda r: records.own_version(r), TypeError),
    "spitemalice.formats.records.making:record_game": (lambda r: sm.record_game(r, 1), TypeError),
    "spitemalice.formats.records.making:record_arrivals": (
        lambda r: records.record_arrivals(r, 1, [], []), TypeError),
    "spitemalice.formats.arrival_replay:replay_arrivals": (
        lambda r: _module("formats.arrival_replay").replay_arrivals(RECORD, r), TypeError),
    "spitemalice.measures.arrival_coverage:arrival_tally": (
        lambda r: _module("measures.arrival_coverage").arrival_tally(r, []), TypeError),
    "spitemalice.measures.arrival_coverage:ArrivalCoverage": (
        lambda r: _module("measures.arrival_coverage").ArrivalCoverage(r), TypeError),
    "spitemalice.runs.arrival:arrival_record": (
        lambda r: _module("runs.arrival").arrival_record(r, None, None, []), TypeError),
    "spitemalice.runs.arrival:replayed_by_bots": (
        lambda r: _module("runs.arrival").replayed_by_bots(RECORD, r), TypeError),
    "spitemalice.formats.records.making:record_result": (
        lambda r: records.record_result(r, None), TypeError),
    "spitemalice.formats.replay:replay": (lambda r: replay.replay(RECORD, r), TypeError),
    "spitemalice.formats.replay:final_state": (
        lambda r: replay.final_state(RECORD, r), TypeError),
    "spitemalice.formats.replay:check_record": (
        lambda r: replay.check_record(RECORD, r), TypeError),
    **{f"spitemalice.formats.serialize:{name}": (
        _text_first(serialize, name), TypeError)
       for name in ("state_from_dict", "loads_state", "view_from_dict", "loads_view")},
    # play
    "spitemalice.play.session:Session": (lambda r: session.Session(r, ["greedy"]), TypeError),
    "spitemalice.play.session:Session.resume": (
        lambda r: session.Session.resume(RECORD, rules=r), TypeError),
    # rules: checks and registry cannot import the class; they read a field every book has
    "spitemalice.rules.checks:check_deal": (lambda r: checks.check_deal(r), TypeError),
    "spitemalice.rules.checks:check_ranks": (lambda r: checks.check_ranks(r), TypeError),
    "spitemalice.rules.checks:check_dead_cards": (lambda r: checks.check_dead_cards(r),
                                                  TypeError),
    "spitemalice.rules.checks:check_enforced": (
        lambda r: checks.check_enforced(r, (), None), TypeError),
    "spitemalice.rules.checks:check_values": (
        lambda r: checks.check_values(r, (), None, BF._pm, {}), TypeError),
    "spitemalice.rules.registry:own_clauses": (lambda r: registry.own_clauses(r), TypeError),
    "spitemalice.rules.registry:house_rule_clauses": (
        lambda r: registry.house_rule_clauses(r), TypeError),
    # study
    "spitemalice.study.balance:balance": (lambda r: balance.balance(r, "x"), TypeError),
    "spitemalice.runs.game_shape:LeadTracker": (
        lambda r: _module("runs.game_shape").LeadTracker(r), TypeError),
    "spitemalice.runs.game_shape:winning_side": (
        lambda r: _module("runs.game_shape").winning_side(r, sm.GameResult(3, 0, STATE, ())),
        TypeError),
    "spitemalice.runs.game_shape:game_shape": (
        lambda r: _module("runs.game_shape").game_shape(r, sm.GameResult(3, 0, STATE, ())),
        TypeError),
    "spitemalice.study.balance_coverage:measured": (
        lambda r: balance_coverage.measured(r, None, 1), TypeError),
    "spitemalice.study.ladder:ladder": (
        lambda r: ladder.ladder(r, ["greedy", "random"], 2, 1), TypeError),
    "spitemalice.study.match:play_match": (
        lambda r: match.play_match(r, [GREEDY, GREEDY], 1), TypeError),
    "spitemalice.runs.runner:Configuration": (
        lambda r: runner.Configuration(r, ("greedy", "greedy")), TypeError),
    "spitemalice.runs.runner:configuration": (
        lambda r: runner.configuration(r, ["greedy"]), TypeError),
    "spitemalice.runs.loop:play_game": (
        lambda r: loop.play_game(r, [GREEDY, GREEDY], 1), TypeError),
    "spitemalice.runs.loop:BotGame": (
        lambda r: loop.BotGame(r, ("greedy", "greedy"), 1), TypeError),
    "spitemalice.runs.loop:CoveredGame": (
        lambda r: loop.CoveredGame(r, ("greedy", "greedy"), 1), TypeError),
    "spitemalice.study.simulate:simulate": (
        lambda r: simulate.simulate(r, ["greedy"], 1, 1), TypeError),
    "spitemalice.study.tournament:tournament": (
        lambda r: tournament.tournament(r, ["greedy", "random"], 1, 1), TypeError),
    "spitemalice.study.tune_targets:measure": (
        lambda r: _module("study.tune_targets").measure(
            r, _module("study.tune_targets").Plan("greedy", "greedy", "random", frozenset()),
            range(1), 1), TypeError),
    # validation
    "spitemalice.validation.run:validate_book": (lambda r: validate_book(r, 1), TypeError),
    "spitemalice.validation.run:validate_book(base)": (
        lambda r: validate_book(BF, 1, base=r) if r is not None else None, TypeError),
    "spitemalice.validation.run:Validation": (lambda r: Validation(r, 1), TypeError),
    "spitemalice.validation.run:Validation(base)": (
        lambda r: Validation(BF, 1, base=r) if r is not None else None, TypeError),
    "spitemalice.validation.base:Base": (lambda r: base.Base(r, "x", ""), TypeError),
    "spitemalice.validation.dynamic:CheckedGame": (
        lambda r: dynamic.CheckedGame(r, 1), TypeError),
    "spitemalice.validation.dynamic:dynamic_checks": (
        lambda r: dynamic.dynamic_checks(r, 1, 1), TypeError),
    "spitemalice.validation.steps:Plan": (
        lambda r: steps.Plan(r, 1, sm.load, sm.load, (), (), base.Base(None, "", "")),
        TypeError),
    "spitemalice.validation.recheck:recheck_record": (
        lambda r: recheck.recheck_record(RECORD, r), TypeError),
    "spitemalice.validation.roundtrip:RoundTrip": (lambda r: roundtrip.RoundTrip(r), TypeError),
    "spitemalice.validation.spread:check_seat_counts": (
        lambda r: spread.check_seat_counts(sm.load, r, 1), TypeError),
    "spitemalice.validation.spread:check_clause_settings": (
        lambda r: spread.check_clause_settings(sm.load, r, (), 1, ()), TypeError),
    "spitemalice.validation.static:static_checks": (
        lambda r: static.static_checks(sm.load, r, ()), TypeError),
}

# Members that take a rule book and are left as they are, with the reason.
LEFT_ALONE = {
    "spitemalice.engine.simultaneous:check_simultaneous": "reached only from check_move, "
                                                          "which checked the rule book",
    "spitemalice.engine.simultaneous:game_of": "reached only from the engine's doors, which "
                                               "checked the rule book",
    "spitemalice.engine.simultaneous:seat_moves": "reached only from legal_moves, which "
                                                  "checked the rule book",
    "spitemalice.rules.book:require_turn_based": "called after check_book at every door",
    "spitemalice.play.table_view:played_move": "called by the session with its own rule book, "
                                               "checked when the session was made",
    "spitemalice.formats.arrival_replay:check_arrival_form": "called by replay, check_record "
                                                             "and replay_arrivals after "
                                                             "check_book",
    "spitemalice.runs.arrival:play_arrival": "calls check_book first (TypeError naming it)",
    "spitemalice.validation.simultaneous:validate_simultaneous": "called by validate with "
                                                                 "the rule book it loaded",
    "spitemalice.bots.base:Player.choose": "a Protocol's method: no body to check in",
    "spitemalice.bots.players:RandomPlayer.choose": (
        "never reads the rules (a uniform pick among the moves given), so nothing fails; "
        "a check would cost the random play-outs on every move"),
    "spitemalice.bots.players:RandomPlayer.choose_from_view": (
        "never reads the rules (a uniform pick among the moves given), as RandomPlayer.choose"),
    "spitemalice.engine.views:ViewPlayer(bot)": (
        "the wrapped bot, a function the rule book is handed to, not a rule book"),
    **{f"spitemalice.validation.{member}": "a function that makes rule books"
       for member in ("run:validate_book(reload)", "run:validate_book(stack)",
                      "run:Validation(reload)", "run:Validation(stack)", "steps:Plan(reload)",
                      "steps:Plan(stack)")},
}

# Internal helpers: public names in documented modules, but called only from inside the
# library, after the public function, constructor or command that took the rule book from
# outside has checked it; they trust their typed arguments (docs/api/index.md, "Arguments
# of the wrong type").
INTERNAL = {
    **dict.fromkeys(
        ("spitemalice.env.action_numbers:most_build_piles",
         "spitemalice.env.action_numbers:pile_owners"),
        "the action catalogues' numbering, given the rule book their constructor checked"),
    "spitemalice.formats.record_problem:replay_moves": "the move loop of replay and "
    "replay_arrivals, given the rule book they checked",
    **dict.fromkeys(
        [f"spitemalice.formats.position_check:{name}" for name in (
            "check_layout", "check_builds", "check_card_counts", "check_counters",
            "check_outcome")],
        "a step of check_position and check_view (and the parsers), which check the book"),
    **dict.fromkeys(
        [f"spitemalice.play.screen:{name}" for name in (
            "table_lines", "cards_text", "move_words", "played_line")]
        + ["spitemalice.play.table_view:describe"],
        "draws the table of a Session (which checks its book) for the terminal and the server"),
    **dict.fromkeys(
        [f"spitemalice.env.arguments:{name}" for name in (
            "discard_depth_of", "seat_of", "opponents_of", "reset_arguments")]
        + ["spitemalice.env.rewards:final_rewards", "spitemalice.env.start:given_state"],
        "a step of an environment's constructor or reset, after the constructor's check"),
    **dict.fromkeys(
        [f"spitemalice.measures.coverage:{name}" for name in (
            "clause_coverage", "never_exercised", "coverage_notes")]
        + ["spitemalice.engine.coverage:recorder_for", "spitemalice.runs.loop:covered_game"],
        "the coverage steps of simulate, compare, balance and validate, which check the book"),
    "spitemalice.engine.legal:base_moves": "a step of legal_moves, check_move and the audits",
    **dict.fromkeys(
        [f"spitemalice.engine.configuration:{name}" for name in (
            "seat_count_problem", "seat_layout_problem", "configuration_of",
            "configuration_problem", "foreign_state", "check_configuration")]
        + ["spitemalice.engine.configuration:decoded", "spitemalice.engine.legal:foreign"],
        ("a step of the per-move paths and the doors that check a state against the rule "
         "book, given the state and rule book they checked the types of")),
    "spitemalice.engine.legal:move_groups": (
        "a step of base_moves, random_move and CardCatalogue.legal_list, given the rule book "
        "they checked or hold"),
    "spitemalice.env.others:bots_move": (
        "a step of an environment's reset and step, whose constructor checked the book"),
    "spitemalice.runs.provenance:describe_run": "the provenance of a run of the command line "
                                                "or of validate_book, which check the book",
    "spitemalice.runs.provenance:changed_parameters": "a step of describe_run",
    "spitemalice.server.messages:welcome": "built by a table from its own rule book; what "
                                           "comes in from outside is read by the protocol",
    "spitemalice.server.listing:table_options": "a step of a create message, whose rules "
                                                "lobby.table_rules loaded",
    "spitemalice.server.leavers:table_options": "the same step, from listing.table_options",
    "spitemalice.server.spit_table:SpitTable": "a live spit table, made by spit_live._create "
                                               "from the rules lobby.table_rules loaded",
    "spitemalice.server.replays:Replayed": "a finished game replayed by replays.replayed under "
                                           "the rules it loaded for the record",
    "spitemalice.server.replays:deal_check": "a step of replays.summary, with the rules "
                                             "replays.replayed loaded for the record",
    "spitemalice.study.pairs:pair_configs": "a step of balance and ladder, which check the book",
    "spitemalice.study.pairs:table_of": "a step of balance and ladder, which check the book",
    "spitemalice.study.tournament:tournament_sides": (
        "a step of tournament, balance, ladder and their commands, which check the book"),
    "spitemalice.testing.conformance:legal_move_machine": (
        "a step of VariantConformance, which loads the book itself"),
    **dict.fromkeys(
        [f"spitemalice.engine.invariants.run:unchecked_{name}" for name in (
            "state_violations", "transition_violations")],
        "the runners' body once they have checked their arguments, and the validator's "
        "checked games' (validate_book and Validation check the book)"),
    **dict.fromkeys(
        [f"spitemalice.validation.dynamic:{name}" for name in (
            "stuck", "step_violation", "step_problem", "unintended", "play_checked")]
        + [f"spitemalice.validation.shrink:{name}" for name in (
            "first_problem", "first_violation", "picks_of", "shrink")]
        + [f"spitemalice.validation.audit:{name}" for name in (
            "audit_position", "filters_hold", "answering_filters", "candidates", "other_seats")]
        + [f"spitemalice.validation.static:{name}" for name in (
            "check_player_counts", "check_ceiling_reachable", "check_every_rank_playable",
            "check_tables_follow_ruleset", "check_limits")]
        + [f"spitemalice.validation.termination:{name}" for name in (
            "move_cap", "blocked_position", "check_blocked_position")]
        + ["spitemalice.validation.intent:intended", "spitemalice.validation.intent:intends",
           "spitemalice.validation.judge:judge"],
        "a step of a validation run: validate_book and Validation (and recheck_record, for "
        "the steps of a checked game) check the book"),
}

# Members whose rule book may be None (it then defaults to the record's own rules).
NONE_ALLOWED = {"spitemalice.formats.replay:replay", "spitemalice.formats.replay:final_state",
                "spitemalice.formats.replay:check_record",
                "spitemalice.play.session:Session.resume",
                "spitemalice.validation.run:validate_book(base)",
                "spitemalice.validation.run:Validation(base)", "spitemalice.validation.base:Base"}



def _bots_state() -> object:
    """What a refused call must leave as it was besides the state and view: the bots' and the
    shared generator's draws, the ISMCTS bot's last search and what it inferred this turn."""
    return (RNG.getstate(), *(bot.rng.getstate() for bot in (GREEDY, HEURISTIC, MCTS, ISMCTS)),
            ISMCTS.tree, ISMCTS._inferred, ISMCTS._no_route)


def _display(member: str) -> str:
    """The name the message gives: the qualified name (a class's for its constructor)."""
    qualname = member.partition(":")[2]
    return qualname.replace("(base)", "'s base")


def _cases() -> list[tuple[str, Any]]:
    return [(member, bad) for member in sorted(MEMBERS) for bad in BAD
            if not (bad is None and member in NONE_ALLOWED)]


@pytest.mark.parametrize(("member", "bad"), _cases(),
                         ids=lambda x: x if isinstance(x, str) and ":" in x else type(x).__name__)
def test_a_wrong_rule_book_is_refused_by_name_and_changes_nothing(member: str, bad: Any) -> None:
    call, error = MEMBERS[member]
    before = _bots_state()
    with pytest.raises(error) as raised:
        call(bad)
    message = str(raised.value)
    assert message.startswith(f"{_display(member)} takes a RuleBook "
                              "(what spitemalice.load(name) returns), not "), message
    if isinstance(bad, str):
        assert 'not the str "blackwood-frey"' in message
        assert 'spitemalice.load("blackwood-frey")' in message
    assert not isinstance(raised.value, AttributeError)
    assert raised.value.__suppress_context__  # no AttributeError shown as its cause
    assert (STATE, VIEW) == SNAPSHOT
    assert _bots_state() == before


@pytest.mark.parametrize("member", sorted(m for m in MEMBERS if not m.endswith("(base)")))
def test_each_call_runs_with_the_real_rule_book_as_far_as_its_dummies_let_it(member: str) -> None:
    """The rows call what they name: with the real rule book the call gets past the check (it
    returns, or fails on a dummy argument with another message)."""
    call, _ = MEMBERS[member]
    if member.rpartition(":")[2] in SLOW:
        return
    try:
        call(BF)
    except Exception as error:  # a dummy argument
        assert "takes a RuleBook" not in str(error)


# Calls that with a real book would play whole studies or games: their rows are checked by
# the refusal only.
SLOW = {"balance", "ladder", "tournament", "simulate", "validate_book", "dynamic_checks",
        "play_match", "SearchPlayer.choose", "SearchPlayer.choose_from_view", "SelfPlayVectorEnv",
        "legal_move_machine", "play_checked", "check_seat_counts", "check_player_counts",
        "static_checks", "blocked_position", "check_blocked_position", "Session",
        "Session.resume"}


def test_the_issue_example() -> None:
    with pytest.raises(TypeError, match=r'^legal_moves takes a RuleBook \(what '
                       r'spitemalice.load\(name\) returns\), not the str "blackwood-frey": '
                       r'load the rule set first, spitemalice.load\("blackwood-frey"\)$'):
        sm.legal_moves("blackwood-frey", sm.deal(sm.load("blackwood-frey"), 1))  # type: ignore[arg-type]


@pytest.mark.parametrize(("given", "says"), [
    (BF.ruleset, "not a Ruleset (a rule book's values): pass the RuleBook whose .ruleset it is"),
    (STATE, "not a GameState (are the arguments in order? the rule book comes first)"),
    (Path("mine.toml"), "not a path (PosixPath): load the rule-set file first, "
                        "spitemalice.load(path)"),
    (3, "not int"),
    ("\x1b[2Jx", r'not the str "\x1b[2Jx": load the rule set first, spitemalice.load(name)'),
])
def test_the_message_says_what_was_given_and_what_is_right(given: Any, says: str) -> None:
    says = says.replace("PosixPath", type(given).__name__) if isinstance(given, Path) else says
    with pytest.raises(TypeError) as raised:
        sm.deal(given)
    assert str(raised.value) == ("deal takes a RuleBook (what spitemalice.load(name) returns), "
                                 + says)


def test_a_real_rule_books_own_error_goes_through_unchanged() -> None:
    """The per-move paths check only once reading the book failed; with a real book the error
    raised inside is the one the caller sees (here moves given as None; a state given as None
    has its own check: tests/contract/test_position_argument.py)."""
    with pytest.raises(TypeError, match="'NoneType' object is not iterable"):
        GreedyPlayer(1).choose(BF, STATE, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="'NoneType' object is not iterable"):
        heuristic.decide(BF, VIEW, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"is_legal takes a move .*, not the str"):
        sm.is_legal(BF, STATE, "AS>B+")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a GameState, not a seat's view"):
        sm.legal_moves(BF, VIEW)  # type: ignore[arg-type]


def test_the_check_lets_a_rule_book_through_and_names_the_function() -> None:
    check_book(BF, "f")
    with pytest.raises(SpiteMaliceError, match=r"^f takes a RuleBook"):
        check_book("x", "f", SpiteMaliceError)


# ---- completeness: every member of the API reference that takes a rule book has a row ----

def members_of(module: types.ModuleType) -> set[str]:
    """``"module:qualname"`` for every public function, method and constructor defined in
    ``module`` with a parameter ``rules`` or ``book`` annotated with RuleBook, and
    ``"module:qualname(param)"`` for a parameter of another name so annotated."""
    return {f"{module.__name__}:{qualname}" + ("" if p.name in ("rules", "book")
                                               else f"({p.name})")
            for qualname, p in api_walk.parameters(module)
            if re.search(r"\bRuleBook\b", str(p.annotation))}


def test_every_member_is_listed() -> None:
    if api_walk.compiled():
        pytest.skip("the compiled build's functions have no signatures; the pure build's walk")
    found = set().union(*map(members_of, api_walk.imported_modules()))
    api_walk.assert_listed(found, set(MEMBERS) | set(LEFT_ALONE) | set(INTERNAL))


@pytest.mark.parametrize("member", sorted(INTERNAL))
def test_an_internal_helper_is_on_no_face(member: str) -> None:
    """A helper left without a check is no door: neither ``spitemalice`` nor any package face
    (``spitemalice.formats``, ``spitemalice.env``...) exports it."""
    module, _, qualname = member.partition(":")
    name = qualname.partition(".")[0]
    faces = [sm] + [importlib.import_module(".".join(module.split(".")[:depth]))
                    for depth in range(2, module.count(".") + 1)]
    for face in faces:
        assert name not in getattr(face, "__all__", ()), (face.__name__, name)
        assert face is sm or getattr(face, name, None) is not getattr(
            importlib.import_module(module), name), (face.__name__, name)
    assert name not in dir(sm)


def test_the_api_reference_names_each_internal_helper() -> None:
    """The rule said once (docs/api/index.md) names the helpers that trust their arguments:
    each by its name or its module's."""
    said = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8").partition(
        "## Arguments of the wrong type")[2]
    assert said
    for member in INTERNAL:
        module, _, name = member.partition(":")
        assert f"`{name}`" in said or f"`{module}`" in said or f"`{module}.{name}`" in said, \
            member


def test_the_member_walk_finds_a_new_member() -> None:
    """The completeness test can fail: a function taking a rule book is found, one taking
    something else is not."""
    module = types.ModuleType("planted")
    exec("from __future__ import annotations\n"
         "def takes(rules: RuleBook, n: int) -> None: ...\n"
         "def other(rules: Ruleset) -> None: ...\n"
         "class Taker:\n"
         "    def __init__(self, book: RuleBook | None) -> None: ...\n"
         "    def go(self, base: RuleBook, rules: RuleBook) -> None: ...\n",
         module.__dict__)
    assert members_of(module) == {"planted:takes", "planted:Taker", "planted:Taker.go(base)",
                                  "planted:Taker.go"}
    assert api_walk.compiled() or "spitemalice.engine.legal:legal_moves" in members_of(legal)
    assert isinstance(BF, RuleBook)


@pytest.mark.parametrize("door", ["choose", "choose_from_view"])
@pytest.mark.parametrize("bot", ["mcts", "ismcts", "heuristic"])
def test_a_decision_checks_the_rule_book_once_at_its_door(
        bot: str, door: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33 item 7: the door checks the rule book, the search's steps (determinizations,
    samplers, route searches, the last mover's inference) trust it.  A searched decision
    (several legal moves, no pay-off play) calls check_book exactly once, naming the door."""
    checked: list[str] = []

    def counting(rules: object, function: str, *args: Any, **kwargs: Any) -> None:
        checked.append(function)
        check_book(rules, function, *args, **kwargs)  # type: ignore[arg-type]

    for name in ("base", "heuristic", "inference", "ismcts", "mcts", "players", "sampling"):
        monkeypatch.setattr(_module(f"bots.{name}"), "check_book", counting)
    monkeypatch.setattr(_module("engine.views"), "check_book", counting)
    player = _module("bots").make_player(bot, 3)
    assert len(MOVES) > 1 and not any(isinstance(m, Play) and m.zone is Zone.PAYOFF
                                      for m in MOVES)
    if door == "choose":
        player.choose(BF, STATE, MOVES)
    else:
        player.choose_from_view(BF, sm.view_of(STATE, STATE.seat), MOVES)  # type: ignore[attr-defined]
    owner = "HeuristicPlayer" if bot == "heuristic" else "SearchPlayer"
    assert checked == [f"{owner}.{door}"]
