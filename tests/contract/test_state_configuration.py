"""A state of another configuration given with a rule book: every public function that takes
a rule book (or is bound to one) and a state refuses it with a
:class:`~spitemalice.errors.PositionError` (a ``SpiteMaliceError``) that names what differs
and what is right, and changes nothing: the state, and what the rule book answers for its
own states afterwards.  Three kinds of mismatch: more seats than the rule book deals, fewer,
and another rule set's cards (a Skip-Bo deal given to Blackwood/Frey, and the reverse).

The per-move paths check only a length compare and what they meet for the first time
(:mod:`spitemalice.engine.configuration`); the cells they leave unchecked by design are
:data:`NOT_CAUGHT`, each with its reason, and a test holds that list to what the functions
do.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.bots.heuristic import HeuristicPlayer
from spitemalice.bots.mcts import MctsPlayer
from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine import apply, check, coverage, legal
from spitemalice.engine.sample import random_move
from spitemalice.errors import PositionError, SpiteMaliceError
from spitemalice.model import GameState

BF = sm.load("blackwood-frey")
BF3 = sm.load("blackwood-frey", players=3)
SB = sm.load("skip-bo")

# kind -> (the rule book called, the state given, the rule book the state was dealt with,
# what the message must say)
KINDS: dict[str, tuple[sm.RuleBook, GameState, sm.RuleBook, str]] = {
    "more-seats": (BF, sm.deal(BF3, 1), BF3, "has 3 seats; blackwood-frey is loaded for 2"),
    "fewer-seats": (BF3, sm.deal(BF, 1), BF, "has 2 seats; blackwood-frey is loaded for 3"),
    "other-cards": (BF, sm.deal(SB, 1), SB, "which the blackwood-frey deck does not hold"),
    "other-cards-back": (SB, sm.deal(BF, 1), BF, "which the skip-bo deck does not hold"),
}

Call = Callable[[sm.RuleBook, GameState, sm.RuleBook], object]


def _moves(own: sm.RuleBook, state: GameState) -> tuple[sm.Move, ...]:
    """The state's legal moves under the rule book it was dealt with."""
    return sm.legal_moves(own, state)


def _env(name: str) -> Any:
    pytest.importorskip("gymnasium")
    from spitemalice.env import actions, card_actions, spaces
    return {"slot": actions.ActionCatalogue, "card": card_actions.CardCatalogue,
            "encoding": lambda rules: spaces.Encoding(rules, 20)}[name]


def _catalogue(kind: str, method: str) -> Call:
    def call(rules: sm.RuleBook, state: GameState, own: sm.RuleBook) -> object:
        made = _env(kind)(rules)
        moves = _moves(own, state)
        args = {"move": (0,), "actions": (moves[0],), "legal_actions": (moves,),
                "action_list": (moves,), "legal_list": ()}[method]
        return getattr(made, method)(state, *args)
    return call


def _encoding(method: str) -> Call:
    def call(rules: sm.RuleBook, state: GameState, own: sm.RuleBook) -> object:
        made = _env("encoding")(rules)
        return getattr(made, method)(state, state.seat if method in ("mask", "observe")
                                     else made.catalogue.pass_action)
    return call


MEMBERS: dict[str, Call] = {
    "legal_moves": lambda r, s, o: sm.legal_moves(r, s),
    "base_moves": lambda r, s, o: legal.base_moves(r, s),
    "random_move": lambda r, s, o: random_move(r, s, random.Random(1)),
    "apply_move": lambda r, s, o: sm.apply_move(r, s, _moves(o, s)[0]),
    "apply_move(pass)": lambda r, s, o: sm.apply_move(r, s, sm.Pass()),
    "apply_listed": lambda r, s, o: apply.apply_listed(r, s, _moves(o, s)[0]),
    "check_move": lambda r, s, o: sm.check_move(r, s, _moves(o, s)[0]),
    "is_legal": lambda r, s, o: sm.is_legal(r, s, _moves(o, s)[0]),
    "decisions": lambda r, s, o: check.decisions(r, s, _moves(o, s)[0]),
    "filter_answers": lambda r, s, o: check.filter_answers(r, s, _moves(o, s)),
    "team_won": lambda r, s, o: apply.team_won(r, s, 0),
    "Recorder.move": lambda r, s, o: coverage.Recorder(r).move(s, _moves(o, s)[0]),
    "GreedyPlayer.choose": lambda r, s, o: GreedyPlayer(1).choose(r, s, _moves(o, s)),
    "HeuristicPlayer.choose": lambda r, s, o: HeuristicPlayer(1).choose(r, s, _moves(o, s)),
    "SearchPlayer.choose": lambda r, s, o: MctsPlayer(1).choose(r, s, _moves(o, s)),
    "ViewPlayer.choose": lambda r, s, o: sm.ViewPlayer(
        lambda rules, view: _moves(o, s)[0]).choose(r, s, _moves(o, s)),
    **{f"ActionCatalogue.{m}": _catalogue("slot", m)
       for m in ("move", "actions", "legal_actions", "action_list", "legal_list")},
    **{f"CardCatalogue.{m}": _catalogue("card", m)
       for m in ("move", "actions", "legal_actions", "action_list", "legal_list")},
    **{f"Encoding.{m}": _encoding(m) for m in ("mask", "move", "play", "observe")},
}

_MAPS_GIVEN = ("maps the moves it is given, which legal_moves listed for the state and so "
               "refused it; a card lookup per move would cost every step")
