"""Scenario tests for the partnerships house rule (PT-1 ... PT-7) and teams in the core."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from helpers import sheet_checks as check
from helpers.positions import position

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.cards import parse_cards
from spitemalice.engine.invariants import check_transition
from spitemalice.engine.views import view_legal_moves
from spitemalice.rules.registry import base_sheet, load_plugin
from spitemalice.runs.loop import play_game
from spitemalice.study.simulate import simulate

TEAMS = sm.load("skip-bo", ["partnerships"])
SHARE = sm.load("skip-bo", ["partnerships"], partner_piles="share")
OWN = sm.load("skip-bo", ["partnerships"], partner_piles="own")
SIX = sm.load("skip-bo", ["partnerships"], players=6)


def table(rules: sm.RuleBook, **piles: object) -> sm.GameState:
    """A four-seat position: seat 0 on turn holding 9 and 10, each seat showing a pay-off top."""
    given = {"hands": ["9 10"], "payoffs": ["8", "7", "6", "5"], **piles}
    return position(rules, **given)  # type: ignore[arg-type]


@pytest.mark.clause("PT-1")
def test_teams_of_two_sit_opposite() -> None:
    assert TEAMS.players == 4 and TEAMS.teams.teams == ((0, 2), (1, 3))
    assert SIX.teams.teams == ((0, 3), (1, 4), (2, 5))
    assert [TEAMS.teams.team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    state = sm.deal(TEAMS, seed=4)
    after = sm.apply_move(TEAMS, state, sm.legal_moves(TEAMS, state)[-1])
    assert TEAMS.teams.team_of(after.seat) != TEAMS.teams.team_of(state.seat)
    assert sm.load("blackwood-frey", ["partnerships"]).teams.teams == ((0, 2), (1, 3))


@pytest.mark.clause("PT-1")
def test_a_rule_set_or_seat_count_that_cannot_form_teams_is_refused() -> None:
    with pytest.raises(sm.RulesetError, match="needs 4 or 6 seats, and uspcc is for 2 players"):
        sm.load("uspcc", ["partnerships"])
    with pytest.raises(sm.RulesetError, match="misery is for 2 to 3 players"):
        sm.load("misery", ["partnerships"])
    with pytest.raises(sm.RulesetError, match=r"teams of 2.*4 or 6, not 5"):
        sm.load("skip-bo", ["partnerships"], players=5)
    with pytest.raises(sm.RulesetError, match="4, not 3"):
        sm.load("blackwood-frey", ["partnerships"], players=3)

    class Paired:
        NAME, KIND = "paired", "ruleset"

        @sm.hookimpl
        def spitemalice_ruleset(self) -> sm.Ruleset:
            return attrs.evolve(sm.load("skip-bo").ruleset, team_size=2, players=4)

        @sm.hookimpl
        def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
            return base_sheet("skip-bo", ruleset)  # every refusal needs a clause to cite

    assert sm.RuleBook.from_plugins(Paired()).teams.teams == ((0, 2), (1, 3))
    with pytest.raises(sm.RulesetError, match="already plays in teams of 2"):
        sm.RuleBook.from_plugins(Paired(), [load_plugin("partnerships")])


@pytest.mark.clause("PT-1")
def test_the_sheet_names_the_teams_played() -> None:
    threes = sm.load("skip-bo", ["partnerships"], players=6, team_size=3)
    assert threes.teams.teams == ((0, 2, 4), (1, 3, 5))
    text = threes.clause("PT-1").text
    assert "teams of three" in text and "with six seats the teams are 0+2+4 and 1+3+5" in text
    assert "0+3" not in text and "teams of two" not in text
    assert "with four seats the teams are 0+2 and 1+3." in TEAMS.clause("PT-1").text
    assert "with six seats the teams are 0+3, 1+4 and 2+5." in SIX.clause("PT-1").text
    assert "0+2+4 and 1+3+5" in threes.sheet_text()


@pytest.mark.clause("PT-1")
def test_the_sheet_names_the_teams_a_hook_forms() -> None:
    class Paired:  # teams chosen by the teams hook, not the base seating
        NAME, KIND = "side-by-side", "house-rule"

        @sm.hookimpl
        def spitemalice_teams(self, ruleset: sm.Ruleset) -> tuple[tuple[int, ...], ...]:
            return ((0, 1), (2, 3))

    rules = sm.RuleBook.from_plugins(load_plugin("skip-bo"),
                                     [load_plugin("partnerships"), Paired()])
    assert rules.teams.teams == ((0, 1), (2, 3))
    assert "the teams are 0+1 and 2+3." in rules.clause("PT-1").text


@pytest.mark.parametrize("setting", [{"team_size": 2, "players": 4},
                                     {"team_size": 3, "players": 6},
                                     {"partner_piles": "share"}, {"partner_piles": "own"}])
def test_team_parameters_without_the_house_rule_are_refused(
    setting: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    from spitemalice.cli import main
    from spitemalice.formats import record_from_dict, record_result, record_to_dict, rules_for

    field = next(name for name in setting if name != "players")
    message = rf"^{field} = {setting[field]} .* on skip-bo .*; add --house-rule partnerships$"
    with pytest.raises(sm.RulesetError, match=message):
        sm.load("skip-bo", **setting)
    args = [arg for name, value in setting.items() for arg in ("--set", f"{name}={value}")]
    assert main(["simulate", "skip-bo", *args, "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "add --house-rule partnerships" in err and field in err
    params = "\n".join(f"{name} = {json.dumps(value)}" for name, value in setting.items())
    path = tmp_path / "teams.toml"
    path.write_text(f'title = "T"\nversion = "1"\nbase = "skip-bo"\n[params]\n{params}\n')
    with pytest.raises(sm.RulesetError, match="add --house-rule partnerships"):
        sm.load(path)
    path.write_text(f'title = "T"\nversion = "1"\nbase = "skip-bo"\n'
                    f'house_rules = ["partnerships"]\n[params]\n{params}\n')
    assert all(getattr(sm.load(path).ruleset, k) == v for k, v in setting.items())
    played = sm.load("skip-bo", ["partnerships"], **setting)  # the house rule states them
    data = record_to_dict(record_result(played, play_game(
        played, [GreedyPlayer(s) for s in range(played.players)], seed=3)))
    assert rules_for(record_from_dict(data)).ruleset == played.ruleset
    alone = {**data, "ruleset": {**data["ruleset"], "house_rules": [], "params": setting}}
    with pytest.raises(sm.RulesetError, match="add --house-rule partnerships"):
        rules_for(record_from_dict(alone))


@pytest.mark.parametrize(("ruleset", "setting", "hint"), [
    ("uspcc", {"team_size": 2}, "uspcc is for 2 players only, too few for two or more whole "
     "teams of 2: leave team_size at 1, or play teams with --house-rule partnerships on a rule "
     "set for 4 or 6 players"),
    ("g4a", {"team_size": 2}, "g4a is for 2 players only, too few"),
    ("blackwood-frey", {"team_size": 2}, "4, not 2 (teams are played with --house-rule "
     "partnerships)"),
])
def test_a_team_size_no_seat_count_can_form_names_the_partnerships_house_rule(
        ruleset: str, setting: dict, hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A fresh user set team_size on uspcc: the refusal said "no seat count it allows" and not
    how teams are played (skip-bo's says "add --house-rule partnerships")."""
    from spitemalice.cli import main

    with pytest.raises(sm.RulesetError) as error:
        sm.load(ruleset, **setting)
    assert hint in str(error.value)
    assert "--house-rule partnerships" in str(error.value)
    assert main(["simulate", ruleset, "--set", "team_size=2", "--games", "1"]) == 2
    assert "--house-rule partnerships" in capsys.readouterr().err


