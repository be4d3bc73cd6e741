"""Property tests: the invariants of design notes §6 hold in every game of every rule set."""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import spitemalice as sm
from spitemalice.cards import parse_card
from spitemalice.engine.invariants import check_state, check_transition
from spitemalice.engine.legal import base_moves
from spitemalice.moves import NEW_PILE, Discard, Pass, Play, Zone
from spitemalice.rules.loader import turn_based_rulesets


def _configurations() -> list[tuple[str, int]]:
    # spit's seats move at once: its own random games are in tests/variants/test_spit.py
    configs = []
    for name in turn_based_rulesets():
        book = sm.load(name)
        for players in book.ruleset.player_counts:
            configs.append((name, players))
    return configs


CONFIGS = _configurations()


@functools.cache
def book(name: str, players: int) -> sm.RuleBook:
    return sm.load(name, players=players)


configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=400)


def walk(rules: sm.RuleBook, seed: int, picks: list[int]):
    """Yield (state, move, next state) along the game that ``picks`` chooses by index."""
    state = sm.deal(rules, seed)
    for pick in picks:
        moves = sm.legal_moves(rules, state)
        if not moves:
            return
        move = moves[pick % len(moves)]
        after = sm.apply_move(rules, state, move)
        yield state, move, after
        state = after


@given(configs, seeds, choices)
def test_every_move_keeps_every_invariant(config, seed, picks) -> None:
    rules = book(*config)
    assert check_state(rules, sm.deal(rules, seed)) == []
    for before, move, after in walk(rules, seed, picks):
        assert check_transition(rules, before, move, after) == []


@given(configs, seeds, choices)
def test_apply_is_pure_and_deterministic(config, seed, picks) -> None:
    rules = book(*config)
    for before, move, after in walk(rules, seed, picks[:60]):
        snapshot = sm.GameState(before.seats, before.builds, before.draw, before.completed,
                                before.seat, before.turn, before.turn_moves, before.idle_turns,
                                before.seed, before.shuffles, before.outcome)
        assert sm.apply_move(rules, before, move) == after
        assert before == snapshot and hash(before) == hash(snapshot)


@given(configs, seeds)
def test_the_same_seed_deals_the_same_game(config, seed) -> None:
    rules = book(*config)
    assert sm.deal(rules, seed) == sm.deal(rules, seed)
    picks = list(range(0, 3000, 7))
    first = [move for _, move, _ in walk(rules, seed, picks)]
    assert first == [move for _, move, _ in walk(rules, seed, picks)]


def candidate_moves(state: sm.GameState, rules: sm.RuleBook) -> list[sm.Move]:
    """Moves built from every card in sight and every pile number, legal or not."""
    cards = set(state.all_cards()) | {parse_card("KS"), parse_card("AH")}
    piles = [*range(len(state.builds) + 1), NEW_PILE]
    moves: list[sm.Move] = [Pass()]
    for card in sorted(cards)[:20]:
        for pile in piles:
            moves.append(Play(Zone.HAND, card, pile))
            moves.append(Play(Zone.DISCARD, card, pile, index=pile % rules.discard.piles))
            moves.append(Play(Zone.PAYOFF, card, pile))
            moves.append(Play(Zone.HAND, card, pile, index=1))
            moves.append(Play(Zone.DISCARD, card, pile, owner=state.seat))
            moves.append(Play(Zone.PAYOFF, card, pile, owner=(state.seat + 1) % len(state.seats)))
        moves.append(Discard((card,), 0))
        moves.append(Discard((card, card), 1))
    return moves


@given(configs, seeds, choices)
def test_check_move_accepts_exactly_the_legal_moves(config, seed, picks) -> None:
    rules = book(*config)
    for before, _, _ in walk(rules, seed, picks[:25]):
        legal = set(sm.legal_moves(rules, before))
        for move in candidate_moves(before, rules):
            assert sm.is_legal(rules, before, move) == (move in legal), str(move)


def _stacks() -> list[tuple[str, str]]:
    """Every pair of built-in house rules that stacks on blackwood-frey, in both orders."""
    names = sorted(p.name for p in sm.installed() if p.kind == "house-rule"
                   and p.origin.startswith("spitemalice_variants"))
    stacks = []
    for first, second in itertools.permutations(names, 2):
        try:
            stacked(first, second)
        except sm.RulesetError:
            continue
        stacks.append((first, second))
    return stacks


@functools.cache
def stacked(*house_rules: str) -> sm.RuleBook:
    return sm.load("blackwood-frey", house_rules)


def ordered_pairs(state: sm.GameState) -> list[sm.Move]:
    """Discards of every ordered pair of hand cards (the seat picks which ends on top)."""
    hand = state.seats[state.seat].hand
    return [Discard((a, b), 0) for i, a in enumerate(hand) for j, b in enumerate(hand) if i != j]


