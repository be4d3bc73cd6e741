"""The ``learned`` bot and :class:`~spitemalice.bots.PolicyPlayer` (issue 39 §4): a policy
function seated at a table, deciding from its seat's view alone; the shipped network refuses a
rule set it was not trained for before any game starts, and beats the random bot."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest
from helpers.twins import swap_hidden

import spitemalice as sm
from spitemalice.bots import PLAYERS, check_player, make_player
from spitemalice.play import HUMAN, Session
from spitemalice.rules.loader import load_text
from spitemalice.runs.loop import play_game
from spitemalice.runs.runner import configuration

np = pytest.importorskip("numpy")
from spitemalice.env import LearnedPlayer, PolicyPlayer  # noqa: E402
from spitemalice.env.spaces import Encoding  # noqa: E402

BF = sm.load("blackwood-frey")
SHORT = sm.load("blackwood-frey", params={"payoff_size": 5})


def _states(rules: sm.RuleBook, seeds: range, every: int = 7) -> list[sm.GameState]:
    """Every ``every``-th live state of heuristic games dealt with ``seeds``."""
    found = []
    for seed in seeds:
        state, bots = sm.deal(rules, seed), [make_player("heuristic", seed)] * 2
        for step in range(400):
            if state.outcome is not None:
                break
            moves = sm.legal_moves(rules, state)
            if step % every == 0:
                found.append(state)
            state = sm.apply_move(rules, state, bots[state.seat].choose(rules, state, moves))
    return found


def test_learned_is_registered_and_decides_the_same_on_twins_it_cannot_tell_apart() -> None:
    """Two states that differ only in the opponent's hand and the draw pile give the seat on
    turn equal views, so the bot makes the same move in both (the view twin test)."""
    assert "learned" in PLAYERS
    bot = make_player("learned", 5)
    assert isinstance(bot, LearnedPlayer) and isinstance(bot, sm.ViewPlayer)
    checked = 0
    for state in _states(BF, range(3)):
        hand = state.seats[1 - state.seat].hand
        if len(state.draw) < 10 or Counter(state.draw[:len(hand)]) == Counter(hand):
            continue  # no twin to make from this draw pile
        twin = swap_hidden(state)
        assert sm.view_of(twin, state.seat) == sm.view_of(state, state.seat)
        moves = sm.legal_moves(BF, state)
        assert sm.legal_moves(BF, twin) == moves
        assert bot.choose(BF, twin, moves) == bot.choose(BF, state, moves), state
        checked += 1
    assert checked >= 20


def test_learned_beats_the_random_bot_in_a_seeded_match() -> None:
    """Twenty seeded deals, the learned bot in each seat in turn: it wins most of them and
    loses hardly any (random's games against a playing bot often end blocked: a draw)."""
    results: Counter[str] = Counter()
    for game in range(20):
        seat = game % 2
        seated = [make_player("learned", game), make_player("random", game)]
        if seat:
            seated.reverse()
        winner = play_game(BF, seated, 100 + game).final.outcome
        assert winner is not None
        results["drawn" if winner.winner is None else
                "won" if winner.winner == seat else "lost"] += 1
    assert results["won"] >= 9 and results["lost"] <= 2, results


@pytest.mark.parametrize(("rules", "named"), [
    (sm.load("blackwood-frey", players=3), "not 3 seats"),
    (sm.load("blackwood-frey", house_rules=["mandatory-aces"]), "house rules mandatory-aces"),
    (sm.load("blackwood-frey", params={"hand_size": 6}), "hand_size 6"),
    (sm.load("skip-bo"), "rule set skip-bo"),
    # a rule-set file that only names its base is a rule set of its own (no house rule)
    (load_text('title = "Table"\nversion = "1"\nbase = "blackwood-frey"\n'),
     r"not rule set table \(a rule-set file is its own rule set, even one based on "
     "blackwood-frey\\); choose"),
])
def test_a_rule_set_it_was_not_trained_for_is_refused_before_any_game(
        rules: sm.RuleBook, named: str) -> None:
    """Refused when the table or run is set up (``check_player``: the runner of ladder,
    tournament and balance, ``play`` and ``serve``'s sessions), naming what differs."""
    with pytest.raises(sm.SpiteMaliceError, match=f"trained for blackwood-frey.*{named}"):
        check_player("learned", rules)
    with pytest.raises(sm.SpiteMaliceError, match=named):
        configuration(rules, ["learned"] * (rules.players - 1) + ["greedy"])
    with pytest.raises(sm.SpiteMaliceError, match=named):
        Session(rules, [HUMAN, "learned"] + ["greedy"] * (rules.players - 2), seed=1)


def test_other_pay_off_sizes_are_played() -> None:
    check_player("learned", SHORT)  # no error
    game = play_game(SHORT, [make_player("learned", 1), make_player("greedy", 1)], 3)
    assert game.final.outcome is not None


def test_without_numpy_making_the_bot_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry names ``learned`` without numpy; making one says which extra it needs."""
    for name in [name for name in sys.modules if name.startswith("spitemalice.env")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails
    assert "learned" in PLAYERS
    with pytest.raises(sm.SpiteMaliceError,
                       match=r"the learned bot \(spitemalice.env.learned:LearnedPlayer\) cannot "
                             r"be loaded: .*needs the rl extra \(numpy is missing\): pip "
                             r"install 'spitemalice\[rl\]'"):
        make_player("learned", 0)


def _first_legal(observation: Any, mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


def test_a_policy_function_plays_at_a_table_from_the_environments_encoding() -> None:
    """An RL user's own policy: ``PolicyPlayer(policy)`` with ``policy(observation, mask)``.
    It sees exactly the ``-v1`` environments' observation and action mask of the seat."""
    seen: list[tuple[Any, Any]] = []

    def policy(observation: Any, mask: Any) -> int:
        seen.append((observation, mask))
        return _first_legal(observation, mask)

    player = PolicyPlayer(policy)
    encoding = Encoding(SHORT, 20, "card")
    for state in _states(SHORT, range(2), every=5)[:30]:
        moves = sm.legal_moves(SHORT, state)
        chosen = player.choose(SHORT, state, moves)
        observed = encoding.observe(state, state.seat)
        observation, mask = seen[-1]
        assert observation.dtype == np.int16 and mask.dtype == np.bool_
        assert np.array_equal(observation, observed["observation"])
        assert np.array_equal(mask, observed["action_mask"].astype(bool))
        assert chosen == encoding.move(state, _first_legal(observation, mask))
    game = play_game(SHORT, [player, make_player("random", 2)], 4)
    assert game.final.outcome is not None


def test_a_policy_that_breaks_the_contract_is_refused_by_name() -> None:
    state = sm.deal(SHORT, 1)
    moves = sm.legal_moves(SHORT, state)
    illegal = PolicyPlayer(lambda observation, mask: int(np.flatnonzero(~mask)[0]))
    with pytest.raises(sm.SpiteMaliceError, match=r"not a legal one here; the mask allows"):
        illegal.choose(SHORT, state, moves)
    with pytest.raises(sm.SpiteMaliceError, match="policy is a function"):
        PolicyPlayer(3)  # type: ignore[arg-type]
    with pytest.raises(sm.SpiteMaliceError, match="catalogue"):
        PolicyPlayer(_first_legal, catalogue="hand")
