"""The ismcts bot (spitemalice.bots.ismcts) and its determinizations (spitemalice.bots.sampling):
it reads only its seat's view, is reproducible at a fixed budget, considers every legal move,
and its playouts obey exactly what legal_moves and apply_move obey."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from helpers.positions import position
from helpers.twins import searched_state, swap_hidden

import spitemalice as sm
from spitemalice.bots import ismcts
from spitemalice.bots.inference import LastMoverHands
from spitemalice.bots.ismcts import IsmctsPlayer
from spitemalice.bots.mcts import search_route, turn_key
from spitemalice.bots.players import GreedyPlayer, make_player
from spitemalice.bots.sampling import Sampler
from spitemalice.cards import parse_cards
from spitemalice.engine import legal_moves
from spitemalice.engine.views import view_of
from spitemalice.moves import Discard, Play, Zone
from spitemalice.rules.loader import load
from spitemalice.runs.loop import play_game
from spitemalice.runs.runner import configuration, play_one


def _bot(seed: int, **budget: float) -> IsmctsPlayer:
    return IsmctsPlayer(seed, policy=GreedyPlayer(seed), **budget)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def bf() -> sm.RuleBook:
    return load("blackwood-frey", [], {})


def test_ismcts_reads_only_its_view(bf: sm.RuleBook) -> None:
    state = searched_state(bf)
    twin = swap_hidden(state)
    assert twin != state and view_of(twin, state.seat) == view_of(state, state.seat)
    moves = legal_moves(bf, state)
    chosen = set()
    for seed in range(4):
        first = _bot(seed, playouts=40).choose(bf, state, moves)
        assert _bot(seed, playouts=40).choose(bf, twin, moves) == first
        chosen.add(first)
    assert chosen <= set(moves)


def test_ismcts_is_reproducible_at_a_fixed_budget() -> None:
    rules = load("blackwood-frey", [], {"payoff_size": 5})
    config = configuration(rules, ["ismcts", "heuristic"])
    assert play_one(config, 4, 0) == play_one(config, 4, 0)


def test_ismcts_budget_is_checked() -> None:
    with pytest.raises(ValueError, match="budget"):
        _bot(0, playouts=0)
    with pytest.raises(ValueError, match="budget"):
        _bot(0, seconds=-1)


def test_ismcts_with_a_time_budget_plays_a_legal_move(bf: sm.RuleBook) -> None:
    state = searched_state(bf)
    moves = legal_moves(bf, state)
    player = _bot(1, seconds=0.02)
    assert player.choose(bf, state, moves) in moves
    assert player.tree is not None and player.tree.visits >= 1


def test_registry_knows_ismcts() -> None:
    assert isinstance(make_player("ismcts", 3), IsmctsPlayer)


def test_every_legal_move_is_considered_pair_discards_included() -> None:
    # Design notes §9 "Bots play every rule": the root's prior orders every legal move, and
    # progressive widening reaches them all with budget enough.
    rules = load("blackwood-frey", ["pair-discards"], {})
    state = position(rules, hands=["9S 9H JD 4C 7C"], payoffs=["QD", "10C"],
                     builds=["AS 2S"])
    moves = legal_moves(rules, state)
    assert any(isinstance(m, Discard) and len(m.cards) == 2 for m in moves)
    player = _bot(2, playouts=1800)  # 900 paired iterations: room for 1 + sqrt(900) children
    player.choose(rules, state, moves)
    assert player.tree is not None
    assert sorted(map(str, player.tree.order)) == sorted(map(str, moves))
    assert set(player.tree.children) == set(moves)


def test_a_pay_off_card_is_played_without_a_search(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C"], payoffs=["5D", "10C"], builds=["AS 2S 3S 4S"])
    player = _bot(0)
    assert str(player.choose(bf, state, legal_moves(bf, state))) == "P:5D>B1"
    assert player.tree is None


class _Recorder:
    """Wraps the engine functions the search calls and records every transition."""

    def __init__(self) -> None:
        self.steps: list[tuple[sm.GameState, sm.Move, sm.GameState]] = []
        self.listed: list[tuple[sm.GameState, tuple[sm.Move, ...]]] = []

    def legal_moves(self, rules: sm.RuleBook, state: sm.GameState) -> tuple[sm.Move, ...]:
        moves = legal_moves(rules, state)
        self.listed.append((state, moves))
        return moves

    def apply_move(self, rules: sm.RuleBook, state: sm.GameState,
                   move: sm.Move) -> sm.GameState:
        after = sm.apply_move(rules, state, move)
        self.steps.append((state, move, after))
        return after


@pytest.mark.parametrize("house_rules", [[], ["mandatory-aces", "pair-discards"]])
def test_playouts_obey_exactly_the_engine(monkeypatch: pytest.MonkeyPatch,
                                          house_rules: list[str]) -> None:
    # Design notes §9 "No second copy of the rules": every position the search reaches comes
    # from a determinization of the view or from apply_move, and every move it makes is one
    # that legal_moves lists and apply_move gives, checked again on a fresh rule book (cold
    # caches) for every transition.
    rules = load("blackwood-frey", house_rules, {})
    fresh = load("blackwood-frey", house_rules, {})
    recorder = _Recorder()
    monkeypatch.setattr(ismcts, "legal_moves", recorder.legal_moves)
    monkeypatch.setattr(ismcts, "apply_move", recorder.apply_move)
    state = searched_state(rules)
    view = view_of(state, state.seat)
    _bot(5, playouts=30).choose(rules, state, legal_moves(rules, state))
    assert len(recorder.steps) > 100
    reached = {id(after) for _, _, after in recorder.steps}
    for before, move, after in recorder.steps:
        assert id(before) in reached or view_of(before, view.viewer) == view
        assert move in sm.legal_moves(fresh, before)
        assert sm.apply_move(fresh, before, move) == after
    for listed_at, moves in recorder.listed:
        assert moves == sm.legal_moves(fresh, listed_at)


def test_quick_samples_agree_with_the_view_and_vary(bf: sm.RuleBook) -> None:
    state = searched_state(bf)
    view = view_of(state, state.seat)
    sampler = Sampler(bf, view)
    rng = random.Random(7)
    deck = Counter(bf.deck.cards)
    worlds = [sampler.quick_sample(rng) for _ in range(40)]
    for world in worlds:
        assert view_of(world, state.seat) == view
        assert Counter(world.all_cards()) == deck
        assert world == sm.GameState(world.seats, world.builds, world.draw, world.completed,
                                     world.seat, world.turn, world.turn_moves,
                                     world.idle_turns, world.seed, world.shuffles,
                                     world.outcome, world.build_removed)
    other = (state.seat + 1) % len(state.seats)
    assert len({w.seats[other].hand for w in worlds}) > 30
    assert len({w.draw[-5:] for w in worlds}) > 30


def test_quick_samples_deal_the_hidden_cards_uniformly(bf: sm.RuleBook) -> None:
    # Each card of the pool lands in the opponent's hand about equally often: a chi-square
    # test at the 0.1% level over the ranks (13 categories, 12 degrees of freedom).
    state = searched_state(bf)
    view = view_of(state, state.seat)
    sampler = Sampler(bf, view)
    rng = random.Random(11)
    other = (state.seat + 1) % len(state.seats)
    seen: Counter[int] = Counter()
    samples = 3000
    for _ in range(samples):
        seen.update(card.rank for card in sampler.quick_sample(rng).seats[other].hand)
    pool = Counter(card.rank for card in sampler.pool)
    hand = len(state.seats[other].hand)
    expected = {rank: samples * hand * count / len(sampler.pool) for rank, count in pool.items()}
    chi2 = sum((seen[rank] - e) ** 2 / e for rank, e in expected.items())
    assert chi2 < 32.9  # the 99.9% point of chi-square with 12 degrees of freedom


def test_the_route_shortcut_is_taken(bf: sm.RuleBook) -> None:
    # As for mcts: 3C on B2 uncovers 5H for B1, and the pay-off card 6D follows this turn.
    state = position(bf, hands=["9C 10D JH"], payoffs=["6D", "4C"], discards=[["5H 3C"]],
                     builds=["AS 2S 3S 4S", "AH 2H"])
    move = _bot(1).choose(bf, state, legal_moves(bf, state))
    assert isinstance(move, Play) and move.zone is Zone.DISCARD and str(move) == "D1:3C>B2"


def _node_with(gains: list[float]) -> ismcts._Node:
    node = ismcts._Node()
    node.visits = node.pairs = len(gains)
    node.gain = sum(gains)
    node.gain_squares = sum(g * g for g in gains)
    return node


def test_the_prior_move_is_kept_unless_a_challenger_clearly_gains() -> None:
    # The guard of the final choice (ismcts module docstring): a challenger is played only
    # when its mean paired gain passes MARGIN and SIGNIFICANCE standard errors.
    rules = load("blackwood-frey", [], {})
    state = searched_state(rules)
    moves = legal_moves(rules, state)
    base, other = moves[0], moves[1]
    root = ismcts._Node()
    root.order = [base, other]
    root.children = {base: _node_with([]), other: _node_with([-0.4, 0.6] * 4)}
    assert ismcts._guarded_choice(root, moves) == base  # mean +0.1, not significant
    root.children[other] = _node_with([0.2, 0.22] * 4)
    assert ismcts._guarded_choice(root, moves) == other  # +0.21, tiny spread
    root.children[other] = _node_with([0.01, 0.011] * 4)
    assert ismcts._guarded_choice(root, moves) == base  # significant, but under MARGIN
    root.children[other] = _node_with([0.5])
    assert ismcts._guarded_choice(root, moves) == base  # one pair: no standard error


class _Watched:
    """Checks every searched decision of an ismcts bot against the guard."""

    def __init__(self, player: IsmctsPlayer) -> None:
        self.player, self.searched, self.deviated = player, 0, 0

    def choose(self, rules: sm.RuleBook, state: sm.GameState,
               moves: Sequence[sm.Move]) -> sm.Move:
        move = self.player.choose(rules, state, moves)
        tree = self.player.tree
        if tree is None:  # a pay-off play, a route or a single legal move: no search
            return move
        self.searched += 1
        favourite = tree.order[0]
        assert favourite == ismcts.rank_moves(rules, view_of(state, state.seat), moves)[0]
        if move != favourite:
            self.deviated += 1
            gain, error = ismcts._mean_gain(tree.children[move])
            assert gain > ismcts.MARGIN
            assert gain > ismcts.SIGNIFICANCE * error
        return move


def test_the_bot_plays_the_heuristic_move_unless_its_search_shows_a_clear_gain() -> None:
    rules = load("blackwood-frey", [], {"payoff_size": 8})
    searched = deviated = 0
    for seed in range(2):
        watched = _Watched(_bot(seed))
        play_game(rules, [watched, make_player("heuristic", seed)], seed)
        searched += watched.searched
        deviated += watched.deviated
    assert searched > 10
    assert 0 < deviated < searched  # the search does overrule the heuristic, sometimes


def _turn_start(rules: sm.RuleBook) -> sm.GameState:
    # Seat 0 on turn at turn 1 after seat 1's discard; build piles at 5 and 3, seat 1's
    # pay-off top 7D: the inference rules out a 6 or a king in seat 1's hand.
    state = position(rules, hands=["2C 8C 9C JC QC", "4H 5C 9S 10D"], payoffs=["QD", "7D"],
                     builds=["AS 2S 3S 4S 5S", "AH 2H 3H"])
    return attrs.evolve(state, turn=1)


def test_samples_follow_what_the_last_mover_revealed(bf: sm.RuleBook,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # spitemalice.bots.inference: at a turn start the bot deals seat 1 only hands without a
    # run to its pay-off card, and keeps that for the rest of the turn; INFER off, it does not.
    made: list[Sampler] = []

    class Recording(Sampler):
        # The bot makes its sampler unchecked (its door checked): every sampler takes in its
        # view through _take_in, checked or not.
        def _take_in(self, *args: object) -> None:
            super()._take_in(*args)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(ismcts, "Sampler", Recording)
    state = _turn_start(bf)
    player = _bot(2, playouts=30)
    move = player.choose(bf, state, legal_moves(bf, state))
    constraint = made[-1].constraint
    assert isinstance(constraint, LastMoverHands) and constraint.seat == 1
    after = sm.apply_move(bf, state, move)
    if after.seat == 0:  # later in the same turn the same constraint holds
        player.choose(bf, after, legal_moves(bf, after))
        assert made[-1].constraint is constraint
    # Mid-turn in another game at the same turn number: that game's turn start was not
    # seen, so nothing is inferred (the constraint above is not carried over).
    other = attrs.evolve(state, turn_moves=1, seats=(state.seats[0], attrs.evolve(
        state.seats[1], discards=(parse_cards("9H"), (), (), ()))))
    player.choose(bf, other, legal_moves(bf, other))
    assert made[-1].constraint is None
    monkeypatch.setattr(ismcts, "INFER", False)
    _bot(2, playouts=30).choose(bf, state, legal_moves(bf, state))
    assert made[-1].constraint is None


def test_ismcts_reads_only_its_view_when_it_infers(bf: sm.RuleBook) -> None:
    # The twin holds other cards in seat 1's hand (some the inference rules out): the
    # decision depends on the view alone all the same.
    state = _turn_start(bf)
    twin = swap_hidden(state)
    assert view_of(twin, 0) == view_of(state, 0)
    assert LastMoverHands.at_turn_start(bf, view_of(state, 0)) is not None
    moves = legal_moves(bf, state)
    for seed in range(3):
        assert _bot(seed, playouts=40).choose(bf, twin, moves) == \
            _bot(seed, playouts=40).choose(bf, state, moves)


def test_a_turn_without_a_route_is_searched_once(bf: sm.RuleBook,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Caching within a turn: the route search from the turn's first position looked at
    # every position the seat's plays reach, so after a play that leaves cards in hand the
    # bot knows there is no route without searching again; a new turn searches again.
    state = position(bf, hands=["2C 3C 4H 9C 10D"], payoffs=["QD", "QC"], builds=["AS"])
    route, dead = search_route(bf, state, 0)
    assert route is None and turn_key(state, 0) in dead
    assert search_route(bf, state, 0, limit=1) == (None, frozenset())  # cut short: nothing known
    searches: list[sm.GameState] = []

    def counting(rules: sm.RuleBook, world: sm.GameState, me: int, limit: int) -> object:
        searches.append(world)
        return search_route(rules, world, me, limit)

    # The bot's own, unchecked route search (search_route checked)
    monkeypatch.setattr(ismcts, "_search_route", counting)
    player = _bot(0, playouts=8)
    moves = legal_moves(bf, state)
    play = next(m for m in moves if str(m) == "2C>B1")
    player.choose(bf, state, moves)
    after = sm.apply_move(bf, state, play)
    assert after.seat == 0 and len(searches) == 1
    player.choose(bf, after, legal_moves(bf, after))
    assert len(searches) == 1
    player.choose(bf, attrs.evolve(after, turn=2), legal_moves(bf, after))
    assert len(searches) == 2


def test_the_root_is_searched_in_pairs_on_one_determinization(
        bf: sm.RuleBook, monkeypatch: pytest.MonkeyPatch) -> None:
    # Common random numbers (ismcts module docstring): each iteration plays out the prior's
    # move and a challenger from the same determinization, and the play-outs run are the
    # budget, two per pair.
    calls: list[list[tuple[sm.GameState, sm.Move]]] = []
    iterate, play_out = ismcts._Search.iterate, ismcts._Search._play_out

    def watched_iterate(self: ismcts._Search, root: ismcts._Node, state: sm.GameState) -> int:
        calls.append([])
        return iterate(self, root, state)

    def watched_play_out(self: ismcts._Search, root: ismcts._Node, state: sm.GameState,
                         move: sm.Move) -> float:
        calls[-1].append((state, move))
        return play_out(self, root, state, move)

    monkeypatch.setattr(ismcts._Search, "iterate", watched_iterate)
    monkeypatch.setattr(ismcts._Search, "_play_out", watched_play_out)
    state = searched_state(bf)
    player = _bot(5, playouts=40)
    player.choose(bf, state, legal_moves(bf, state))
    assert player.tree is not None
    base = player.tree.order[0]
    assert sum(len(pair) for pair in calls) in (40, 41)
    assert all(len(pair) == 2 for pair in calls)
    for (first, prior), (second, challenger) in calls:
        assert first is second  # one determinization for both
        assert prior == base and challenger != base
    hidden = {first.seats[1 - state.seat].hand for (first, _), _ in calls}
    assert len(hidden) > 1  # a fresh determinization each iteration
    pairs = sum(child.pairs for child in player.tree.children.values())
    assert pairs == len(calls) and player.tree.children[base].pairs == 0


def test_every_play_out_follows_the_policy_below_its_root_move(
        bf: sm.RuleBook, monkeypatch: pytest.MonkeyPatch) -> None:
    # The search is cut to the root (ismcts module docstring, "Why no deeper tree"): below a
    # root move every seat plays its policy's move, so a move that ends the turn meets the
    # same play of the other seats as a move that keeps it.  A tree below the root explored
    # other moves there.
    played: list[tuple[sm.GameState, sm.Move]] = []
    starts: list[int] = []
    play_out = ismcts._Search._play_out

    def recording(rules: sm.RuleBook, state: sm.GameState, move: sm.Move) -> sm.GameState:
        played.append((state, move))
        return sm.apply_move(rules, state, move)

    def watched(self: ismcts._Search, root: ismcts._Node, state: sm.GameState,
                move: sm.Move) -> float:
        starts.append(len(played))
        return play_out(self, root, state, move)

    monkeypatch.setattr(ismcts, "apply_move", recording)
    monkeypatch.setattr(ismcts._Search, "_play_out", watched)
    state = searched_state(bf)
    player = _bot(3, playouts=40)
    player.choose(bf, state, legal_moves(bf, state))
    assert player.tree is not None and len(starts) >= 40
    starts.append(len(played))
    greedy = GreedyPlayer(0)
    followed = 0
    for begin, end in itertools.pairwise(starts):
        assert played[begin][1] in player.tree.children  # the root move
        for before, move in played[begin + 1:end]:
            assert move == greedy.choose(bf, before, legal_moves(bf, before))
            followed += 1
    assert followed > 80