def test_team_parameters_at_their_own_values_load_without_the_house_rule() -> None:
    assert sm.load("skip-bo", team_size=1, partner_piles="play").teams.teams == ((0,), (1,))
    assert sm.load("skip-bo", ["partnerships"]).ruleset.team_size == 2


@pytest.mark.clause("PT-2")
def test_a_seat_plays_from_its_partners_discard_top_and_pay_off_top() -> None:
    state = table(TEAMS, discards=[[], [], ["3 4"]], builds=["1 2 3", "1 2 3 4 5"])
    moves = sm.legal_moves(TEAMS, state)
    assert sm.parse_move("S2.D1:4>B1") in moves and sm.parse_move("S2.P:6>B2") in moves
    after = check.play(TEAMS, state, "S2.D1:4>B1")
    assert after.seats[2].discards[0] == parse_cards("3")
    assert after.seats[0].hand == state.seats[0].hand
    after = check.play(TEAMS, after, "S2.P:6>B2")
    assert after.seats[2].payoff == ((),) and after.outcome is None and after.seat == 0


@pytest.mark.clause("PT-2")
def test_a_partners_buried_card_an_opponents_pile_and_a_partners_hand_are_refused() -> None:
    state = table(TEAMS, hands=["9 10", "", "3"], discards=[[], ["4"], ["3 9"]],
                  builds=["1 2"])
    error = check.refused(TEAMS, state, "S2.D1:3>B1")
    assert error.reason == "buried-card"
    error = check.refused(TEAMS, state, "S1.D1:4>B1")
    assert (error.reason, error.clause) == ("not-own-pile", "PT-2")
    assert "seat 2's" in str(error)
    error = check.refused(TEAMS, state, "S2.3>B1")
    assert (error.reason, error.clause) == ("not-own-pile", "PT-2")


