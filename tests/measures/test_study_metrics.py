"""Per-game rows (spitemalice.runs.runner) and Ludii-style quality metrics (study.metrics)."""

import pytest

from spitemalice.bots.players import make_player
from spitemalice.engine import apply_move, deal
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.metrics import METRICS, balance, quality
from spitemalice.moves import Move
from spitemalice.rules.loader import load
from spitemalice.runs.loop import play_game
from spitemalice.runs.runner import Configuration, GameRow, configuration, play_one
from spitemalice.study.simulate import simulate


@pytest.fixture(scope="module")
def rows() -> list[GameRow]:
    config = configuration(load("blackwood-frey", [], {"payoff_size": 13}), ["greedy"])
    return [play_one(config, 7, game) for game in range(30)]


def _row(**changes: object) -> GameRow:
    base = dict(game=0, seed=1, bots=("random", "random"), first_seat=0, outcome="win",
                winner=0, scores=(10, 0), moves=100, turns=30, completed_piles=3, recycles=0,
                payoff_left=(0, 5), legal_total=1000, decided_at=40)
    base.update(changes)
    return GameRow(**base)  # type: ignore[arg-type]


def test_a_game_is_a_pure_function_of_configuration_and_seed() -> None:
    book = load("blackwood-frey", [], {"payoff_size": 13})
    first = play_one(configuration(book, ["greedy"]), 3, 5)
    again = play_one(configuration(load("blackwood-frey", [], {"payoff_size": 13}),
                                   ["greedy"]), 3, 5)
    assert first == again
    assert play_one(configuration(book, ["greedy"]), 3, 6) != first


def test_rows_agree_with_simulate(rows: list[GameRow]) -> None:
    summary = simulate(load("blackwood-frey", [], {"payoff_size": 13}), ["greedy"], 30, 7)
    assert tuple(sum(r.winner == s for r in rows) for s in range(2)) == summary.wins_per_seat
    assert sum(r.moves for r in rows) == summary.total_moves


def test_row_fields_are_consistent(rows: list[GameRow]) -> None:
    for row in rows:
        if row.winner is not None:
            assert row.payoff_left[row.winner] == 0
            assert row.decided_at is not None and 0 < row.decided_at <= row.moves
        assert row.legal_total >= row.moves  # every decision had at least one legal move
        assert row.completed_piles >= 0 and row.recycles >= 0
    assert any(row.completed_piles > 0 for row in rows)


def test_quality_reads_the_rows() -> None:
    rows = [_row(), _row(winner=1, payoff_left=(4, 0), first_seat=1),
            _row(outcome="drawn", winner=None, decided_at=None),
            _row(outcome="turn-limit", winner=None, decided_at=None)]
    q = quality(rows, 2)
    assert q.completion.estimate == 0.5
    assert q.drawishness.estimate == 0.25 and q.timeouts.estimate == 0.25
    assert q.first_seat_wins.estimate == 0.5
    # Both wins went to the seat that moved first (seat 0, then seat 1): balance compares
    # turn positions, as Ludii's players are (its player 1 always moves first).
    assert q.balance.estimate == 0.5
    swapped = quality([rows[0], _row(winner=1, payoff_left=(4, 0), first_seat=0)], 2)
    assert swapped.balance.estimate == 1.0 and swapped.first_seat_wins.estimate == 0.5
    assert q.decisiveness.estimate == pytest.approx(0.4)
    assert q.branching_factor.estimate == pytest.approx(10.0)
    assert set(q.as_dict()) == {"games", *METRICS}


def test_balance_is_one_minus_the_largest_gap() -> None:
    assert balance([30, 10], 40).estimate == pytest.approx(0.5)
    assert balance([10, 10, 0], 20).estimate == pytest.approx(0.5)
    interval = balance([30, 10], 40)
    assert 0.0 <= interval.low < 0.5 < interval.high <= 1.0
    with pytest.raises(ValueError, match="balance needs"):
        balance([5], 5)


def test_quality_of_real_games_has_sound_intervals(rows: list[GameRow]) -> None:
    for name, interval in quality(rows, 2).items():
        assert interval.low <= interval.estimate <= interval.high, name
    assert quality(rows, 2).duration_moves.estimate == sum(r.moves for r in rows) / len(rows)


def test_configuration_refuses_bad_bots() -> None:
    book = load("blackwood-frey", [], {})
    with pytest.raises(SpiteMaliceError, match="one per seat"):
        configuration(book, ["greedy"] * 3)
    with pytest.raises(SpiteMaliceError, match="unknown player"):
        configuration(book, ["nobody"])


@pytest.mark.clause("PT-4")
def test_a_team_games_decisive_point_compares_teams_not_partners() -> None:
    # Under partnerships the team wins (PT-4): the decisive point compares the winning team's
    # pay-off cards left with the other team's.  Compared with the partner's empty pile, the
    # lead was never "decisive" before the last move of every game.
    rules = load("blackwood-frey", ["partnerships"], {"players": 4, "payoff_size": 6})
    config = configuration(rules, ["greedy"])
    teams = rules.teams.teams
    won = [row for row in (play_one(config, 3, game) for game in range(12))
           if row.winner is not None]
    assert won and any(row.decided_at is not None and row.decided_at < row.moves
                       for row in won)
    for row in won:
        assert row.decided_at is not None
        side = next(team for team in teams if row.winner in team)
        best_loser = min(sum(row.payoff_left[s] for s in team) for team in teams
                         if team != side)
        if row.decided_at < row.moves:  # the winning team was already ahead there
            state = deal(rules, row.seed)
            for move in replay_moves(config, row)[: row.decided_at]:
                state = apply_move(rules, state, move)
            assert sum(state.seats[s].payoff_count for s in side) < best_loser


def replay_moves(config: Configuration, row: GameRow) -> tuple[Move, ...]:
    """The moves of ``row``'s game, played again with the same seeded bots."""
    players = [make_player(kind, derive_seed(row.seed, "seat", seat))
               for seat, kind in enumerate(config.bots)]
    return tuple(play_game(config.rules, players, row.seed).moves)