@given(st.sampled_from(_stacks()), seeds, choices)
def test_legal_moves_and_check_move_agree_under_stacked_house_rules(order, seed, picks) -> None:
    """Over two house rules stacked in either order: check_move (cache cleared) accepts
    exactly the listed moves, and every forced-play rule that answers allows every listed
    move (two filters must both apply)."""
    rules = stacked(*order)
    for before, _, _ in walk(rules, seed, picks[:25]):
        legal = set(sm.legal_moves(rules, before))
        offered = base_moves(rules, before)
        for hook in rules.filter_moves_hooks:
            answer = hook(rules.ruleset, before, offered)
            if answer is not None and legal != {Pass()}:
                assert legal <= set(answer.allowed), order
        for move in [*candidate_moves(before, rules), *ordered_pairs(before)]:
            rules.forget_last_legal()
            assert sm.is_legal(rules, before, move) == (move in legal), (order, str(move))


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_random_games_end_with_a_declared_outcome(config) -> None:
    from spitemalice.bots.players import RandomPlayer
    from spitemalice.runs.loop import play_game

    rules = book(*config)
    for seed in range(5):
        players = [RandomPlayer(seed * 10 + i) for i in range(rules.players)]
        result = play_game(rules, players, seed)
        assert result.final.outcome is not None
        assert result.final.outcome.kind in ("win", "drawn", "blocked", "turn-limit")


class LegalMoveMachine(RuleBasedStateMachine):
    """Plays any legal move, chosen by index so that failures shrink to short games."""

    @initialize(config=configs, seed=seeds)
    def start(self, config, seed) -> None:
        self.rules = book(*config)
        self.state = sm.deal(self.rules, seed)

    @precondition(lambda self: self.state.outcome is None)
    @rule(pick=st.integers(min_value=0, max_value=500))
    def play(self, pick) -> None:
        moves = sm.legal_moves(self.rules, self.state)
        move = moves[pick % len(moves)]
        before = self.state
        self.state = sm.apply_move(self.rules, before, move)
        assert check_transition(self.rules, before, move, self.state) == []

    @precondition(lambda self: self.state.outcome is not None)
    @rule()
    def ended(self) -> None:
        assert sm.legal_moves(self.rules, self.state) == ()

    @invariant()
    def live_or_declared(self) -> None:
        if hasattr(self, "state"):
            assert self.state.outcome is not None or sm.legal_moves(self.rules, self.state)


TestLegalMoveMachine = LegalMoveMachine.TestCase


def test_seeded_sweep_reaches_every_rule_path(bf: sm.RuleBook) -> None:
    """A coverage floor: seeded games reach each rule path the invariants must hold on."""
    from spitemalice.bots.players import GreedyPlayer, RandomPlayer

    reached: set[str] = set()

    def observe(before: sm.GameState, move: sm.Move, after: sm.GameState) -> None:
        mover = before.seats[before.seat]
        if len(after.completed) > len(before.completed):
            reached.add("completed pile")
        if after.shuffles > before.shuffles and not after.completed and before.completed:
            reached.add("recycle")
        if isinstance(move, Play) and bf.wild.is_wild(move.card):
            reached.add("wild played")
        emptied = isinstance(move, Play) and move.zone is Zone.HAND and len(mover.hand) == 1
        if emptied and after.outcome is None and after.seats[before.seat].hand:
            reached.add("hand emptied and redrawn")
        if any(c.rank in bf.discard.forbidden for c in mover.hand):
            reached.add("refused discard")
        if after.outcome is not None:
            reached.add(f"outcome {after.outcome.kind}")

    for seed in range(40):
        players = [GreedyPlayer(seed), RandomPlayer(seed)] if seed % 2 else [RandomPlayer(seed)] * 2
        state = sm.deal(bf, seed)
        while state.outcome is None:
            move = players[state.seat].choose(bf, state, sm.legal_moves(bf, state))
            after = sm.apply_move(bf, state, move)
            observe(state, move, after)
            state = after
    assert reached >= {
        "completed pile", "recycle", "wild played", "hand emptied and redrawn",
        "refused discard", "outcome win", "outcome drawn",
    }, reached


@pytest.mark.parametrize("text", ["9H>B\u0661", "\u0661H>D1", "S\u00b9.D1:5H>B1"])
def test_non_ascii_digits_are_not_numbers(text: str) -> None:
    with pytest.raises(sm.NotationError):
        sm.parse_move(text)


def test_a_move_that_is_not_text_is_refused() -> None:
    with pytest.raises(sm.NotationError, match="a move is text"):
        sm.parse_move(None)  # type: ignore[arg-type]