@pytest.mark.clause("PT-2")
def test_reading_d_each_seat_plays_only_its_own_piles() -> None:
    state = table(OWN, discards=[[], [], ["3"]], builds=["1 2"])
    assert not any(getattr(m, "owner", None) for m in sm.legal_moves(OWN, state))
    error = check.refused(OWN, state, "S2.D1:3>B1")
    assert (error.reason, error.clause) == ("not-own-pile", "PT-2")
    assert "visualfoodie" in OWN.clause("PT-2").source


@pytest.mark.clause("PT-3")
def test_reading_a_no_discard_onto_a_partners_pile() -> None:
    state = table(TEAMS)
    error = check.refused(TEAMS, state, "9>S2.D1")
    assert (error.reason, error.clause) == ("not-own-discard-pile", "PT-3")
    assert not any(isinstance(m, sm.Discard) and m.owner is not None
                   for m in sm.legal_moves(TEAMS, state))
    error = check.refused(OWN, state, "9>S2.D1")
    assert (error.reason, error.clause) == ("not-own-discard-pile", "PT-3")


@pytest.mark.clause("PT-2")
@pytest.mark.clause("PT-3")
def test_reading_b_the_partnership_shares_its_piles() -> None:
    state = table(SHARE, discards=[[], [], ["3"]], builds=["1 2"])
    moves = sm.legal_moves(SHARE, state)
    assert sm.parse_move("S2.D1:3>B1") in moves and sm.parse_move("9>S2.D4") in moves
    assert sm.parse_move("9>S1.D4") not in moves
    after = check.play(SHARE, state, "10>S2.D1")
    assert after.seats[2].discards[0] == parse_cards("3 10") and after.seat == 1
    error = check.refused(SHARE, state, "9>S3.D1")
    assert (error.reason, error.clause) == ("not-own-discard-pile", "PT-3")
    assert "reading (b)" in SHARE.clause("PT-2").source


@pytest.mark.clause("PT-4")
def test_a_team_wins_when_both_pay_off_piles_are_empty() -> None:
    state = table(TEAMS, payoffs=["3", "7", "4", "5"], builds=["1 2"])
    after = check.play(TEAMS, state, "P:3>B1")
    assert after.outcome is None and after.seats[0].payoff == ((),)
    after = check.play(TEAMS, after, "S2.P:4>B1")
    assert after.outcome is not None and after.outcome.kind == "win"
    assert after.outcome.winner == 2 and after.seats[2].payoff_count == 0


