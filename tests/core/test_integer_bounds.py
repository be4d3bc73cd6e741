"""Huge integers from the Python API (issue 20, class 2): every public function, constructor
and environment method that takes a whole number refuses one past its bound with the
library's own error naming the bound, never Python's "Exceeds the limit (4300 digits)"
ValueError, a hang, or a silent acceptance of a seed the records cannot read back.

The members are found by walking the public modules' ``__all__`` for parameters annotated
``int``; test_every_integer_parameter_has_a_call fails when a new one appears without a
call here, so a new member is held too.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import tempfile
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import spitemalice as sm
from spitemalice import limits
from spitemalice.errors import SpiteMaliceError

MODULES = ["spitemalice", "spitemalice.formats", "spitemalice.bots", "spitemalice.study",
           "spitemalice.env", "spitemalice.play", "spitemalice.validation",
           "spitemalice.testing", "spitemalice.server", "spitemalice.openspiel"]
OWN_MODULES = {"spitemalice.bots.ismcts": ["IsmctsPlayer"],
               "spitemalice.study.ladder": ["ladder"],
               "spitemalice.study.balance": ["balance"],
               "spitemalice.study.ratings": ["ratings"],
               "spitemalice.study.atlas": ["run"]}
"""Public entry points reached by their module's path (issue 21's studies and bot), which no
package ``__all__`` lists."""
HUGE = 10**5000  # past Python's integer-to-text limit
PAST = limits.MAX_INT + 1  # the first number past the bound: 81 digits


def _is_int(hint: Any) -> bool:
    """Whether a parameter's type is ``int`` or ``int | None`` (not a container of ints)."""
    if hint is int:
        return True
    return typing.get_origin(hint) in (typing.Union, __import__("types").UnionType)\
        and int in typing.get_args(hint)


def _members(obj: Any, label: str) -> list[tuple[str, Callable[..., Any]]]:
    if inspect.isfunction(obj):
        return [(label, obj)]
    if not inspect.isclass(obj):
        return []
    found = []
    for member, value in vars(obj).items():
        func = getattr(value, "__func__", value)
        if not inspect.isfunction(func):
            continue
        if member in ("__init__", "__new__"):
            found.append((label, func))
        elif not member.startswith("_"):
            found.append((f"{label}.{member}", func))
    return found


INT_TEXT = re.compile(r"(None \| )?int( \| None)?")


def _int_parameters(func: Callable[..., Any]) -> list[str]:
    try:
        hints = typing.get_type_hints(func)
    except NameError:  # a hint naming a type only imported for checking: read the text
        return [name for name, param in inspect.signature(func).parameters.items()
                if isinstance(param.annotation, str) and INT_TEXT.fullmatch(param.annotation)]
    return [param for param, hint in hints.items() if param != "return" and _is_int(hint)]


def integer_parameters() -> set[str]:
    """``"name(param)"`` for every int parameter of the public API."""
    found = set()
    named = {name: importlib.import_module(name).__all__ for name in MODULES}
    for module_name, attrs_ in [*named.items(), *OWN_MODULES.items()]:
        module = importlib.import_module(module_name)
        for attr in attrs_:
            for label, func in _members(getattr(module, attr), attr):
                found |= {f"{label}({param})" for param in _int_parameters(func)}
    return found


# -- a call per member: the function of the number to pass ---------------------------------

BF = sm.load("blackwood-frey")
STATE = sm.deal(BF, 1)
CARD = STATE.seats[STATE.seat].hand[0]
VIEW = sm.view_of(STATE, 0)
RECORD = sm.record_game(BF, 1, seats=["greedy", "greedy"])


def _evolve(value: Any, field: str) -> Callable[[int], Any]:
    return lambda n: attrs.evolve(value, **{field: n})


def _env(name: str, **fixed: Any) -> Callable[[str], Callable[[int], Any]]:
    def for_param(param: str) -> Callable[[int], Any]:
        def call(n: int) -> Any:
            from spitemalice import env

            return getattr(env, name)("blackwood-frey", **{**fixed, param: n})
        return call
    return for_param


