"""Rule coverage: what the engine decided in a game, counted where it decides.

A clause of the rule sheet is exercised when a move it governs is played, a candidate move it
forbids is refused, or an event it defines happens (design notes §9).  A :class:`Recorder`
counts all three for the games played while it is on:

* **played**: for each move made, the keys of the checks :func:`~spitemalice.engine.check.
  decisions` passes in accepting it (``"wrong-rank"``, ``"pair-unequal"``, a forced-play
  filter's code when the filter narrowed the moves);
* **refused**: at each position, every candidate move the seat could name with the cards it
  sees, onto the piles it and its teammates have, and a pass, that the rules refuse, by the
  reason code the engine's own checks give (a forced-play filter's code for a move it takes
  away);
* **fired**: each event of :data:`spitemalice.rules.events.EVENTS`, counted by the engine
  where it happens (:func:`spitemalice.engine.flow.fire`).

Off (the default), the engine counts nothing and pays nothing per move: the events are
counted only where they happen, behind one test of ``EngineCache.fired``.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterator
from types import TracebackType

import attrs

from spitemalice.cards import Card
from spitemalice.errors import IllegalMove, SpiteMaliceError
from spitemalice.model import GameState, Seat, require_state
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone
from spitemalice.rules.book import RuleBook, check_book

from .check import _check_discard, _check_play, _refusing_filters, decisions
from .legal import PASS, base_moves, legal_moves


@attrs.define
class Tally:
    """The rule coverage of one or more games (add tallies with :meth:`add`).

    Attributes:
        games: games counted.
        played: the decision keys of a played move (a tuple, see
            :func:`~spitemalice.engine.check.decisions`) -> how many moves made.
        refused: a reason code -> candidate moves refused with it.
        fired: an event -> how many times it happened.
    """

    games: int = 0
    played: Counter[tuple[str, ...]] = attrs.Factory(Counter)
    refused: Counter[str] = attrs.Factory(Counter)
    fired: Counter[str] = attrs.Factory(Counter)

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts to this tally."""
        self.games += other.games
        self.played.update(other.played)
        self.refused.update(other.refused)
        self.fired.update(other.fired)


