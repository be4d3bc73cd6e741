"""Designer metrics (issue 35 §3), each checked where its value is known by construction."""

from __future__ import annotations

import pytest
from helpers.positions import position

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.measures.interval import Interval
from spitemalice.measures.shape import (
    GameShape,
    game_shape,
    shape_metrics,
    skill_over_chance,
)
from spitemalice.runs.game_shape import (
    _effect as effect,
)
from spitemalice.runs.game_shape import (
    _matters,
)
from spitemalice.runs.loop import play_game


def shape(leaders: tuple[int | None, ...], winner: int | None = 0,
          legal: tuple[int, ...] = (), mattered: tuple[bool, ...] = ()) -> GameShape:
    legal = legal or (2,) * len(leaders)
    return GameShape(len(leaders), leaders, winner, legal, (True,) * len(legal), mattered)


def test_lead_changes_count_a_change_of_leader_across_level_spells() -> None:
    assert shape((None, 0, 0, None, 1, 1, 0)).lead_changes == 2
    assert shape((None, 0, None, 0)).lead_changes == 0  # level, then the same leader again
    assert shape((None, None, None)).lead_changes == 0


def test_comeback_is_a_winner_another_side_led_at_the_half() -> None:
    assert shape((None, 1, 1, 0, 0), winner=0).comeback is True
    assert shape((0, 0, 0, 0, 0), winner=0).comeback is False
    assert shape((None, None, None, 0), winner=0).comeback is True  # nobody led: not its lead
    assert shape((0, 1), winner=None).comeback is None


def test_lead_for_good_is_where_the_winner_last_took_the_lead() -> None:
    assert shape((0, 0, 0, 0), winner=0).lead_for_good == 0.0
    assert shape((1, 1, 0, 0), winner=0).lead_for_good == 0.5
    assert shape((0, 1, None, 0), winner=0).lead_for_good == 0.75


def test_choice_by_third_of_the_decisions() -> None:
    narrowing = shape((0,) * 9, legal=(3, 3, 3, 2, 2, 2, 1, 1, 1))
    assert [narrowing.choice(third) for third in range(3)] == [3.0, 2.0, 1.0]
    found = shape_metrics([narrowing, narrowing])
    assert found["choice_early"].estimate == 3.0 and found["choice_late"].estimate == 1.0


def test_mattered_is_the_share_of_probes_that_changed_the_winner() -> None:
    found = shape_metrics([shape((0, 0), mattered=(True, False)),
                           shape((0, 0), mattered=(False, False))])
    assert found["mattered"].estimate == 0.25 and found["mattered"].n == 4


def test_skill_over_chance_scales_the_share_above_fair() -> None:
    assert skill_over_chance(Interval(0.5, 0.4, 0.6, 100)).estimate == 0.0
    scaled = skill_over_chance(Interval(0.75, 0.7, 0.8, 100))
    assert (scaled.estimate, scaled.low, scaled.high) == pytest.approx((0.5, 0.4, 0.6))
    assert skill_over_chance(Interval(1.0, 0.9, 1.0, 100)).estimate == 1.0
    assert skill_over_chance(Interval(0.2, 0.1, 0.3, 100)).high == 0.0  # below chance: 0
    with pytest.raises(ValueError, match="fair above 0 and below 1"):
        skill_over_chance(Interval(0.5, 0.4, 0.6, 10), 1.0)


def test_a_one_card_pay_off_pile_has_no_lead_before_the_winning_play() -> None:
    # By construction: the first pay-off card cleared wins, so no side leads before the last
    # move, the lead never changes, nobody led at the half, and the winner led at the end only.
    rules = sm.load("blackwood-frey", payoff_size=1)
    for seed in range(5):
        result = play_game(rules, [GreedyPlayer(0), GreedyPlayer(1)], seed)
        game = game_shape(rules, result)
        assert game.winner is not None
        assert game.leaders[:-1] == (None,) * (game.moves - 1)
        assert game.lead_changes == 0 and game.comeback is True
        assert game.lead_for_good == (game.moves - 1) / game.moves


def test_a_decision_between_winning_and_not_mattered() -> None:
    # Seat 0's last pay-off card, a 3, can go onto the 2: that move wins at once.  Every
    # other move is a discard, after which seat 1 plays its own last pay-off card, the other
    # 3, and wins: the winner turns on this decision.
    rules = sm.load("blackwood-frey", payoff_size=2)
    state = position(rules, hands=["9H 9S 9C 9D 8H", "4C 5C 6C 7C 8C"],
                     payoffs=["3H", "3S"], builds=["AS 2S"])
    moves = sm.legal_moves(rules, state)
    effects = {effect(state, move): move for move in moves}
    win = next(m for m in moves if isinstance(m, sm.Play) and m.zone is sm.Zone.PAYOFF)
    assert len(effects) > 1
    assert all(isinstance(m, sm.Discard) for m in moves if m != win)
    assert all(_matters(rules, state, win, effects, seed) for seed in range(3))
