"""``tournament`` with teams: a bot plays a whole team and a team win is the bot's win (PT-4
names one partner as the winner); ``--games-out`` rows carry the teams."""

import csv
import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from spitemalice.cli import main
from spitemalice.errors import SpiteMaliceError
from spitemalice.rules.loader import load
from spitemalice.runs.runner import Configuration, GameRow, Run
from spitemalice.study import tournament as tournament_module
from spitemalice.study.tournament import tournament, tournament_sides

PAGE = Path(__file__).parents[2] / "docs" / "studying.md"


def _partnerships(payoff: int = 13) -> Any:
    return load("blackwood-frey", ["partnerships"], {"players": 4, "payoff_size": payoff})


def _row(game: int, winner: int | None, bots: tuple[str, ...]) -> GameRow:
    return GameRow(game, game, bots, 0, "win" if winner is not None else "drawn", winner,
                   (0,) * len(bots), 10, 4, 0, 0, (0,) * len(bots), 20, None)


@pytest.mark.clause("PT-4")
def test_a_game_won_by_the_challengers_partner_is_the_challengers_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Seats 0+2 and 1+3 (PT-1).  Each configuration's games are given here: the outcome
    # names the partner that emptied last, as PT-4 does.
    winners = {"greedy@0+2": [2, 0, 1, None], "greedy@1+3": [3, 2, 1, 3]}
    seen: list[tuple[str, ...]] = []

    def fake_play(configs: list[Configuration], *args: object) -> Run:
        seen.extend(config.bots for config in configs)
        return Run(tuple([_row(g, w, config.bots) for g, w in enumerate(winners[config.label])]
                         for config in configs))

    monkeypatch.setattr(tournament_module, "play_games", fake_play)
    (pairing,) = tournament(_partnerships(), ["random", "greedy"], 4, 0)
    # both partners are the same bot, the challenger on each team in turn
    assert seen == [("greedy", "random", "greedy", "random"),
                    ("random", "greedy", "random", "greedy")]
    # team 0+2: wins by seat 2 and seat 0, a loss to seat 1, a draw; team 1+3: 3 wins, 1 loss
    assert (pairing.games, pairing.wins, pairing.losses, pairing.draws) == (8, 5, 2, 1)
    assert pairing.fair == 0.5


@pytest.mark.clause("PT-4")
def test_greedy_beats_random_in_partnerships_team_by_team() -> None:
    rows: list[tuple[GameRow, ...]] = []
    (pairing,) = tournament(_partnerships(), ["random", "greedy"], 30, 7, rows.append)
    assert pairing.games == 60 and pairing.fair == 0.5
    assert pairing.wins + pairing.losses + pairing.draws == 60
    # a win per seat alone would count at most the games seat 0 or seat 1 won; partners 2
    # and 3 win too, so the team count must be the larger one
    team_wins = sum(row.winner is not None and row.winner % 2 == side
                    for deal in rows for side, row in enumerate(deal))
    assert pairing.wins == team_wins
    assert any(row.winner == side + 2 for deal in rows for side, row in enumerate(deal))
    assert pairing.rate.estimate > 0.5 and pairing.stronger


def test_without_teams_the_challenger_takes_each_seat_alone() -> None:
    rules = load("blackwood-frey", [], {"payoff_size": 5, "players": 3})
    assert tournament_sides(rules) == ((0,), (1,), (2,))
    rows: list[tuple[GameRow, ...]] = []
    (pairing,) = tournament(rules, ["random", "greedy"], 4, 1, rows.append)
    assert [row.bots for row in rows[0]] == [("greedy", "random", "random"),
                                             ("random", "greedy", "random"),
                                             ("random", "random", "greedy")]
    assert pairing.wins == sum(row.winner == seat for deal in rows
                               for seat, row in enumerate(deal))
    assert pairing.fair == pytest.approx(1 / 3)