def _env_class(name: str, **fixed: Any) -> Callable[[str], Callable[[int], Any]]:
    def for_param(param: str) -> Callable[[int], Any]:
        def call(n: int) -> Any:
            from spitemalice import env

            return getattr(env, name)(BF, **{**fixed, param: n})
        return call
    return for_param


def _reset(name: str) -> Callable[[int], Any]:
    def call(n: int) -> Any:
        from spitemalice import env

        return getattr(env, name)("blackwood-frey").reset(seed=n)
    return call


def _session(method: str) -> Callable[[int], Any]:
    def call(n: int) -> Any:
        from spitemalice.play import HUMAN, Session

        session = Session(BF, [HUMAN, "greedy"], seed=1)
        if method == "play":
            return session.play(n, sm.Pass())
        return getattr(session, method)(n)
    return call


def _catalogue(method: str) -> Callable[[int], Any]:
    def call(n: int) -> Any:
        from spitemalice.env import ActionCatalogue

        return getattr(ActionCatalogue(BF), method)(*((STATE, n) if method == "move" else (n,)))
    return call


def _layout(param: str) -> Callable[[int], Any]:
    def call(n: int) -> Any:
        from spitemalice.env import ObservationLayout

        sizes = {"hand": 5, "payoff": 1, "discard": 4, "builds": 4, "seats": 2, "depth": 3}
        return ObservationLayout(**{**sizes, param: n})
    return call


def _study(name: str, **fixed: Any) -> Callable[[str], Callable[[int], Any]]:
    def for_param(param: str) -> Callable[[int], Any]:
        def call(n: int) -> Any:
            from spitemalice import study

            config = study.configuration(BF, ["greedy"])
            args = {"simulate": dict(rules=BF, bots=["greedy"], games=1, seed=0),
                    "compare": dict(a=config, b=config, games=1, seed=0),
                    "compare_until_decided": dict(a=config, b=config, statistic="moves",
                                                  margin=1.0, seed=0),
                    "play_game": dict(rules=BF, players=[sm.bots.make_player("greedy", 0)] * 2,
                                      seed=0),
                    "play_match": dict(rules=BF, players=[sm.bots.make_player("greedy", 0)] * 2,
                                       seed=0),
                    "play_one": dict(config=config, run_seed=0, game=0)}[name]
            return getattr(study, name)(**{**args, **fixed, param: n})
        return call
    return for_param


def _validate(name: str) -> Callable[[str], Callable[[int], Any]]:
    def for_param(param: str) -> Callable[[int], Any]:
        def call(n: int) -> Any:
            from spitemalice import validation

            target = "blackwood-frey" if name == "validate" else BF
            return getattr(validation, name)(target, **{"games": 1, param: n})
        return call
    return for_param


def _row() -> Any:
    from spitemalice.study import GameRow

    return GameRow(game=0, seed=0, first_seat=0, bots=("greedy", "greedy"), outcome="win",
                   winner=0, scores=(1, 0), moves=1, turns=1, completed_piles=0, recycles=0,
                   payoff_left=(0, 1), legal_total=1, decided_at=None)


def _value(name: str) -> Callable[[str], Callable[[int], Any]]:
    """A result value: an instance made by the library, evolved."""
    def for_param(param: str) -> Callable[[int], Any]:
        def call(n: int) -> Any:
            return attrs.evolve(_example(name), **{param: n})
        return call
    return for_param


@functools.cache
def _example(name: str) -> Any:
    return EXAMPLES[name]()


def _example_summary() -> Any:
    from spitemalice.study import simulate

    return simulate(BF, ["greedy"], 1, 0)


def _example_comparison() -> Any:
    from spitemalice import study

    config = study.configuration(BF, ["greedy"])
    return study.compare(config, config, 1, 0)


