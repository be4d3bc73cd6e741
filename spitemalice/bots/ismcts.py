"""The ``ismcts`` bot: information-set Monte Carlo search at the root, in pairs.

The method is single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012, Algorithm 2) with its tree cut to one
level: the root is the searching seat's information set, its children are its legal moves,
and every iteration samples a fresh *determinization* (a full state drawn from what the seat
sees, :class:`spitemalice.bots.sampling.Sampler`), plays a root move in it and plays out from
there with a fixed policy.  A one-level search over sampled states is what Long, Sturtevant,
Buro and Furtak ("Understanding the Success of Perfect Information Monte Carlo Sampling in
Game Tree Search", AAAI 2010) analyse, and Browne et al. ("A Survey of Monte Carlo Tree
Search Methods", IEEE TCIAIG 4(1), 2012) survey as flat UCB and determinization.  The
determinizations take in what the seat that moved last revealed
(:mod:`spitemalice.bots.inference`): it ended its turn without a run to its pay-off card, so
it is dealt only hands with none.

Why no deeper tree: the root's final choice compares the rewards of its children, and a tree
below them made that comparison lean.  Below a move that ends the turn the next nodes are the
other seats', where SO-ISMCTS expands untried moves at random once the policy's is tried, so
those seats play worse in that subtree; below a move that keeps the turn the searching seat's
own moves come first, in the heuristic's order.  Discards, which end the turn, scored too
high: with the tree, 175 of the 313 decisions where the bot overruled the heuristic in 40
games of blackwood-frey were a discard where the heuristic played a card, and at four seats
of Skip-Bo its changes cost more than half its wins.  Measured in docs/performance.md, "The
search cut to the root".

Each iteration is a pair, with *common random numbers* (Veness, Lanctot and Bowling,
"Variance Reduction in Monte-Carlo Tree Search", NIPS 2011): it plays the prior's first move
(the ``heuristic`` bot's) and one challenger on the same determinization, so the two
play-outs meet the same hidden cards and draws, and what the challenger gains over the
prior's move is measured with the luck of the deal taken out.  On blackwood-frey positions
this paired gain spreads about a third as much as the difference of two independent
play-outs (``python bench/bench.py --pairing 40``).  An iteration

1. **chooses the challenger**: an untried root move, in the prior's order, while the root may
   widen (progressive widening: visited ``n`` times it holds at most ``1 + WIDEN * sqrt(n)``
   children, at least :data:`ROOT_WIDTH`; Coulom, "Computing Elo Ratings of Move Patterns in
   the Game of Go", ICGA Journal 30(4), 2007; the prior orders every legal move, so every
   move the rules list is considered, the order only decides which first), else the root
   child of highest UCB1 value over its mean paired gain, with its *availability* count (how
   often it was legal when the root was visited) in place of the root's visits (the SO-ISMCTS
   paper's section V-B): only the moves legal in this determinization take part;
2. **plays out** each of the two moves with the ``greedy`` bot for every seat (the cheapest
   policy; it is deterministic, so the two play-outs differ only by the root move) to the end
   of the searching seat's next turn, and
3. **scores** each: 1 for a win and 0 for a loss, else a logistic curve over how many more
   pay-off cards the seat's side cleared than the best other side since the root.

The move played is the prior's first move unless a challenger beats it clearly: its mean
paired gain exceeds :data:`MARGIN` and :data:`SIGNIFICANCE` standard errors of that mean,
the same guard the ``mcts`` bot applies to its paired samples.  A few dozen play-outs cannot
rank moves whose values differ by a few hundredths, and playing the most visited child then
follows noise.  When the prior's move is not among the legal moves of a determinization (a
move filter that reads hidden cards), that iteration plays out one other move alone.  The
prior is the ``heuristic`` bot's ranking of every legal move
(:func:`spitemalice.bots.heuristic.rank_moves`).

Two shortcuts come before the search, both from the view alone: a playable pay-off card is
played (the win condition), and a route to the pay-off card this turn
(:func:`spitemalice.bots.mcts.find_route`) is followed.  A route search that looked at every
position the seat's plays reach and found none is not repeated for those positions later in
the turn (*caching within a turn*).

The bot reads only ``view_of(state, state.seat)``; every determinization, and so the move,
is a function of the view, the bot's seed and the views it was shown before (its generator
runs on from one decision to the next, and what it inferred and the route searches it made
this turn carry over), so a whole game replays exactly.  Budget: ``playouts`` play-outs per
decision, two per paired iteration, an odd budget rounded up to whole pairs (default
:data:`DEFAULT_PLAYOUTS`; reproducible), or ``seconds`` of CPU time
(:func:`time.process_time`; not reproducible).  Playouts call only
:func:`~spitemalice.engine.legal_moves` and :func:`~spitemalice.engine.apply_move`: the
search obeys exactly the rules the engine enforces.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from spitemalice.bots.base import Player, SearchPlayer, not_a_player
from spitemalice.bots.heuristic import HeuristicPlayer, rank_moves
from spitemalice.bots.inference import LastMoverHands, last_mover
from spitemalice.bots.mcts import ROUTE_NODES, _search_route, turn_key
from spitemalice.bots.sampling import Sampler
from spitemalice.engine.apply import apply_move
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.views import SeatView, require_view
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book

DEFAULT_PLAYOUTS = 36
"""Play-outs per decision (a paired iteration runs two)."""

EXPLORE = 0.7
"""UCB1 exploration constant (rewards lie in 0..1)."""

WIDEN = 1.0
"""Progressive widening: the root visited ``n`` times has at most ``1 + WIDEN * sqrt(n)``
children (or :data:`ROOT_WIDTH`)."""

ROOT_WIDTH = 3
"""The root may hold this many children from its first visits on."""

SLOPE = 0.8
"""Steepness of the reward curve per pay-off card cleared ahead of the best rival."""

HORIZON = 1
"""Play-outs end with the searching seat's ``HORIZON``-th turn after this one."""

