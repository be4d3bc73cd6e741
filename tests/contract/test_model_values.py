"""Seat and GameState are hand-written classes (native under mypyc, spitemalice/model.py):
they keep every guarantee an attrs.frozen class gave them, in both builds.  ``.ci/run`` runs
this file against the compiled build too."""

from __future__ import annotations

import copy
import copyreg
import io
import pickle
import re
from typing import Any

import attrs
import pytest
from attrs.exceptions import FrozenInstanceError

from spitemalice import parse_cards
from spitemalice.engine.copiers import state_copier, with_fields
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import NATIVE, GameState, Outcome, Seat, new_seat

CARDS = parse_cards("9H 2C KS 5D")


def _seat(hand: Any = None) -> Seat:
    return Seat([[CARDS[0]], [CARDS[1]]], CARDS[2:] if hand is None else hand, [[], [CARDS[3]]])


def _state(**changes: Any) -> GameState:
    values: dict[str, Any] = {"seats": [_seat()], "builds": [[CARDS[1]]], "draw": [CARDS[0]],
                              "completed": [], "seat": 0, "turn": 4, "seed": 7}
    return GameState(**(values | changes))


VALUES = [_seat, _state]


def test_constructors_convert_lists_to_tuples_and_sort_the_hand() -> None:
    seat = Seat([[CARDS[0]]], [CARDS[2], CARDS[1], CARDS[0]], [[]])
    assert seat.payoff == ((CARDS[0],),) and seat.discards == ((),)
    assert seat.hand == (CARDS[1], CARDS[0], CARDS[2])  # 2C 9H KS
    state = _state(build_removed=[0])
    assert type(state.seats) is tuple and state.builds == ((CARDS[1],),)
    assert state.draw == (CARDS[0],) and state.completed == ()
    assert state.build_removed == ()  # all zero is stored as ()
    assert _state(build_removed=[2]).build_removed == (2,)


def test_constructors_refuse_what_they_refused() -> None:
    with pytest.raises(TypeError, match="parse_cards"):
        _seat(hand="9H 2C")
    with pytest.raises(SpiteMaliceError, match=r"GameState\.turn"):
        _state(turn=10 ** 100)
    with pytest.raises(SpiteMaliceError, match=r"GameState\.build_removed"):
        _state(build_removed=[10 ** 100])
    with pytest.raises(TypeError):
        GameState([], [], [])  # type: ignore[call-arg]


# Each field given something it cannot hold: the error names the field and the value given
# (it was a bare "'int' object is not iterable", or an AttributeError for a hand of ints).
_SEAT_FIELDS = {"payoff": [[CARDS[0]]], "hand": CARDS[2:], "discards": [[]]}
_WRONG_FIELDS = [
    (Seat, "payoff", 5, r"Seat\.payoff is a list of piles.*not the int 5"),
    (Seat, "payoff", None, r"Seat\.payoff is a list of piles.*not None"),
    (Seat, "discards", [5], r"Seat\.discards is a list of piles.*not a list holding the int 5"),
    (Seat, "discards", "9H", r"Seat\.discards is a list of piles.*not the str \"9H\""),
    (Seat, "payoff", ["9H"], r"Seat\.payoff is a list of piles.*holding the str \"9H\""),
    (GameState, "builds", "AS", r"GameState\.builds is a list of piles.*not the str \"AS\""),
    (GameState, "draw", "9H", r"GameState\.draw is a list of cards.*not the str \"9H\""),
    (Seat, "hand", [1], r"Seat\.hand is a list of cards.*not a list holding the int 1"),
    (Seat, "hand", ["9H"], r"Seat\.hand is a list of cards.*the str \"9H\".*parse_cards"),
    (Seat, "hand", 3, r"Seat\.hand is a list of cards.*not the int 3"),
    (GameState, "seats", 5, r"GameState\.seats is a list of Seat.*not the int 5"),
    (GameState, "seats", [CARDS[0]], r"GameState\.seats is a list of Seat.*holding the Card"),
    (GameState, "builds", [1], r"GameState\.builds is a list of piles.*holding the int 1"),
    (GameState, "draw", 3, r"GameState\.draw is a list of cards.*not the int 3"),
    (GameState, "completed", None, r"GameState\.completed is a list of cards.*not None"),
    (GameState, "build_removed", 5, r"GameState\.build_removed is a list of whole.*the int 5"),
    (GameState, "build_removed", "12", r"build_removed is a list of whole.*not the str \"12\""),
    (GameState, "build_removed", [1.5], r"build_removed is a list of whole.*the float 1\.5"),
    (GameState, "build_removed", [True], r"build_removed is a list of whole.*holding the bool"),
    (GameState, "outcome", 5, r"GameState\.outcome is None while the game is live, or an "
                              r"Outcome, not the int 5"),
]
# Iterators: the conversion reads them once, and the refusal must still name what they held
# (it read them again, used up, and named nothing).
_WRONG_ITERATORS = [
    (Seat, "hand", lambda: (card for card in ["9H"]), r"Seat\.hand.*holding the str \"9H\""),
    (Seat, "payoff", lambda: iter([5]), r"Seat\.payoff.*holding the int 5"),
    (GameState, "seats", lambda: (seat for seat in [1]), r"GameState\.seats.*holding the int 1"),
    (GameState, "builds", lambda: map(int, "12"), r"GameState\.builds.*holding the int 1$"),
]


