"""What the search bots cost: CPU per decision, and a whole 1,000-game study.

    python bench/bench.py --search 20        per-decision CPU of heuristic, mcts and ismcts
    python bench/bench.py --study 500        the tournament ismcts v heuristic on 500 deals
    python bench/bench.py --pairing 40       the spread the ismcts root's pairing takes out

* ``--search GAMES``: each bot plays ``GAMES`` games of blackwood-frey (2 seats) against
  ``heuristic``, in each seat in turn; the CPU time (``time.process_time``) of every one of its
  decisions is summed, searched or not, and reported per decision and per game.
* ``--duel SECONDS[,MCTS_SECONDS] DEALS``: ``ismcts`` against ``mcts``, ismcts given
  ``SECONDS`` of CPU time per searched decision and mcts ``MCTS_SECONDS`` (default the same),
  on ``DEALS`` deals, each played twice with the seats swapped; prints ismcts's share of the
  won games with its Wilson 95% interval and each bot's measured CPU per decision (every
  decision, searched or not).  Equal budgets per searched decision do not give equal CPU per
  decision: ismcts answers more decisions without a search and mcts overruns its budget by a
  batch of play-outs, so a fair duel gives ismcts the larger budget, chosen so that the
  printed CPU per decision comes out about equal.
* ``--pairing POSITIONS``: how much spread the ismcts root's pairing takes out.  Positions
  with more than two legal moves and no playable pay-off card are taken from heuristic games
  of blackwood-frey (2 seats); at each, the heuristic's first move and its next three are
  played out (ismcts's play-out: ``greedy`` for every seat, to the end of the seat's next
  turn, its reward) on 40 determinizations of the seat's view, every move on each.  For each
  other move, the standard deviation of its reward minus the first move's, paired on the same
  determinization, is set against that of two independent rewards, ``sqrt(sd_a**2 +
  sd_b**2)``; prints the median of the ratio and the share of pairs whose rewards differ.
* ``--study DEALS``: ``spitemalice tournament blackwood-frey --bots heuristic,ismcts --games
  DEALS --jobs 1`` in a child process (``DEALS`` deals, each played once per seat: 2 * DEALS
  games); its CPU time is the child's, from ``getrusage``.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import spitemalice as sm
from spitemalice.bots.players import Player, make_player
from spitemalice.engine.shuffle import derive_seed
from spitemalice.model import GameState
from spitemalice.runs.loop import play_game
from spitemalice.wording import count_of

sys.path.insert(0, str(Path(__file__).parent))
from bounds import SEARCH_GAMES, run_child


class Timed:
    """A player that adds up the CPU time of its decisions."""

    def __init__(self, player: Player) -> None:
        self.player, self.seconds, self.decisions = player, 0.0, 0

    def choose(self, rules: sm.RuleBook, state: GameState,
               moves: Sequence[sm.Move]) -> sm.Move:
        start = time.process_time()
        move = self.player.choose(rules, state, moves)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return move


def per_decision(bot: str, games: int, seed: int) -> tuple[float, float, float]:
    """(CPU ms per decision, decisions per game, share of games won) of ``bot`` against
    ``heuristic`` on blackwood-frey, 2 seats."""
    rules = sm.load("blackwood-frey")
    seconds = decisions = wins = 0.0
    for game in range(games):
        seat = game % 2
        game_seed = derive_seed(seed, "game", game // 2)
        timed = Timed(make_player(bot, derive_seed(game_seed, "seat", seat)))
        players: list[Player] = [make_player("heuristic", derive_seed(game_seed, "seat", 1 - s))
                                 for s in range(2)]
        players[seat] = timed
        result = play_game(rules, players, game_seed)
        seconds += timed.seconds
        decisions += timed.decisions
        wins += result.final.outcome is not None and result.final.outcome.winner == seat
    return 1000 * seconds / decisions, decisions / games, wins / games


def search_table(games: int, seed: int) -> None:
    print("| bot (against heuristic) | CPU ms per decision | decisions per game | "
          "CPU s per game | won |")
    print("|---|---:|---:|---:|---:|")
    for bot in ("heuristic", "mcts", "ismcts"):
        ms, per_game, won = per_decision(bot, games, seed)
        print(f"| {bot} | {ms:.2f} | {per_game:.0f} | {ms * per_game / 1000:.2f} | "
              f"{won:.0%} |", flush=True)


def pairing(positions: int, seed: int) -> None:
    """The ``--pairing`` figures (module docstring).  It plays out with the ismcts search's
    own play-out and reward (``play_out_reward``), so it measures what the bot's pairs see."""
    import statistics

    from spitemalice.bots.heuristic import rank_moves
    from spitemalice.bots.inference import LastMoverHands
    from spitemalice.bots.ismcts import play_out_reward
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.bots.sampling import Sampler
    from spitemalice.engine import legal_moves
    from spitemalice.engine.views import view_of

    rules = sm.load("blackwood-frey")
    rng = random.Random(seed)
    ratios, differ, pairs = [], 0, 0
    for state in _pairing_positions(rules, positions, seed, rng):
        view = view_of(state, state.seat)
        sampler = Sampler(rules, view, LastMoverHands.at_turn_start(rules, view))
        moves = rank_moves(rules, view, legal_moves(rules, state))[:4]
        reward_of = play_out_reward(rules, view, GreedyPlayer(0))
        rewards: list[list[float]] = [[] for _ in moves]
        for _ in range(40):
            world = sampler.quick_sample(rng)
            for index, move in enumerate(moves):
                rewards[index].append(reward_of(world, move))
        base = rewards[0]
        for other in rewards[1:]:
            gains = [a - b for a, b in zip(other, base, strict=True)]
            apart = (statistics.pstdev(other) ** 2 + statistics.pstdev(base) ** 2) ** 0.5
            if apart:
                ratios.append(statistics.pstdev(gains) / apart)
            differ += sum(gain != 0 for gain in gains)
            pairs += len(gains)
    print(f"{count_of(positions, 'position')}, {count_of(len(ratios), 'move')} set against the "
          "heuristic's: paired "
          f"spread / independent spread, median {statistics.median(ratios):.2f}; "
          f"{differ / pairs:.0%} of pairs differ in reward")


