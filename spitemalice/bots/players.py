"""The quick bots (``random`` and ``greedy``), and the one registry of every bot's name.

Every built-in bot is a :class:`~spitemalice.engine.views.ViewPlayer` (it decides from its
seat's view) and a :class:`~spitemalice.bots.base.Player` (``choose(rules, state, moves)``,
where ``moves`` is the non-empty tuple from :func:`~spitemalice.engine.legal_moves`).  Players
keep their own seeded ``random.Random``; none of them reads Python's global random state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points
from itertools import compress, repeat
from typing import cast

from spitemalice.bots.base import Player
from spitemalice.bots.heuristic import HeuristicPlayer
from spitemalice.bots.inference import pile_tops, reach
from spitemalice.bots.ismcts import IsmctsPlayer
from spitemalice.bots.mcts import MctsPlayer
from spitemalice.engine.legal import foreign
from spitemalice.engine.views import SeatView, ViewPlayer, require_view, stand_in_state
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_moves, check_seed
from spitemalice.model import GameState, require_state
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import closest
from spitemalice.wording import shown


class RandomPlayer(ViewPlayer):
    """Picks a legal move uniformly at random from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(check_seed(seed))

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        """A move of ``moves`` picked at random (reads neither ``rules`` nor ``state``).

        Raises:
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
        """
        return self._pick(moves)

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """A move of ``moves`` picked at random (reads neither ``rules`` nor ``view``).

        Raises:
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
        """
        return self._pick(moves)

    def _pick(self, moves: Sequence[Move]) -> Move:
        count = len(moves)
        if not count:
            check_moves(moves)
        # What randrange(count) returns for a count > 0, without its argument checks: the
        # same draws from the same generator (tests/engine/test_global_random.py holds them equal).
        return moves[self.rng._randbelow(count)]  # type: ignore[attr-defined]


