"""What a bot is, and how a table asks one for its move.

Two interfaces, each with one job:

* :class:`Player`, ``choose(rules, state, moves)``: the game loop's.  The loops that hold the
  whole state (:func:`~spitemalice.runs.loop.play_game`, the environments, the checked
  games of ``validate``, a search bot's play-outs) call it.
* :class:`~spitemalice.engine.views.ViewPlayer`, ``choose_from_view(rules, view, moves)``:
  the one way to write a bot that decides from its seat's view.  Every built-in bot is one,
  and a Player too (its ``choose`` passes on ``view_of(state, state.seat)``).

A table holds a seat's view, not the state it came from: the terminal game and the play
server (:class:`~spitemalice.play.session.Session`) and the remote bot
(``spitemalice bot --connect``) ask a bot through :func:`move_from_view`.

:class:`SearchPlayer` is the base of the search bots (``mcts``, ``ismcts``): it owns their
seed, their budget, ``choose_from_view`` with its argument checks and the shortcuts both take
(a single legal move, a playable pay-off card); a search bot defines only its search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

from spitemalice.engine.configuration import check_configuration
from spitemalice.engine.views import SeatView, ViewPlayer, require_view, stand_in_state, view_of
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_moves, check_seed
from spitemalice.limits import MAX_PLAYOUTS, MAX_SECONDS
from spitemalice.model import GameState, require_state
from spitemalice.moves import Move, Play, Zone
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import clipped, for_terminal, given_text, printable, shown


class Player(Protocol):
    """Anything that picks one of the legal moves of a whole state.

    ``moves`` is the non-empty tuple from :func:`~spitemalice.engine.legal_moves`.  The
    built-in players keep their own seeded ``random.Random``; none reads Python's global
    random state.
    """

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move: ...


_PLAYER = "a player (an object with a method choose(rules, state, moves))"


def check_players(players: Sequence[object], function: str) -> None:
    """Refuse, before any game state is made, a member of ``players`` (a list, checked
    already) that is not a player: a bot's name reached ``players[seat].choose`` mid-game as
    a raw ``AttributeError``.

    Raises:
        TypeError: naming ``function``, the seat and the value given, and for a bot's name
            :func:`~spitemalice.bots.players.make_player` (:func:`not_a_player`).
    """
    for seat, player in enumerate(players):
        if isinstance(player, type) or not callable(getattr(player, "choose", None)):
            raise not_a_player(player, function, "players", f"players[{seat}]")


def not_a_player(given: object, function: str, parameter: str, where: str = "",
                 error: Callable[[str], Exception] = TypeError) -> Exception:
    """The error for ``function`` given, for its ``parameter`` (at ``where``, a member of it:
    ``"players[0]"``), something that is not a player: for a str (a bot's name) it names
    :func:`~spitemalice.bots.players.make_player`, for a player class the call that makes
    one.  A ``TypeError`` unless ``error`` says otherwise (``IsmctsPlayer``'s policy is a
    ``SpiteMaliceError``, as its other arguments are)."""
    takes = (f"players, each {_PLAYER}" if parameter == "players"
             else f"{parameter}, {_PLAYER}")
    at = f" at {where}" if where else ""
    if isinstance(given, str):
        name = shown(given)
        call = name if printable(given) else "name"
        what = (f"the str {name}{at}: a bot's name; make its player with "
                f"spitemalice.bots.make_player({call}, seed)")
    elif isinstance(given, type):
        name = for_terminal(clipped(given.__name__, 60))
        what = f"the class {name}{at}: make one, {name}(seed)"
    else:
        what = given_text(given) + at
    return error(f"{function} takes {takes}, not {what}")


def move_from_view(player: Player, rules: RuleBook, view: SeatView,
                   moves: Sequence[Move]) -> Move:
    """The move ``player`` makes for the seat on turn of ``view`` (``moves``: its legal
    moves), decided from that view alone: how a table asks a bot.

    A :class:`~spitemalice.engine.views.ViewPlayer` (every built-in bot) is asked
    ``choose_from_view(rules, view, moves)``.  Any other player reads a whole state, so it is
    handed :func:`~spitemalice.engine.views.stand_in_state` of the view: every card the seat
    cannot see is a stand-in no rule accepts, so nothing it reads is hidden from the seat.

    Raises:
        TypeError: ``player`` is not a player (a bot's name, say: the message names
            :func:`~spitemalice.bots.players.make_player`), ``rules`` is not a
            :class:`~spitemalice.rules.book.RuleBook`, or ``view`` not a
            :class:`~spitemalice.engine.views.SeatView` (a whole state, say: the message
            names what takes one).
    """
    if not isinstance(player, ViewPlayer) and (
            isinstance(player, type) or not callable(getattr(player, "choose", None))):
        raise not_a_player(player, "move_from_view", "player")
    check_book(rules, "move_from_view")
    require_view(view, "move_from_view", "a whole state's player is asked "
                 "player.choose(rules, state, moves)")
    if isinstance(player, ViewPlayer):
        return player.choose_from_view(rules, view, moves)
    return player.choose(rules, stand_in_state(view), moves)


def check_budget(bot: str, playouts: int, seconds: float | None) -> None:
    """Refuse a search budget out of range: ``playouts`` a whole number from 1 to
    :data:`~spitemalice.limits.MAX_PLAYOUTS`, ``seconds`` ``None`` or more than 0 and at most
    :data:`~spitemalice.limits.MAX_SECONDS`.

    Raises:
        SpiteMaliceError: (a ``ValueError``) naming ``bot`` and the bound.
    """
    check_int(playouts, f"playouts (the {bot} budget per decision)", 1, MAX_PLAYOUTS,
              constant="spitemalice.limits.MAX_PLAYOUTS")
    if seconds is not None and not (isinstance(seconds, int | float)
                                    and not isinstance(seconds, bool)
                                    and 0 < seconds <= MAX_SECONDS):
        article = "an" if bot[:1] in "aeiou" else "a"
        raise SpiteMaliceError(f"{article} {bot} time budget is more than 0 and at most "
                               f"{MAX_SECONDS:g} seconds (spitemalice.limits.MAX_SECONDS), "
                               f"not {shown(seconds)}")


class SearchPlayer(ViewPlayer):
    """The base of the search bots: a :class:`~spitemalice.engine.views.ViewPlayer` that
    searches when the decision is not plain.

    It checks the arguments of :meth:`choose_from_view` and of :meth:`choose` (once, at
    either door: the search's steps trust them), shows the bot the view (``_see``, before
    anything else: what the bot takes in from every view), plays the only legal move or a
    playable pay-off card (the win condition) without a search, and otherwise returns the
    bot's ``_search(rules, view, moves)``.

    Args:
        seed: seeds the bot's own generator, 0 to :data:`~spitemalice.limits.MAX_SEED`.
        playouts: play-outs per decision, 1 to :data:`~spitemalice.limits.MAX_PLAYOUTS`.
        seconds: a CPU-time budget per decision instead (not reproducible across machines),
            more than 0 and at most :data:`~spitemalice.limits.MAX_SECONDS`.

    Raises:
        SpiteMaliceError: (a ``ValueError``) a seed, ``playouts`` or ``seconds`` out of
            range; the message names the bot (:attr:`kind`) and the bound.
    """

    kind: ClassVar[str] = "search"
    """The bot's name in messages (its name in the registry of bots)."""

    def __init__(self, seed: int, playouts: int, seconds: float | None) -> None:
        check_budget(self.kind, playouts, seconds)
        self.rng = random.Random(check_seed(seed))
        self.playouts, self.seconds = playouts, seconds

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        """The searched move for the seat on turn of ``state``, decided from its view alone:
        :meth:`choose_from_view` of ``view_of(state, state.seat)``, the arguments checked
        once here.

        Raises:
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or
                ``state`` not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
            PositionError: ``state`` is a state of another configuration (another seat
                count, pile counts, a card the deck does not hold), named
                (:func:`~spitemalice.engine.configuration.check_configuration`).
        """
        check_book(rules, "SearchPlayer.choose")
        if type(state) is not GameState:
            require_state(state, "SearchPlayer.choose",
                          "choose from a view with choose_from_view(rules, view, moves)")
        check_configuration(rules, state, "SearchPlayer.choose")
        return self._decide(rules, view_of(state, state.seat), moves)

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The searched move for the seat on turn of ``view`` among its legal ``moves``.

        Raises:
            TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole
                state, say: the message names what takes one).
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
            SpiteMaliceError: (a ``ValueError``) ``moves`` is empty.
        """
        check_book(rules, "SearchPlayer.choose_from_view")
        require_view(view, "SearchPlayer.choose_from_view",
                     "choose from a whole state with ViewPlayer.choose(rules, state, moves)")
        return self._decide(rules, view, moves)

    def _decide(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """:meth:`choose_from_view`, the rule book and the view checked already."""
        check_moves(moves)
        self._see(rules, view)
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if isinstance(move, Play) and move.zone is Zone.PAYOFF:
                return move
        return self._search(rules, view, moves)

    def _see(self, rules: RuleBook, view: SeatView) -> None:
        """Take in ``view`` before any shortcut (what a bot learns from every view it is
        shown, searched or not); nothing here."""

    def _search(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The search: the move for ``view`` among ``moves`` (checked: at least two, no
        playable pay-off card among them).  Each search bot defines it."""
        raise NotImplementedError(f"{type(self).__name__} defines no search")
