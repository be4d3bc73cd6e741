"""Wrong-typed arguments other than a rule book or a position (tryout s5 §7, §8): each public
function of :mod:`spitemalice` (its ``__all__``) and the environment helpers refuses a wrong
type of its main argument (a record, a name, a path, a move, text) with an error that names
the function and what would be right, and changes nothing; and every public function taking
a sequence (bots, moves, house rules, seats) refuses a bare str, saying it wants a list.

The rule book has its own file (tests/contract/test_rules_argument.py), as have the state and the
view (tests/contract/test_position_argument.py).
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import api_walk

import spitemalice as sm
import spitemalice.env as env
from spitemalice.errors import NotationError, SpiteMaliceError

ROOT = Path(__file__).parents[2]
BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, 3)
VIEW = sm.view_of(STATE, 0)
MOVES = sm.legal_moves(BF, STATE)
RECORD = sm.record_game(BF, 3, [MOVES[0]])
SNAPSHOT = copy.deepcopy((BF.ruleset, STATE, RECORD))

BAD: list[Any] = [None, 3, object(), BF]  # and a str, where a str is wrong

# Each member: the call with its main argument given, the error, and the words the message
# starts with (the function and what it takes).
Call = Callable[[Any], object]


def _factory(name: str) -> Call:
    """The call of the environment factory ``name`` with the rule set given."""
    return lambda x: getattr(env, name)(x, **({"num_envs": 2} if name == "vector_env" else {}))


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
    "unspaced_move": (lambda x: sm.unspaced_move(x, "'9H>B2'"), TypeError,
                      "unspaced_move takes a move's text", False),
    "parse_position": (lambda x: sm.parse_position(x, BF), NotationError,
                       "a position is text", False),
    "env.gym_id": (env.gym_id, SpiteMaliceError, "gym_id takes a rule set's name", False),
    "stated_deck": (sm.stated_deck, TypeError, "stated_deck takes a Ruleset", True),
    **{f"env.{name}": (_factory(name), SpiteMaliceError,
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
    "shuffled": "refused already: seed and counter are checked as whole numbers (the cards "
                "may be any sequence)",
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
    found -= {"Pile"}  # a type alias
    listed = set(TOP) | ELSEWHERE | set(LEFT_ALONE)
    assert found - listed == set(), "add a row to TOP (or LEFT_ALONE, with the reason)"
    assert listed - found == set(), "rows for members that are gone"


# ---- a bare str where a list belongs (tryout s5 §8) ----

def _m(name: str) -> Any:
    return __import__(f"spitemalice.{name}", fromlist=["_"])


RESULT = sm.GameResult(3, 0, STATE, ())
# "module:qualname(parameter)" -> the call with the str given, the example the message gives.
SEQUENCES: dict[str, tuple[Call, str]] = {
    # the play server's origins and the exempt addresses of its connection gate (issue 38)
    "spitemalice.server.app:allowed_origins(origins)": (
        lambda s: _m("server.app").allowed_origins(s), '["https://play.example.org"]'),
    "spitemalice.server.app:create_app(origins)": (
        lambda s: _m("server.app").create_app(None, origins=s), '["https://play.example.org"]'),
    "spitemalice.server.app:server_config(origins)": (
        lambda s: _m("server.app").server_config(None, origins=s),
        '["https://play.example.org"]'),
    "spitemalice.server.app:serve(origins)": (
        lambda s: _m("server.app").serve("127.0.0.1", 0, "unmade", origins=s),
        '["https://play.example.org"]'),
    "spitemalice.server.guard:Gate(exempt)": (
        lambda s: _m("server.guard").Gate(exempt=s), '["127.0.0.1"]'),
    "spitemalice.study.simulate:simulate(bots)": (
        lambda s: _m("study").simulate(BF, s, 2, 1), '["greedy"]'),
    "spitemalice.study.ladder:ladder(bots)": (
        lambda s: _m("study.ladder").ladder(BF, s, 2, 1), '["greedy", "random"]'),
    "spitemalice.study.tournament:tournament(bots)": (
        lambda s: _m("study.tournament").tournament(BF, s, 2, 1), '["greedy", "random"]'),
    "spitemalice.runs.runner:configuration(bots)": (
        lambda s: _m("runs.runner").configuration(BF, s), '["greedy"]'),
    "spitemalice.study.balance:balance(tiers)": (
        lambda s: _m("study.balance").balance(BF, "x", s), '["random", "greedy"]'),
    "spitemalice.study.ratings:ratings(bots)": (
        lambda s: _m("study.ratings").ratings([], s, "greedy"), '["greedy", "random"]'),
    "spitemalice.study.ratings:strengths(bots)": (
        lambda s: _m("study.ratings").strengths([], s), '["greedy", "random"]'),
    "spitemalice.formats.records.making:record_game(moves)": (
        lambda s: sm.record_game(BF, 3, s), '["AS>B+", "pass"]'),
    "spitemalice.formats.records.making:record_game(seats)": (
        lambda s: sm.record_game(BF, 3, seats=s), '["me", "greedy"]'),
    "spitemalice.formats.records.making:record_arrivals(seats)": (
        lambda s: sm.formats.record_arrivals(sm.load("spit"), 3, [], [], seats=s),
        '["me", "greedy"]'),
    "spitemalice.runs.arrival:arrival_record(bots)": (
        lambda s: _m("runs.arrival").arrival_record(
            sm.load("spit"), _m("runs.arrival").play_arrival(
                sm.load("spit"), [_m("runs.arrival").random_bot] * 2, 1,
                _m("runs.arrival").ReactionTimes()), _m("runs.arrival").ReactionTimes(), s),
        '["greedy", "random"]'),
    "spitemalice.formats.records.making:record_result(seats)": (
        lambda s: _m("formats.records").record_result(BF, RESULT, s), '["me", "greedy"]'),
    "spitemalice.play.session:Session(kinds)": (
        lambda s: _m("play.session").Session(BF, s), '["human", "greedy"]'),
    "spitemalice.play.session:Session(names)": (
        lambda s: _m("play.session").Session(BF, ["human", "greedy"], names=s),
        '["me", "greedy"]'),
    "spitemalice.play.session:Session.resume(kinds)": (
        lambda s: _m("play.session").Session.resume(RECORD, kinds=s), '["human", "greedy"]'),
    "spitemalice.validation.run:validate(house_rules)": (
        lambda s: _m("validation").validate("blackwood-frey", s), '["mandatory-aces"]'),
    "spitemalice.validation.run:validate_book(house_rules)": (
        lambda s: _m("validation").validate_book(BF, house_rules=s), '["mandatory-aces"]'),
    "spitemalice.validation.run:Validation(house_rules)": (
        lambda s: _m("validation").Validation(BF, house_rules=s), '["mandatory-aces"]'),
    "spitemalice.validation.house_rule:validate_house_rule(house_rules)": (
        lambda s: _m("validation.house_rule").validate_house_rule("mandatory-aces", s),
        '["mandatory-aces"]'),
    "spitemalice.validation.base:base_of(house_rules)": (
        lambda s: _m("validation.base").base_of("blackwood-frey", s, {}, 2),
        '["mandatory-aces"]'),
    "spitemalice.validation.spread:check_stacking(own)": (
        lambda s: _m("validation.spread").check_stacking(None, s, 0), '["mandatory-aces"]'),
    "spitemalice.validation.spread:check_stacking(extra)": (
        lambda s: _m("validation.spread").check_stacking(None, [], 0, s), '["mandatory-aces"]'),
    "spitemalice.openspiel:load_game(house_rules)": (
        lambda s: _m("openspiel").load_game("blackwood-frey", 2, s), '["mandatory-aces"]'),
    "spitemalice.rules.loader:load_text(house_rules)": (
        lambda s: _m("rules.loader").load_text(
            'title = "t"\nversion = "1"\nbase = "blackwood-frey"\n', s), '["mandatory-aces"]'),
    "spitemalice.formats.picture:position_svg(names)": (
        lambda s: _m("formats.picture").position_svg(STATE, names=s), '["me", "greedy"]'),
    "spitemalice.runs.loop:play_game(players)": (
        lambda s: _m("study").play_game(BF, s, 1), "[GreedyPlayer(1), RandomPlayer(2)]"),
    "spitemalice.study.match:play_match(players)": (
        lambda s: _m("study.match").play_match(BF, s, 1), "[GreedyPlayer(1), RandomPlayer(2)]"),
}
# Documented to take None (their default): a str is refused, None is not.
NONE_ALLOWED = {
    "spitemalice.formats.records.making:record_arrivals(seats)",
    "spitemalice.formats.records.making:record_game(seats)",
    "spitemalice.formats.records.making:record_result(seats)",
    "spitemalice.play.session:Session(names)",
    "spitemalice.play.session:Session.resume(kinds)",
    "spitemalice.validation.run:validate_book(house_rules)",
    "spitemalice.validation.run:Validation(house_rules)",
    "spitemalice.validation.spread:check_stacking(extra)"}
# Taking a str as one name, by design and documented (not a list of its letters).
ONE_NAME = {f"spitemalice.env:{name}(house_rules)" for name in (
    "make", "parallel_env", "single_agent", "vector_env")} | {
    "spitemalice.rules.loader:load(house_rules)"}
# Left as they are: helpers the library calls with its own lists.
INTERNAL = {
    "spitemalice.server.shared:Shared.status(tables)",
    "spitemalice.server.shared:admission(creators)",
    "spitemalice.server.redis_shared:RedisShared.status(tables)",
    "spitemalice.env.arguments:agent_of(agents)",
    "spitemalice.formats.record_problem:replay_moves(moves)",
    "spitemalice.rules.checks:check_conflicts(plugins)",
    "spitemalice.wording:together(problems)",  # the library's own refusals, joined
    "spitemalice.rules.datarules.evaluate:Condition(names)",
    "spitemalice.rules.datarules.plugins:DataRule.spitemalice_conflicts(plugins)",
    "spitemalice.rules.datarules.scoring:ScoreRule.spitemalice_conflicts(plugins)",
    "spitemalice.rules.checks:clause_table(plugins)", "spitemalice.rules.findings:cite(clause_ids)",
    "spitemalice.rules.findings:known_names(table)",
    "spitemalice.rules.hookspecs:spitemalice_conflicts(plugins)",
    "spitemalice.rules.loader:house_rule_sheet(house_rules)",
    "spitemalice.rules.loader:load_installed(house_rules)",
    "spitemalice.rules.policies:Clause(reasons)", "spitemalice.rules.reasons:keys(codes)",
    "spitemalice.rules.resolve:required_reasons(plugins)",
    "spitemalice.rules.ruleset:closest(names)", "spitemalice.server.lobby:created(tokens)",
    "spitemalice.server.watching:public(names)",
    "spitemalice.server.rulefile:file_rules(house_rules)",
    "spitemalice.runs.provenance:describe_run(bots)",
    "spitemalice.runs.provenance:describe_run(house_rules)",
    "spitemalice.study.atlas_page:render(planned)", "spitemalice.study.plot:interval_bars(labels)",
    "spitemalice.study.plot_ratings:forest(labels)"}


@pytest.mark.parametrize("member", sorted(SEQUENCES))
def test_a_bare_str_where_a_list_belongs_is_refused(member: str) -> None:
    call, example = SEQUENCES[member]
    if "openspiel" in member:
        pytest.importorskip("pyspiel")
    with pytest.raises(TypeError) as raised:
        call("greedy")
    function = member.partition(":")[2].partition("(")[0]
    parameter = member.rpartition("(")[2].rstrip(")")
    assert str(raised.value).startswith(f"{function} takes {parameter}, a list of "), raised.value
    assert str(raised.value).endswith(f'e.g. {example}, not the str "greedy"'), raised.value
    assert (BF.ruleset, STATE, RECORD) == SNAPSHOT


@pytest.mark.parametrize("member", sorted(set(SEQUENCES) - NONE_ALLOWED))
@pytest.mark.parametrize("given", [None, 3])
def test_none_or_a_non_collection_where_a_list_belongs_is_refused(member: str,
                                                                 given: object) -> None:
    call, example = SEQUENCES[member]
    if "openspiel" in member:
        pytest.importorskip("pyspiel")
    with pytest.raises(TypeError) as raised:
        call(given)
    function = member.partition(":")[2].partition("(")[0]
    parameter = member.rpartition("(")[2].rstrip(")")
    assert str(raised.value) == (f"{function} takes {parameter}, a list of "
                                 + str(raised.value).partition(", a list of ")[2]), raised.value
    assert str(raised.value).endswith(f"e.g. {example}, not {'None' if given is None else 'int'}")
    assert (BF.ruleset, STATE, RECORD) == SNAPSHOT


def test_compare_given_a_rule_book_names_configuration() -> None:
    with pytest.raises(TypeError, match=r"^compare takes a, a Configuration \(what "
                       r"spitemalice\.study\.configuration\(rules, bots\) returns\), not "
                       r"RuleBook$"):
        _m("study").compare(BF, BF, 2, 1)


def test_the_tryout_example_of_a_bare_str() -> None:
    with pytest.raises(TypeError, match=r'^simulate takes bots, a list of bot names, e\.g\. '
                       r'\["greedy"\], not the str "greedy"$'):
        _m("study").simulate(BF, "greedy", 2, 1)


def test_every_sequence_of_names_is_listed() -> None:
    """Walk the API reference's signatures for a parameter that holds names (a sequence,
    iterable or list of str): each has a row, or is listed as taking one name alone or as a
    helper the library feeds itself."""
    pattern = re.compile(r"^(Sequence|Iterable|list|Collection)\[(str|Move \| str|"
                          r"SeatInfo \| str|str \| None|Player)\]( \| None)?$")
    found = {f"{module.__name__}:{qualname}({p.name})"
             for module in api_walk.imported_modules()
             for qualname, p in api_walk.parameters(module) if pattern.match(str(p.annotation))}
    api_walk.assert_listed(found, set(SEQUENCES) | ONE_NAME | INTERNAL)


# Reasons for LISTS_LEFT.
_PER_MOVE = "per move (a bot's choose and its helpers): the engine passes its own tuple"
_HELPER = "a helper the library (or the validator, server, plotting) feeds its own values"
_TEAMS = "a helper the formats and the rule book call with teams they formed"
_HOOKSPEC = "a plugin hook's specification: the engine passes its own tuples"

# ---- a str, None or another non-collection where a list of anything belongs ----

# "module:qualname(parameter)" -> the call with the value given.
LISTS: dict[str, Callable[[Any], object]] = {
    "spitemalice.runs.arrival:play_arrival(bots)": (
        lambda v: _m("runs.arrival").play_arrival(sm.load("spit"), v, 1,
                                                   _m("runs.arrival").ReactionTimes())),
    "spitemalice.rules.book:RuleBook.from_plugins(house_rules)": (
        lambda v: sm.RuleBook.from_plugins(sm.load_plugin("blackwood-frey"), v)),
    "spitemalice.rules.loader:load_plugins(house_rules)": (
        lambda v: _m("rules.loader").load_plugins("blackwood-frey", v)),
    "spitemalice.measures.arrival_coverage:arrival_tally(games)": (
        lambda v: _m("measures.arrival_coverage").arrival_tally(sm.load("spit"), v)),
    "spitemalice.formats.records.making:record_arrivals(moves)": (
        lambda v: sm.formats.record_arrivals(sm.load("spit"), 3, v, [])),
    "spitemalice.formats.records.making:record_arrivals(times_ms)": (
        lambda v: sm.formats.record_arrivals(sm.load("spit"), 3, [], v)),
    "spitemalice.formats.records.making:record_game(undone)": (
        lambda v: sm.record_game(BF, 3, undone=v)),
    "spitemalice.formats.serialize:view_to_dict(teams)": (
        lambda v: _m("formats.serialize").view_to_dict(VIEW, v)),
    "spitemalice.formats.serialize:state_to_dict(teams)": (
        lambda v: _m("formats.serialize").state_to_dict(STATE, v)),
    "spitemalice.formats.serialize:dumps_view(teams)": (
        lambda v: _m("formats.serialize").dumps_view(VIEW, teams=v)),
    "spitemalice.formats.serialize:dumps_state(teams)": (
        lambda v: _m("formats.serialize").dumps_state(STATE, teams=v)),
    "spitemalice.formats.picture:position_svg(teams)": (
        lambda v: _m("formats.picture").position_svg(STATE, teams=v)),
    "spitemalice.formats.notation:format_view(teams)": (
        lambda v: _m("formats.notation").format_view(VIEW, v)),
    "spitemalice.formats.notation:format_position(teams)": (
        lambda v: _m("formats.notation").format_position(STATE, v)),
    "spitemalice.formats.layout:describe_view(teams)": (
        lambda v: _m("formats.layout").describe_view(VIEW, v)),
    "spitemalice.formats.layout:describe_position(teams)": (
        lambda v: _m("formats.layout").describe_position(STATE, v)),
    "spitemalice.model:sort_hand(cards)": (
        lambda v: sm.sort_hand(v)),
    "spitemalice.study.balance:quantile(ordered)": (
        lambda v: _m("study.balance").quantile(v, 0.5)),
    "spitemalice.measures.shape:shape_metrics(shapes)": (
        lambda v: _m("measures.shape").shape_metrics(v)),
    "spitemalice.measures.shape:row_metrics(rows)": (
        lambda v: _m("measures.shape").row_metrics(v)),
    "spitemalice.measures.coverage:coverage_as_dict(rows)": (
        lambda v: _m("measures.coverage").coverage_as_dict(v, 2)),
    "spitemalice.measures.coverage:format_coverage(rows)": (
        lambda v: _m("measures.coverage").format_coverage(v, 2)),
    "spitemalice.measures.coverage:format_coverage_report(notes)": (
        lambda v: _m("measures.coverage").format_coverage_report([], v, 2)),
    "spitemalice.measures.coverage:format_coverage_report(rows)": (
        lambda v: _m("measures.coverage").format_coverage_report(v, [], 2)),
    "spitemalice.measures.coverage:format_paired_coverage(a)": (
        lambda v: _m("measures.coverage").format_paired_coverage(v, [], 2)),
    "spitemalice.measures.coverage:format_paired_coverage(b)": (
        lambda v: _m("measures.coverage").format_paired_coverage([], v, 2)),
    "spitemalice.measures.metrics:balance(wins)": (
        lambda v: _m("measures.metrics").balance(v, 2)),
    "spitemalice.measures.metrics:duration(lengths)": (
        lambda v: _m("measures.metrics").duration(v)),
    "spitemalice.measures.metrics:quality(rows)": (
        lambda v: _m("measures.metrics").quality(v, 2)),
    "spitemalice.study.ratings:ratings(tables)": (
        lambda v: _m("study.ratings").ratings(v, ["greedy", "random"], "greedy")),
    "spitemalice.study.ratings:strengths(tables)": (
        lambda v: _m("study.ratings").strengths(v, ["greedy", "random"])),
    "spitemalice.runs.runner:play_games(configs)": (
        lambda v: _m("runs.runner").play_games(v, 1, range(1))),
    "spitemalice.study.simulate:percentile(values)": (
        lambda v: _m("study.simulate").percentile(v, 50)),
    "spitemalice.measures.means:mean_interval(values)": (
        lambda v: _m("measures.means").mean_interval(v)),
    "spitemalice.measures.means:mean_interval(within)": (
        lambda v: _m("measures.means").mean_interval([1.0, 2.0], within=v)),
    "spitemalice.measures.means:interval_of_mean(within)": (
        lambda v: _m("measures.means").interval_of_mean(1.0, 0.5, 4, within=v)),
    "spitemalice.measures.interval:bounded(within)": (
        lambda v: _m("measures.interval").bounded(1.0, 0.5, 4, within=v)),
    "spitemalice.measures.means:paired_difference(within)": (
        lambda v: _m("measures.means").paired_difference([1.0], [1.0], within=v)),
    "spitemalice.measures.means:paired_difference(a)": (
        lambda v: _m("measures.means").paired_difference(v, [1.0])),
    "spitemalice.measures.means:paired_difference(b)": (
        lambda v: _m("measures.means").paired_difference([1.0], v)),
    "spitemalice.measures.rates:paired_shares(a)": (
        lambda v: _m("measures.rates").paired_shares(v, [1])),
    "spitemalice.measures.rates:paired_shares(b)": (
        lambda v: _m("measures.rates").paired_shares([1], v)),
    "spitemalice.measures.sequential:sprt(differences)": (
        lambda v: _m("measures.sequential").sprt(v, 0.1)),
    "spitemalice.study.tournament:format_table(pairings)": (
        lambda v: _m("study.tournament").format_table(v)),
    "spitemalice.study.tournament:challenger_rate(won)": (
        lambda v: _m("study.tournament").challenger_rate(v, 0.5)),
}
# Functions and methods (not the record classes' constructors) left as they are, with why.
LISTS_LEFT: dict[str, str] = {
    "spitemalice.rules.checks:failures(made)": "the rule book's own checks, which "
    "RuleBook.from_plugins hands it (a member that is not callable is refused by name)",
    "spitemalice.rules.checks:check_values(plugins)": _HELPER,
    **{f"spitemalice.measures.checks:{check}": "the interval functions' own argument "
       "checks, called with what their public callers were given (a list of values refused "
       "there by name)" for check in ("check_values(values)", "check_lengths(a)",
                                      "check_lengths(b)")},
    **{f"spitemalice.measures.interval:difference_range({name})": "two ranges of a "
       "length (low, high), each from length_ranges or COUNT: the library's own pairs"
       for name in ("a", "b")},
    **{name: "the range a game's length can take (low, high): COUNT or length_ranges', "
       "which the studies pass" for name in ("spitemalice.measures.metrics:duration(within)",
                                            "spitemalice.study.balance:quantile(within)")},
    **{f"spitemalice.rules.defaults:{hook}(teams)": "the base rules' hook answer, asked "
       "only by the rule book with its own team table; this module's public face is "
       "stated_deck and numbered_pack" for hook in ("spitemalice_score",
                                                    "spitemalice_partner_piles")},
    "spitemalice.engine.configuration:seat_layout_problem(discards)": "a step of "
    "check_layout and configuration_problem, given a seat's own discard piles",
    **{f"spitemalice.server.store:read_table_file({name})": "the table file readers' own "
       "format and field names, written in the library" for name in ("kind", "fields",
                                                                    "optional")},
    "spitemalice.server.redis_leases:rebuild(found)": "a table file and record the store "
                                                      "read (Store.table, spit_restore)",
    "spitemalice.server.spit_table:spit_message(legal)": "built by a live spit table from "
                                                         "the game's own legal moves",
    "spitemalice.server.spit_table:spit_message(last)": "built by a live spit table from its "
                                                        "own log",
    "spitemalice.runs.arrival:random_bot(moves)": _PER_MOVE,
    "spitemalice.bots.base:check_players(players)": "the doors that take players call it "
                                                    "after check_list refused a non-list",
    "spitemalice.rules.simultaneous:simultaneous_needs(plugins)": "called by "
        "RuleBook.from_plugins with the plugin names it made",
    "spitemalice.bots.base:Player.choose(moves)": _PER_MOVE,
    "spitemalice.bots.base:SearchPlayer.choose(moves)": _PER_MOVE,
    "spitemalice.bots.base:SearchPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.bots.base:move_from_view(moves)": _PER_MOVE,
    "spitemalice.bots.heuristic:HeuristicPlayer.choose(moves)": _PER_MOVE,
    "spitemalice.bots.heuristic:HeuristicPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.env.learned:PolicyPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.env.learned:LearnedPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.bots.heuristic:decide(moves)": _PER_MOVE,
    "spitemalice.bots.heuristic:rank_moves(moves)": _PER_MOVE,
    "spitemalice.bots.players:GreedyPlayer.choose(moves)": _PER_MOVE,
    "spitemalice.bots.players:GreedyPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.bots.players:RandomPlayer.choose(moves)": _PER_MOVE,
    "spitemalice.bots.players:RandomPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.engine.views:ViewPlayer.choose(moves)": _PER_MOVE,
    "spitemalice.engine.views:ViewPlayer.choose_from_view(moves)": _PER_MOVE,
    "spitemalice.bots.inference:LastMoverHands.allows(hand)": _HELPER,
    "spitemalice.bots.inference:pile_tops(ranks)": _HELPER,
    "spitemalice.bots.inference:reach(goals)": _HELPER,
    "spitemalice.bots.inference:reach(reachable)": _HELPER,
    "spitemalice.bots.inference:reach(tops)": _HELPER,
    "spitemalice.bots.sampling:HandConstraint.allows(hand)": _HELPER,
    "spitemalice.engine.check:filter_answers(moves)": _HELPER,
    "spitemalice.engine.shuffle:shuffled(cards)": _HELPER,
    "spitemalice.engine.shuffle:shuffled_list(cards)": _HELPER,
    "spitemalice.env.actions:ActionCatalogue.action_list(moves)": _HELPER,
    "spitemalice.env.actions:ActionCatalogue.legal_actions(moves)": _HELPER,
    "spitemalice.env.card_actions:CardCatalogue.action_list(moves)": _HELPER,
    "spitemalice.env.card_actions:CardCatalogue.legal_actions(moves)": _HELPER,
    "spitemalice.formats.json_input:read_object(optional)": _HELPER,
    "spitemalice.formats.json_input:read_object(required)": _HELPER,
    "spitemalice.formats.position_check:check_builds(builds)": _HELPER,
    "spitemalice.formats.position_check:check_builds(removed)": _HELPER,
    "spitemalice.formats.position_check:check_card_counts(cards)": _HELPER,
    "spitemalice.formats.position_check:check_layout(piles)": _HELPER,
    "spitemalice.formats.strict_json:path_of(steps)": _HELPER,
    "spitemalice.guards:check_moves(moves)": _HELPER,
    "spitemalice.model:build_ranks(pile)": "reads only the pile's length (typed a sequence "
                                           "so that the compiled build does not check a tuple)",
    "spitemalice.model:new_seat(discards)": _HELPER,
    "spitemalice.model:new_seat(payoff)": _HELPER,
    **{f"spitemalice.model:new_state({name})": _HELPER
       for name in ("seats", "builds", "build_removed")},
    "spitemalice.model:removed_counts(values)": _HELPER,
    "spitemalice.model:top_ranks(builds)": _HELPER,
    "spitemalice.model:top_ranks(removed)": _HELPER,
    "spitemalice.play.screen:cards_text(cards)": _HELPER,
    "spitemalice.play.screen:move_list(moves)": _HELPER,
    "spitemalice.play.screen:move_words(builds)": _HELPER,
    "spitemalice.play.screen:played_line(builds)": _HELPER,
    "spitemalice.play.table_view:describe(seats)": _HELPER,
    "spitemalice.rules.checks:check_enforced(plugins)": _HELPER,
    "spitemalice.rules.checks:clause_table(clauses)": _HELPER,
    "spitemalice.rules.checks:clause_table(needs)": _HELPER,
    "spitemalice.rules.findings:declared(clauses)": _HELPER,
    "spitemalice.rules.policies:same_teams(given)": _HELPER,
    "spitemalice.rules.policies:same_teams(want)": _HELPER,
    "spitemalice.rules.registry:base_sheet(changes)": _HELPER,
    "spitemalice.rules.resolve:plugin_manager(plugins)": _HELPER,
    "spitemalice.server.messages:seat_list(connected)": _HELPER,
    "spitemalice.server.messages:seat_list(names)": _HELPER,
    "spitemalice.server.messages:seats(listed)": _HELPER,
    "spitemalice.server.messages:state(log)": _HELPER,
    "spitemalice.server.messages:welcome(seats)": _HELPER,
    **{f"spitemalice.server.watching:public({name})": (
        "built by a table from its own game (the spectator's message); what comes in from "
        "outside is read by the protocol") for name in ("history", "teams")},
    "spitemalice.study.atlas:run(only)": _HELPER,
    "spitemalice.study.tune:Rechecked.passed(targets)": _HELPER,
    "spitemalice.study.tune:recheck(candidates)": _HELPER,
    "spitemalice.study.tune_report:format_report(paths)": _HELPER,
    "spitemalice.study.tune_report:report_data(paths)": _HELPER,
    "spitemalice.study.tune_targets:Measured.verdicts(targets)": _HELPER,
    "spitemalice.study.tune_targets:Measured.loss(targets)": _HELPER,
    "spitemalice.runs.commit:commit_games(results)": _HELPER,
    "spitemalice.runs.provenance:describe_run(settings)": _HELPER,
    "spitemalice.measures.coverage:coverage_notes(rows)": _HELPER,
    "spitemalice.study.statistic:Statistic.difference(rows_a)": _HELPER,
    "spitemalice.study.statistic:Statistic.difference(rows_b)": _HELPER,
    "spitemalice.study.statistic:Statistic.interval(rows)": _HELPER,
    "spitemalice.study.statistic:Statistic.test(rows_a)": _HELPER,
    "spitemalice.study.statistic:Statistic.test(rows_b)": _HELPER,
    "spitemalice.study.statistic:Statistic.unpaired_variance(values)": _HELPER,
    "spitemalice.study.statistic:Statistic.kept(rows)": _HELPER,
    "spitemalice.study.statistic:Statistic.paired(rows_a)": _HELPER,
    "spitemalice.study.statistic:Statistic.paired(rows_b)": _HELPER,
    "spitemalice.study.pairs:PairTally.add_deal(tables)": _HELPER,
    "spitemalice.study.plot:interval_bars(intervals)": _HELPER,
    "spitemalice.study.plot:plot_runs(runs)": _HELPER,
    "spitemalice.study.plot_ratings:forest(intervals)": _HELPER,
    "spitemalice.study.plot_ratings:forest(shift)": _HELPER,
    "spitemalice.runs.workers:play_chunk(span)": _HELPER,
    "spitemalice.testing.conformance:cited_clauses(paths)": _HELPER,
    "spitemalice.testing.conformance:clause_citations(paths)": _HELPER,
    "spitemalice.testing.conformance:legal_move_machine(player_counts)": _HELPER,
    "spitemalice.validation.audit:filters_hold(listed)": _HELPER,
    "spitemalice.validation.audit:other_seats(targets)": _HELPER,
    "spitemalice.validation.shrink:first_problem(picks)": _HELPER,
    "spitemalice.validation.shrink:first_violation(picks)": _HELPER,
    "spitemalice.validation.shrink:picks_of(moves)": _HELPER,
    "spitemalice.validation.dynamic:play_checked(audit_at)": _HELPER,
    "spitemalice.validation.dynamic:play_checked(stuck_seen)": _HELPER,
    "spitemalice.validation.dynamic:stuck(moves)": _HELPER,
    "spitemalice.validation.intent:intended(plugins)": _HELPER,
    "spitemalice.validation.intent:plugin_expects(plugins)": _HELPER,
    "spitemalice.validation.spread:clause_settings(plugins)": _HELPER,
    "spitemalice.validation.spread:check_clause_settings(plugins)": _HELPER,
    "spitemalice.validation.spread:check_clause_settings(rows)": _HELPER,
    "spitemalice.validation.judge:judge(usual)": _HELPER,
    "spitemalice.validation.judge:unusual(usual)": _HELPER,
    "spitemalice.validation.roundtrip:RoundTrip.problem(listed)": _HELPER,
    "spitemalice.validation.static:check_hook_markers(plugins)": _HELPER,
    "spitemalice.validation.static:static_checks(plugins)": _HELPER,
    "spitemalice.validation.run:validate_book(extra_checks)": _HELPER,
    "spitemalice.validation.steps:after_games(steps)": _HELPER,
    "spitemalice.formats.notation:teams_field(teams)": _TEAMS,
    "spitemalice.rules.policies:teams_text(teams)": _TEAMS,
    "spitemalice.rules.resolve:rule_sheet(teams)": _TEAMS,
    "spitemalice.rules.sheet:render_clause(teams)": _TEAMS,
    "spitemalice.rules.sheet:render_text(teams)": _TEAMS,
    "spitemalice.rules.sheet:team_list(teams)": _TEAMS,
    "spitemalice.rules.hookspecs:spitemalice_completed_pile(pile)": _HOOKSPEC,
    "spitemalice.rules.hookspecs:spitemalice_filter_moves(moves)": _HOOKSPEC,
    "spitemalice.rules.datarules.plugins:ForbidRule.spitemalice_filter_moves(moves)": _HOOKSPEC,
    "spitemalice.rules.datarules.plugins:RequireRule.spitemalice_filter_moves(moves)": _HOOKSPEC,
    "spitemalice.rules.hookspecs:spitemalice_partner_piles(teams)": _HOOKSPEC,
    "spitemalice.rules.hookspecs:spitemalice_score(teams)": _HOOKSPEC,
    "spitemalice.rules.hookspecs:spitemalice_team_won(team)": _HOOKSPEC,
}

@pytest.mark.parametrize("member", sorted(LISTS))
@pytest.mark.parametrize("given", ["greedy", None, 3])
def test_a_str_none_or_a_number_where_a_list_belongs_is_refused(member: str,
                                                               given: object) -> None:
    function = member.partition(":")[2].partition("(")[0]
    parameter = member.rpartition("(")[2].rstrip(")")
    if given is None and "settings" in member:
        return  # documented: None is the default
    with pytest.raises(TypeError) as raised:
        LISTS[member](given)
    said = str(raised.value)
    assert said.startswith(f"{function} takes {parameter}, a list of "), said
    assert " e.g. " in said, said
    assert said.endswith({"greedy": 'not the str "greedy"', None: "not None", 3: "not int"}[given])
    assert (BF.ruleset, STATE, RECORD) == SNAPSHOT


def test_every_list_parameter_is_listed() -> None:
    """Every parameter of a public function or method annotated as a sequence, iterable,
    list or tuple of anything has a row here or in the names' walk above (the record classes'
    constructors are left out: the library builds them)."""
    if api_walk.compiled():
        pytest.skip("the compiled build's functions have no signatures; the pure build's walk")
    pattern = re.compile(r"^(Sequence|Iterable|list|Collection|tuple)\[.*\]( \| None)?$")
    found = {f"{module.__name__}:{qualname}({p.name})"
             for module in api_walk.imported_modules()
             for qualname, p in api_walk.parameters(module)
             if pattern.match(str(p.annotation))
             and not (inspect.isclass(getattr(module, qualname.split(".")[0]))
                      and "." not in qualname)}
    names = set(SEQUENCES) | ONE_NAME | INTERNAL
    api_walk.assert_listed(found - names, set(LISTS) | set(LISTS_LEFT))


# ---- a move given as its text ----

# "module:qualname(parameter)" -> the call with the move given.
MOVE_TAKERS: dict[str, Callable[[Any], object]] = {
    "spitemalice.engine.apply:apply_move(move)": lambda m: sm.apply_move(BF, STATE, m),
    "spitemalice.engine.apply:apply_listed(move)": lambda m: _m("engine.apply").apply_listed(
        BF, STATE, m),
    "spitemalice.engine.check:check_move(move)": lambda m: sm.check_move(BF, STATE, m),
    "spitemalice.engine.check:is_legal(move)": lambda m: sm.is_legal(BF, STATE, m),
    "spitemalice.engine.check:decisions(move)": lambda m: _m("engine.check").decisions(
        BF, STATE, m),
    "spitemalice.play.screen:move_words(move)": lambda m: _m("play.screen").move_words(BF, m),
}
# Left as they are, each with its reason.
MOVE_LEFT = {
    "spitemalice.engine.configuration:decoded(move)": "a move a catalogue decoded itself",
    "spitemalice.moves:move_text(move)": "its own message: move text is a move's text already",
    "spitemalice.bots.kinds:move_kind(move)": "documented: any other object gives its class name",
    "spitemalice.engine.coverage:Recorder.move(move)": "refused by decisions, which it calls",
    "spitemalice.runs.game_shape:LeadTracker.move(move)": "fed the moves of a game the runner "
                                                          "or game_shape plays or replays",
    "spitemalice.engine.invariants.transitions:discard_ends_the_turn(move)":
        "checks a move already made",
    "spitemalice.engine.invariants.run:transition_violations(move)": "checks a move already made",
    "spitemalice.engine.invariants.run:check_transition(move)": "checks a move already made",
    "spitemalice.engine.invariants.run:unchecked_transition_violations(move)":
        "checks a move already made",
    "spitemalice.env.actions:ActionCatalogue.actions(move)": "the environment's own moves",
    "spitemalice.env.card_actions:CardCatalogue.actions(move)": "the environment's own moves",
    "spitemalice.play.table_view:Played(move)": "a record the session builds of a made move",
    "spitemalice.play.table_view:played_move(move)": "a move the session has just made (or "
    "replayed from its record), between the positions before and after it",
    "spitemalice.server.messages:zones(move)": "the server's moves, made already",
    "spitemalice.server.messages:hint(move)": "the server's moves, made by a bot",
    "spitemalice.validation.dynamic:step_violation(move)": "refused by apply_move, reported",
    "spitemalice.validation.dynamic:step_problem(move)": "refused by apply_move, reported",
}


@pytest.mark.parametrize("member", sorted(MOVE_TAKERS))
def test_move_text_where_a_move_belongs_names_parse_move(member: str) -> None:
    function = member.partition(":")[2].partition("(")[0]
    with pytest.raises(TypeError) as raised:
        MOVE_TAKERS[member]("AC>B+")
    assert str(raised.value) == (f'{function} takes a move (a Play, Discard or Pass), not the '
                                 'str "AC>B+": parse it first with '
                                 'spitemalice.parse_move("AC>B+")'), raised.value
    with pytest.raises(TypeError, match=rf"^{function} takes a move \(a Play, Discard or "
                       r"Pass\), not int$"):
        MOVE_TAKERS[member](3)
    assert (BF.ruleset, STATE, RECORD) == SNAPSHOT


def test_every_function_taking_a_move_is_listed() -> None:
    if api_walk.compiled():
        pytest.skip("the compiled build's functions have no signatures; the pure build's walk")
    found = {f"{module.__name__}:{qualname}({p.name})"
             for module in api_walk.imported_modules()
             for qualname, p in api_walk.parameters(module)
             if re.fullmatch(r"Move( \| None)?", str(p.annotation))}
    api_walk.assert_listed(found, set(MOVE_TAKERS) | set(MOVE_LEFT))


# ---- the server's messages: what was wrong, and the player a person's seat has ----

def _create(seats: Any, **more: Any) -> str:
    import json
    return json.dumps({"type": "create", "ruleset": "blackwood-frey", "seats": seats, **more})


@pytest.mark.parametrize(("text", "says"), [
    (_create([]), "create.seats: expected a list of 1 to 12 seats, not an empty list"),
    (_create([{"name": f"s{i}", "player": "human"} for i in range(13)]),
     "create.seats: expected a list of 1 to 12 seats, not a list of 13 items"),
    (_create([{"name": "a", "player": "human"}], house_rules=["x"] * 17),
     "create.house_rules: expected a list of at most 16 names, not a list of 17 items"),
    (_create([{"name": "a", "player": "human"}], params={f"p{i}": 1 for i in range(33)}),
     "create.params: expected an object of at most 32 parameters, not an object of 33 fields"),
    (_create({}), "create.seats: expected a list of 1 to 12 seats, not an empty object"),
    ("[]", "the message is an empty list"),
    ('{"type": "create", "ruleset": "blackwood-frey", "seats": [{"name": "a", '
     '"player": ["human"]}]}', 'create.seats[0].player: expected a string, not a list of 1 item'),
])
def test_a_bound_refused_says_what_was_given(text: str, says: str) -> None:
    from spitemalice.errors import ProtocolError
    from spitemalice.server.protocol import read_message
    with pytest.raises(ProtocolError) as raised:
        read_message(text)
    assert says in str(raised.value), raised.value


def _schema_players() -> set[str]:
    """Every value the message schema gives for a seat's ``player``: its examples and the
    quoted words of its descriptions."""
    from spitemalice.formats.schema import schema
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            player = node.get("properties", {}).get("player") if isinstance(
                node.get("properties"), dict) else None
            if isinstance(player, dict):
                found.update(player.get("examples", ()))
                found.update(re.findall(r'"([a-z-]+)"', player.get("description", "")))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema("message"))
    return found


def test_the_schema_and_the_server_agree_on_the_players() -> None:
    """Every player value the schema documents is one the server's reader accepts, and every
    one the server accepts (a person's seat and each built-in bot) is in the schema."""
    from spitemalice.bots.players import PLAYERS
    from spitemalice.play.session import HUMAN
    from spitemalice.server.lobby import catalog, table_rules
    from spitemalice.server.protocol import read_message

    documented = _schema_players()
    accepted = set(catalog()["players"])
    assert "person" not in documented
    assert documented <= accepted, documented - accepted
    assert {HUMAN, *PLAYERS} <= documented, {HUMAN, *PLAYERS} - documented
    for player in sorted(documented):
        seats = [{"name": "me", "player": HUMAN}, {"name": "other", "player": player}]
        table_rules(read_message(_create(seats)))  # accepted: no error


def test_no_doc_says_person_is_a_player() -> None:
    """No doc, docstring or schema text quotes "person" as a player value (the server reads
    "human"); only the changelog, which says what it was, may."""
    texts = [*(ROOT / "docs").rglob("*.md"), ROOT / "spitemalice" / "server" / "protocol.py",
             ROOT / "spitemalice" / "formats" / "schemas" / "message.schema.json"]
    for path in texts:
        if path.name == "changelog.md":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'\\?"person\\?"|``"person"``', text), path