@pytest.mark.clause("PT-4")
def test_a_seat_with_an_empty_pay_off_pile_plays_on() -> None:
    state = table(TEAMS, payoffs=["", "7", "6 4", "5"], hands=["9 1"])
    moves = sm.legal_moves(TEAMS, state)
    assert sm.parse_move("1>B+") in moves and sm.parse_move("9>D1") in moves
    after = check.play(TEAMS, state, "9>D1")
    assert after.outcome is None and after.seat == 1


@pytest.mark.clause("PT-5")
def test_the_winning_team_scores_and_both_partners_show_it() -> None:
    state = table(TEAMS, payoffs=["3", " ".join(["7"] * 7), "", " ".join(["5"] * 5)],
                  builds=["1 2"])
    after = check.play(TEAMS, state, "P:3>B1")
    assert after.outcome is not None and after.outcome.scores == (85, 0, 85, 0)
    bf = sm.load("blackwood-frey", ["partnerships"])
    drawn = bf.score(position(bf, payoffs=["AS", "2S 3S 4S", "5S", "6S"]), "drawn", None)
    assert drawn == (2, 0, 2, 0)  # team 0+2 holds 2 cards, 1+3 holds 4: 4 - 2
    assert "85" not in TEAMS.clause("PT-5").text and "25 points" in TEAMS.clause("PT-5").text


@pytest.mark.clause("PT-5")
def test_a_team_wins_the_match() -> None:
    from spitemalice.study.match import play_match

    result = play_match(TEAMS, [GreedyPlayer(s) for s in range(4)], seed=3, target=150)
    assert result.winner is not None
    partner = (result.winner + 2) % 4
    assert result.totals[result.winner] == result.totals[partner] >= 150


@pytest.mark.clause("PT-6")
def test_a_seat_sees_its_partners_piles_only_as_everyone_does() -> None:
    state = sm.deal(TEAMS, seed=9)
    partner = (state.seat + 2) % 4
    view = sm.view_of(state, state.seat)
    assert view.seats[partner].hand_count == 5 and view.seats[partner].payoff[0].count == 30
    seats = list(state.seats)
    twin_hand = tuple(state.draw[:5])
    seats[partner] = sm.Seat(state.seats[partner].payoff, twin_hand, state.seats[partner].discards)
    draw = state.draw[5:] + state.seats[partner].hand
    twin = attrs.evolve(state, seats=tuple(seats), draw=draw)
    assert twin != state and sm.view_of(twin, state.seat) == view
    assert view_legal_moves(TEAMS, view) == sm.legal_moves(TEAMS, state)
    assert "silent" in TEAMS.clause("PT-6").source


@pytest.mark.clause("PT-7")
def test_partnerships_on_a_spite_and_malice_rule_set() -> None:
    bf = sm.load("blackwood-frey", ["partnerships"])
    state = position(bf, hands=["9C"], payoffs=["8H", "7H", "6H AD", "5H"], builds=["AS"])
    after = check.play(bf, state, "S2.P:AD>B+")
    assert after.seats[2].payoff == (parse_cards("6H"),)
    won = check.play(bf, position(bf, hands=["9C"], payoffs=["2H", "7H 7D", "", "5H"],
                                  builds=["AS"]), "P:2H>B1")
    assert won.outcome is not None and won.outcome.scores == (8, 0, 8, 0)  # 5 + 1 per card


@pytest.mark.parametrize("rules", [TEAMS, SHARE, SIX, sm.load("blackwood-frey",
                                                              ["partnerships"])],
                         ids=["skip-bo-4", "skip-bo-share", "skip-bo-6", "blackwood-frey-4"])