def _example_match() -> Any:
    from spitemalice.study import play_match

    rules = sm.load("blackwood-frey", payoff_size=3)
    return play_match(rules, [sm.bots.make_player("greedy", 0)] * 2, 0, target=1)


def _example_stats() -> Any:
    from spitemalice.validation import validate

    return validate("blackwood-frey", games=2, seed=0).stats


def _example_table() -> Any:
    from spitemalice.play import HUMAN, Session

    return Session(BF, [HUMAN, "greedy"], seed=1).table_view(0)


def _example_build() -> Any:
    from spitemalice.play import BuildPile

    return BuildPile(1, (CARD,), 1, 2)


def _example_played() -> Any:
    from spitemalice.play import Played

    return Played(0, sm.Pass(), "pass")


def _example_problem() -> Any:
    from spitemalice.formats import RecordProblem

    return RecordProblem(1, STATE, "x", None)


def _server() -> Any:
    import spitemalice.server

    return spitemalice.server


@functools.cache
def _store() -> Any:
    # A folder removed when the interpreter exits (the object keeps it alive till then).
    return _server().Store(_FOLDER.name)


_FOLDER = tempfile.TemporaryDirectory(prefix="spitemalice-bounds-")


def _link() -> Any:
    return _server().parse_link("http://127.0.0.1:1/table/0123456789abcdef#seat=0&token=ab")


EXAMPLES: dict[str, Callable[[], Any]] = {
    "Summary": _example_summary, "Comparison": _example_comparison, "GameRow": _row,
    "MatchResult": _example_match, "GameStats": _example_stats, "TableView": _example_table,
    "BuildPile": _example_build, "Played": _example_played, "RecordProblem": _example_problem,
}

_RULESET_FIELDS = [field.name for field in attrs.fields(sm.Ruleset)]