def test_the_person_seat_value_has_one_name() -> None:
    """Issue 33: one word per thing.  ``"human"`` (a person's seat) is named once, as
    ``spitemalice.play.HUMAN``; the server's ``PERSON`` was the same value under another name.
    No module of the library assigns the value to another name."""
    import ast

    named = []
    for path in sorted((ROOT / "spitemalice").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Assign | ast.AnnAssign)
                    and isinstance(node.value, ast.Constant) and node.value.value == "human"):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                named += [f"{path.relative_to(ROOT)}:{ast.unparse(t)}" for t in targets]
    assert named == ["spitemalice/play/table_view.py:HUMAN"], named


def test_every_bots_class_is_importable_from_the_package() -> None:
    """Tryout s5 §13: each built-in bot's class comes from spitemalice.bots, IsmctsPlayer too;
    a bot found through an entry point (``learned``, whose module lies above bots in the
    layers of tests/contract/test_layers.py) from the face of its own package."""
    import importlib

    import spitemalice.bots as bots
    from spitemalice.bots.players import PluginPlayer
    for kind, factory in bots.PLAYERS.items():
        face = bots if not isinstance(factory, PluginPlayer) else importlib.import_module(
            factory.entry.module.rpartition(".")[0])
        name = type(bots.make_player(kind, 1)).__name__
        assert name in face.__all__ and getattr(face, name).__name__ == name, kind


