"""A move filter's "played" count is the moves of the kind it narrowed that were then made
(issue 35 §1): a discard-only filter's clause counts discards, never more than the discards
made (the discards clause's count), and its refusals apart; a play-only filter's clause
counts plays, never more than the plays made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine.coverage import Tally
from spitemalice.measures.coverage import ClauseCoverage, clause_coverage
from spitemalice.runs.loop import covered_game, play_game


class ThreeCardDiscards:
    """The docs' house rule (docs/variants.md section 6): a discard pile holds three cards."""

    NAME = "three-card-discards"
    KIND = "house-rule"
    REASONS: ClassVar[dict[str, str]] = {
        "discard-pile-full": "that discard pile holds three cards already"}

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return [sm.Clause("TD-1", "A discard pile holds at most 3 cards.", "TEST",
                          reasons=("discard-pile-full",)),
                sm.Clause("TD-2", "A seat with full piles that cannot play passes.", "TEST",
                          expects=("stuck-seat",), events=("passed",))]

    @sm.hookimpl
    def spitemalice_filter_moves(self, ruleset: sm.Ruleset, state: sm.GameState,
                                 moves: Sequence[sm.Move]) -> sm.MoveFilter | None:
        allowed = [m for m in moves if not (
            isinstance(m, sm.Discard)
            and len(state.seats[state.seat if m.owner is None else m.owner]
                    .discards[m.pile]) + len(m.cards) > 3)]
        if len(allowed) == len(moves):
            return None
        return sm.MoveFilter(allowed, "discard-pile-full", "a discard pile holds 3 cards")


def _tally(rules: sm.RuleBook, games: int) -> Tally:
    tally = Tally()
    for seed in range(games):
        _, counted = covered_game(rules, lambda on_move, s=seed: play_game(
            rules, [GreedyPlayer(0), GreedyPlayer(1)], s, on_move=on_move))
        tally.add(counted)
    return tally


def _rows(rules: sm.RuleBook, tally: Tally) -> dict[str, ClauseCoverage]:
    return {row.clause: row for row in clause_coverage(rules, tally)}


def test_a_discard_filter_counts_discards_only() -> None:
    rules = sm.RuleBook.from_plugins(sm.load_plugin("blackwood-frey"), [ThreeCardDiscards()],
                                     {"payoff_size": 8})
    tally = _tally(rules, 6)
    rows = _rows(rules, tally)
    td, discards = rows["TD-1"], rows["BF-14"]  # BF-14: one card per discard, every discard
    assert 0 < td.played <= discards.played
    assert td.refused["discard-pile-full"] > 0
    # Every move counted for TD-1 is a discard: its keys always hold a discard's check.
    for keys in tally.played:
        if "discard-pile-full" in keys:
            assert "discard-count" in keys and "wrong-rank" not in keys, keys


def test_a_play_filter_counts_plays_only() -> None:
    rules = sm.load("blackwood-frey", ["no-wild-on-wild"], {"payoff_size": 13})
    tally = _tally(rules, 6)
    rows = _rows(rules, tally)
    no, plays, discards = rows["NO-1"], rows["BF-3"], rows["BF-14"]
    assert 0 < no.played <= plays.played
    # Before issue 35 a discard made while a wild card topped a pile counted for NO-1 too.
    assert all("discard-count" not in keys for keys in tally.played if "wild-on-wild" in keys)
    assert discards.played > 0
