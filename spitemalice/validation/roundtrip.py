"""Every listed move survives each form a program may hold it in: move text, JSON (the move
list of a game record) and the action numbers of the learning environment, in both its
action spaces (by hand slot and by card), whose action masks mark the listed moves for the
seat on turn and nothing for every other seat.

:func:`round_trip_problem` runs on the positions validate audits
(:mod:`spitemalice.validation.dynamic`).  It closes the paths a move takes outside the
engine: a notation that reads a pile number wrongly, a record that loses a move, an action
catalogue that lists a move in one form only (pair discards in one order) or maps an action
to another seat's pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spitemalice.errors import IllegalMove, SpiteMaliceError
from spitemalice.formats.records.making import record_game
from spitemalice.formats.records.reading import loads_record
from spitemalice.formats.records.writing import dumps_record
from spitemalice.model import GameState, require_state
from spitemalice.moves import Move, move_text, parse_move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import count_of


class RoundTrip:
    """The round trips of one configuration; the action catalogue is built on first use.

    Without the ``rl`` extra (the catalogue's package needs it) the action-number leg is left
    out and :attr:`actions_checked` says so; the masks' leg likewise (:attr:`masks_checked`).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """

    def __init__(self, rules: RuleBook) -> None:
        check_book(rules, "RoundTrip")
        self.rules = rules
        self._catalogue: Any = None
        self._cards: Any = None
        self._encoding: Any = None
        self.actions_checked = True
        self.masks_checked = True

    def catalogue(self) -> Any:
        """The configuration's :class:`~spitemalice.env.actions.ActionCatalogue`, or
        ``None`` when the ``rl`` extra is not installed."""
        if self._catalogue is None and self.actions_checked:
            try:
                from spitemalice.env.actions import ActionCatalogue
            except SpiteMaliceError:  # the rl extra is missing: no environment to check
                self.actions_checked = False
                return None
            self._catalogue = ActionCatalogue(self.rules)
        return self._catalogue

    def card_catalogue(self) -> Any:
        """The configuration's :class:`~spitemalice.env.card_actions.CardCatalogue` (call
        :meth:`catalogue` first: without the ``rl`` extra there is none)."""
        if self._cards is None:
            from spitemalice.env.card_actions import CardCatalogue

            self._cards = CardCatalogue(self.rules)
        return self._cards

    def encoding(self) -> Any:
        """The environments' :class:`~spitemalice.env.spaces.Encoding` of the configuration
        (whose masks the environments hand to a learner), or ``None`` when the ``rl`` extra
        is not installed."""
        if self._encoding is None and self.masks_checked:
            try:
                from spitemalice.env.arguments import DEFAULT_DEPTH
                from spitemalice.env.spaces import Encoding
            except (SpiteMaliceError, ImportError):  # the rl extra is missing
                self.masks_checked = False
                return None
            self._encoding = Encoding(self.rules, DEFAULT_DEPTH)
        return self._encoding

    def problem(self, state: GameState, listed: Sequence[Move]) -> str | None:
        """The first listed move of ``state`` that does not come back from text, JSON or an
        action number as itself, or an action that stands for a legal move no listed move
        has, or a seat whose action mask (``mask(state, seat)``, for every seat) marks other
        actions than the listed moves' for the seat on turn and none for the others; ``None``
        when every form agrees.

        Raises:
            TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
        """
        require_state(state, "RoundTrip.problem")
        found = _text_problem(listed) or _json_problem(self.rules, state, listed)
        if found is None and self.catalogue() is not None:
            found = _action_problem(self.rules, self._catalogue, state, listed)
        if found is None and self.actions_checked:
            found = _card_problem(self.card_catalogue(), state, listed)
        if found is None and self.encoding() is not None:
            found = _mask_problem(self._encoding, state, listed)
        return found


def _text_problem(listed: Sequence[Move]) -> str | None:
    for move in listed:
        text = move_text(move)
        try:
            back = parse_move(text)
        except SpiteMaliceError as error:
            return f"listed move {move!r} has the text {text!r}, which does not parse: {error}"
        if back != move:
            return f"listed move {move!r} has the text {text!r}, which reads back as {back!r}"
    return None


def _json_problem(rules: RuleBook, state: GameState, listed: Sequence[Move]) -> str | None:
    """The listed moves as the move list of a game record, through its JSON and back."""
    text = dumps_record(record_game(rules, state.seed, listed))
    try:
        back = [parse_move(move) for move in loads_record(text).moves]
    except SpiteMaliceError as error:
        return f"the listed moves do not come back from a record's JSON: {error}"
    for move, again in zip(listed, back, strict=False):
        if again != move:
            return f"listed move {move!r} comes back from a record's JSON as {again!r}"
    if len(back) != len(listed):
        return f"a record of {count_of(len(listed), 'listed move')} reads back with {len(back)}"
    return None


def _action_problem(rules: RuleBook, catalogue: Any, state: GameState,
                    listed: Sequence[Move]) -> str | None:
    """Every listed move has an action that stands for it, every action of a listed move
    decodes to that move, and every other action is refused or stands for a move that is not
    listed (that check_move refuses such a move is the audit's part,
    :func:`~spitemalice.validation.audit.audit_position`)."""
    try:
        stand_for: dict[int, Move] = catalogue.legal_actions(state, listed)
    except Exception as error:  # a catalogue that cannot place a listed move
        return (f"the action catalogue cannot number the listed moves: "
                f"{type(error).__name__}: {error}")
    missing = set(listed) - set(stand_for.values())
    if missing:
        move = next(move for move in listed if move in missing)
        return f"listed move {move} has no action number in the action catalogue"
    known = set(listed)
    for action in range(catalogue.size):
        try:
            decoded = catalogue.move(state, action)
        except IllegalMove:
            decoded = None
        expected = stand_for.get(action)
        if expected is not None:
            if decoded != expected:
                return (f"action {action} ({catalogue.describe(action)}) stands for listed "
                        f"move {expected} but decodes to {decoded}")
        elif decoded is not None and decoded in known:
            return (f"action {action} ({catalogue.describe(action)}) decodes to listed move "
                    f"{decoded}, whose actions do not include it")
    return None


def _card_problem(catalogue: Any, state: GameState, listed: Sequence[Move]) -> str | None:
    """The card action space: every listed move has exactly one action, and every action
    either decodes to a move it numbers (a listed one when the action is a listed move's) or
    is refused.  (A listed move of another suit shares its action: the action decodes to the
    first card of the rank in the hand, which the environments replace by the listed move.)"""
    try:
        stand_for: dict[int, Move] = catalogue.legal_actions(state, listed)
        numbered = {move: catalogue.actions(state, move) for move in listed}
    except Exception as error:  # a catalogue that cannot place a listed move
        return (f"the card action catalogue cannot number the listed moves: "
                f"{type(error).__name__}: {error}")
    for move, numbers in numbered.items():
        if len(numbers) != 1 or numbers[0] not in stand_for:
            return (f"listed move {move} has the card actions {numbers}, not one action "
                    "among the listed moves' actions")
    known = set(listed)
    for action in range(catalogue.size):
        try:
            decoded = catalogue.move(state, action)
        except IllegalMove:
            if action in stand_for:
                return (f"card action {action} ({catalogue.describe(action)}) stands for "
                        f"listed move {stand_for[action]} but is refused")
            continue
        if catalogue.actions(state, decoded) != [action]:
            return (f"card action {action} ({catalogue.describe(action)}) decodes to "
                    f"{decoded}, whose action is another")
        if decoded in known and action not in stand_for:
            return (f"card action {action} ({catalogue.describe(action)}) decodes to listed "
                    f"move {decoded} but is not among the listed moves' actions")
    return None


def _mask_problem(encoding: Any, state: GameState, listed: Sequence[Move]) -> str | None:
    """Every seat's action mask: the actions of the listed moves for the seat on turn (none
    once the game is over), no action for a seat not on turn, which may not move."""
    legal = set(encoding.catalogue.legal_actions(state, listed))
    for seat in range(len(state.seats)):
        on_turn = seat == state.seat and state.outcome is None
        marked = {action for action, value in enumerate(encoding.mask(state, seat)) if value}
        expected = legal if on_turn else set()
        if marked != expected:
            wrong = sorted(marked - expected) or sorted(expected - marked)
            how = "marks" if marked - expected else "leaves out"
            whose = ("on turn" if on_turn else "not on turn" if state.outcome is None
                     else "the game is over")
            return (f"the environments' action mask of seat {seat} ({whose}) {how} "
                    f"{count_of(len(wrong), 'action')}, first {wrong[0]} "
                    f"({encoding.catalogue.describe(wrong[0])})")
    return None