CALLS: dict[str, Callable[[int], Any]] = {
    "deal(seed)": lambda n: sm.deal(BF, n),
    "deal(dealer)": lambda n: sm.deal(BF, 1, n),
    "apply_move(seat)": lambda n: sm.apply_move(BF, STATE, sm.Pass(), n),
    "check_move(seat)": lambda n: sm.check_move(BF, STATE, sm.Pass(), n),
    "view_of(seat)": lambda n: sm.view_of(STATE, n),
    "record_game(seed)": lambda n: sm.record_game(BF, n),
    "record_game(dealer)": lambda n: sm.record_game(BF, 1, dealer=n),
    "build_ranks(removed)": lambda n: sm.build_ranks((CARD,), n),
    "numbered_pack(size)": lambda n: sm.numbered_pack(n, 12),
    "numbered_pack(top)": lambda n: sm.numbered_pack(12, n),
    "Play(pile)": lambda n: sm.Play(sm.Zone.HAND, CARD, n),
    "Play(index)": lambda n: sm.Play(sm.Zone.HAND, CARD, 0, n),
    "Play(owner)": lambda n: sm.Play(sm.Zone.HAND, CARD, 0, 0, n),
    "Discard(pile)": lambda n: sm.Discard((CARD,), n),
    "Discard(owner)": lambda n: sm.Discard((CARD,), 0, n),
    "Outcome(winner)": lambda n: sm.Outcome("win", n, (0, 0)),
    "PayoffView(count)": lambda n: VIEW.seats[0].payoff[0].__class__(n, CARD),
    "GameResult(seed)": lambda n: sm.GameResult(n, 0, STATE, ()),
    "GameResult(first_seat)": lambda n: sm.GameResult(0, n, STATE, ()),
    "RuleBook.score(winner)": lambda n: BF.score(STATE, "win", n),
    "RuleBook.sheet_text(width)": lambda n: BF.sheet_text(n),
    "TeamRule.team_of(seat)": lambda n: BF.teams.team_of(n),
    "TeamRule.label(index)": lambda n: BF.teams.label(n),
    "load(players)": lambda n: sm.load("blackwood-frey", players=n),
    "load(payoff_size)": lambda n: sm.load("blackwood-frey", payoff_size=n),
    "Card(rank)": lambda n: sm.Card(n, "S"),
    # the environments
    "make_player(seed)": lambda n: sm.bots.make_player("greedy", n),
    "GreedyPlayer(seed)": lambda n: sm.bots.GreedyPlayer(n),
    "HeuristicPlayer(seed)": lambda n: sm.bots.HeuristicPlayer(n),
    "RandomPlayer(seed)": lambda n: sm.bots.RandomPlayer(n),
    "MctsPlayer(seed)": lambda n: sm.bots.MctsPlayer(n),
    "MctsPlayer(playouts)": lambda n: sm.bots.MctsPlayer(0, n),
    "SearchPlayer(seed)": lambda n: sm.bots.SearchPlayer(n, 1, None),
    "SearchPlayer(playouts)": lambda n: sm.bots.SearchPlayer(0, n, None),
    "IsmctsPlayer(seed)": lambda n: _ismcts(seed=n),
    "IsmctsPlayer(playouts)": lambda n: _ismcts(playouts=n),
    "ladder(deals)": lambda n: _study("ladder", deals=n),
    "ladder(seed)": lambda n: _study("ladder", seed=n),
    "ladder(batch)": lambda n: _study("ladder", batch=n),
    "ladder(jobs)": lambda n: _study("ladder", jobs=n),
    "balance(games)": lambda n: _study("balance", games=n),
    "balance(deals)": lambda n: _study("balance", deals=n),
    "balance(seed)": lambda n: _study("balance", seed=n),
    "balance(jobs)": lambda n: _study("balance", jobs=n),
    "balance(coverage)": lambda n: _study("balance", coverage=n),
    "ratings(seed)": lambda n: _ratings(seed=n),
    "ratings(bootstrap)": lambda n: _ratings(bootstrap=n),
    "run(games)": lambda n: _atlas(games=n),
    "run(deals)": lambda n: _atlas(deals=n),
    "run(seed)": lambda n: _atlas(seed=n),
    "run(jobs)": lambda n: _atlas(jobs=n),
    "SpiteMaliceEnv.reset(seed)": _reset("make"),
    "SpiteMaliceParallelEnv.reset(seed)": _reset("parallel_env"),
    "SingleAgentEnv.reset(seed)": _reset("single_agent"),
    "SelfPlayVectorEnv.reset(seed)": lambda n: sm.env.vector_env(BF, 2).reset(seed=n),
    "ObservationLayout.encode_bytes(viewer)":
        lambda n: _layout("hand")(5).encode_bytes(STATE, n),
    "ActionCatalogue.move(action)": _catalogue("move"),
    "ActionCatalogue.describe(action)": _catalogue("describe"),
    "ObservationLayout.encode_state(viewer)":
        lambda n: _layout("hand")(5).encode_state(STATE, n),
    "Session(seed)": lambda n: sm.play.Session(BF, ["human", "greedy"], seed=n),
    "Session(dealer)": lambda n: sm.play.Session(BF, ["human", "greedy"], dealer=n),
    "Session.hint(seat)": _session("hint"),
    "Session.play(seat)": _session("play"),
    "Session.table_view(seat)": _session("table_view"),
    "Session.undo(seat)": _session("undo"),
    "position_svg(viewer)": lambda n: sm.formats.position_svg(STATE, viewer=n),
    "dumps_record(indent)": lambda n: sm.formats.dumps_record(RECORD, indent=n),
    "dumps_state(indent)": lambda n: sm.formats.dumps_state(STATE, indent=n),
    "dumps_view(indent)": lambda n: sm.formats.dumps_view(VIEW, indent=n),
    "record_result(dealer)": lambda n: sm.formats.record_result(
        BF, sm.study.play_game(BF, [sm.bots.make_player("greedy", 0)] * 2, 0), dealer=n),
    "Hub(max_tables)": lambda n: _server().Hub(_store(), max_tables=n),
    "Hub(max_tables_per_client)": lambda n: _server().Hub(_store(), max_tables_per_client=n),
    "RemoteBot(seed)": lambda n: _server().RemoteBot(_link(), seed=n),
    "Store.record_path(game)": lambda n: _store().record_path("0123456789abcdef", n),
    "load_game(players)": lambda n: _openspiel().load_game("blackwood-frey", players=n),
    "Config.move(action)": lambda n: _spiel_config().move(STATE, n),
    "Observer.set_from(player)": lambda n: _observer().set_from(_spiel_state(), n),
    "Observer.string_from(player)": lambda n: _observer().string_from(_spiel_state(), n),
    "SpiteMaliceState.resample_from_infostate(player)":
        lambda n: _spiel_state().resample_from_infostate(n, lambda: 0.5),
    "tournament(deals)": lambda n: _tournament(deals=n),
    "tournament(seed)": lambda n: _tournament(seed=n),
    "tournament(jobs)": lambda n: _tournament(jobs=n),
}
for _param in ("hand", "payoff", "discard", "builds", "seats", "depth"):
    CALLS[f"ObservationLayout({_param})"] = _layout(_param)
