"""The basic game loop: one game dealt from a seed and played by bots to its end, with the
rule coverage it exercised when asked.

Every run of games (``simulate``, the studies, ``validate``, the bench scripts) plays its games
through :func:`play_game`; :class:`BotGame` is game ``g`` of a run as a pure function of ``g``
(see :mod:`spitemalice.runs.parallel`), so any backend may play the games in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from spitemalice.bots.base import check_players
from spitemalice.bots.players import Player, make_player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.coverage import Tally, recorder_for
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_list, seed_field
from spitemalice.model import GameResult, GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, book_field, check_book


def play_game(
    rules: RuleBook,
    players: Sequence[Player],
    seed: int,
    dealer: int | None = None,
    on_move: Callable[[GameState, Move], None] | None = None,
) -> GameResult:
    """Deal with ``seed`` and let ``players[seat]`` move for each seat until the game ends.

    Args:
        players: one player per seat.
        on_move: called with the state before each move and the move (for invariant checks).

    Raises:
        SpiteMaliceError: the number of players differs from the rule set's seats.
        TypeError: ``players`` is not a list (a bot's name as a str, say, or ``None``), or
            a member is not a player (a bot's name: the message names
            :func:`~spitemalice.bots.players.make_player`); refused before the deal.
    """
    check_book(rules, "play_game")
    check_list(players, "play_game", "players, a list of players, one per seat,",
               "[GreedyPlayer(1), RandomPlayer(2)]")
    check_players(players, "play_game")
    if len(players) != rules.players:
        raise SpiteMaliceError(f"{rules.players} seats need {rules.players} players, "
                               f"not {len(players)}")
    state = deal(rules, seed, dealer)
    first_seat = state.seat
    moves: list[Move] = []
    while state.outcome is None:
        options = legal_moves(rules, state)
        move = players[state.seat].choose(rules, state, options)
        if on_move is not None:
            on_move(state, move)
        state = apply_move(rules, state, move)
        moves.append(move)
    return GameResult(seed, first_seat, state, tuple(moves))


@attrs.frozen
class BotGame:
    """Game ``g`` of a simulation run, as a pure function of ``g`` (see
    :mod:`spitemalice.runs.parallel`): dealt from ``derive_seed(seed, "game", g)``, each seat's
    player of kind ``bots[seat]`` seeded with ``derive_seed(game_seed, "seat", seat)``.

    Raises:
        SpiteMaliceError: ``seed`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
    """

    rules: RuleBook = attrs.field(eq=False, validator=book_field())
    bots: tuple[str, ...]
    seed: int = attrs.field(validator=seed_field())

    def __call__(self, game: int) -> GameResult:
        return self.play(game)

    def play(self, game: int, on_move: Callable[[GameState, Move], None] | None = None
             ) -> GameResult:
        """Game ``game``, calling ``on_move`` before each move (see :func:`play_game`).

        Raises:
            SpiteMaliceError: ``game`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`.
        """
        check_int(game, "BotGame.play's game", 0)
        game_seed = derive_seed(self.seed, "game", game)
        players = [make_player(kind, derive_seed(game_seed, "seat", seat))
                   for seat, kind in enumerate(self.bots)]
        return play_game(self.rules, players, game_seed, on_move=on_move)


@attrs.frozen
class CoveredGame(BotGame):
    """:class:`BotGame` that also records the game's rule coverage
    (:class:`~spitemalice.engine.coverage.Recorder`): returns the result and the game's
    :class:`~spitemalice.engine.coverage.Tally`.
    """

    def __call__(self, game: int) -> tuple[GameResult, Tally]:  # type: ignore[override]
        return covered_game(self.rules, lambda on_move: BotGame.play(self, game, on_move))


def covered_game(rules: RuleBook,
                 play: Callable[[Callable[[GameState, Move], None]], GameResult]
                 ) -> tuple[GameResult, Tally]:
    """Run ``play(on_move)`` (one game, calling ``on_move`` before each move) while this
    process's recorder of ``rules`` counts its rule coverage; the result and the game's
    tally.
    """
    recorder = recorder_for(rules)
    with recorder:
        result = play(recorder.move)
        recorder.game()
    return result, recorder.take()
