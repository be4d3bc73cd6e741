"""The ``mcts`` bot: determinized Monte Carlo tree search over the seat's view.

The bot sees only :func:`spitemalice.engine.views.view_of` its seat.  For each decision it

0. **looks for a route** to its pay-off card first (:func:`find_route`): a breadth-first
   search over its own plays this turn (hand cards, discard-pile tops, naturals before wild
   cards) for the shortest sequence after which the pay-off top can be played, through
   several build piles and discard-pile cards uncovered on the way (the heuristic's run looks
   at one build pile at a time).  It follows no play after which the hand was refilled, so it
   uses only cards the seat sees; when it finds a route it plays the route's first move.
   Otherwise it
1. **determinizes**: deals the cards it cannot see (other hands, the cards under each pay-off
   top, the draw pile, the completed cards) at random from the cards the view does not show,
   so every sample agrees with everything the seat can see (the counts of each hidden pile
   and every face-up card);
2. **searches** each sample with UCT (UCB1 over the seat's own moves for the rest of its turn,
   the candidate moves at each node being the few the heuristic ranks highest, at the root
   also the best-ranked move of each kind a rule adds (:mod:`spitemalice.bots.kinds`: pair
   discards, partners' piles), every root candidate tried once per sample), and plays out
   from the leaf with the ``heuristic`` bot for every seat (the opponent model) until the end
   of the seat's next :data:`HORIZON` turns;
3. **scores** a play-out 1 for a win, 0 for a loss, else by the pay-off cards the seat cleared
   against the most any opponent cleared (a logistic curve around 0.5);
4. **chooses** over all samples (ensemble determinization: Cowling, Powley and Whitehouse,
   "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012, discuss it as the baseline of
   ISMCTS): the heuristic's own move unless another root candidate beats it, sample by sample,
   by a margin and a significant amount, so noise never makes it play worse than the
   heuristic; what the search adds is the cards it cannot see (an opponent's likely hand).

Budget: ``playouts`` play-outs per decision (default :data:`DEFAULT_PLAYOUTS`), or ``seconds``
of CPU time.  With a playout budget the bot is reproducible: a bot of the same seed that sees
the same views in the same order plays the same moves (its generator runs on from one
decision to the next, so a decision depends on the bot's earlier ones too; a whole game
replays exactly).  A decision with one legal move, or with a playable pay-off card (always played:
the win condition), skips the search (:class:`~spitemalice.bots.base.SearchPlayer`, the base of
both search bots, takes those shortcuts and checks the arguments).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from spitemalice.bots.base import SearchPlayer
from spitemalice.bots.heuristic import decide, rank_moves
from spitemalice.bots.kinds import BASIC, move_kind
from spitemalice.bots.sampling import _determinize
from spitemalice.engine.apply import apply_move
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.views import SeatView, view_of
from spitemalice.model import GameState, require_state
from spitemalice.moves import Move, Play, Zone
from spitemalice.rules.book import RuleBook, check_book

DEFAULT_PLAYOUTS = 36
"""Play-outs per decision: enough to beat ``heuristic``, small enough for a fast tournament."""

SAMPLES = 6
"""Determinizations per decision; the play-out budget is shared out among them."""

WIDTH = 5
"""Candidate moves per tree node (the heuristic's top-ranked legal moves)."""

MARGIN = 0.02
"""How much better than the heuristic's move another candidate must score to be chosen."""

SIGNIFICANCE = 1.64
"""...and by how many standard errors of the paired gains (one-sided 95%)."""

SAME_KIND = False
"""Search only among moves of the kind the heuristic chose (plays, or discards)."""

HORIZON = 2
"""Play-outs run until the end of the seat's next ``HORIZON`` turns."""

ROUTE_NODES = 400
"""Positions the turn search (:func:`find_route`) looks at per pass, at most."""

EXPLORE = 0.7
"""UCB1 exploration constant (scores lie in 0..1)."""


class MctsPlayer(SearchPlayer):
    """A :class:`~spitemalice.bots.base.SearchPlayer` that searches determinized samples of its
    view (the module's docstring).

    Args:
        seed: seeds the bot's own generator (determinizations and tie-breaks), 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
        playouts: play-outs per decision, 1 to :data:`~spitemalice.limits.MAX_PLAYOUTS`.
        seconds: a CPU-time budget per decision instead (not reproducible across machines),
            more than 0 and at most :data:`~spitemalice.limits.MAX_SECONDS`.

    Raises:
        SpiteMaliceError: (a ``ValueError``) a seed, ``playouts`` or ``seconds`` out of
            range; the message names the bound.
    """

    kind = "mcts"

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS,
                 seconds: float | None = None) -> None:
        super().__init__(seed, playouts, seconds)

    def _search(self, rules: RuleBook, view: SeatView, moves: Sequence[Move]) -> Move:
        world = _determinize(rules, view, self.rng)
        route = _search_route(rules, world, view.viewer, ROUTE_NODES)[0]
        if route is not None:
            return route
        ranked = rank_moves(rules, view, moves)
        candidates = _every_kind(ranked, (_same_kind(ranked) if SAME_KIND else ranked)[:WIDTH])
        if len(candidates) == 1:
            return candidates[0]
        samples: list[dict[Move, float]] = []
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        done = 0
        while done < self.playouts or deadline is not None:
            if deadline is not None and time.process_time() >= deadline:
                break
            world = _determinize(rules, view, self.rng)
            runs = max(len(candidates), self.playouts // SAMPLES)
            samples.append(_uct(rules, world, view.viewer, candidates, runs, self.rng))
            done += runs
        return _best(candidates, samples)


def find_route(rules: RuleBook, world: GameState, me: int,
               limit: int = ROUTE_NODES) -> Move | None:
    """The first play of the shortest sequence of plays that makes a pay-off play legal this
    turn (naturals only if they suffice, else wild cards too), or ``None``.

    A breadth-first search over the seat's own plays in ``world``; after a play that empties
    the hand it looks only for the pay-off play and plays on no further (the draw that
    follows deals cards the seat cannot see), and it stops at the pay-off play (its next
    pay-off card is hidden), so on any determinization of a view it finds the same route: it
    reads only the seat's hand, its discard piles, the build piles and its pay-off top.  At
    most ``limit`` positions are looked at per pass.

    Raises:
        TypeError: ``world`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "find_route")
    require_state(world, "find_route")
    return _search_route(rules, world, me, limit)[0]


def search_route(rules: RuleBook, world: GameState, me: int,
                 limit: int = ROUTE_NODES) -> tuple[Move | None, frozenset[object]]:
    """:func:`find_route`'s answer, and when it is ``None`` the positions known to have no
    route: the :func:`turn_key` of every position the search played on from, when it looked
    at all of them without reaching ``limit`` (else none).  A position the seat reaches by
    its own plays, before its hand is refilled, with one of those keys has no route either:
    every position its plays lead to was looked at.

    Raises:
        TypeError: ``world`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "search_route")
    require_state(world, "search_route")
    return _search_route(rules, world, me, limit)


def _search_route(rules: RuleBook, world: GameState, me: int,
                  limit: int) -> tuple[Move | None, frozenset[object]]:
    """:func:`search_route`, its arguments checked already (the search bots' own calls)."""
    for wilds in (False, True):
        route, dead = _shortest_route(rules, world, me, wilds, limit)
        if route is not None:
            return route, frozenset()
    return None, dead


def _shortest_route(rules: RuleBook, world: GameState, me: int, wilds: bool,
                    limit: int) -> tuple[Move | None, frozenset[object]]:
    # (position, the route's first play, whether the seat may play on from it)
    frontier: list[tuple[GameState, Move | None, bool]] = [(world, None, True)]
    seen = {turn_key(world, me)}
    dead = set(seen)  # the positions played on from
    while frontier and len(seen) <= limit:
        following: list[tuple[GameState, Move | None, bool]] = []
        for state, first, open_ in frontier:
            plays = [m for m in legal_moves(rules, state) if isinstance(m, Play)]
            for move in plays:
                if move.zone is Zone.PAYOFF:
                    return (first if first is not None else move), frozenset()
            if not open_:
                continue
            for move in plays:
                if rules.wild.is_wild(move.card) and not wilds:
                    continue
                after = apply_move(rules, state, move)
                key = turn_key(after, me)
                if after.seat != me or after.outcome is not None or key in seen:
                    continue
                seen.add(key)
                # After a draw the hand holds cards the seat could not see: only the pay-off
                # play (which needs none of them) is looked for there.
                drew = len(after.draw) != len(state.draw) or after.shuffles != state.shuffles
                following.append((after, first if first is not None else move, not drew))
                if not drew:
                    dead.add(key)
        frontier = following
    return None, frozenset() if frontier else frozenset(dead)


def turn_key(state: GameState, me: int) -> tuple[object, ...]:
    """What a play within the turn can change: the hand (as a multiset), the discard piles
    (every seat's: a seat may play from its partners', PT-2) and the build piles.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (told once reading
            it fails: it runs for every node of a search).
    """
    try:
        return tuple(sorted(state.seats[me].hand)), tuple(s.discards for s in state.seats), \
            state.builds
    except (AttributeError, TypeError):
        require_state(state, "turn_key")
        raise


def _best(candidates: Sequence[Move], samples: list[dict[Move, float]]) -> Move:
    """The heuristic's move (the first candidate) unless another beats it clearly: its mean
    score, paired sample by sample (each determinization scores every candidate), exceeds the
    heuristic move's by :data:`MARGIN` and by :data:`SIGNIFICANCE` standard errors.  So
    sampling noise alone never overrules the heuristic."""
    base = candidates[0]
    best, best_gain = base, 0.0
    for move in candidates[1:]:
        gains = [sample[move] - sample[base] for sample in samples
                 if move in sample and base in sample]
        if len(gains) < 2:
            continue
        mean = sum(gains) / len(gains)
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1))
        if mean > MARGIN and mean > SIGNIFICANCE * spread / math.sqrt(len(gains)) \
                and mean > best_gain:
            best, best_gain = move, mean
    return best


class _Node:
    __slots__ = ("children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.total = 0.0
        self.visits = 0


def _uct(rules: RuleBook, world: GameState, me: int, candidates: Sequence[Move], runs: int,
            rng: random.Random) -> dict[Move, float]:
    """UCT on one determinization; the mean score of each root candidate it visited."""
    root = _Node()
    for _ in range(runs):
        node, state, path = root, world, [root]
        # Selection and expansion over the seat's own moves for the rest of its turn.
        while state.outcome is None and state.seat == me:
            options = candidates if node is root else _candidates(rules, state)
            move = _select(node, options, rng)
            fresh = move not in node.children
            node = node.children.setdefault(move, _Node())
            path.append(node)
            state = apply_move(rules, state, move)
            if fresh:
                break
        score = _playout(rules, state, me, world)
        for visited in path:
            visited.visits += 1
            visited.total += score
    return {move: child.total / child.visits for move, child in root.children.items()
            if child.visits}


def _same_kind(ranked: list[Move]) -> list[Move]:
    """The ranked moves of the kind the heuristic chose (plays, or discards): the heuristic
    decides whether to go on building or end the turn; the search picks which move."""
    kind = type(ranked[0])
    return [m for m in ranked if type(m) is kind]


def _every_kind(ranked: list[Move], candidates: list[Move]) -> list[Move]:
    """``candidates``, then the best-ranked move of each kind outside
    :data:`~spitemalice.bots.kinds.BASIC` (a pair discard, a partner's pile, a kind a
    third-party rule lists) that they lack: the search judges what the heuristic may not."""
    have = {move_kind(move) for move in candidates}
    extra = []
    for move in ranked:
        kind = move_kind(move)
        if kind not in have and kind not in BASIC:
            have.add(kind)
            extra.append(move)
    return [*candidates, *extra]


def _candidates(rules: RuleBook, state: GameState) -> Sequence[Move]:
    moves = legal_moves(rules, state)
    if len(moves) == 1:
        return moves
    return _same_kind(rank_moves(rules, view_of(state, state.seat), moves))[:WIDTH]


def _select(node: _Node, options: Sequence[Move], rng: random.Random) -> Move:
    untried = [m for m in options if m not in node.children]
    if untried:
        return untried[0]  # the heuristic's order: its best guess is tried first
    log_n = math.log(max(1, node.visits))

    def ucb(move: Move) -> float:
        child = node.children[move]
        return child.total / child.visits + EXPLORE * math.sqrt(log_n / child.visits)

    best = max(ucb(m) for m in options)
    return rng.choice([m for m in options if ucb(m) == best])


def _playout(rules: RuleBook, state: GameState, me: int, start: GameState) -> float:
    """Play on with the heuristic for every seat until the end of ``me``'s next turn."""
    seats = len(state.seats)
    # Turn ends still to come: the rest of the seat's turn (if on turn), the others', its next.
    turns_left = seats + 1 if state.seat == me else (me - state.seat) % seats + 1
    turns_left += seats * (HORIZON - 1)
    turn = state.turn
    while state.outcome is None and state.turn - turn < turns_left:
        moves = legal_moves(rules, state)
        state = apply_move(rules, state, decide(rules, view_of(state, state.seat), moves))
    return _score(state, me, start)


def _score(state: GameState, me: int, start: GameState) -> float:
    outcome = state.outcome
    if outcome is not None and outcome.winner is not None:
        return 1.0 if outcome.winner == me else 0.0
    cleared = [start.seats[s].payoff_count - state.seats[s].payoff_count
               for s in range(len(state.seats))]
    rival = max(c for s, c in enumerate(cleared) if s != me)
    return 1.0 / (1.0 + math.exp(-0.8 * (cleared[me] - rival)))