class Recorder:
    """Counts the rule coverage of the games of ``rules`` played while it is on.

    Use it as a context manager around the games and call :meth:`move` before each move (the
    ``on_move`` of :func:`~spitemalice.runs.loop.play_game`) and :meth:`game` after each
    game::

        with Recorder(rules) as recorder:
            play_game(rules, players, seed, on_move=recorder.move)
            recorder.game()
        recorder.tally

    Raises:
        SpiteMaliceError: another recorder is already on for ``rules`` (on entering).
    """

    def __init__(self, rules: RuleBook) -> None:
        check_book(rules, "Recorder")
        self.rules = rules
        self.tally = Tally()
        # (build-pile ranks, whether a pile may open) -> (rank, source allowed) -> refusals
        self._shapes: dict[tuple[tuple[int, ...], bool],
                           dict[tuple[int, bool], tuple[tuple[str, int], ...]]] = {}
        self._targets: dict[tuple[int, bool, int, bool, bool], str | None] = {}
        self._discards: dict[tuple[int, int], str | None] = {}

    def __enter__(self) -> Recorder:
        cache = self.rules.engine_cache
        if cache.fired is not None:
            raise SpiteMaliceError("rule coverage is already being recorded for this rule "
                                   "book; one recorder at a time")
        cache.fired = self.tally.fired
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.rules.engine_cache.fired = None

    def game(self) -> None:
        """One more game counted (call it when a game has ended)."""
        self.tally.games += 1

    def take(self) -> Tally:
        """The tally so far; counting goes on into a fresh one (so each game of a run can
        carry its own, whichever process plays it).  The engine's answers learnt so far are
        kept."""
        taken, self.tally = self.tally, Tally()
        if self.rules.engine_cache.fired is taken.fired:
            self.rules.engine_cache.fired = self.tally.fired
        return taken

    def move(self, state: GameState, move: Move) -> None:
        """Count the position ``state`` before ``move`` is made from it: the move's decisions
        and the candidate moves refused there.
        """
        require_state(state, "Recorder.move")
        rules = self.rules
        self.tally.played[decisions(rules, state, move, state.seat)] += 1
        refused = self.tally.refused
        if legal_moves(rules, state) != (PASS,):  # a pass is a candidate too
            refused["pass-not-allowed"] += 1
        if rules.filter_moves_hooks:
            for answer in _refusing_filters(rules, state, base_moves(rules, state)).values():
                refused[answer.reason] += 1
        self._plays_refused(state, refused)
        self._discards_refused(state, refused)

    # -- plays -------------------------------------------------------------------------

    def _plays_refused(self, state: GameState, refused: Counter[str]) -> None:
        """Every visible card (hand, pay-off and discard-pile tops of the seat and its
        teammates) onto every open build pile and a new one: the refusals, counted."""
        rules = self.rules
        tops = state.build_tops
        can_open = not rules.build_limit or len(tops) < rules.build_limit
        shapes = self._shapes
        shape = shapes.get((tops, can_open))
        if shape is None:
            if len(shapes) > _SHAPES_MOST:
                shapes.clear()
            shape = shapes[tops, can_open] = {}
        play_from = rules.teams.access.play_from[state.seat]
        for zone, index, owner, card in _sources(rules, state):
            allowed = owner is None or owner in play_from
            reasons = shape.get((card.rank, allowed))
            if reasons is None:
                reasons = shape[card.rank, allowed] = self._play_reasons(
                    state, Play(zone, card, NEW_PILE, index, owner), allowed, can_open)
            for reason, count in reasons:
                refused[reason] += count

    def _play_reasons(self, state: GameState, play: Play, allowed: bool,
                      can_open: bool) -> tuple[tuple[str, int], ...]:
        """How the engine's play checks answer ``play``'s card from its place onto each open
        pile and a new one: (reason code, piles refused with it).  For a card the seat sees,
        only its rank, whether its pile is one the seat may play from, the rank the target
        pile needs and whether a pile may open enter these checks (the filters are counted
        apart), so each answer is asked of the engine once and kept."""
        counts: Counter[str] = Counter()
        known = self._targets
        for target, need in (*enumerate(top + 1 for top in state.build_tops), (NEW_PILE, 1)):
            key = (play.card.rank, allowed, need, target == NEW_PILE, can_open)
            if key not in known:
                try:
                    _check_play(self.rules, state, attrs.evolve(play, pile=target))
                except IllegalMove as error:
                    known[key] = error.reason
                else:
                    known[key] = None
            reason = known[key]
            if reason is not None:
                counts[reason] += 1
        return tuple(counts.items())

    # -- discards ----------------------------------------------------------------------

    def _discards_refused(self, state: GameState, refused: Counter[str]) -> None:
        """Every hand card, and every two hand cards of equal rank, onto every discard pile of
        the seat and of its teammates: the refusals, counted."""
        rules = self.rules
        mover = state.seat
        seat = state.seats[mover]
        piles = rules.discard.piles
        mates = [m for m in rules.teams.teams[rules.teams.team_of(mover)] if m != mover]
        shared = rules.teams.access.discard_to[mover]
        onto = piles * (1 + sum(mate in shared for mate in mates))
        denied = piles * sum(mate not in shared for mate in mates)  # kept to their owners
        for cards in _discard_candidates(seat):
            reason = self._discard_reason(state, seat, cards)
            if reason is not None:  # refused before the pile's owner is asked about
                refused[reason] += onto + denied
            elif denied:
                refused["not-own-discard-pile"] += denied

    def _discard_reason(self, state: GameState, seat: Seat,
                        cards: tuple[Card, ...]) -> str | None:
        """The engine's refusal of discarding ``cards`` (one card, or two of equal rank, all
        held) onto the seat's own first pile; only the rank and the count enter it."""
        key = (cards[0].rank, len(cards))
        if key not in self._discards:
            try:
                _check_discard(self.rules, state.seat, seat, Discard(cards, 0))
            except IllegalMove as error:
                self._discards[key] = error.reason
            else:
                self._discards[key] = None
        return self._discards[key]


_RECORDERS: weakref.WeakKeyDictionary[RuleBook, Recorder] = weakref.WeakKeyDictionary()


def recorder_for(rules: RuleBook) -> Recorder:
    """This process's :class:`Recorder` of ``rules``, made on first use and kept while the rule
    book lives, so that each game of a run starts with the engine's answers already learnt
    (take each game's counts with :meth:`Recorder.take`).
    """
    recorder = _RECORDERS.get(rules)
    if recorder is None:
        recorder = _RECORDERS[rules] = Recorder(rules)
    return recorder


_SHAPES_MOST = 4096  # build-pile shapes remembered before all are dropped (bounds memory)


def _sources(rules: RuleBook, state: GameState) -> Iterator[tuple[Zone, int, int | None, Card]]:
    """(zone, pile index, owner, card) of each card the seat on turn sees and could name: its
    distinct hand cards, its pay-off and discard-pile tops, and its teammates' tops (owner
    ``None`` for its own)."""
    mover = state.seat
    seat = state.seats[mover]
    for card in dict.fromkeys(seat.hand):
        yield Zone.HAND, 0, None, card
    team = rules.teams.teams[rules.teams.team_of(mover)]
    for owner in (None, *(m for m in team if m != mover)):
        piles = seat if owner is None else state.seats[owner]
        for zone, stacks in ((Zone.PAYOFF, piles.payoff), (Zone.DISCARD, piles.discards)):
            for index, pile in enumerate(stacks):
                if pile:
                    yield zone, index, owner, pile[-1]


def _discard_candidates(seat: Seat) -> Iterator[tuple[Card, ...]]:
    """Each distinct hand card alone, and each two hand cards of equal rank (by place)."""
    hand = seat.hand
    for card in dict.fromkeys(hand):
        yield (card,)
    for i, first in enumerate(hand):
        for second in hand[i + 1 :]:
            if second.rank != first.rank:
                break  # the hand is sorted: equal ranks adjoin
            yield first, second