for _name, _params in (("simulate", ("games", "seed", "jobs")),
                       ("compare", ("games", "seed", "jobs")),
                       ("compare_until_decided", ("batch", "max_games", "seed", "jobs")),
                       ("play_game", ("seed", "dealer")),
                       ("play_match", ("seed", "target", "max_games")),
                       ("play_one", ("run_seed", "game"))):
    for _param in _params:
        CALLS[f"{_name}({_param})"] = _study(_name)(_param)
for _name in ("validate", "validate_book", "Validation"):
    for _param in ("games", "seed", "jobs"):
        CALLS[f"{_name}({_param})"] = _validate(_name)(_param)
# Public values: an instance the library made, evolved (attrs runs the validators).
VALUES: dict[str, Any] = {
    "GameState": STATE, "SeatView": VIEW, "PublicSeat": VIEW.seats[0], "GameRecord": RECORD,
    "Ruleset": BF.ruleset, "RuleBook": BF, "CeilingRule": BF.ceiling, "DealRule": BF.deal,
    "DiscardRule": BF.discard, "SeatLink": _link(), "Undone": sm.formats.Undone(0, ()),
}
for _key in integer_parameters():
    _name, _, _param = _key.partition("(")
    _param = _param.rstrip(")")
    if _name in EXAMPLES:
        CALLS[_key] = _value(_name)(_param)
    elif _name in ("make", "parallel_env", "single_agent"):
        CALLS[_key] = _env(_name)(_param)
    elif _name == "vector_env":
        CALLS[_key] = _env(_name, num_envs=2)(_param)
    elif _name in ("SpiteMaliceEnv", "SpiteMaliceParallelEnv", "SingleAgentEnv"):
        CALLS[_key] = _env_class(_name)(_param)
    elif _name == "SelfPlayVectorEnv":
        CALLS[_key] = _env_class(_name, num_envs=2)(_param)
    elif _name in VALUES:
        CALLS[_key] = _evolve(VALUES[_name], _param)


def _openspiel() -> Any:
    import spitemalice.openspiel

    return spitemalice.openspiel


def _spiel_config() -> Any:
    return _openspiel().Config("blackwood-frey", {})


def _observer() -> Any:
    return _openspiel().Observer(_spiel_config(), False)


def _spiel_state() -> Any:
    """A dealt OpenSpiel state (its 16 seed bytes drawn)."""
    state = _openspiel().load_game("blackwood-frey").new_initial_state()
    for byte in range(_openspiel().SEED_STEPS):
        state.apply_action(byte)
    return state


def _ismcts(**given: Any) -> Any:
    from spitemalice.bots.ismcts import IsmctsPlayer

    return IsmctsPlayer(**given, policy=sm.bots.GreedyPlayer(0))


