"""The record and position commands: simulate --record, replay, check and show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spitemalice.cli import main
from spitemalice.formats import load_record


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def recorded(tmp_path: Path, capsys) -> list[Path]:
    """Records written by `simulate --record` for a few short games."""
    folder = tmp_path / "games"
    status, out, _ = _run(capsys, "simulate", "blackwood-frey", "--games", "3", "--seed", "4",
                          "--players", "3", "--set", "payoff_size=6",
                          "--bots", "greedy,random,greedy", "--record", str(folder))
    assert status == 0 and "games" in out
    return sorted(folder.glob("game-*.json"))


def test_simulate_writes_one_record_per_game_and_each_checks_clean(recorded, capsys) -> None:
    assert [p.name for p in recorded] == ["game-00000.json", "game-00001.json", "game-00002.json"]
    for path in recorded:
        status, out, err = _run(capsys, "check", str(path))
        assert status == 0, out + err
        assert out.startswith(f"valid: {path}:") and err == ""
        record = load_record(path)
        assert record.ruleset.param_dict == {"payoff_size": 6, "players": 3}
        assert [s.kind for s in record.seats] == ["greedy", "random", "greedy"]


def test_simulate_with_an_unknown_bot_fails_cleanly(tmp_path, capsys) -> None:
    status, _, err = _run(capsys, "simulate", "blackwood-frey", "--bots", "clever",
                            "--record", str(tmp_path / "x"))
    assert status == 2 and err.count("\n") == 1 and "unknown player" in err


def test_replay_shows_every_move_with_the_position_after_it(recorded, capsys) -> None:
    record = load_record(recorded[0])
    status, out, err = _run(capsys, "replay", str(recorded[0]))
    assert status == 0, err
    lines = out.splitlines()
    moves = [line for line in lines if line[:4].strip().isdigit()]
    assert len(moves) == len(record.moves) + 1
    assert moves[0].split()[:2] == ["0", "deal"]
    first = moves[1].split()
    assert first[0] == "1" and first[3] == record.moves[0]
    assert "on=" in first[-1] or "on=" in moves[1]
    assert lines[-1].startswith("outcome: ")


def test_replay_pretty_lays_positions_out(recorded, capsys) -> None:
    status, out, _ = _run(capsys, "replay", "--pretty", str(recorded[0]))
    assert status == 0 and "pay-off" in out and "build piles" in out


def test_a_hand_edited_illegal_move_is_reported_with_its_number(recorded, capsys) -> None:
    path = recorded[1]
    data = json.loads(path.read_text())
    number = 9
    data["moves"][number - 1] = "pass"
    path.write_text(json.dumps(data, indent=1))
    status, out, err = _run(capsys, "check", str(path))
    assert status == 1 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"invalid: {path}: move {number} by seat ")
    assert "'pass' is illegal" in lines[0] and "pass-not-allowed" in lines[0]
    assert lines[1].startswith(f"position before move {number}: ")
    assert " on=" in lines[1]
    assert lines[2].startswith("rule: BF-20 ")
    status, out, err = _run(capsys, "replay", str(path))
    assert status == 1 and f"move {number} " in err and err.count("\n") == 1


def test_a_move_that_does_not_parse_is_invalid(recorded, capsys) -> None:
    path = recorded[2]
    data = json.loads(path.read_text())
    data["moves"][0] = "ace of spades"
    path.write_text(json.dumps(data))
    status, out, _ = _run(capsys, "check", str(path))
    assert status == 1 and "move 1 " in out and "does not parse" in out


@pytest.mark.parametrize(("content", "words"), [
    ("{\"format\": \"spitemalice-record\", \"version\": 1, \"ruleset\"", "truncated"),
    ("not json", "not valid JSON"),
    ("{\"format\": \"spitemalice-record\", \"version\": 9}", "newer than this library reads"),
    ("{\"format\": \"spitemalice-record\", \"version\": 1}", "record.ruleset: missing"),
])
def test_an_unreadable_record_exits_2_with_one_line(tmp_path, capsys, content, words) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    for command in ("check", "replay"):
        status, out, err = _run(capsys, command, str(path))
        assert status == 2 and out == ""
        assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_a_record_of_an_unknown_rule_set_exits_2(recorded, capsys) -> None:
    data = json.loads(recorded[0].read_text())
    data["ruleset"]["name"] = "crazy-eights"
    recorded[0].write_text(json.dumps(data))
    status, _, err = _run(capsys, "check", str(recorded[0]))
    assert status == 2 and "unknown rule set \"crazy-eights\"" in err and err.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path, capsys) -> None:
    status, _, err = _run(capsys, "check", str(tmp_path / "none.json"))
    assert status == 2 and "cannot read the record" in err


POSITION = "AS,9H:5H,KC:-|4S|-|-/2S:-:-|-|-|- AH,2H|AC - - on=1 turn=3"


def test_show_lays_out_a_position(capsys) -> None:
    status, out, _ = _run(capsys, "show", POSITION, "--ruleset", "blackwood-frey")
    assert status == 0
    assert "seat 1 (on turn)" in out and "1: AH 2H  (next rank 3)" in out


def test_show_takes_an_unquoted_position_and_a_view(capsys) -> None:
    status, out, _ = _run(capsys, "show", *POSITION.split(), "--ruleset", "blackwood-frey")
    assert status == 0 and "9H (2 cards)" in out
    view = "?3,AS:5H:-|-|-|-/?2,2S:?5:-|-|-|- - ?80 - view=0 on=0"
    status, out, _ = _run(capsys, "show", view, "--ruleset", "blackwood-frey")
    assert status == 0 and "the view of seat 0" in out and "5 card(s), face down" in out


def test_show_infers_the_seat_count(capsys) -> None:
    three = "AS:-:-|-|-|-/2S:-:-|-|-|-/3S:-:-|-|-|- - - - on=2"
    status, out, _ = _run(capsys, "show", three, "--ruleset", "blackwood-frey")
    assert status == 0 and "seat 2 (on turn)" in out


@pytest.mark.parametrize("position", ["", "garbage", "AS:5H:-|-|-|- on=0"])
def test_show_refuses_a_misshapen_position_as_such_not_as_a_player_count(capsys,
                                                                          position) -> None:
    status, out, err = _run(capsys, "show", position, "--ruleset", "blackwood-frey")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "expected four sections" in err
    assert "players" not in err


@pytest.mark.parametrize(("position", "words"), [
    ("AS:5H:-|-|-|-/2S:-:-|-|-|- AS,3H - - on=0", "build pile 1 card 2 is 3H"),
    ("AS:5H:-|-|-|-/2S:-:-|-|-|- - - - on=0 shufles=1", "did you mean \"shuffles\""),
    ("AS:AS,AS,AS:-|-|-|-/2S:-:-|-|-|- - - - on=0", "4 x AS"),
    ("AS:2H,3H,4H,5H,6H,7H:-|-|-|-/2S:-:-|-|-|- - - - on=0", "hand holds 6 cards"),
])
def test_show_refuses_a_bad_position_in_one_line(capsys, position, words) -> None:
    status, out, err = _run(capsys, "show", position, "--ruleset", "blackwood-frey")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["ruleset"].update(params={"payof_size": 5}), "unknown parameter \"payof_size\""),
    (lambda d: d["ruleset"].update(name="/etc/passwd"), "is a file path"),
    (lambda d: d.update(dealer=5), "record.dealer: the deal cannot be made"),
    (lambda d: d.update(seats=d["seats"][:1]), "record.seats: 1 entry"),
])
def test_a_record_whose_rules_or_seats_do_not_fit_is_refused_naming_the_file(
        recorded, tmp_path, capsys, edit, words) -> None:
    """A record read, then refused by its rules or its deal, names its file as a record the
    reader refuses does: `check` and `replay` may be given many records.  `play --resume`
    refuses the finished record the same way, not as a game that is over (tryout 14), and
    the live copy too."""
    data = json.loads(recorded[0].read_text())
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    live = tmp_path / "live.json"
    live.write_text(json.dumps({**data, "moves": data["moves"][:4], "outcome": None}))
    runs = [("check", str(path)), ("replay", str(path)),
            ("replay", str(path), "--svg", str(tmp_path / "pictures")),
            ("play", "--resume", str(path), "--seat", "0"),
            ("play", "--resume", str(live), "--seat", "0")]
    for argv in runs:
        status, out, err = _run(capsys, *argv)
        named = live if str(live) in argv else path
        assert (status, out) == (2, ""), argv
        assert err.startswith(f"spitemalice: error: {named}: ") and words in err, (argv, err)
        assert err.count("\n") == 1
    assert not (tmp_path / "pictures").exists()


@pytest.mark.parametrize("finished", [False, True])
def test_play_resume_names_the_file_whose_move_does_not_replay(recorded, tmp_path,
                                                                capsys, finished) -> None:
    """A finished record is replayed whole before it is called over (tryout 14)."""
    data = json.loads(recorded[0].read_text())
    data["moves"][2] = "9Z>B1"
    path = tmp_path / "live.json"
    path.write_text(json.dumps(data if finished else
                               {**data, "moves": data["moves"][:4], "outcome": None}))
    status, out, err = _run(capsys, "play", "--resume", str(path), "--seat", "0")
    assert (status, out) == (2, "")
    assert err.startswith(f"spitemalice: error: {path}: move 3 ") and err.count("\n") == 1
    assert "over" not in err


def test_play_resume_of_a_valid_finished_record_says_the_game_is_over(recorded,
                                                                      capsys) -> None:
    status, out, err = _run(capsys, "play", "--resume", str(recorded[0]), "--seat", "0")
    assert (status, out) == (2, "")
    assert "that game is over" in err and "spitemalice replay shows it" in err
