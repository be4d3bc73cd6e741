"""One way to write a bot that decides from a seat's view (issue 33 item 5): every built-in bot
is a :class:`~spitemalice.ViewPlayer` and chooses the same from the view as from the state;
a table and the remote bot ask a bot with its seat's view (``move_from_view``), handing a
stand-in state only to a player that reads whole states; the search bots share
:class:`~spitemalice.bots.base.SearchPlayer`, which owns their checks and shortcuts."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from helpers.walks import CONFIGS, book, config_id, walk

import spitemalice as sm
from spitemalice.bots import PLAYERS, SearchPlayer, make_player, move_from_view, players
from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine.views import HIDDEN, SeatView, stand_in_state
from spitemalice.formats.serialize import view_to_dict
from spitemalice.play import HUMAN, Session
from spitemalice.server.remote import RemoteBot, SeatLink

ROOT = Path(__file__).parents[2]
SHORT = sm.load("blackwood-frey", params={"payoff_size": 5})


def _positions(rules: sm.RuleBook, seed: int, limit: int) -> list[sm.GameState]:
    """Up to ``limit`` live positions of a greedy game (a few first moves at random)."""
    states = [state for state, move in walk(rules, seed, [seed, 3 * seed], finish=True)
              if move is not None]
    return states[:limit]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_greedy_chooses_the_same_from_the_view_as_from_the_state(config: Any) -> None:
    """Greedy reads a state itself (for the play-outs' speed) and a view itself (for a
    table): on every configuration, the two and the former stand-in path agree."""
    rules = book(config)
    bot = GreedyPlayer(1)
    for state in _positions(rules, 7, 80):
        moves = sm.legal_moves(rules, state)
        view = sm.view_of(state, state.seat)
        chosen = bot.choose(rules, state, moves)
        assert bot.choose_from_view(rules, view, moves) == chosen, state
        assert bot.choose(rules, stand_in_state(view), moves) == chosen, state


@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_every_bot_is_a_view_player_and_its_choose_passes_on_the_view(kind: str) -> None:
    bot, twin = make_player(kind, 3), make_player(kind, 3)
    assert isinstance(bot, sm.ViewPlayer) and isinstance(twin, sm.ViewPlayer)
    for state in _positions(SHORT, 2, 6 if kind in ("mcts", "ismcts") else 40):
        moves = sm.legal_moves(SHORT, state)
        view = sm.view_of(state, state.seat)
        assert bot.choose(SHORT, state, moves) == twin.choose_from_view(SHORT, view, moves)


@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_every_bot_refuses_the_other_kind_of_position_by_name(kind: str) -> None:
    bot = make_player(kind, 3)
    assert isinstance(bot, sm.ViewPlayer)
    if kind == "random":  # it reads neither: a uniform pick among the moves given
        return
    state = sm.deal(SHORT, 4)
    moves = sm.legal_moves(SHORT, state)
    with pytest.raises(TypeError, match=r"\.choose takes a GameState, not a seat's view"):
        bot.choose(SHORT, sm.view_of(state, state.seat), moves)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\.choose_from_view takes a seat's view"):
        bot.choose_from_view(SHORT, state, moves)  # type: ignore[arg-type]


class _ViewSpy(sm.ViewPlayer):
    """A view player that keeps what it was shown and refuses to be handed a state."""

    shown: ClassVar[list[SeatView]] = []

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, rules: sm.RuleBook, state: sm.GameState,
               moves: Sequence[sm.Move]) -> sm.Move:
        raise AssertionError("a table hands a view player its view, never a state")

    def choose_from_view(self, rules: sm.RuleBook, view: SeatView,
                         moves: Sequence[sm.Move]) -> sm.Move:
        assert sm.view_legal_moves(rules, view) == tuple(moves)
        self.shown.append(view)
        return moves[-1]


def test_a_table_asks_a_view_player_with_its_seats_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ViewSpy, "shown", [])
    monkeypatch.setitem(players.PLAYERS, "view-spy", _ViewSpy)
    session = Session(SHORT, [HUMAN, "view-spy"], seed=1)
    asked = 0
    while not session.is_over and asked < 40:
        if session.bot_on_turn:
            view = sm.view_of(session.state, session.state.seat)
            session.play_bot()
            asked += 1
            assert _ViewSpy.shown[-1] == view  # the view itself: no state made of it
        else:
            session.play(0, session.table_view(0).legal[0])
    assert asked and len(_ViewSpy.shown) == asked


def test_the_remote_bot_asks_with_the_view_the_message_carries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ViewSpy, "shown", [])
    monkeypatch.setitem(players.PLAYERS, "view-spy", _ViewSpy)
    bot = RemoteBot(SeatLink("ws://x/ws", "t", 0, "k"), "view-spy", say=lambda line: None)
    bot.rules = SHORT
    state = sm.deal(SHORT, 5)
    while state.seat != 0:
        state = sm.apply_move(SHORT, state, sm.legal_moves(SHORT, state)[0])
    view = sm.view_of(state, 0)
    answer = bot.answer({"type": "state", "number": 4, "view": view_to_dict(view),
                         "legal": [str(m) for m in sm.legal_moves(SHORT, state)]})
    assert _ViewSpy.shown == [view]
    assert answer == {"type": "move", "move": str(sm.legal_moves(SHORT, state)[-1]),
                      "number": 5}


def test_move_from_view_hands_a_state_player_only_a_stand_in() -> None:
    seen: list[sm.GameState] = []

    class StatePlayer:
        def choose(self, rules: sm.RuleBook, state: sm.GameState,
                   moves: Sequence[sm.Move]) -> sm.Move:
            seen.append(state)
            return moves[0]

    state = sm.deal(SHORT, 6)
    view = sm.view_of(state, state.seat)
    moves = sm.legal_moves(SHORT, state)
    assert move_from_view(StatePlayer(), SHORT, view, moves) == moves[0]
    assert seen == [stand_in_state(view)] and set(seen[0].draw) == {HIDDEN}
    assert move_from_view(GreedyPlayer(1), SHORT, view, moves) == \
        GreedyPlayer(1).choose(SHORT, state, moves)


class _Probe(SearchPlayer):
    """A search bot that records what the base class lets through to it."""

    kind = "probe"

    def __init__(self) -> None:
        super().__init__(1, 10, None)
        self.calls: list[str] = []

    def _see(self, rules: sm.RuleBook, view: SeatView) -> None:
        self.calls.append("see")

    def _search(self, rules: sm.RuleBook, view: SeatView, moves: Sequence[sm.Move]) -> sm.Move:
        self.calls.append("search")
        return moves[-1]


def test_the_search_base_takes_the_shortcuts_and_leaves_the_rest_to_the_search() -> None:
    state = next(state for state in _positions(SHORT, 4, 100)
                 if len(sm.legal_moves(SHORT, state)) > 2 and not any(
                     isinstance(m, sm.Play) and m.zone is sm.Zone.PAYOFF
                     for m in sm.legal_moves(SHORT, state)))
    moves = sm.legal_moves(SHORT, state)
    view = sm.view_of(state, state.seat)
    probe = _Probe()
    assert probe.choose(SHORT, state, moves) == moves[-1]
    assert probe.calls == ["see", "search"]
    probe.calls.clear()
    assert probe.choose_from_view(SHORT, view, moves[:1]) == moves[0]  # the only move
    payoff = sm.parse_move(f"P:{view.own.payoff[0].top}>B+")
    assert probe.choose_from_view(SHORT, view, [*moves, payoff]) == payoff  # the win condition
    assert probe.calls == ["see", "see"]
    with pytest.raises(ValueError, match="no move to choose from"):
        probe.choose_from_view(SHORT, view, ())
    assert probe.calls == ["see", "see"]  # refused before the bot saw anything
    with pytest.raises(ValueError, match=r"playouts \(the probe budget per decision\)"):
        SearchPlayer.__init__(probe, 1, 0, None)


def test_a_view_player_needs_a_bot_or_a_choose_from_view() -> None:
    with pytest.raises(TypeError, match=r"ViewPlayer\(\) needs a bot"):
        sm.ViewPlayer()

    class Empty(sm.ViewPlayer):
        pass

    with pytest.raises(TypeError, match=r"Empty\(\) needs a bot"):
        Empty()


def test_the_bots_package_has_no_import_circle_even_for_type_checking() -> None:
    """players.py (the registry) imports every bot; no bot imports it back, not even under
    ``TYPE_CHECKING`` (the ismcts <-> players loop of issue 33)."""
    package = ROOT / "spitemalice" / "bots"
    imports: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module is not None and module.startswith("spitemalice.bots."):
                found.add(module.rpartition(".")[2])
        imports[path.stem] = found
    assert {"heuristic", "mcts", "ismcts"} <= imports["players"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for name in imports.get(start, set()) - seen:
            if name == goal or reaches(name, goal, seen | {name}):
                return True
        return False

    circles = sorted(name for name in imports if name != "__init__"
                     and reaches(name, name, set()))
    assert circles == []