def _study(name: str, **given: Any) -> Any:
    """``ladder`` or ``balance`` of two bots on one deal, with one argument changed (any game
    played past a refused bound would fail the test by its time, not by a pass)."""
    module = importlib.import_module(f"spitemalice.study.{name}")
    if name == "ladder":
        args: dict[str, Any] = {"rules": BF, "bots": ["random", "greedy"], "deals": 1,
                                "seed": 0}
        return module.ladder(**{**args, **given})
    args = {"rules": BF, "label": "bf", "tiers": ["random", "greedy"], "games": 1, "deals": 1}
    return module.balance(**{**args, **given})


def _ratings(**given: Any) -> Any:
    from spitemalice.study.ratings import ratings

    return ratings([], ["a", "b"], "a", **given)


def _atlas(**given: Any) -> Any:
    from spitemalice.study.atlas import run

    with tempfile.TemporaryDirectory() as folder:
        args: dict[str, Any] = {"path": Path(folder) / "atlas.json", "games": 1, "deals": 1,
                                "only": []}
        return run(**{**args, **given})


def _tournament(**given: Any) -> Any:
    from spitemalice.study.tournament import tournament

    args = {"rules": BF, "bots": ["random", "greedy"], "deals": 1, "seed": 0}
    return tournament(**{**args, **given})


def test_every_integer_parameter_has_a_call() -> None:
    missing = integer_parameters() - set(CALLS)
    assert missing == set(), f"add a call for each to CALLS: {sorted(missing)}"


BOUND = re.compile(r"from -?\(?[\d,]+|10\*\*\d+|at most [\d,]+|[\d,]+ to [\d,]+|"
                   r"MAX_\w+")


@pytest.mark.parametrize("number", [HUGE, -HUGE, PAST], ids=["huge", "-huge", "past"])
@pytest.mark.parametrize("member", sorted(CALLS))
def test_a_number_past_the_bound_is_refused_naming_it(member: str, number: int) -> None:
    with pytest.raises(SpiteMaliceError) as refused:
        CALLS[member](number)
    message = str(refused.value)
    assert BOUND.search(message), message
    assert "4300" not in message and len(message) < 400


@pytest.mark.parametrize("call", [
    lambda: sm.deal(BF, limits.MAX_SEED), lambda: sm.record_game(BF, limits.MAX_SEED),
])
def test_the_largest_seed_deals_and_its_record_reads_back(call: Callable[[], Any]) -> None:
    from spitemalice.formats import dumps_record, loads_record

    made = call()
    record = made if isinstance(made, sm.GameRecord) else sm.record_game(BF, made.seed)
    assert loads_record(dumps_record(record)).seed == limits.MAX_SEED


def test_the_issue_example() -> None:
    with pytest.raises(SpiteMaliceError, match="MAX_SEED"):
        sm.deal(sm.load("blackwood-frey"), 10**5000)
    for digits in (81, 4300):
        with pytest.raises(SpiteMaliceError, match="MAX_SEED"):
            sm.deal(BF, 10**digits)


@pytest.mark.parametrize("dealt", [False, True], ids=["chance node", "seat's move"])
@pytest.mark.parametrize("action", [256, 10**6, 2**62])
def test_openspiel_actions_out_of_range_are_refused_by_the_library(dealt: bool,
                                                                   action: int) -> None:
    """``State.apply_action`` goes through pyspiel, which refuses what does not fit its C++
    integer (TypeError) and -1 (SpielError) itself; every other number out of range is ours
    to refuse, at a chance node (a seed byte, 0 to 255) and at a seat's move."""
    state = _spiel_state() if dealt else _openspiel().load_game("blackwood-frey"
                                                                ).new_initial_state()
    before = str(state)
    with pytest.raises(SpiteMaliceError, match=r"0 to \d+"):
        state.apply_action(action)
    assert str(state) == before