@pytest.mark.parametrize(("cls", "field", "value", "message"), _WRONG_FIELDS,
                         ids=[f"{c.__name__}.{f}={v!r}" for c, f, v, _ in _WRONG_FIELDS])
def test_a_field_that_cannot_hold_its_value_is_refused_naming_it(
        cls: type, field: str, value: object, message: str) -> None:
    with pytest.raises(TypeError, match=message) as refused:
        if cls is Seat:
            Seat(**(_SEAT_FIELDS | {field: value}))
        else:
            _state(**{field: value})
    assert refused.value.__suppress_context__  # one error, not the conversion's inside it
    # the same refusal through attrs.evolve, which builds through the constructor
    with pytest.raises(TypeError, match=message):
        attrs.evolve(_seat() if cls is Seat else _state(), **{field: value})


@pytest.mark.parametrize(("cls", "field", "make", "message"), _WRONG_ITERATORS,
                         ids=[f"{c.__name__}.{f}" for c, f, _, _ in _WRONG_ITERATORS])
def test_an_iterator_a_field_cannot_hold_is_refused_naming_what_it_held(
        cls: type, field: str, make: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        if cls is Seat:
            Seat(**(_SEAT_FIELDS | {field: make()}))
        else:
            _state(**{field: make()})


def test_iterators_numpy_values_and_counts_a_field_can_hold_are_taken() -> None:
    import numpy as np

    seat = Seat((pile for pile in [[CARDS[0]]]), iter(CARDS[2:]), map(list, [[]]))
    assert seat == Seat([[CARDS[0]]], CARDS[2:], [[]])
    two = [[CARDS[1]], [CARDS[1]]]
    assert _state(builds=two, build_removed=np.array([0, 2])).build_removed == (0, 2)
    assert type(_state(build_removed=np.array([1])).build_removed[0]) is int
    with pytest.raises(TypeError, match=r"GameState\.build_removed.*holding the ndarray"):
        _state(build_removed=np.array([[1, 2]]))
    with pytest.raises(TypeError, match=r"Seat\.payoff is a list of piles.*the ndarray"):
        Seat(np.array(5), CARDS[2:], [[]])  # a 0-d array cannot be iterated


def test_an_error_inside_a_callers_iterator_is_raised_as_it_was() -> None:
    # not diagnosed as a value the field cannot hold (its message named no field)
    with pytest.raises(TypeError, match=r"int\(\) argument must be"):
        _state(build_removed=(int(x) for x in [1, None]))  # type: ignore[call-overload]
    with pytest.raises(AttributeError, match="nope"):
        Seat(((card.nope,) for card in CARDS), [], [()])  # type: ignore[attr-defined]


@pytest.mark.parametrize(("args", "error", "words"), [
    (("win", 0, "10"), TypeError, 'scores is a list of whole numbers, one per seat, not the str '
                                  '"10"'),
    (("win", 0, 5), TypeError, "scores is a list of whole numbers.*not the int 5"),
    (("drawn", None, (1.5, 2)), TypeError, "scores.*not a list holding the float 1.5"),
    (("drawn", None, (True, 1)), TypeError, "scores.*not a list holding the bool"),
    (("drawn", None, [None]), TypeError, "scores.*not a list holding None"),
    (("won", 0, (1, 2)), SpiteMaliceError, 'kind is one of "win", "drawn", "blocked", '
                                           '"turn-limit", not the str "won"'),
    ((5, 0, (1,)), TypeError, "kind is one of.*not the int 5"),
    (("win", True, (1,)), TypeError, r"winner is a seat \(a whole number\) or None, not the "
                                     "bool"),
    (("win", "0", (1,)), TypeError, 'winner is a seat.*not the str "0"'),
    (("win", -1, (1,)), SpiteMaliceError, "winner, a seat, is a whole number from 0 to .*not -1"),
    (("win", -10**5000, (1,)), SpiteMaliceError, "winner, a seat, is a whole number from 0 to "
                                                 ".*not a whole number of about 5,001 digits"),
    (("drawn", None, {0: 3, 1: 4}), TypeError, "scores is a list of whole numbers.*not the dict"),
    (("drawn", None, {3, 4}), TypeError, "scores is a list of whole numbers.*not the set"),
    # the fields disagree: only a win has a winner, and a winner has a score
    (("drawn", 0, (1, 2)), SpiteMaliceError, 'winner is a seat when kind is "win" and None '
                                             'otherwise, not 0 with kind "drawn"'),
    (("turn-limit", 1, (1, 2)), SpiteMaliceError, 'winner.*not 1 with kind "turn-limit"'),
    (("blocked", 1, (1, 2)), SpiteMaliceError, 'winner.*not 1 with kind "blocked"'),
    (("win", None, (1, 2)), SpiteMaliceError, 'winner.*not None with kind "win"'),
    (("win", 2, (1, 2)), SpiteMaliceError, r"winner is a seat of the game, below 2 \(one score "
                                           r"per seat\), not 2"),
    (("win", 0, ()), SpiteMaliceError, r"winner is a seat of the game, below 0 .*not 0"),
])
def test_an_outcome_refuses_what_its_fields_cannot_hold(args: tuple[Any, ...], error: type,
                                                        words: str) -> None:
    # "10" was taken as the scores '1' and '0', and any kind or winner was taken
    with pytest.raises(error, match="Outcome." + words):
        Outcome(*args)


def test_an_outcome_takes_numpy_numbers_as_ints() -> None:
    np = pytest.importorskip("numpy")
    outcome = Outcome("win", np.int64(1), np.array([3, 4]))
    assert outcome == Outcome("win", 1, (3, 4))
    assert [type(value) for value in (outcome.winner, *outcome.scores)] == [int] * 3
    assert Outcome("blocked", None, iter([0, 0])).scores == (0, 0)
    kind = Outcome(np.str_("drawn"), None, (0, 0)).kind
    assert kind == "drawn" and type(kind) is str


def test_build_removed_holds_one_count_per_build_pile_or_none() -> None:
    with pytest.raises(SpiteMaliceError, match=r"build_removed holds one count per build "
                                               r"pile, or none: 1 for 2 build pile"):
        _state(builds=[[CARDS[1]], [CARDS[1]]], build_removed=[1])
    assert _state(builds=[[CARDS[1]], [CARDS[1]]], build_removed=[0, 1]).build_removed == (0, 1)


@pytest.mark.parametrize("counter", ["seat", "turn", "turn_moves", "idle_turns", "seed",
                                     "shuffles"])
def test_a_counter_that_is_no_whole_number_is_refused_naming_it(counter: str) -> None:
    import numpy as np

    for value, shown in (("1", r'the str "1"'), (None, "None"), (1.5, "the float 1.5")):
        with pytest.raises(TypeError) as refused:
            attrs.evolve(_state(), **{counter: value})
        # the compiled build's fields take ints only: mypyc refuses first, in its own words
        if not NATIVE:
            assert re.search(rf"GameState\.{counter} is .*{shown}", str(refused.value))
    if NATIVE:  # numpy's integers too, there
        pytest.skip("the compiled build: mypyc refuses a numpy integer with its own error")
    # numpy's integers are whole numbers: stored as int
    made = attrs.evolve(_state(), **{counter: np.int64(1)})
    assert type(getattr(made, counter)) is int and getattr(made, counter) == 1
    with pytest.raises(SpiteMaliceError, match=rf"GameState\.{counter} .*from 0.*not -1"):
        attrs.evolve(_state(), **{counter: np.int64(-1)})


@pytest.mark.parametrize("counter", ["seat", "turn", "turn_moves", "idle_turns", "seed",
                                     "shuffles"])
def test_a_counter_below_zero_is_refused_naming_it(counter: str) -> None:
    # legal_moves read seat -1 as the last seat (a negative index) and went on
    with pytest.raises(SpiteMaliceError, match=rf"GameState\.{counter} is a whole number "
                                               r"from 0 .*not -1"):
        attrs.evolve(_state(), **{counter: -1})
    with pytest.raises(SpiteMaliceError, match=r"GameState\.build_removed .*from 0.*not -3"):
        _state(build_removed=[-3])


@pytest.mark.parametrize("make", VALUES)
def test_frozen(make: Any) -> None:
    value = make()
    for name in (*(field.name for field in attrs.fields(type(value))), "other"):
        with pytest.raises(FrozenInstanceError):
            setattr(value, name, 1)
        with pytest.raises(FrozenInstanceError):
            delattr(value, name)
    assert not hasattr(value, "__dict__")


@pytest.mark.parametrize("make", VALUES)
def test_value_equality_and_hash(make: Any) -> None:
    one, two = make(), make()
    assert one is not two and one == two and hash(one) == hash(two)
    assert (one != two) is False
    assert one.__eq__(object()) is NotImplemented and one.__ne__(object()) is NotImplemented
    assert one != "text"
    other = attrs.evolve(one, **{attrs.fields(type(one))[-1].name: ((CARDS[0],),)}) \
        if type(one) is Seat else attrs.evolve(one, turn=5)
    assert other != one and one != other


def test_every_field_counts_in_equality() -> None:
    state = _state()
    changed = {"seats": (), "builds": (), "draw": (), "completed": (CARDS[2],), "seat": 1,
               "turn": 1, "turn_moves": 1, "idle_turns": 1, "seed": 1, "shuffles": 1,
               "outcome": Outcome("win", 0, (1,)), "build_removed": (1,)}
    assert set(changed) == {field.name for field in attrs.fields(GameState)}
    for name, value in changed.items():
        assert attrs.evolve(state, **{name: value}) != state, name


def test_repr() -> None:
    seat = _seat()
    assert repr(seat) == (f"Seat(payoff={seat.payoff!r}, hand={seat.hand!r}, "
                          f"discards={seat.discards!r})")
    import spitemalice.formats.notation  # noqa: F401  (registers the notation repr)

    state = _state()
    assert repr(state).startswith("GameState('") and repr(state).endswith("')")


@pytest.mark.parametrize("make", VALUES)
def test_attrs_protocol(make: Any) -> None:
    value = make()
    cls = type(value)
    assert attrs.has(cls)
    names = [field.name for field in attrs.fields(cls)]
    assert names == list(cls.__match_args__)
    assert attrs.asdict(value, recurse=False) == {name: getattr(value, name) for name in names}
    assert attrs.astuple(value, recurse=False) == tuple(getattr(value, name) for name in names)
    assert attrs.evolve(value) == value


def test_fields_are_those_of_before() -> None:
    assert [field.name for field in attrs.fields(Seat)] == ["payoff", "hand", "discards"]
    assert [field.name for field in attrs.fields(GameState)] == [
        "seats", "builds", "draw", "completed", "seat", "turn", "turn_moves", "idle_turns",
        "seed", "shuffles", "outcome", "build_removed"]
    assert attrs.fields(GameState).turn.default == 0


def test_evolve_converts_as_the_constructor_does() -> None:
    seat = attrs.evolve(_seat(), hand=[CARDS[2], CARDS[0]])
    assert seat.hand == (CARDS[0], CARDS[2])
    assert attrs.evolve(_state(), draw=[]).draw == ()


@pytest.mark.parametrize("make", VALUES)
def test_pickle_and_copies(make: Any) -> None:
    value = make()
    for copied in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert type(copied) is type(value) and copied == value


def test_match() -> None:
    match _state():
        case GameState(seats, builds, draw, completed, seat, turn):
            assert (len(seats), builds, draw, completed, seat, turn) == (
                1, ((CARDS[1],),), (CARDS[0],), (), 0, 4)
        case _:
            pytest.fail("no match")
    match _seat():
        case Seat(payoff, hand, discards):
            assert (payoff, hand, discards) == (((CARDS[0],), (CARDS[1],)), (CARDS[3], CARDS[2]),
                                                ((), (CARDS[3],)))
        case _:
            pytest.fail("no match")


def test_engine_constructors_make_equal_values() -> None:
    seat = _seat()
    made = new_seat(seat.payoff, seat.hand, seat.discards)
    assert type(made) is Seat and made == seat and hash(made) == hash(seat)
    state = _state()
    assert with_fields(state) == state
    assert with_fields(state, turn=9) == attrs.evolve(state, turn=9)
    copier = state_copier("seat", "turn")
    assert copier(state, 1, 8) == attrs.evolve(state, seat=1, turn=8)
    with pytest.raises(TypeError):
        with_fields(state, nothing=1)
    with pytest.raises(ValueError, match="state_copier"):
        state_copier("turn", "turn")


def test_model_still_exports_outcome_and_result() -> None:
    from spitemalice import model, outcome

    assert model.Outcome is outcome.Outcome and model.GameResult is outcome.GameResult


SIGNATURES = {
    Seat: "(payoff: 'Iterable[Iterable[Card]]', hand: 'Iterable[Card]', "
          "discards: 'Iterable[Iterable[Card]]') -> None",
    GameState: "(seats: 'Iterable[Seat]', builds: 'Iterable[Iterable[Card]]', "
               "draw: 'Iterable[Card]', completed: 'Iterable[Card]', seat: 'int' = 0, "
               "turn: 'int' = 0, turn_moves: 'int' = 0, idle_turns: 'int' = 0, "
               "seed: 'int' = 0, shuffles: 'int' = 0, outcome: 'Outcome | None' = None, "
               "build_removed: 'Iterable[int]' = ()) -> None",
}


@pytest.mark.parametrize("cls", [Seat, GameState])
def test_the_signature_shows_the_fields(cls: Any) -> None:
    """``inspect.signature`` shows the constructor's fields, as the attrs classes did (their
    allocating ``__new__`` would show ``(*args, **kwargs)``), in both builds; and it is the
    hand-written ``__init__``'s own signature, where that has one (the pure build)."""
    import inspect

    signature = inspect.signature(cls)
    assert str(signature) == SIGNATURES[cls]
    assert [name for name in signature.parameters] == [field.name for field in attrs.fields(cls)]
    bound = signature.bind(*(["x"] * len(signature.parameters)))
    assert list(bound.arguments) == list(signature.parameters)
    if inspect.isfunction(cls.__init__):  # pure Python: the one written in the class
        own = inspect.signature(cls.__init__)
        assert list(own.parameters.values())[1:] == list(signature.parameters.values())


def _as_attrs_pickled(value: object, protocol: int) -> bytes:
    """``value`` pickled as the attrs classes were: pickle allocates the class, then hands
    ``__setstate__`` attrs' dict of fields (attrs 22.2 and later)."""

    class AsAttrs(pickle.Pickler):
        def reducer_override(self, obj: object) -> object:
            if type(obj) not in (Seat, GameState):
                return NotImplemented
            fields = {field.name: getattr(obj, field.name) for field in attrs.fields(type(obj))}
            return copyreg.__newobj__, (type(obj),), fields  # type: ignore[attr-defined]

    out = io.BytesIO()
    AsAttrs(out, protocol).dump(value)
    return out.getvalue()


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_a_state_pickled_while_it_was_an_attrs_class_still_loads(protocol: int) -> None:
    state = _state(outcome=Outcome("win", 0, (5,)), build_removed=(2,))
    for value in (state, state.seats[0]):
        old = _as_attrs_pickled(value, protocol)
        loaded = pickle.loads(old)
        assert type(loaded) is type(value) and loaded == value
        assert pickle.loads(pickle.dumps(loaded, protocol)) == value
    with pytest.raises(TypeError, match="a pickled Seat is loaded from a dict of the names"):
        Seat.__new__(Seat).__setstate__({"payoff": ()})