def test_invariants_hold_in_team_games(rules: sm.RuleBook) -> None:
    problems: list[str] = []
    last: list[tuple[sm.GameState, sm.Move]] = []

    def on_move(state: sm.GameState, move: sm.Move) -> None:
        if last:
            before, made = last[0]
            problems.extend(check_transition(rules, before, made, state))
        last[:] = [(state, move)]

    for seed in range(3):
        result = play_game(rules, [GreedyPlayer(s) for s in range(rules.players)], seed,
                           on_move=on_move)
        before, made = last[0]
        problems.extend(check_transition(rules, before, made, result.final))
        last.clear()
    assert problems == []


def test_simulate_counts_wins_per_team() -> None:
    summary = simulate(TEAMS, ["greedy"], games=6, seed=2)
    assert summary.teams == ("0+2", "1+3")
    assert sum(summary.wins_per_team) == summary.outcomes["win"]
    assert summary.wins_per_team[0] == summary.wins_per_seat[0] + summary.wins_per_seat[2]
    assert simulate(sm.load("skip-bo"), ["greedy"], games=1, seed=2).teams == ()


def test_a_team_record_carries_its_teams_and_replays() -> None:
    from spitemalice.formats import record_from_dict, record_result, record_to_dict

    result = play_game(TEAMS, [GreedyPlayer(s) for s in range(4)], seed=2)
    record = record_result(TEAMS, result)
    data = record_to_dict(record)
    assert data["teams"] == [[0, 2], [1, 3]]
    assert record_from_dict(data) == record and sm.check_record(record) is None
    assert any(m.startswith("S") for m in record.moves)  # plays from a partner's piles
    wrong = record_from_dict({**data, "teams": [[0, 1], [2, 3]]})
    with pytest.raises(sm.SpiteMaliceError, match=r"record.teams: teams 0\+1, 2\+3"):
        sm.check_record(wrong)
    alone = record_to_dict(record_result(sm.load("skip-bo"), play_game(
        sm.load("skip-bo"), [GreedyPlayer(0), GreedyPlayer(1)], seed=2)))
    assert "teams" not in alone


def test_the_position_notation_carries_teams() -> None:
    state = sm.deal(TEAMS, seed=5)
    text = sm.format_position(state, TEAMS.teams.teams)
    assert text.endswith("teams=0+2/1+3") and sm.parse_position(text, TEAMS) == state
    assert "teams=" not in sm.format_position(state)
    with pytest.raises(sm.NotationError, match="has teams=0\\+2/1\\+3"):
        sm.parse_position(text.replace("teams=0+2/1+3", "teams=0+1/2+3"), TEAMS)
    from spitemalice.formats import format_view, parse_view

    view = sm.view_of(state, 1)
    assert parse_view(format_view(view, TEAMS.teams.teams), TEAMS) == view
    solo = sm.load("skip-bo", players=4)
    with pytest.raises(sm.NotationError, match="without teams"):
        sm.parse_position(sm.format_position(sm.deal(solo, seed=5), TEAMS.teams.teams), solo)


def test_state_and_view_json_carry_teams_and_refuse_others() -> None:
    from spitemalice.formats import dumps_state, dumps_view, loads_state, loads_view

    state = sm.deal(TEAMS, seed=5)
    teams = TEAMS.teams.teams
    data = json.loads(dumps_state(state, teams=teams))
    assert data["teams"] == [[0, 2], [1, 3]] and list(data)[-1] == "teams"
    assert loads_state(json.dumps(data), TEAMS) == state
    assert "teams" not in dumps_state(state)  # without teams given: the document as before
    view = sm.view_of(state, 1)
    assert json.loads(dumps_view(view, teams=teams))["teams"] == [[0, 2], [1, 3]]
    assert loads_view(dumps_view(view, teams=teams), TEAMS) == view
    wrong = json.dumps({**data, "teams": [[0, 1], [2, 3]]})
    with pytest.raises(sm.SpiteMaliceError,
                       match=r"state.teams: teams 0\+1, 2\+3, but skip-bo here forms teams "
                             r"0\+2, 1\+3"):
        loads_state(wrong, TEAMS)
    solo = sm.load("skip-bo", players=4)
    with pytest.raises(sm.SpiteMaliceError, match="but skip-bo here forms no teams"):
        loads_state(json.dumps(data), solo)
    with pytest.raises(sm.SpiteMaliceError, match=r"view.teams\[0\]: expected a list"):
        loads_view(json.dumps({**json.loads(dumps_view(view)), "teams": [0, 2]}), TEAMS)