OPPONENTS = "greedy"
"""The play-out policy of the other seats: ``greedy`` or ``heuristic``."""

MARGIN = 0.02
"""How much a challenger must gain over the prior's move, on average over its pairs, to be
played."""

SIGNIFICANCE = 1.64
"""...and by how many standard errors of that mean (one-sided 95%)."""

INFER = True
"""Deal the seat that moved last only hands without a run to its pay-off card
(:mod:`spitemalice.bots.inference`)."""


class _Node:
    """The root (its ``order``: the prior's ranking of the legal moves, best first) or one of
    its children (one legal move).  A child keeps its play-outs (``visits``, ``total``
    reward), how often it was legal when the root was visited (``available``) and, unless it
    is the prior's move, its paired gains: their count, sum and sum of squares."""

    __slots__ = ("available", "children", "gain", "gain_squares", "order", "pairs", "total",
                 "visits")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.order: list[Move] = []
        self.pairs = 0
        self.gain = 0.0
        self.gain_squares = 0.0


class IsmctsPlayer(SearchPlayer):
    """A :class:`~spitemalice.bots.base.SearchPlayer` searching the information set of its
    view (the module's docstring).

    ``make_player("ismcts", seed)`` makes one with the ``greedy`` bot as its play-out policy.

    Args:
        seed: seeds the bot's own generator (determinizations and ties), 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
        playouts: play-outs per decision (two per paired iteration, an odd number rounded
            up), 1 to :data:`~spitemalice.limits.MAX_PLAYOUTS`.
        seconds: a CPU-time budget per decision instead (not reproducible), more than 0 and
            at most :data:`~spitemalice.limits.MAX_SECONDS`.
        policy: the play-out policy of the searching seat (and of the others unless
            :data:`OPPONENTS` says otherwise), a player that reads only the state it is
            given: every seat's moves in a play-out are its choices on a determinization.

    Raises:
        SpiteMaliceError: (a ``ValueError``) a seed, ``playouts`` or ``seconds`` out of
            range (the message names the bound), or a ``policy`` that is not a player (no
            ``choose`` method, or a player class where an instance belongs);
            :meth:`choose` raises it for an empty ``moves``.
    """

    kind = "ismcts"

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS,
                 seconds: float | None = None, *, policy: Player) -> None:
        super().__init__(seed, playouts, seconds)
        # A class has the method too, unbound.
        if isinstance(policy, type) or not callable(getattr(policy, "choose", None)):
            raise not_a_player(policy, "IsmctsPlayer", "policy", error=SpiteMaliceError)
        self.policy = policy
        self._inferred: tuple[object, LastMoverHands | None] = (None, None)
        self._no_route: tuple[object, frozenset[object]] = (None, frozenset())
        self._hands: LastMoverHands | None = None  # what _see inferred for this decision
        self.tree: _Node | None = None
        """The root of the last search, or ``None`` when the last decision needed none (for
        inspection: its ``children`` map each move tried to its node)."""

    def _see(self, rules: RuleBook, view: SeatView) -> None:
        """Forget the last search, and read what the seat that moved last revealed (from the
        view of this turn's first decision, searched or not)."""
        self.tree = None
        self._hands = self._infer(rules, view)

    def _search(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        sampler = Sampler._trusted(rules, view, self._hands)
        route = self._route(rules, sampler.sample(self.rng), view)
        if route is not None:
            return route
        root = self.tree = _Node()
        root.order = rank_moves(rules, view, moves)
        search = _Search(rules, view, self.policy)
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        done = 0
        while (done < self.playouts) if deadline is None else (time.process_time() < deadline
                                                               or not done):
            done += search.iterate(root, sampler.quick_sample(self.rng))
        return _guarded_choice(root, moves)

    def _route(self, rules: RuleBook, world: GameState, view: SeatView) -> Move | None:
        """:func:`~spitemalice.bots.mcts.find_route` on ``world``, unless an earlier search
        this turn already looked at this position and found no route from it (its hand not
        refilled since): then ``None`` without a search."""
        # The turn and the pay-off tops: what turn_key leaves out that a route depends on.
        where = (view.turn, tuple(pile.top for pile in view.own.payoff))
        known, dead = self._no_route
        if known == where and turn_key(world, view.viewer) in dead:
            return None
        route, dead = _search_route(rules, world, view.viewer, ROUTE_NODES)
        self._no_route = (where, dead)
        return route

    def _infer(self, rules: RuleBook, view: SeatView) -> LastMoverHands | None:
        """What the seat that moved last revealed of its hand, read from the view of this
        turn's first decision (``None`` when that view was not seen)."""
        if not INFER:
            return None
        # The turn, and the last mover's public piles (which the viewer's plays cannot
        # change): a constraint from another game or turn is never taken for this one.
        key = (view.turn, view.seats[last_mover(view)])
        if not view.turn_moves or key != self._inferred[0]:
            found = LastMoverHands._at_turn_start(rules, view) if not view.turn_moves else None
            self._inferred = (key, found)
        return self._inferred[1]


def _guarded_choice(root: _Node, moves: Sequence[Move]) -> Move:
    """The prior's first move (one of ``moves``: the prior ranks them) unless a challenger's
    paired gains beat it clearly (the module's docstring)."""
    base = root.order[0]
    best, best_gain = base, 0.0
    for move in root.order[1:]:
        child = root.children.get(move)
        if child is None or child.pairs < 2 or move not in moves:
            continue
        gain, error = _mean_gain(child)
        if gain > max(MARGIN, best_gain) and gain > SIGNIFICANCE * error:
            best, best_gain = move, gain
    return best


def _mean_gain(node: _Node) -> tuple[float, float]:
    """The mean of a root child's paired gains and its standard error (at least 2 pairs)."""
    n = node.pairs
    mean = node.gain / n
    variance = max(node.gain_squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean, math.sqrt(variance / n)


def play_out_reward(rules: RuleBook, view: SeatView,
                    policy: Player) -> Callable[[GameState, Move], float]:
    """How the search scores a root move, for measuring it (``python bench/bench.py
    --pairing``): a function ``reward(world, move)`` that plays ``move`` in ``world`` (a
    determinization of ``view``), then every seat by the play-out policy (``policy``, as
    :class:`IsmctsPlayer` takes it) to the horizon, and returns the searching seat's reward.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`, or ``view``
            not a :class:`~spitemalice.engine.views.SeatView` (a whole state, say: the
            message names what takes one).
    """
    check_book(rules, "play_out_reward")
    require_view(view, "play_out_reward")
    return _Search(rules, view, policy).reward_of


class _Search:
    """One decision's search: iterations over determinizations of ``view``."""

    def __init__(self, rules: RuleBook, view: SeatView, policy: Player) -> None:
        self.rules = rules
        self.me = view.viewer
        seats = len(view.seats)
        # The end of the seat's next turn: its own turn ends, every other seat's, its next.
        self.horizon = view.turn + seats * HORIZON + 1
        others = HeuristicPlayer() if OPPONENTS == "heuristic" else policy
        self.choosers = [policy.choose if seat == self.me else others.choose
                         for seat in range(seats)]
        self.start = [public_count(view, seat) for seat in range(seats)]
        teams = rules.teams
        self.side = [teams.team_of(seat) for seat in range(seats)]
        self.sides = len(teams.teams)

    def iterate(self, root: _Node, state: GameState) -> int:
        """One iteration on the determinization ``state``: the prior's move and a challenger
        each played out from it.  Returns the play-outs run: one when the prior's move is not
        legal in ``state`` (a move filter that reads hidden cards) or no other move is, else
        two."""
        root.visits += 1
        legal = legal_moves(self.rules, state)
        compatible = _available(root, legal)
        base = root.order[0]
        if base not in legal:
            self._play_out(root, state, self._challenger(root, legal, compatible))
            return 1
        if base not in root.children:
            _new_child(root, base)
        base_reward = self._play_out(root, state, base)
        if len(legal) == 1:
            return 1
        move = self._challenger(root, legal, compatible)
        gain = self._play_out(root, state, move) - base_reward
        child = root.children[move]
        child.pairs += 1
        child.gain += gain
        child.gain_squares += gain * gain
        return 2

    def _challenger(self, root: _Node, legal: tuple[Move, ...],
                    compatible: list[tuple[Move, _Node]]) -> Move:
        """The root move to set against the prior's, among ``legal`` (``compatible``: the
        root's children legal here): an untried one, in the prior's order, while the root
        may widen (made a child here), else the other compatible child of highest UCB1 over
        its paired gains (availability-based).  At least one move of ``legal`` is not the
        prior's."""
        base = root.order[0]
        if len(compatible) < len(legal) and len(compatible) < self._width(root):
            move = _untried(root, legal)
            _new_child(root, move)
            return move
        best, top = None, -math.inf
        for move, child in compatible:
            if move == base:
                continue
            if not child.pairs:
                return move
            value = child.gain / child.pairs + EXPLORE * math.sqrt(
                math.log(child.available) / child.pairs)
            if value > top:
                best, top = move, value
        assert best is not None, "a legal move other than the prior's"
        return best

    def _width(self, root: _Node) -> int:
        """How many children the root may hold: progressive widening, at least ROOT_WIDTH."""
        return max(1 + int(WIDEN * math.sqrt(root.visits)), ROOT_WIDTH)

    def _play_out(self, root: _Node, state: GameState, move: Move) -> float:
        """:meth:`reward_of` ``move`` (a root child) in ``state``, backed up to its child."""
        reward = self.reward_of(state, move)
        child = root.children[move]
        child.visits += 1
        child.total += reward
        return reward

    def reward_of(self, state: GameState, move: Move) -> float:
        """Play ``move`` in the determinization ``state``, then every seat by its play-out
        policy to the horizon: the searching seat's reward there."""
        rules, choosers, horizon = self.rules, self.choosers, self.horizon
        state = apply_move(rules, state, move)
        while state.outcome is None and state.turn < horizon:
            choose = choosers[state.seat]
            state = apply_move(rules, state, choose(rules, state, legal_moves(rules, state)))
        return self._reward(state)

    def _reward(self, state: GameState) -> float:
        """The searching seat's reward: its side's win 1, loss 0, else a logistic curve over
        the pay-off cards its side cleared since the root against the best other side."""
        outcome = state.outcome
        side = self.side[self.me]
        if outcome is not None and outcome.winner is not None:
            return 1.0 if self.side[outcome.winner] == side else 0.0
        cleared = [0] * self.sides
        for seat, start in enumerate(self.start):
            cleared[self.side[seat]] += start - state.seats[seat].payoff_count
        rival = max(c for s, c in enumerate(cleared) if s != side)
        return 1.0 / (1.0 + math.exp(-SLOPE * (cleared[side] - rival)))


def _untried(root: _Node, legal: tuple[Move, ...]) -> Move:
    """The first move of ``legal`` not yet a child of ``root``, in the prior's order (a move
    the order does not hold, where a determinization lists one the view did not, last)."""
    children = root.children
    listed = set(legal)
    for move in root.order:
        if move in listed and move not in children:
            return move
    return next(move for move in legal if move not in children)


def _available(node: _Node, legal: tuple[Move, ...]) -> list[tuple[Move, _Node]]:
    """The children of ``node`` whose moves are ``legal`` here, each counted available once
    more (ISMCTS's availability count)."""
    children = node.children
    compatible = [(move, child) for move in legal if (child := children.get(move)) is not None]
    for _, child in compatible:
        child.available += 1
    return compatible


def _new_child(node: _Node, move: Move) -> _Node:
    """A new child of ``node`` for ``move``, available once (it is legal now)."""
    child = node.children[move] = _Node()
    child.available = 1
    return child


def public_count(view: SeatView, seat: int) -> int:
    """Pay-off cards ``seat`` holds, as every seat sees it.

    Raises:
        TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
            say: the message names what takes one).
    """
    require_view(view, "public_count")
    return sum(pile.count for pile in view.seats[seat].payoff)