@pytest.mark.parametrize("teams, words", [
    (((0, 1, 2, 3),), "single team"),
    (((0, 2, 3), (1,)), "differ in size"),
])
def test_teams_that_cannot_seat_two_bots_fairly_are_refused(
        teams: tuple[tuple[int, ...], ...], words: str) -> None:
    # No rule set forms such teams: a real rule book (tournament refuses anything else) with
    # its teams replaced.
    book = load("blackwood-frey", players=4)
    rules = attrs.evolve(book, teams=attrs.evolve(book.teams, teams=teams))
    with pytest.raises(SpiteMaliceError, match=words):
        tournament(rules, ["random", "greedy"], 2, 0)


def test_games_out_carries_the_teams_and_the_winning_team(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.csv"
    argv = ["tournament", "blackwood-frey", "--house-rule", "partnerships", "--players", "4",
            "--bots", "random,greedy", "--games", "3", "--set", "payoff_size=5",
            "--jobs", "1", "--games-out"]
    assert main([*argv, str(path)]) == 0
    assert "once per team" in capsys.readouterr().out
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6
    assert [row["config"] for row in rows[:2]] == ["challenger@0+2", "challenger@1+3"]
    for row in rows:
        assert [row[f"team_{s}"] for s in range(4)] == ["0+2", "1+3", "0+2", "1+3"]
        if row["winner"]:
            assert row["winning_team"] == row[f"team_{row['winner']}"]
        else:
            assert row["winning_team"] == ""
    # the header the docs print is the one written
    shown = re.search(r"```text\n(config,game,[^\n]*)\n```", PAGE.read_text(encoding="utf-8"))
    assert shown is not None
    assert shown.group(1) == path.read_text(encoding="utf-8").splitlines()[0]

    jsonl = tmp_path / "games.jsonl"
    assert main([*argv, str(jsonl)]) == 0
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 6
    for record in records:
        assert record["teams"] == ["0+2", "1+3", "0+2", "1+3"]
        expected = None if record["winner"] is None else record["teams"][record["winner"]]
        assert record["winning_team"] == expected


def test_games_out_without_teams_has_no_team_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    assert main(["tournament", "blackwood-frey", "--bots", "random,greedy", "--games", "2",
                 "--set", "payoff_size=5", "--jobs", "1", "--games-out", str(path)]) == 0
    assert "once per seat" in capsys.readouterr().out
    record = json.loads(path.read_text(encoding="utf-8").splitlines()[1])
    assert record["config"] == "challenger@1"
    assert "teams" not in record and "winning_team" not in record


def test_a_few_deals_that_agree_are_not_called_stronger() -> None:
    """Try-out s8 finding 7: greedy won 6 of 6 games over 3 deals against random and was
    "stronger": Wilson's interval over games, 51.7%..100.0%, treats the two games of a deal
    as independent, though they share their cards.  The rate's interval now also spans
    Student's t over the deals' shares, with a prior of deals whose games all go alike."""
    from spitemalice.measures.means import student_t
    from spitemalice.measures.rates import wilson
    from spitemalice.study.pairs import PRIOR_DEALS
    from spitemalice.study.tournament import challenger_rate

    swept = challenger_rate([[True, True]] * 3, 0.5)
    assert wilson(6, 6).low > 0.5  # what the tournament printed
    assert swept.estimate == 1.0 and swept.low < 0.5
    half = student_t(1.959963984540054, 2 + PRIOR_DEALS) * (
        PRIOR_DEALS * 0.25 / (2 + PRIOR_DEALS) / 3) ** 0.5
    assert swept.low == pytest.approx(1.0 - half)
    many = challenger_rate([[True, True]] * 40, 0.5)
    assert many.low > 0.5  # forty deals that agree do show it
    split = challenger_rate([[True, False]] * 40, 0.5)  # luck cancels: Wilson is the wider
    assert (split.low, split.high) == (wilson(40, 80).low, wilson(40, 80).high)
