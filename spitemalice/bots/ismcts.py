"""The ``ismcts`` bot: single-observer information-set Monte Carlo tree search.

The method is SO-ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012,
Algorithm 2): one tree whose nodes are information sets of the searching seat, grown by many
iterations, each on a fresh *determinization* (a full state sampled from what the seat sees,
:class:`spitemalice.bots.sampling.Sampler`).  The determinizations take in what the seat
that moved last revealed (:mod:`spitemalice.bots.inference`): it ended its turn without a
run to its pay-off card, so it is dealt only hands with none.

The root is searched in pairs, with *common random numbers* (Veness, Lanctot and Bowling,
"Variance Reduction in Monte-Carlo Tree Search", NIPS 2011): each iteration plays the
prior's first move (the ``heuristic`` bot's) and one challenger on the same determinization,
so the two play-outs meet the same hidden cards and draws, and what the challenger gains over
the prior's move is measured with the luck of the deal taken out.  On blackwood-frey
positions this paired gain spreads less than a third as much as the difference of two
independent play-outs (``python bench/bench.py --pairing 40``; docs/performance.md, "The
search bots").  Below each root child an iteration

1. **selects** down the tree with the moves legal in its determinization only: a child is
   scored by UCB1 with its *availability* count (how often it was legal when its parent was
   visited) in place of the parent's visits (the paper's section V-B), each seat's node
   maximising that seat's reward;
2. **expands** one untried legal move, in the order of a prior, while the node may still
   widen (progressive widening: a node visited ``n`` times has at most
   ``1 + WIDEN * sqrt(n)`` children, Coulom, "Computing Elo Ratings of Move Patterns in the
   Game of Go", ICGA Journal 30(4), 2007; the prior orders every legal move, so every move
   the rules list is considered, the order only decides which first);
3. **plays out** from there with the ``greedy`` bot for every seat (the cheapest policy; it
   is deterministic, so the two play-outs of a pair differ only by the moves searched) to
   the end of the searching seat's next turn, and
4. **backs up** each seat's reward: 1 for a win and 0 for a loss, else a logistic curve over
   how many more pay-off cards its side cleared than the best other side since the root.

The challenger of an iteration is an untried root move while the root may widen (the
prior's order, as in step 2), else the root child of highest UCB1 value over its mean paired
gain.  The move played is the prior's first move unless a challenger beats it clearly: its
mean paired gain exceeds :data:`MARGIN` and :data:`SIGNIFICANCE` standard errors of that
mean, the same guard the ``mcts`` bot applies to its paired samples.  A few dozen
play-outs cannot rank moves whose values differ by a few hundredths, and playing the most
visited child then follows noise.  When the prior's move is not among the legal ``moves``
(a kept subtree ranked otherwise) the most visited child is played.  The prior at the root is
the ``heuristic`` bot's ranking of every legal move
(:func:`spitemalice.bots.heuristic.rank_moves`); deeper in the tree the playout policy's own
move comes first, then that ranking.

Two shortcuts come before the search, both from the view alone: a playable pay-off card is
played (the win condition), and a route to the pay-off card this turn
(:func:`spitemalice.bots.mcts.find_route`) is followed.  A route search that looked at every
position the seat's plays reach and found none is not repeated for those positions later in
the turn.

Within a turn the tree is kept: when the seat moves again and its view is exactly the one
its move led to in every determinization (no card was drawn or turned up), the subtree under
that move becomes the new root and the search tops it up (*caching within a turn*).

The bot reads only ``view_of(state, state.seat)``; every determinization, and so the move,
is a function of the view, the bot's seed and the views it saw earlier this turn.  Budget:
``playouts`` play-outs per decision, two per paired iteration (default
:data:`DEFAULT_PLAYOUTS`; reproducible), or ``seconds`` of CPU time
(:func:`time.process_time`; not reproducible).  Playouts call only
:func:`~spitemalice.engine.legal_moves` and :func:`~spitemalice.engine.apply_move`: the
search obeys exactly the rules the engine enforces.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spitemalice.bots.heuristic import HeuristicPlayer, rank_moves
from spitemalice.bots.inference import LastMoverHands, last_mover
from spitemalice.bots.mcts import check_budget, search_route, turn_key
from spitemalice.bots.sampling import Sampler
from spitemalice.engine import apply_move, legal_moves
from spitemalice.engine.views import SeatView, require_view, view_of
from spitemalice.errors import SpiteMaliceError
from spitemalice.limits import check_moves, check_seed, shown
from spitemalice.model import GameState, require_state
from spitemalice.moves import Move, Play, Zone
from spitemalice.rules.book import RuleBook, check_book

if TYPE_CHECKING:  # the registry in players.py makes this bot: no import back at run time
    from spitemalice.bots.players import Player

DEFAULT_PLAYOUTS = 36
"""Play-outs per decision (a paired iteration runs two)."""

EXPLORE = 0.7
"""UCB1 exploration constant (rewards lie in 0..1)."""

WIDEN = 1.0
"""Progressive widening: a node visited ``n`` times has at most ``1 + WIDEN * sqrt(n)``
children."""

ROOT_WIDTH = 3
"""The root may hold this many children from its first visits on."""

REUSED_SHARE = 0.25
"""A kept subtree is topped up by at least this share of the budget."""

SLOPE = 0.8
"""Steepness of the reward curve per pay-off card cleared ahead of the best rival."""

BIAS = 0.0
"""Progressive bias towards the prior's first move at a node: ``BIAS / (visits + 1)`` added
to its UCB1 value (Chaslot et al., "Progressive strategies for Monte-Carlo tree search", New
Mathematics and Natural Computation 4(3), 2008)."""

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
    """An information-set node: reached by ``mover``'s move from its parent.  A root child
    other than the prior's move also keeps its paired gains: their count, sum and sum of
    squares."""

    __slots__ = ("available", "children", "gain", "gain_squares", "mover", "order", "order_key",
                 "pairs", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.order: list[Move] = []
        self.order_key: tuple[Move, ...] = ()
        self.pairs = 0
        self.gain = 0.0
        self.gain_squares = 0.0


class IsmctsPlayer:
    """A :class:`~spitemalice.bots.players.Player` searching one information-set tree.

    ``make_player("ismcts", seed)`` makes one with the ``greedy`` bot as its play-out policy.

    Args:
        seed: seeds the bot's own generator (determinizations and ties), 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
        playouts: play-outs per decision (two per paired iteration), 1 to
            :data:`~spitemalice.limits.MAX_PLAYOUTS`.
        seconds: a CPU-time budget per decision instead (not reproducible), more than 0 and
            at most :data:`~spitemalice.limits.MAX_SECONDS`.
        policy: the play-out policy of the searching seat (and of the others unless
            :data:`OPPONENTS` says otherwise), a player that reads only the state it is
            given: every seat's moves in a play-out are its choices on a determinization.

    Raises:
        SpiteMaliceError: (a ``ValueError``) a seed, ``playouts`` or ``seconds`` out of
            range (the message names the bound), or a ``policy`` without a ``choose``
            method; :meth:`choose` raises it for an empty ``moves``.
    """

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS,
                 seconds: float | None = None, *, policy: Player) -> None:
        check_budget("ismcts", playouts, seconds)
        if not callable(getattr(policy, "choose", None)):
            raise SpiteMaliceError("the policy is a player (an object with a method choose("
                                   f"rules, state, moves)), not {shown(policy)}")
        self.rng = random.Random(check_seed(seed))
        self.playouts, self.seconds = playouts, seconds
        self.policy = policy
        self._kept: tuple[_Node, SeatView] | None = None
        self._inferred: tuple[object, LastMoverHands | None] = (None, None)
        self._no_route: tuple[object, frozenset[object]] = (None, frozenset())
        self.tree: _Node | None = None
        """The root of the last search, or ``None`` when the last decision needed none (for
        inspection: its ``children`` map each move tried to its node)."""

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        """The searched move; reads ``view_of(state, state.seat)`` and nothing else of
        ``state``.

        Raises:
            TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
                the message names what takes one).
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        """
        check_book(rules, "IsmctsPlayer.choose")
        require_state(state, "IsmctsPlayer.choose",
                      "choose from a view with IsmctsPlayer.choose_from_view(rules, view, moves)")
        return self.choose_from_view(rules, view_of(state, state.seat), moves)

    def choose_from_view(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        """The searched move for the seat on turn of ``view`` among its legal ``moves``.

        Raises:
            TypeError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole state,
                say: the message names what takes one).
            TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        """
        check_book(rules, "IsmctsPlayer.choose_from_view")
        require_view(view, "IsmctsPlayer.choose_from_view",
                     "choose from a whole state with IsmctsPlayer.choose(rules, state, moves)")
        check_moves(moves)
        kept, self._kept, self.tree = self._kept, None, None
        inferred = self._infer(rules, view)
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if isinstance(move, Play) and move.zone is Zone.PAYOFF:
                return move
        sampler = Sampler(rules, view, inferred)
        world = sampler.sample(self.rng)
        route = self._route(rules, world, view)
        if route is not None:
            return route
        root = kept[0] if kept is not None and kept[1] == view else None
        if root is None:
            root = _Node(view.viewer)
        if not root.order:
            root.order = rank_moves(rules, view, moves)
            root.order_key = tuple(moves)
        self.tree = root
        search = _Search(rules, view, self.rng, self.policy)
        fresh = self.playouts if not root.visits else max(
            self.playouts - root.visits, math.ceil(REUSED_SHARE * self.playouts))
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        done = 0
        while (done < fresh) if deadline is None else (time.process_time() < deadline
                                                       or not done):
            done += search.iterate(root, sampler.quick_sample(self.rng))
        move = _guarded_choice(root, moves)
        self._keep(rules, root, move, world, view)
        return move

    def _route(self, rules: RuleBook, world: GameState, view: SeatView) -> Move | None:
        """:func:`~spitemalice.bots.mcts.find_route` on ``world``, unless an earlier search
        this turn already looked at this position and found no route from it (its hand not
        refilled since): then ``None`` without a search."""
        # The turn and the pay-off tops: what turn_key leaves out that a route depends on.
        where = (view.turn, tuple(pile.top for pile in view.own.payoff))
        known, dead = self._no_route
        if known == where and turn_key(world, view.viewer) in dead:
            return None
        route, dead = search_route(rules, world, view.viewer)
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
            found = LastMoverHands.at_turn_start(rules, view) if not view.turn_moves else None
            self._inferred = (key, found)
        return self._inferred[1]

    def _keep(self, rules: RuleBook, root: _Node, move: Move, world: GameState,
              view: SeatView) -> None:
        """Keep the subtree under ``move`` when the next view follows from the move alone:
        a play from hand or a discard pile that leaves cards in hand (no draw, nothing turned
        up) and leaves the seat on turn."""
        child = root.children.get(move)
        if child is None or not isinstance(move, Play) or move.zone is Zone.PAYOFF:
            return
        after = apply_move(rules, world, move)
        if after.outcome is None and after.seat == view.viewer and \
                len(after.seats[view.viewer].hand) == len(view.hand) - (move.zone is Zone.HAND):
            self._kept = (child, view_of(after, view.viewer))


def _most_visited(root: _Node, moves: Sequence[Move]) -> Move:
    """The root's most visited legal child (higher mean, then prior order, on ties)."""
    best, key = moves[0], (-1, -1.0)
    order = {move: index for index, move in enumerate(root.order)}
    for move in sorted(moves, key=lambda m: order.get(m, len(order))):
        child = root.children.get(move)
        if child is None or not child.visits:
            continue
        score = (child.visits, child.total / child.visits)
        if score > key:
            best, key = move, score
    return best