@pytest.mark.parametrize(("call", "first"), [
    (lambda: sm.format_position("x", teams="y"), "format_position takes a GameState"),
    (lambda: sm.formats.position_svg("x", teams="y"), "position_svg takes a GameState"),
    (lambda: _m("measures.coverage").format_paired_coverage("a", "b", 1),
     "format_paired_coverage takes a, "),
    (lambda: _m("measures.coverage").format_coverage_report("r", "n", 1),
     "format_coverage_report takes rows, "),
])
def test_with_two_wrong_arguments_the_first_is_named(call: Callable[[], object],
                                                     first: str) -> None:
    """The checks run in the order of the parameters, so the first wrong one is named."""
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value).startswith(first), caught.value


@pytest.mark.parametrize(("call", "first", "names"), [
    # a state or view where the rule book belongs, the rule book second: told as swapped
    (lambda: sm.legal_moves(STATE, BF), "legal_moves takes a RuleBook", "in order?"),
    (lambda: sm.engine.check.decisions(STATE, BF, MOVES[0]), "decisions takes a RuleBook",
     "in order?"),
    (lambda: sm.engine.check.filter_answers(STATE, BF, MOVES), "filter_answers takes a RuleBook",
     "in order?"),
    (lambda: sm.bots.heuristic.decide(VIEW, BF, MOVES), "decide takes a RuleBook", "in order?"),
    (lambda: sm.bots.heuristic.rank_moves(VIEW, BF, MOVES), "rank_moves takes a RuleBook",
     "in order?"),
    # a move where the state belongs (the state and the move swapped)
    (lambda: sm.apply_move(BF, MOVES[0], STATE), "takes a GameState", "are the arguments in"),
    (lambda: sm.engine.check.is_legal(BF, MOVES[0], STATE), "takes a GameState",
     "a move where the position belongs"),
    # two wrong arguments: the first in the signature is named
    (lambda: sm.engine.invariants.transition_violations(BF, None, MOVES[0], "x"),
     "transition_violations takes a GameState", "not None"),
    (lambda: sm.engine.invariants.check_transition(BF, None, MOVES[0], "x"),
     "check_transition takes a GameState", "not None"),
    (lambda: sm.engine.invariants.discard_ends_the_turn(None, MOVES[0], "x"),
     "discard_ends_the_turn takes a GameState", "not None"),
    (lambda: sm.engine.invariants.payoff_only_shrinks(None, "x"),
     "payoff_only_shrinks takes a GameState", "not None"),
    (lambda: sm.record_game(BF, -1, "AS>B+"), "seed", "-1"),
    (lambda: sm.record_game(BF, 3, "AS>B+", seats="me"), "record_game takes moves", "AS>B+"),
    (lambda: sm.play.Session.resume(RECORD, rules="blackwood-frey", kinds="human"),
     "Session.resume takes a RuleBook", "blackwood-frey"),
    (lambda: sm.study.play_match(BF, [sm.bots.GreedyPlayer(1)] * 2, 1, target=0, max_games=0),
     "a match target", "0"),
    (lambda: _m("validation.spread").check_stacking(lambda names: BF, "own", 1, extra="x"),
     "check_stacking takes own", "own"),
    (lambda: sm.study.play_one(sm.study.configuration(BF, ["greedy"]), -1, -1), "run_seed", "-1"),
    (lambda: sm.validation.validate_book(BF, games=0, house_rules="x"), "games", "0"),
    (lambda: sm.validation.Validation(BF, games=0, house_rules="x"), "games", "0"),
    (lambda: sm.validation.Validation(BF, house_rules="x", base="y"),
     "Validation takes house_rules", "x"),
])
def test_each_argument_check_runs_in_parameter_order(call: Callable[[], object], first: str,
                                                     names: str) -> None:
    """The remaining members of the class above (a scan of every public function's checks
    for parameters checked out of order): the first wrong argument is the one named, and a
    state or view given first, the rule book second, is told as swapped."""
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    said = str(caught.value)
    assert first in said and names in said, said