class _Noting:
    """The heuristic bot, noting ``positions`` of the positions it decides with more than two
    legal moves and no playable pay-off card, about one in twelve of those met (a draw of
    ``rng`` for each, until enough are noted)."""

    def __init__(self, positions: int, rng: random.Random) -> None:
        from spitemalice.bots.heuristic import HeuristicPlayer

        self.positions, self.rng, self.found = positions, rng, list[GameState]()
        self.heuristic = HeuristicPlayer()

    def choose(self, rules: sm.RuleBook, state: GameState,
               moves: Sequence[sm.Move]) -> sm.Move:
        from spitemalice.moves import Play, Zone

        if len(self.found) < self.positions and len(moves) > 2 and self.rng.random() < 0.08 \
                and not any(isinstance(m, Play) and m.zone is Zone.PAYOFF for m in moves):
            self.found.append(state)
        return self.heuristic.choose(rules, state, moves)


def _pairing_positions(rules: sm.RuleBook, positions: int, seed: int,
                       rng: random.Random) -> list[GameState]:
    """``positions`` positions of heuristic games (see :class:`_Noting`), played through the
    library's game loop."""
    noting = _Noting(positions, rng)
    game = 0
    while len(noting.found) < positions:
        if game >= SEARCH_GAMES:  # a bound: bench/bounds.py
            raise SystemExit(f"{count_of(SEARCH_GAMES, 'game')} gave {len(noting.found)} of "
                             f"the {count_of(positions, 'position')} asked for")
        play_game(rules, [noting] * rules.players, derive_seed(seed, "pairing", game))
        game += 1
    return noting.found


def duel(seconds: float, mcts_seconds: float, deals: int, seed: int) -> None:
    """``ismcts`` against ``mcts`` on blackwood-frey (2 seats), with ``seconds`` and
    ``mcts_seconds`` of CPU per searched decision, every deal played with ismcts in each
    seat."""
    from spitemalice.bots.ismcts import IsmctsPlayer
    from spitemalice.bots.mcts import MctsPlayer
    from spitemalice.bots.players import GreedyPlayer

    rules = sm.load("blackwood-frey")
    won = lost = 0
    spent: dict[str, list[float]] = {"ismcts": [0.0, 0], "mcts": [0.0, 0]}
    for deal in range(deals):
        game_seed = derive_seed(seed, "duel", deal)
        for seat in range(2):
            own = derive_seed(game_seed, "seat", seat)
            timed = {"ismcts": Timed(IsmctsPlayer(own, seconds=seconds,
                                                  policy=GreedyPlayer(own))),
                     "mcts": Timed(MctsPlayer(derive_seed(game_seed, "seat", 1 - seat),
                                              seconds=mcts_seconds))}
            players: list[Player] = [timed["mcts"], timed["mcts"]]
            players[seat] = timed["ismcts"]
            outcome = play_game(rules, players, game_seed).final.outcome
            if outcome is not None and outcome.winner is not None:
                won += outcome.winner == seat
                lost += outcome.winner != seat
            for name, bot in timed.items():
                spent[name][0] += bot.seconds
                spent[name][1] += bot.decisions
        if (deal + 1) % 10 == 0 or deal + 1 == deals:
            _duel_line(seconds, mcts_seconds, deal + 1, won, lost, spent)


def _duel_line(seconds: float, mcts_seconds: float, deals: int, won: int, lost: int,
               spent: dict[str, list[float]]) -> None:
    """The duel's tally after ``deals`` deals (printed as it goes: a long run stopped early
    still says what it measured)."""
    from spitemalice.measures.rates import wilson

    rate = wilson(won, won + lost)
    costs = ", ".join(f"{name} {1000 * total / count:.2f} ms CPU per decision"
                      for name, (total, count) in spent.items())
    print(f"ismcts v mcts, {seconds * 1000:g} and {mcts_seconds * 1000:g} ms CPU per searched "
          f"decision, {count_of(deals, 'deal')} "
          f"x 2 seats: ismcts won {won}, lost {lost}, no winner {2 * deals - won - lost}: "
          f"{rate.estimate:.1%} ({rate.low:.1%}..{rate.high:.1%}) of won games; {costs} "
          f"(all decisions, searched or not)", flush=True)


def run_command(arguments: list[str]) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run ``spitemalice ARGUMENTS`` in a child process: (its result, wall seconds, CPU
    seconds of the child and its own children)."""
    command = [sys.executable, "-c", "import sys; from spitemalice.cli import main; "
               "sys.exit(main(sys.argv[1:]))", *arguments]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = run_child(command, capture_output=True, text=True)  # a bound: bench/bounds.py
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def study(deals: int) -> None:
    arguments = ["tournament", "blackwood-frey", "--bots", "heuristic,ismcts", "--games",
                 str(deals), "--jobs", "1", "--quiet"]
    done, wall, cpu = run_command(arguments)
    print(f"$ spitemalice {' '.join(arguments)}")
    print(done.stdout.rstrip() or done.stderr.rstrip())
    print(f"{2 * deals} games: {cpu / 60:.1f} CPU-minutes ({wall / 60:.1f} min wall)",
          flush=True)