def _guarded_choice(root: _Node, moves: Sequence[Move]) -> Move:
    """The prior's first move unless a challenger's paired gains beat it clearly (the
    module's docstring); the most visited child when the prior's move is not legal."""
    base = root.order[0]
    if base not in moves:
        return _most_visited(root, moves)
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


class _Search:
    """One decision's search: iterations over determinizations of ``view``."""

    def __init__(self, rules: RuleBook, view: SeatView, rng: random.Random,
                 policy: Player) -> None:
        self.rules, self.rng, self.policy = rules, rng, policy
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
        each selected down, expanded, played out and backed up.  Returns the play-outs run:
        one when the prior's move is not legal in ``state`` (a move filter that reads hidden
        cards) or no other move is, else two."""
        root.visits += 1
        legal = legal_moves(self.rules, state)
        base = root.order[0]
        if base not in legal:
            self._descend(root, state, legal, [])
            return 1
        compatible = _available(root, legal)
        fresh = base not in root.children
        if fresh:
            _new_child(root, base, state.seat)
        base_reward = self._from_child(root, state, base, fresh)
        others = [(move, child) for move, child in compatible if move != base]
        challenger = self._challenger(root, state, legal, others)
        if challenger is None:
            return 1
        move, new = challenger
        gain = self._from_child(root, state, move, new) - base_reward
        child = root.children[move]
        child.pairs += 1
        child.gain += gain
        child.gain_squares += gain * gain
        return 2

    def _from_child(self, root: _Node, state: GameState, move: Move, new: bool) -> float:
        """Play ``move`` at the root, search on below its child (play out at once if the
        child is ``new``), back up; the searching seat's reward."""
        child = root.children[move]
        after = apply_move(self.rules, state, move)
        if new:
            return self._finish(after, [child])[self.me]
        return self._descend(child, after, None, [child])[self.me]

    def _challenger(self, root: _Node, state: GameState, legal: tuple[Move, ...],
                    others: list[tuple[Move, _Node]]) -> tuple[Move, bool] | None:
        """The root move to pair with the prior's, among ``legal``: an untried one while the
        root may widen (made a child here), else the child of ``others`` (the root's other
        children legal here) of highest UCB1 over its paired gains; with whether it is new.
        ``None`` when no other move is legal."""
        if len(others) + 1 < len(legal) and len(others) + 1 < self._width(root):
            move = self._untried(root, state, legal)
            _new_child(root, move, state.seat)
            return move, True
        best: tuple[Move, bool] | None = None
        top = -math.inf
        for move, child in others:
            if not child.pairs:
                return move, False
            value = child.gain / child.pairs + EXPLORE * math.sqrt(
                math.log(child.available) / child.pairs)
            if value > top:
                best, top = (move, False), value
        return best

    def _descend(self, node: _Node, state: GameState, legal: tuple[Move, ...] | None,
                 path: list[_Node]) -> list[float]:
        """Select and expand from ``node`` (``legal``: the moves of ``state`` if known), play
        out, back up along ``path`` and the nodes added to it; each seat's reward."""
        rules = self.rules
        while state.outcome is None and state.turn < self.horizon:
            if legal is None:
                legal = legal_moves(rules, state)
            move, node, expanded = self._step(node, state, legal)
            path.append(node)
            state = apply_move(rules, state, move)
            legal = None
            if expanded:
                break
        return self._finish(state, path)

    def _finish(self, state: GameState, path: list[_Node]) -> list[float]:
        """Play out from ``state``, back up each seat's reward along ``path``."""
        rewards = self._rewards(self._playout(state))
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.mover]
        return rewards

    def _step(self, node: _Node, state: GameState,
              legal: tuple[Move, ...]) -> tuple[Move, _Node, bool]:
        """The move to follow from ``node`` in ``state``: a new child while the node may
        widen, else the compatible child of highest UCB1 (availability-based)."""
        compatible = _available(node, legal)
        if len(compatible) < len(legal) and len(compatible) < self._width(node):
            move = self._untried(node, state, legal)
            return move, _new_child(node, move, state.seat), True
        log = math.log
        best: list[tuple[Move, _Node]] = []
        top = -math.inf
        favourite = node.order[0] if BIAS and node.order else None
        for move, child in compatible:
            value = child.total / child.visits + EXPLORE * math.sqrt(
                log(child.available) / child.visits)
            if move is favourite or move == favourite:
                value += BIAS / (child.visits + 1)
            if value > top:
                best, top = [(move, child)], value
            elif value == top:
                best.append((move, child))
        move, child = best[0] if len(best) == 1 else self.rng.choice(best)
        return move, child, False

    def _width(self, node: _Node) -> int:
        width = 1 + int(WIDEN * math.sqrt(node.visits))
        return max(width, ROOT_WIDTH) if node.order and node.mover == self.me else width

    def _untried(self, node: _Node, state: GameState, legal: tuple[Move, ...]) -> Move:
        """The first legal move not yet a child, in the prior's order: the node's ranking
        when it was made for these legal moves, else the policy's move, else a fresh
        ranking by the heuristic."""
        children = node.children
        if node.order_key != legal:
            pick = self.policy.choose(self.rules, state, legal)
            if pick not in children:
                return pick
            if state.seat != self.me:  # SO-ISMCTS's own choice: any untried move
                return self.rng.choice([move for move in legal if move not in children])
            node.order = rank_moves(self.rules, view_of(state, state.seat), legal)
            node.order_key = legal
        for move in node.order:
            if move not in children:
                return move
        raise AssertionError("unreachable: a legal move is untried")

    def _playout(self, state: GameState) -> GameState:
        rules, choosers = self.rules, self.choosers
        horizon = self.horizon
        while state.outcome is None and state.turn < horizon:
            choose = choosers[state.seat]
            state = apply_move(rules, state, choose(rules, state, legal_moves(rules, state)))
        return state

    def _rewards(self, state: GameState) -> list[float]:
        """Each seat's reward: its side's win 1, loss 0, else a logistic curve over the pay-off
        cards its side cleared since the root against the best other side."""
        seats = len(state.seats)
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None:
            won = self.side[outcome.winner]
            return [1.0 if self.side[seat] == won else 0.0 for seat in range(seats)]
        cleared = [0] * self.sides
        for seat in range(seats):
            cleared[self.side[seat]] += self.start[seat] - state.seats[seat].payoff_count
        rewards = []
        for seat in range(seats):
            side = self.side[seat]
            rival = max(c for s, c in enumerate(cleared) if s != side)
            rewards.append(1.0 / (1.0 + math.exp(-SLOPE * (cleared[side] - rival))))
        return rewards


def _available(node: _Node, legal: tuple[Move, ...]) -> list[tuple[Move, _Node]]:
    """The children of ``node`` whose moves are ``legal`` here, each counted available once
    more (ISMCTS's availability count)."""
    children = node.children
    compatible = [(move, child) for move in legal if (child := children.get(move)) is not None]
    for _, child in compatible:
        child.available += 1
    return compatible


def _new_child(node: _Node, move: Move, mover: int) -> _Node:
    """A new child of ``node`` for ``mover``'s ``move``, available once (it is legal now)."""
    child = node.children[move] = _Node(mover)
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