@pytest.mark.parametrize("given", [float("nan"), -1, float("inf"), 3601, "1", True, None])
def test_a_delay_from_python_is_a_number_of_seconds(given: object, tmp_path: Path) -> None:
    """The class of the float parameters a caller gives and a sleep takes only later, mid-game
    (the command line bounded them; from Python NaN, negative or text were taken and failed
    at the first bot's move): ``Hub(bot_delay)`` (and so ``serve``) and
    ``TerminalGame(delay)``.  The other float parameters of the API are checked where they
    are given (the search bots' ``seconds``, the ladder's and compare's ``margin``)."""
    from spitemalice.play import HUMAN, Session
    from spitemalice.play.terminal import TerminalGame
    from spitemalice.server import Hub, Store

    with pytest.raises(SpiteMaliceError, match=r"^bot_delay is a number of seconds from 0 to"):
        Hub(Store(tmp_path), bot_delay=given)  # type: ignore[arg-type]
    session = Session(BF, [HUMAN, "greedy"], seed=1)
    with pytest.raises(SpiteMaliceError, match=r"^delay is a number of seconds from 0 to"):
        TerminalGame(session, 0, delay=given)  # type: ignore[arg-type]


def test_a_delay_in_range_is_taken(tmp_path: Path) -> None:
    from spitemalice.server import Hub, Store

    assert Hub(Store(tmp_path), bot_delay=0).bot_delay == 0.0
    assert Hub(Store(tmp_path), bot_delay=3600).bot_delay == 3600.0


