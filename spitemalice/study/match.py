"""A match: games played until a seat reaches the target score, the deal rotating."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from spitemalice.bots.base import check_players
from spitemalice.bots.players import Player
from spitemalice.engine.shuffle import derive_seed, rng_for
from spitemalice.guards import check_int, check_list, check_seed, int_field
from spitemalice.limits import MAX_MATCH_GAMES
from spitemalice.model import GameResult
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.runs.loop import play_game


@attrs.frozen
class MatchResult:
    """A finished match.

    Attributes:
        games: every game in order.
        dealers: the dealing seat of each game.
        totals: points per seat over the match.
        winner: the first seat to reach the target (the highest total wins if several reach
            it in the same game); ``None`` if ``max_games`` ran out first.
    """

    games: tuple[GameResult, ...]
    dealers: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int | None = attrs.field(validator=int_field())


def play_match(
    rules: RuleBook,
    players: Sequence[Player],
    seed: int,
    target: int | None = None,
    max_games: int = 200,
) -> MatchResult:
    """Play games until a seat's total reaches ``target`` (default: the rule set's
    ``match_target``).  A seeded cut picks the first dealer; the deal then passes to the next
    seat each game (blackwood-frey BF-11).  Game ``g`` is dealt from a seed derived from
    ``seed`` and ``g``.

    Raises:
        SpiteMaliceError: a target below 1 (or past :data:`~spitemalice.limits.MAX_INT`),
            ``max_games`` not 1 to :data:`~spitemalice.limits.MAX_MATCH_GAMES` (a match
            keeps every game it played), a seed not 0 to
            :data:`~spitemalice.limits.MAX_SEED`, or a player count that does not fit the
            seats.
        TypeError: ``players`` is not a list (a bot's name as a str, say, or ``None``), or
            a member is not a player (a bot's name: the message names
            :func:`~spitemalice.bots.players.make_player`); refused before any game.
    """
    check_book(rules, "play_match")
    check_list(players, "play_match", "players, a list of players, one per seat,",
               "[GreedyPlayer(1), RandomPlayer(2)]")
    check_players(players, "play_match")
    seed = check_seed(seed)
    goal = rules.ruleset.match_target if target is None else check_int(
        target, "a match target (points)", 1)
    max_games = check_int(max_games, "max_games", 1, MAX_MATCH_GAMES,
                          constant="spitemalice.limits.MAX_MATCH_GAMES")
    dealer = rng_for(seed, 0, "match-cut").randrange(rules.players)
    totals = [0] * rules.players
    games: list[GameResult] = []
    dealers: list[int] = []
    for number in range(max_games):
        result = play_game(rules, players, derive_seed(seed, "match-game", number), dealer)
        games.append(result)
        dealers.append(dealer)
        assert result.final.outcome is not None
        totals = [t + s for t, s in zip(totals, result.final.outcome.scores, strict=True)]
        if max(totals) >= goal:
            winner = max(range(len(totals)), key=lambda seat: totals[seat])
            return MatchResult(tuple(games), tuple(dealers), tuple(totals), winner)
        dealer = (dealer + 1) % rules.players
    return MatchResult(tuple(games), tuple(dealers), tuple(totals), None)