# (member, kind) -> why the member does not refuse that kind (each also in its docstring).
NOT_CAUGHT: dict[tuple[str, str], str] = {
    **{("apply_listed", kind): "applies a move legal_moves listed, which refused the state; "
       "documented: a move not listed for the state gives an undefined result"
       for kind in ("other-cards", "other-cards-back")},
    **{("GreedyPlayer.choose", kind): "the hottest path of the play-outs: only the seat count "
       "is compared; its moves came from legal_moves, which refused the state"
       for kind in ("other-cards", "other-cards-back")},
    **{(f"ActionCatalogue.{method}", kind): _MAPS_GIVEN
       for method in ("actions", "legal_actions", "action_list")
       for kind in ("other-cards", "other-cards-back")},
    # The card catalogue refuses a move of a rank its deck lacks (the move lists of both
    # deals hold one: a SKIP-BO card, rank 0, a king); the first move alone has none.
    **{("CardCatalogue.actions", kind): _MAPS_GIVEN + "; refused for a rank the deck lacks"
       for kind in ("other-cards", "other-cards-back")},
}


def _own_answers() -> object:
    """What the rule books answer for their own states: must not change."""
    return [sm.legal_moves(book, sm.deal(book, 5)) for book in (BF, BF3, SB)]


def _cases() -> list[tuple[str, str]]:
    return [(member, kind) for member in sorted(MEMBERS) for kind in KINDS
            if (member, kind) not in NOT_CAUGHT]


@pytest.mark.parametrize(("member", "kind"), _cases())
def test_a_state_of_another_configuration_is_refused(member: str, kind: str) -> None:
    rules, state, own, difference = KINDS[kind]
    snapshot = copy.deepcopy(state)
    answers = _own_answers()
    with pytest.raises(SpiteMaliceError) as raised:
        MEMBERS[member](rules, state, own)
    assert isinstance(raised.value, PositionError), repr(raised.value)
    message = str(raised.value)
    assert difference in message, message
    assert "a state from another configuration" in message, message
    assert "sm.deal(rules, seed)" in message or "spitemalice.deal(rules, seed)" in message
    assert raised.value.__suppress_context__ or raised.value.__context__ is None
    assert state == snapshot
    assert _own_answers() == answers


@pytest.mark.parametrize(("member", "kind"), sorted(NOT_CAUGHT))
def test_the_cells_left_unchecked_are_exactly_those_listed(member: str, kind: str) -> None:
    """Each listed cell runs without refusing (else it belongs with the refused ones, and its
    docstring says more than it should)."""
    rules, state, own, _ = KINDS[kind]
    try:
        MEMBERS[member](rules, state, own)
    except PositionError as error:  # pragma: no cover - the failure this test is for
        pytest.fail(f"{member} refuses {kind} now ({error}): take it out of NOT_CAUGHT")
    except sm.IllegalMove:
        pass  # what the rules say of the move; not a refusal of the state


@pytest.mark.parametrize("member", sorted(MEMBERS))
def test_each_member_runs_with_a_state_of_its_own(member: str) -> None:
    """The rows can fail: with the rule book's own state no PositionError is raised."""
    state = sm.deal(BF, 1)
    with contextlib.suppress(sm.IllegalMove):  # a move the rules refuse: past the check
        MEMBERS[member](BF, state, BF)
    assert state == sm.deal(BF, 1)


def test_the_check_is_at_no_cost_to_a_state_of_its_own() -> None:
    """A game played to its end with a state of the rule book's own deck raises nothing: the
    first-met checks of the engine's tables never refuse a card of the deck."""
    for book in (BF, BF3, SB, sm.load("misery"), sm.load("starturn")):
        rng = random.Random(3)
        state = sm.deal(book, 3)
        while state.outcome is None:
            state = sm.apply_move(book, state, random_move(book, state, rng))


def test_the_layout_refuses_more_seats_with_its_own_words() -> None:
    """The observation layout holds no rule book: it refuses what does not fit its sizes
    (more seats, more hand cards); fewer seats it pads, by design (a view's layout)."""
    pytest.importorskip("gymnasium")
    from spitemalice.env import spaces
    layout = spaces.Encoding(BF, 20).layout
    with pytest.raises(SpiteMaliceError, match=r"\(3 seats, not 2\)"):
        layout.encode_state(sm.deal(BF3, 1), 0)
    with pytest.raises(SpiteMaliceError, match=r"\(3 seats, not 2\)"):
        layout.encode_bytes(sm.deal(BF3, 1), 0)


@pytest.mark.parametrize("make", ["slot", "card", "encoding"])
def test_the_catalogues_refuse_spit_as_the_environments_do(make: str) -> None:
    spit = sm.load("spit")
    with pytest.raises(SpiteMaliceError, match=r"plays turn-based rule sets; spit's seats "
                       r"move at once"):
        _env(make)(spit)


@pytest.mark.parametrize("method", ["move", "legal_list"])
def test_the_catalogues_refuse_a_view_as_the_environments_refuse_every_bad_argument(
        method: str) -> None:
    """docs/api/index.md: the environments raise SpiteMaliceError for every bad argument,
    where the engine raises TypeError; the catalogues are the environments' (a TypeError
    would be no SpiteMaliceError)."""
    state = sm.deal(BF, 1)
    view = sm.view_of(state, state.seat)
    with pytest.raises(TypeError):
        sm.legal_moves(BF, view)  # type: ignore[arg-type]
    for kind in ("slot", "card"):
        with pytest.raises(SpiteMaliceError) as raised:
            getattr(_env(kind)(BF), method)(view, *((0,) if method == "move" else ()))
        assert not isinstance(raised.value, TypeError)
        assert "takes a GameState, not a seat's view (SeatView)" in str(raised.value)
