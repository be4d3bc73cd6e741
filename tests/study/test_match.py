"""Matches: games to a target score with the deal rotating (BF-11, BF-19)."""

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.study.match import play_match


@pytest.mark.clause("BF-19")
def test_a_match_ends_when_a_seat_reaches_the_target(bf: sm.RuleBook) -> None:
    result = play_match(bf, [GreedyPlayer(1), GreedyPlayer(2)], seed=5, target=40)
    assert result.winner is not None
    assert result.totals[result.winner] >= 40
    summed = [sum(g.final.outcome.scores[s] for g in result.games) for s in range(2)]
    assert list(result.totals) == summed
    last = result.games[-1].final.outcome.scores
    before_last = [total - score for total, score in zip(result.totals, last, strict=True)]
    assert max(before_last) < 40, "the match went on after the target was reached"


@pytest.mark.clause("BF-11")
def test_the_deal_rotates_and_the_dealer_plays_first() -> None:
    rules = sm.load("blackwood-frey", players=3, payoff_size=5)
    result = play_match(rules, [GreedyPlayer(i) for i in range(3)], seed=2, target=60)
    assert len(result.games) >= 3
    for previous, current in zip(result.dealers, result.dealers[1:], strict=False):
        assert current == (previous + 1) % 3
    assert [g.first_seat for g in result.games] == list(result.dealers)


def test_the_default_target_is_the_rule_sets(bf: sm.RuleBook) -> None:
    result = play_match(bf, [GreedyPlayer(3), GreedyPlayer(4)], seed=9)
    assert max(result.totals) >= bf.ruleset.match_target


def test_a_bad_target_is_refused(bf: sm.RuleBook) -> None:
    with pytest.raises(sm.SpiteMaliceError, match="target"):
        play_match(bf, [GreedyPlayer(1), GreedyPlayer(2)], seed=1, target=0)