class GreedyPlayer(ViewPlayer):
    """Plays its pay-off card whenever it can reach it, otherwise keeps building.

    Order of preference: a pay-off play; the first play of a run of hand and discard-pile
    cards that reaches the pay-off top this turn; a natural card from a discard pile, then from
    the hand, that does not hand the next seat its pay-off rank; a sensible discard (high
    cards, a pair of them where pairs may be discarded, on equal or one-higher tops, never a
    wild card if another will do); else the first listed move.  Every move the rules list is
    a candidate: plays whatever pile they come from (a partner's too), discards of one card or
    more onto any pile the seat may use.

    It reads only what the seat on turn sees: the pay-off tops, its own hand, the discard
    piles and the build piles.  :meth:`choose` reads them from the whole state, making no view
    (the game loop and the ``ismcts`` bot's play-outs call it on every move);
    :meth:`choose_from_view` reads them from the view's
    :func:`~spitemalice.engine.views.stand_in_state`, which shows every one of them as the
    state does, so both choose the same move.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(check_seed(seed))

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        """The greedy move among ``moves`` (the legal moves of ``state``).

        Raises:
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook` (told once
                reading it fails: a pay-off play or a pass is chosen without reading it), or
                ``state`` not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
            PositionError: ``state`` has another seat count than ``rules`` (a length
                compare), or reading it failed, and it is a state of another configuration.
                A state of another deck with the rule book's seats is not looked into here:
                its ``moves`` came from :func:`~spitemalice.engine.legal.legal_moves`,
                which refuses it.
        """
        if type(state) is not GameState:
            check_book(rules, "GreedyPlayer.choose")
            require_state(state, "GreedyPlayer.choose",
                          "choose from a view with GreedyPlayer.choose_from_view(rules, view, "
                          "moves)")
        # The body runs here, not in a helper: this is the hottest path of the bench's
        # play-outs and of the ismcts bot's (bench/bench.py holds it to its former speed).
        try:
            if len(state.seats) != rules.ruleset.players:  # fewer seats would choose silently
                raise foreign(rules, state, "GreedyPlayer.choose")
            # The plays, then the discards, picked in C (isinstance mapped over the moves).
            plays = cast(list[Play], list(compress(moves, map(isinstance, moves, repeat(Play)))))
            payoff = Zone.PAYOFF  # looked up once, not per play
            for move in plays:
                if move.zone is payoff:
                    return move
            if plays:
                ranks = state.build_tops
                tops = pile_tops(rules, ranks)
                chosen = (_toward_payoff(rules, state, plays, tops)
                          or _build(rules, state, plays, ranks))
                if chosen is not None:
                    return chosen
            discards = cast(list[Discard],
                            list(compress(moves, map(isinstance, moves, repeat(Discard)))))
            if discards:
                return _best_discard(rules, state, discards)
            check_moves(moves)
            return moves[0]
        except (AttributeError, TypeError):  # a wrong rule book, checked once it failed
            check_book(rules, "GreedyPlayer.choose")
            raise
        except (IndexError, KeyError):  # read only once it failed: another configuration?
            raise foreign(rules, state, "GreedyPlayer.choose") from None

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The greedy move for the seat on turn of ``view`` among ``moves`` (its legal moves):
        the one :meth:`choose` picks from the state the view was taken of (it picks it from
        the view's stand-in state: a table's pace, not a play-out's).

        Raises:
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
                ``view`` not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
                say: the message names what takes one).
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
        """
        check_book(rules, "GreedyPlayer.choose_from_view")
        require_view(view, "GreedyPlayer.choose_from_view",
                     "choose from a whole state with GreedyPlayer.choose(rules, state, moves)")
        return self.choose(rules, stand_in_state(view), moves)


def _toward_payoff(rules: RuleBook, state: GameState, plays: list[Play],
                   tops: list[tuple[int, int]]) -> Play | None:
    """The first play of a run that would bring a build pile up to a pay-off top: for each
    pay-off top in turn, the first pile (in :func:`~spitemalice.bots.inference.pile_tops`'
    order) whose missing ranks up to it the hand and discard-pile tops cover, wild cards
    standing in where they may (:func:`~spitemalice.bots.inference.reach`).  Where the rules
    let the seat play from partners' piles (PT-2), their pay-off tops are goals too (after its
    own) and their discard-pile tops steps."""
    seats = state.seats
    seat = seats[state.seat]
    wild = rules.wild.wild_ranks
    goals = [pile[-1].rank for pile in seat.payoff if pile and pile[-1].rank not in wild]
    partners = rules.teams.access.play_from[state.seat]
    for owner in partners:
        goals += [pile[-1].rank for pile in seats[owner].payoff
                  if pile and pile[-1].rank not in wild]
    if not goals:
        return None
    reachable = [card.rank for card in seat.hand]
    reachable += [pile[-1].rank for pile in seat.discards if pile]
    for owner in partners:
        reachable += [pile[-1].rank for pile in seats[owner].discards if pile]
    found = reach(rules, goals, tops, reachable)
    return None if found is None else _first_play(rules, plays, found[0], found[1] + 1)


def _first_play(rules: RuleBook, plays: list[Play], pile: int, rank: int) -> Play | None:
    """Onto ``pile``, not from the pay-off pile: the first natural ``rank`` card from a
    discard pile, else the first natural one from anywhere, else the first play at all."""
    onto = [m for m in plays if m.pile == pile and m.zone is not Zone.PAYOFF]
    natural = [m for m in onto if m.card.rank == rank and not rules.wild.is_wild(m.card)]
    for move in natural:
        if move.zone is Zone.DISCARD:
            return move
    ranked = natural or onto
    return ranked[0] if ranked else None


def _build(rules: RuleBook, state: GameState, plays: list[Play],
           ranks: tuple[int, ...]) -> Play | None:
    """A natural play that does not set up the next seat's pay-off card: the first of lowest
    (not from a discard pile, rank) among those, as a stable sort would put first."""
    next_seat = state.seats[(state.seat + 1) % len(state.seats)]
    danger = {pile[-1].rank - 1 for pile in next_seat.payoff if pile}
    wild = rules.wild.wild_ranks
    best, best_key = None, (True, 0)
    for move in plays:
        pile = move.pile  # the rank a card played there stands for: next on the pile's top
        if move.card.rank in wild or (1 if pile == NEW_PILE else ranks[pile] + 1) in danger:
            continue
        key = (move.zone is not Zone.DISCARD, move.card.rank)
        if best is None or key < best_key:
            best, best_key = move, key
    return best


def _best_discard(rules: RuleBook, state: GameState, discards: list[Discard]) -> Discard:
    """The first discard of highest score (what ``max`` picks), pile tops looked up once.

    A discard scores its card's rank (high cards are far from play; a wild card 100 less),
    10 more onto an empty pile, 20 more onto a top of equal or one higher rank (a descending
    run).  Every further card of a pair discard (PD-1) adds its own rank, unless wild: two
    cards leave the hand, so two fresh ones are drawn.  A discard onto a partner's pile
    (PT-3, partners sharing discard piles) is scored by that pile's top.
    """
    wild = rules.wild.wild_ranks
    seats = state.seats
    tops = [pile[-1].rank if pile else None for pile in seats[state.seat].discards]
    others: dict[int, list[int | None]] = {}
    best, best_score = discards[0], -(10**9)
    for move in discards:
        cards = move.cards
        rank = cards[0].rank
        if move.owner is None:
            top = tops[move.pile]
        else:
            theirs = others.get(move.owner)
            if theirs is None:
                theirs = others[move.owner] = [pile[-1].rank if pile else None
                                               for pile in seats[move.owner].discards]
            top = theirs[move.pile]
        score = rank - 100 if rank in wild else rank
        if top is None:
            score += 10
        elif top == rank or top == rank + 1:
            score += 20
        if len(cards) > 1:
            score += sum(card.rank - 100 if card.rank in wild else card.rank
                         for card in cards[1:])
        if score > best_score:
            best, best_score = move, score
    return best


def _ismcts(seed: int) -> Player:
    return IsmctsPlayer(seed, policy=GreedyPlayer(seed))


PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer, "greedy": GreedyPlayer, "heuristic": HeuristicPlayer,
    "mcts": MctsPlayer, "ismcts": _ismcts,
}
"""The one registry of bot names, weakest first: kind -> a factory taking the player's seed.
``heuristic``, ``mcts`` and ``ismcts`` live in their own modules of
:mod:`spitemalice.bots`, which never import this one (so the registry imports them at its
start).  After them come the bots plugins install under the entry-point group
:data:`GROUP` (:class:`PluginPlayer`), spitemalice's own ``learned`` among them
(:class:`~spitemalice.env.learned.LearnedPlayer`, the network ``bench/train.py`` trained, which
needs the ``rl`` extra and plays only the rule set it was trained for: :func:`check_player`).
A kind added at run time may be any :class:`~spitemalice.bots.base.Player`; a table hands one
that is not a :class:`~spitemalice.engine.views.ViewPlayer` a stand-in state
(:func:`~spitemalice.bots.base.move_from_view`)."""

GROUP = "spitemalice.players"
"""The entry-point group of bot plugins: ``name = "package.module:Factory"``, the factory
taking a seed as :data:`PLAYERS`' do (spitemalice's own: ``learned``)."""


class PluginPlayer:
    """The factory :data:`PLAYERS` holds for a bot plugin (an entry point of :data:`GROUP`):
    its module is imported when the first bot is made, not before (so a plugin's heavy
    dependencies cost nothing until it plays).

    Args:
        entry: the entry point, ``name = "module:Factory"``.
    """

    def __init__(self, entry: EntryPoint) -> None:
        self.entry = entry

    def __call__(self, seed: int) -> Player:
        """The plugin's bot seeded with ``seed``.

        Raises:
            SpiteMaliceError: the plugin's module cannot be imported (an extra it needs is
                missing, say), naming the bot and the reason.
        """
        try:
            factory = self.entry.load()
        except (ImportError, SpiteMaliceError) as error:
            raise SpiteMaliceError(f"the {self.entry.name} bot ({self.entry.value}) cannot be "
                                   f"loaded: {error}") from None
        return cast(Player, factory(seed))


for _entry in sorted(entry_points(group=GROUP), key=lambda found: found.name):
    PLAYERS.setdefault(_entry.name, PluginPlayer(_entry))


STRONGEST = "mcts"
"""The strongest bot of :data:`PLAYERS`, named once: what a hint at a table plays
(:meth:`spitemalice.play.session.Session.hint`).  Change it here when a stronger bot joins the
registry (the ladder in ``docs/studying.md`` measures them)."""


def check_player(kind: str, rules: RuleBook) -> None:
    """Refuse, before any game is played, a bot ``kind`` that is unknown or cannot play
    ``rules``: one is made (:func:`make_player`, seed 0) and, if it has a
    ``check_rules(rules)`` method (the ``learned`` bot: one rule set, seat count and no house
    rules), that is called.  The runner, ``play``, ``serve`` and ``simulate`` check their
    bots with it.

    Raises:
        SpiteMaliceError: an unknown kind (the message lists the known ones), an extra the
            bot needs and lacks (naming it), or rules it cannot play (naming those it can).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "check_player")
    player = make_player(kind, 0)
    check_rules = getattr(player, "check_rules", None)
    if callable(check_rules):
        check_rules(rules)


def make_player(kind: str, seed: int) -> Player:
    """A player of ``kind`` (a name of :data:`PLAYERS`) seeded with ``seed``.

    Raises:
        SpiteMaliceError: an unknown kind (the message lists the known ones), or a seed
            that is not a whole number from 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    check_seed(seed)
    try:
        return PLAYERS[kind](seed)
    except KeyError:
        hint = closest(kind, PLAYERS) if isinstance(kind, str) else ""
        raise SpiteMaliceError(
            f"unknown player {shown(kind)}{hint}; choose from {', '.join(sorted(PLAYERS))}"
        ) from None