ONE_PASS = {"spitemalice.model:sort_hand(cards)"}
"""Members that read their sequence once, so take any iterable (documented ``Iterable``)."""


def test_a_one_pass_member_takes_a_generator() -> None:
    cards = sm.parse_cards("9H 2C")
    assert sm.model.sort_hand(card for card in cards) == sm.model.sort_hand(cards)


@pytest.mark.parametrize("member", sorted((set(LISTS) | set(SEQUENCES)) - ONE_PASS))
def test_a_generator_where_a_list_belongs_is_refused_before_it_is_used_up(member: str) -> None:
    """Try-out s7b F7: ``paired_shares`` of a generator failed on a raw ``len()``; a check
    that reads a generator would use it up before the function does.  Every list parameter
    refuses it by name (``limits.check_list``)."""
    call = LISTS[member] if member in LISTS else SEQUENCES[member][0]
    if "openspiel" in member:
        pytest.importorskip("pyspiel")
    read: list[int] = []

    def values() -> Any:
        read.append(1)
        yield from ()

    with pytest.raises(TypeError) as raised:
        call(values())
    function = member.partition(":")[2].partition("(")[0]
    parameter = member.rpartition("(")[2].rstrip(")")
    assert str(raised.value).startswith(f"{function} takes {parameter}, a list of "), raised.value
    assert str(raised.value).endswith("used up once read: make it a list with list(...))")
    assert read == [] and (BF.ruleset, STATE, RECORD) == SNAPSHOT
