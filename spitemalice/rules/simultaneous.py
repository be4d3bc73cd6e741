"""Simultaneous moves: what a rule set answers when its seats move at once (Spit).

A turn-based rule set never meets this module: the engine's turn-based path is unchanged,
and a rule book's :attr:`~spitemalice.rules.book.RuleBook.simultaneous` is ``None``.  A rule
set whose seats move at once answers the ``spitemalice_simultaneous`` hook with a
:class:`SimultaneousGame`; the engine's doors (``deal``, ``legal_moves``, ``check_move``,
``apply_move``, ``view_of``) then hand that rule set's states to it.  The design
(docs/hooks.md, "Simultaneous moves"):

* there is no seat on turn: :meth:`SimultaneousGame.to_move` names the seats that may move
  now, and :meth:`SimultaneousGame.legal_moves` lists one seat's moves;
* every move names its seat (``move.seat``), so a record keeps the seat of each move in the
  order the moves were applied;
* a barrier is state: :meth:`SimultaneousGame.barrier` names the one pending (``"spit"``:
  every seat must say it is ready; ``"slap"``), and the seats still owed an answer are those
  of :meth:`~SimultaneousGame.to_move`;
* who comes first is not the rules' question: a live table applies intents in arrival
  order, a simulation asks a seeded arrival policy
  (:mod:`spitemalice.runs.arrival`); a move that is no longer legal when it arrives is
  refused as any illegal move is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pluggy

from spitemalice.errors import RulesetError
from spitemalice.model import Outcome
from spitemalice.rules.resolve import required_reasons
from spitemalice.rules.ruleset import Ruleset


class SimultaneousState:
    """The base of every state of a simultaneous rule set: frozen values, as
    :class:`~spitemalice.model.GameState` is.  Subclasses hold ``outcome`` (an
    :class:`~spitemalice.model.Outcome` or ``None``) and ``seed``."""

    outcome: Outcome | None
    seed: int

    @property
    def is_over(self) -> bool:
        """``True`` once the game has an outcome."""
        return self.outcome is not None

    def all_cards(self) -> list[Any]:
        """Every card of the state, wherever it lies (for the conservation check)."""
        raise NotImplementedError

    def view(self, seat: int) -> Any:
        """What ``seat`` may see of this state (a frozen value that holds no hidden card).

        Raises:
            SpiteMaliceError: ``seat`` is not a seat of the state.
        """
        raise NotImplementedError


class SimultaneousGame:
    """The rules of a game whose seats move at once; a rule set answers
    ``spitemalice_simultaneous`` with one.  Every method is pure: a state in, a value out.

    Attributes:
        REASONS: the reason codes its refusals carry, with a sentence each; the rule sheet
            must cover each of them (the rule book refuses it otherwise).
        PARAMETERS: the parameters it reads, with what each means here.
    """

    REASONS: Mapping[str, str] = {}
    PARAMETERS: Mapping[str, str] = {}
    """The :class:`~spitemalice.rules.ruleset.Ruleset` fields the game reads, each with what
    it means here; the rule book refuses a change to any other (it would change nothing)."""

    def deal(self, seed: int) -> SimultaneousState:
        """The first position of a game dealt from ``seed`` (equal seeds, equal games)."""
        raise NotImplementedError

    def to_move(self, state: SimultaneousState) -> tuple[int, ...]:
        """The seats that may move now, in seat order (``()`` once the game is over)."""
        raise NotImplementedError

    def barrier(self, state: SimultaneousState) -> str:
        """The barrier pending (``"spit"``, ``"slap"``), or ``""`` during free play."""
        raise NotImplementedError

    def legal_moves(self, state: SimultaneousState, seat: int) -> tuple[Any, ...]:
        """Every legal move of ``seat`` now (``()`` when it may not move)."""
        raise NotImplementedError

    def refusal(self, state: SimultaneousState, move: Any) -> tuple[str, str] | None:
        """``None`` when ``move`` is legal now, else its reason code and a sentence."""
        raise NotImplementedError

    def apply(self, state: SimultaneousState, move: Any) -> SimultaneousState:
        """The state after a legal ``move`` (the caller has checked it)."""
        raise NotImplementedError

    def events(self, before: SimultaneousState, move: Any,
               after: SimultaneousState) -> tuple[str, ...]:
        """The events (:data:`spitemalice.rules.events.EVENTS`) that ``move`` caused,
        ``before`` being the state it was made in and ``after`` the state it led to: what
        rule coverage counts for the clauses that name them
        (:func:`~spitemalice.measures.arrival_coverage.arrival_tally`); ``()`` by default."""
        return ()

    def hidden_twin(self, state: SimultaneousState, rng: Any) -> SimultaneousState:
        """A state that differs from ``state`` only in cards no seat sees (the face-down
        cards shuffled among their places by ``rng``, a ``random.Random``): every seat's
        view of it must equal its view of ``state`` (validate's privacy check)."""
        raise NotImplementedError

    def parse_move(self, text: str) -> Any:
        """The move written ``text`` (its ``str`` reads back to an equal move).

        Raises:
            NotationError: the text is no move of this game.
        """
        raise NotImplementedError


def simultaneous_needs(pm: pluggy.PluginManager, ruleset: Ruleset, plugins: tuple[str, ...],
                  given: Mapping[str, Any]) -> tuple[SimultaneousGame | None, Any]:
    """The game of seats that move at once (or ``None``) and the reason codes the sheet must
    cover: the game's own ``REASONS`` instead of the turn-based engine's.

    Raises:
        RulesetError: a parameter it does not read, or a house rule stacked on it.
    """
    game = pm.hook.spitemalice_simultaneous(ruleset=ruleset)
    needs = required_reasons(pm, plugins)
    if game is None:
        return None, needs
    _refuse_unread(game, ruleset, given)
    if len(plugins) > 1:  # house rules change turn-based play, which this game has none of
        others = ", ".join(plugins[1:])
        raise RulesetError(f"{plugins[0]}'s seats move at once, and no plugin can stack on it "
                           f"(plugins change the turn-based game, which it does not play): "
                           f"{others} given")
    return game, (list(game.REASONS), needs[1] | set(game.REASONS))


def _refuse_unread(game: SimultaneousGame, ruleset: Ruleset, given: Mapping[str, Any]) -> None:
    """Refuse a parameter set for a simultaneous game that does not read it.

    Raises:
        RulesetError: the parameter names, the rule set and the parameters it reads.
    """
    unread = sorted(name for name in given if name not in game.PARAMETERS)
    if unread:
        raise RulesetError(f"{ruleset.name} does not read {', '.join(unread)}: its seats move "
                           f"at once and it takes only {', '.join(game.PARAMETERS)}")