def test_show_and_the_picture_name_the_teams(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    from spitemalice.cli import main
    from spitemalice.formats import describe_position
    from spitemalice.formats.picture import position_svg

    state = sm.deal(TEAMS, seed=5)
    assert "teams           0+2   1+3" in describe_position(state, TEAMS.teams.teams)
    assert "teams " not in describe_position(state, sm.load("skip-bo", players=4).teams.teams)
    text = sm.format_position(state)
    assert main(["show", *text.split(), "--ruleset", "skip-bo", "--house-rule",
                 "partnerships"]) == 0
    assert "teams           0+2   1+3" in capsys.readouterr().out
    svg = position_svg(state, teams=TEAMS.teams.teams)
    assert "Seat 1 \u00b7 team 1+3" in svg and "team" not in position_svg(state)
    assert main(["show", *text.split(), "--ruleset", "skip-bo", "--house-rule",
                 "partnerships", "--svg", str(tmp_path / "p.svg")]) == 0
    assert "Seat 2 \u00b7 team 0+2" in (tmp_path / "p.svg").read_text(encoding="utf-8")


def test_teams_are_sets_of_seats_in_any_order_and_an_empty_team_is_named() -> None:
    from spitemalice.formats import dumps_state, loads_state
    from spitemalice.rules.policies import teams_text

    state = sm.deal(TEAMS, seed=5)
    text = sm.format_position(state, TEAMS.teams.teams)
    for order in ("1+3/0+2", "2+0/3+1", "3+1/2+0"):
        assert sm.parse_position(text.replace("teams=0+2/1+3", f"teams={order}"),
                                 TEAMS) == state
    for wrong in ("0+2/1+3/", "0+2/1+3+3", "0+2/1+x", "0+2"):
        with pytest.raises(sm.NotationError, match="has teams=0\\+2/1\\+3"):
            sm.parse_position(text.replace("teams=0+2/1+3", f"teams={wrong}"), TEAMS)
    data = json.loads(dumps_state(state, teams=TEAMS.teams.teams))
    for teams in ([[1, 3], [0, 2]], [[2, 0], [3, 1]]):
        assert loads_state(json.dumps({**data, "teams": teams}), TEAMS) == state
    empty = json.dumps({**data, "teams": [[0, 2], [1, 3], []]})
    with pytest.raises(sm.SpiteMaliceError,
                       match=r"state.teams: teams 0\+2, 1\+3, \(an empty team\), but"):
        loads_state(empty, TEAMS)
    assert teams_text([[0, 3], [1, 4], [2, 5], []]) == "teams 0+3, 1+4, 2+5, (an empty team)"


def test_a_record_with_its_teams_in_another_order_replays() -> None:
    from spitemalice.formats import record_from_dict, record_result, record_to_dict

    result = play_game(TEAMS, [GreedyPlayer(seat) for seat in range(4)], seed=2)
    data = record_to_dict(record_result(TEAMS, result))
    assert data["teams"] == [[0, 2], [1, 3]]
    turned = record_from_dict({**data, "teams": [[3, 1], [2, 0]]})
    assert list(sm.replay(turned, TEAMS))[-1] == result.final
    wrong = record_from_dict({**data, "teams": [[0, 1], [2, 3]]})
    with pytest.raises(sm.SpiteMaliceError, match=r"record.teams: teams 0\+1, 2\+3, but"):
        list(sm.replay(wrong, TEAMS))
