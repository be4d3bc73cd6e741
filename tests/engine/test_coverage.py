"""Rule coverage (issue 19 §2, design notes §9 "Coverage is counted where the engine decides"):
the counts come from the engine's own checks and events, a clause no game exercised is a
warning naming it, and validate --strict fails on it unless the clause declares it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from helpers.positions import position

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer, make_player
from spitemalice.engine.check import decisions
from spitemalice.engine.coverage import Recorder, Tally, _discard_candidates, _sources
from spitemalice.measures.coverage import ENOUGH_GAMES, clause_coverage, coverage_notes
from spitemalice.moves import NEW_PILE, Discard, Play
from spitemalice.runs.loop import covered_game, play_game
from spitemalice.runs.runner import configuration
from spitemalice.study.compare import compare
from spitemalice.study.simulate import simulate
from spitemalice.validation import STEPS, Validation

PAIRS = sm.load("blackwood-frey", ["pair-discards"])


def _brute_refusals(rules: sm.RuleBook, state: sm.GameState) -> Counter[str]:
    """Every candidate the recorder counts, each asked of check_move afresh: the reason codes
    of those it refuses (the filters' included)."""
    listed = set(sm.legal_moves(rules, state))
    candidates: list[sm.Move] = [sm.Pass()]
    for zone, index, owner, card in _sources(rules, state):
        candidates += [Play(zone, card, target, index, owner)
                       for target in (*range(len(state.builds)), NEW_PILE)]
    team = rules.teams.teams[rules.teams.team_of(state.seat)]
    for cards in _discard_candidates(state.seats[state.seat]):
        candidates += [Discard(cards, pile, None if owner == state.seat else owner)
                       for owner in team for pile in range(rules.discard.piles)]
    refused: Counter[str] = Counter()
    for move in candidates:
        if move in listed:
            continue
        rules.forget_last_legal()
        with pytest.raises(sm.IllegalMove) as refusal:
            sm.check_move(rules, state, move)
        refused[refusal.value.reason] += 1
    rules.forget_last_legal()
    return refused


@pytest.mark.parametrize(("name", "house_rules", "params"), [
    ("blackwood-frey", ["pair-discards"], {}),
    ("blackwood-frey", ["mandatory-aces", "wild-must-be-covered"], {}),
    ("skip-bo", ["partnerships"], {"partner_piles": "own"}),
    ("skip-bo", ["partnerships"], {"partner_piles": "share"}),
    ("g4a", [], {}),
    ("skip-bo", ["no-wild-on-wild"], {"recycle_under_tops": True}),
])
def test_refusals_are_the_engines_own(name: str, house_rules: list[str],
                                      params: dict[str, object]) -> None:
    # The recorder asks the engine once per kind of candidate and reuses the answer; at every
    # position its counts equal check_move's refusals of each candidate asked afresh.
    rules = sm.load(name, house_rules, params)
    states: list[sm.GameState] = []
    for game in range(3):
        players = [make_player("random" if game % 2 else "greedy", 10 * game + seat)
                   for seat in range(rules.players)]
        play_game(rules, players, game, on_move=lambda state, _: states.append(state))
    recorder = Recorder(rules)
    for state in states[::9]:
        before = Counter(recorder.tally.refused)
        recorder.move(state, sm.legal_moves(rules, state)[0])
        counted = Counter(recorder.tally.refused)
        counted.subtract(before)
        assert +counted == _brute_refusals(rules, state), str(state)


def test_a_played_move_counts_the_checks_it_passed() -> None:
    state = position(PAIRS, hands=["QH QS 3C"], payoffs=["9S", "9D"], builds=["AS 2S"])
    pair = Discard((sm.parse_card("QH"), sm.parse_card("QS")), 0)
    assert "pair-unequal" in decisions(PAIRS, state, pair)  # PD-1 decided it
    assert "pair-unequal" not in decisions(PAIRS, state, sm.parse_move("QH>D1"))
    play = decisions(PAIRS, state, sm.parse_move("3C>B1"))
    assert {"wrong-rank", "not-in-hand", "game-over"} <= set(play)
    with pytest.raises(sm.IllegalMove):
        decisions(PAIRS, state, sm.parse_move("QH>B1"))
    forced = sm.load("blackwood-frey", ["mandatory-aces"])
    # MA-1 refused only discards here: the ace play is not counted as a play it decided (its
    # refusals are counted apart); where it also refused a play, 5C onto the 4, it is.
    aces = position(forced, hands=["AH 5C"], payoffs=["9S", "9D"])
    assert "forced-play" not in decisions(forced, aces, sm.parse_move("AH>B+"))
    beside = position(forced, hands=["AH 5C"], payoffs=["9S", "9D"], builds=["AS 2S 3S 4S"])
    assert "forced-play" in decisions(forced, beside, sm.parse_move("AH>B+"))  # MA-1 narrowed


def test_events_are_counted_where_they_happen_and_only_while_recording() -> None:
    bf = sm.load("blackwood-frey")
    state = position(bf, hands=["QH 5C"], payoffs=["9S", "9D"],
                     builds=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"])
    with Recorder(bf) as recorder:
        sm.apply_move(bf, state, sm.parse_move("QH>B1"))  # BF-6: the pile completes
    assert recorder.tally.fired == Counter({"pile-completed": 1})
    assert bf.engine_cache.fired is None
    sm.apply_move(bf, state, sm.parse_move("QH>B1"))
    assert recorder.tally.fired == Counter({"pile-completed": 1})


class NoPairs:
    """The greedy bot as it played before issue 19: it never discards two cards at once."""

    def __init__(self, seed: int) -> None:
        self.greedy = GreedyPlayer(seed)

    def choose(self, rules: sm.RuleBook, state: sm.GameState,
               moves: Sequence[sm.Move]) -> sm.Move:
        singles = [m for m in moves if not (isinstance(m, Discard) and len(m.cards) > 1)]
        return self.greedy.choose(rules, state, singles)


def test_a_clause_no_bot_exercised_is_a_warning_naming_it() -> None:
    tally = Tally()
    for game in range(4):
        players = [NoPairs(10 * game + seat) for seat in range(PAIRS.players)]
        _, counted = covered_game(PAIRS, lambda on_move, p=players, g=game: play_game(
            PAIRS, p, g, on_move=on_move))
        tally.add(counted)
    rows = clause_coverage(PAIRS, tally)
    notes = coverage_notes(PAIRS, rows, tally.games)  # in 4 games: not enough to judge
    assert {note.level for note in notes if note.clause == "PD-1"} == {"info"}
    warnings = [n.message for n in coverage_notes(PAIRS, rows, tally.games, enough=4)
                if n.level == "warning"]
    assert any(message.startswith("PD-1 was never exercised: no seat made a pair discard")
               and "in 4 games" in message and "expects=('unexercised',)" in message
               for message in warnings)
    greedy = simulate(PAIRS, ["greedy"], 4, 0, coverage=True)  # today's bot makes them
    assert not any(note.clause == "PD-1" for note in greedy.coverage_notes)


class NeverBlocked:
    """A third-party house rule whose clause defines an event no game reaches."""

    NAME = "never-blocked"
    KIND = "house-rule"

    def __init__(self, declare: bool) -> None:
        self.declare = declare

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        expects = ("unexercised",) if self.declare else ()
        return [sm.Clause("NB-1", "A blocked game is replayed from a fresh deal.", "TEST",
                          events=("blocked",), expects=expects)]


def _never_blocked(declare: bool) -> sm.RuleBook:
    return sm.RuleBook.from_plugins(sm.load_plugin("blackwood-frey"), [NeverBlocked(declare)],
                                    {"payoff_size": 6})


def test_validate_strict_fails_on_an_unexercised_clause() -> None:
    # Only this configuration's own games matter here: the games at other seat counts and in
    # other stacking orders (tested elsewhere) are left out to keep the test quick.
    judged = tuple(step for step in STEPS if step.name not in (
        "games at every seat count", "house rules stacked in every order"))
    report = Validation(_never_blocked(False), games=ENOUGH_GAMES, seed=1,
                        house_rules=["never-blocked"], steps=judged).run()
    found = [f for f in report.findings if f.name == "unexercised" and "NB-1" in f.message]
    assert len(found) == 1 and found[0].level == "warning"
    assert found[0].message.startswith("NB-1 was never exercised: no game ended blocked in "
                                       f"{ENOUGH_GAMES} games; if the rules intend this")
    assert report.ok() and not report.ok(strict=True)
    assert next(row for row in report.coverage if row.clause == "NB-1").exercised is False


def test_a_clause_declaring_it_is_reported_as_intended() -> None:
    rules = _never_blocked(True)
    _, tally = covered_game(rules, lambda on_move: play_game(
        rules, [GreedyPlayer(0), GreedyPlayer(1)], 5, on_move=on_move))
    notes = coverage_notes(rules, clause_coverage(rules, tally), tally.games)
    mine = [note for note in notes if note.clause == "NB-1"]
    assert len(mine) == 1 and mine[0].level == "info"
    assert mine[0].message.endswith("(intended: clause NB-1)")


def test_an_outside_rules_study_warns_only_of_its_own_clauses() -> None:
    """Issue 19 4b: under a house rule from outside spitemalice, the built-in rule set's
    clauses are spitemalice's to judge: left unexercised they are info, the house rule's own
    clause a warning; with built-in rules only, every clause warns."""
    rules = _never_blocked(False)
    rows = clause_coverage(rules, Tally(games=ENOUGH_GAMES))  # a study that exercised nothing
    levels = {note.clause: note for note in coverage_notes(rules, rows, ENOUGH_GAMES)}
    assert levels["NB-1"].level == "warning"
    assert levels["BF-8"].level == "info"
    assert levels["BF-8"].message.endswith("(a clause of spitemalice's built-in rules, judged "
                                           "when those are validated)")
    bf = sm.load("blackwood-frey", payoff_size=6)
    plain = coverage_notes(bf, clause_coverage(bf, Tally(games=ENOUGH_GAMES)), ENOUGH_GAMES)
    assert next(note for note in plain if note.clause == "BF-8").level == "warning"


def test_a_clause_must_name_known_events() -> None:
    with pytest.raises(sm.RulesetError, match="clause X-1: events names 'pile-full'"):
        sm.Clause("X-1", "text", "TEST", events=("pile-full",))


def test_compare_warns_when_a_and_b_played_identical_games() -> None:
    bf = sm.load("blackwood-frey", payoff_size=6)
    same = compare(configuration(bf, ["greedy"]), configuration(bf, ["greedy"]), 3, 0,
                   coverage=False)
    assert same.identical == 3 and "A and B played identical games" in same.warnings()[0]
    pairs = sm.load("blackwood-frey", ["pair-discards"], payoff_size=6)
    differ = compare(configuration(bf, ["greedy"]), configuration(pairs, ["greedy"]), 3, 0)
    assert differ.identical < 3
    assert not any("identical" in said for said in differ.warnings())
    coverage = differ.as_dict()["coverage"]
    assert coverage["b"]["clauses"]["PD-1"]["played"] > 0  # type: ignore[index]
    assert "PD-1" not in coverage["a"]["clauses"]  # type: ignore[index]


def test_recording_coverage_leaves_the_games_as_they_were() -> None:
    bf = sm.load("blackwood-frey", payoff_size=6)
    plain = simulate(bf, ["greedy"], 3, 0)
    assert plain.coverage == () and "coverage" not in plain.as_dict()
    covered = simulate(bf, ["greedy"], 3, 0, coverage=True)
    assert covered.as_dict(timing=False) | {"coverage": None} == \
        plain.as_dict(timing=False) | {"coverage": None}
    clauses = covered.as_dict(timing=False)["coverage"]["clauses"]  # type: ignore[index]
    assert clauses["BF-16"]["fired"] == {"win": covered.outcomes["win"]}
    assert clauses["BF-1"]["fired"] == {"dealt": 3}
