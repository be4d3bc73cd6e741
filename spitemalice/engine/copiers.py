"""The engine's state copiers: :data:`with_fields` and :func:`state_copier` make a copy of a
:class:`~spitemalice.model.GameState` with some fields changed, from values already in
canonical form (tuples, sorted hands), without the public constructor's conversions.

Compiled (:data:`~spitemalice.model.NATIVE`), they build the copy with the model's native
constructor, :func:`~spitemalice.model.new_state`; in pure Python they are generated from the
field list as attrs generates an ``__init__`` (:func:`_generated`), each writing the slots
through their descriptors.  The objects made are ordinary instances, equal to those the
public constructor makes from the same values.  Not for use outside the engine (the engine's
steps, the bots' sampled positions, the validators' probes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol, cast

import attrs

from spitemalice.model import NATIVE, GameState, new_state

__all__ = ["StateCopier", "state_copier", "with_fields"]

_new = object.__new__
_FIELD_NAMES: Final[tuple[str, ...]] = tuple(field.name for field in attrs.fields(GameState))
_FIELDS = frozenset(_FIELD_NAMES)


class StateCopier(Protocol):
    """The type of :data:`with_fields`."""

    def __call__(self, state: GameState, /, **changes: Any) -> GameState: ...


def _generated(name: str, params: str, value: Callable[[str], str]) -> Callable[..., GameState]:
    """A function ``name(state, params)`` that makes a :class:`GameState` field by field,
    each field's value given by ``value(field)`` (Python source), generated from the field
    list as attrs generates an ``__init__``: the field order is written only in the class,
    and a state costs what hand-written code would.  The pure build's constructors."""
    setters = {f"set_{field}": getattr(GameState, field).__set__ for field in _FIELD_NAMES}
    lines = [f"def make(new, cls, keep, {', '.join(setters)}):",
             f"    def {name}(state, {params}):",
             "        made = new(cls)"]
    lines += [f"        set_{field}(made, {value(field)})" for field in _FIELD_NAMES]
    lines += ["        return made", f"    return {name}"]
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines), f"<spitemalice.engine.copiers.{name}>", "exec"), namespace)
    made: Callable[..., GameState] = namespace["make"](_new, GameState, _KEEP, *setters.values())
    return made


_KEEP: Final[Any] = object()  # with_fields' default for every field: the field is not changed


def _native_with_fields(
    state: GameState, /, *, build_removed: Any = _KEEP, builds: Any = _KEEP,
    completed: Any = _KEEP, draw: Any = _KEEP, idle_turns: Any = _KEEP, outcome: Any = _KEEP,
    seat: Any = _KEEP, seats: Any = _KEEP, seed: Any = _KEEP, shuffles: Any = _KEEP,
    turn: Any = _KEEP, turn_moves: Any = _KEEP,
) -> GameState:
    """The compiled build's :data:`with_fields`: native reads and a native state."""
    return new_state(
        state.seats if seats is _KEEP else seats,
        state.builds if builds is _KEEP else builds,
        state.draw if draw is _KEEP else draw,
        state.completed if completed is _KEEP else completed,
        state.seat if seat is _KEEP else seat,
        state.turn if turn is _KEEP else turn,
        state.turn_moves if turn_moves is _KEEP else turn_moves,
        state.idle_turns if idle_turns is _KEEP else idle_turns,
        state.seed if seed is _KEEP else seed,
        state.shuffles if shuffles is _KEEP else shuffles,
        state.outcome if outcome is _KEEP else outcome,
        state.build_removed if build_removed is _KEEP else build_removed)


with_fields: StateCopier = cast(StateCopier, _native_with_fields) if NATIVE else _generated(
    "with_fields", "/, *, " + ", ".join(f"{field}=keep" for field in sorted(_FIELDS)),
    lambda field: f"state.{field} if {field} is keep else {field}")
"""``with_fields(state, **changes)``: a copy of ``state`` with the fields given as keywords
changed (``with_fields(state, turn=3, idle_turns=0)``).

The values must already be in canonical form (tuples, sorted hands, ``build_removed`` ``()``
when all its counts are 0): nothing is converted, which is what makes it faster than
``attrs.evolve``.  The object made is an ordinary :class:`GameState`, equal to what the
public constructor makes from the same values.  A keyword that names no field raises
``TypeError``.
"""


def _native_copier(changed: tuple[str, ...]) -> Callable[..., GameState]:
    """The compiled build's :func:`state_copier`: a native closure that replaces the fields
    at ``changed``'s places in the state's field list."""
    places = [_FIELD_NAMES.index(name) for name in changed]
    count = len(places)

    def copier(state: GameState, *values: Any) -> GameState:
        if len(values) != count:
            raise TypeError(f"copy_{'_'.join(changed)}() takes {count} values after the "
                            f"state ({len(values)} given)")
        f: list[Any] = [state.seats, state.builds, state.draw, state.completed, state.seat,
                        state.turn, state.turn_moves, state.idle_turns, state.seed,
                        state.shuffles, state.outcome, state.build_removed]
        for k in range(count):
            f[places[k]] = values[k]
        # Each field named, not ``*f``: mypyc then calls the native constructor directly,
        # where a star call goes through its Python wrapper (about half a copy's cost).
        return new_state(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
                         f[11])

    return copier


def state_copier(*changed: str) -> Callable[..., GameState]:
    """A faster :data:`with_fields` for one set of fields, for the engine's hot path (a play,
    the end of a turn): ``copier(state, *values)`` gives the fields ``changed`` these values,
    by position in the order ``changed`` names them, and keeps the others.

    Examples:
        >>> after_turn = state_copier("seat", "turn")
        >>> after_turn(GameState((), (), (), ()), 1, 5).turn
        5

    Raises:
        ValueError: a name that is no field of :class:`GameState`, or one named twice.
    """
    unknown = sorted(set(changed) - _FIELDS)
    if unknown or len(set(changed)) != len(changed):
        raise ValueError(f"state_copier takes distinct GameState fields "
                         f"({', '.join(sorted(_FIELDS))}), not {', '.join(changed)}")
    if NATIVE:
        return _native_copier(changed)
    return _generated("copy_" + "_".join(changed), ", ".join(changed),
                      lambda field: field if field in changed else f"state.{field}")
