"""Untrusted input (issue 10): only the library's own errors escape, files named by files are
never followed, unprintable names are refused at load, output survives any encoding, and
memory stays bounded.  Each test names the class of the issue it holds, and holds the
issue's own example."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice import files, limits
from spitemalice.cards import parse_card
from spitemalice.cli import main
from spitemalice.engine.views import view_of
from spitemalice.errors import DataError, PositionError, SpiteMaliceError
from spitemalice.formats import (
    SeatInfo,
    dumps_record,
    dumps_state,
    dumps_view,
    format_position,
    format_view,
    load_record,
    loads_record,
    loads_state,
    loads_view,
    parse_position,
    parse_view,
    record_game,
    record_to_dict,
    rules_for,
)

HUGE = "9" * 4301  # one digit past Python's integer-string limit
POSITION = "3C,JH:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _one_line_error(status: int, err: str) -> None:
    assert status == 2
    assert err.startswith("spitemalice") and err.count("\n") == 1, err
    assert "Traceback" not in err


@pytest.fixture
def record_dict(bf: sm.RuleBook) -> dict:
    state = sm.deal(bf, 3)
    moves = [sm.legal_moves(bf, state)[0]]
    return record_to_dict(record_game(bf, 3, moves))


# -- class 1: numbers longer than any bound, nesting deeper than any bound -------------------


def test_long_numbers_raise_only_notation_errors(bf: sm.RuleBook) -> None:
    for text in ("9H>B" + HUGE, "9H>D" + HUGE, f"P{HUGE}:9H>B1", f"S{HUGE}.D1:9H>B1"):
        with pytest.raises(sm.NotationError):
            sm.parse_move(text)
    with pytest.raises(sm.NotationError, match="at most 80 digits"):
        parse_card(HUGE)
    for field in (f"seed={HUGE}", f"turn={HUGE}", f"end=win:{HUGE}:0,0", f"end=win:0:{HUGE},0"):
        with pytest.raises(sm.NotationError):
            parse_position(f"{POSITION} {field}", bf)
    with pytest.raises(sm.NotationError, match="hidden count"):
        parse_view(f"?{HUGE},JH:5H:-|-|-|-/2S:?0:-|-|-|- - - - on=0 view=0", bf)


def test_the_referee_loop_of_the_embedding_guide_survives_a_long_number(bf) -> None:
    # The example: the guide's Table catches only IllegalMove and NotationError.
    state = sm.deal(bf, 1)
    try:
        sm.apply_move(bf, state, sm.parse_move("9H>B" + HUGE))
    except (sm.IllegalMove, sm.NotationError) as error:
        assert "9H>B" in str(error)
    else:
        raise AssertionError("a 4,301-digit pile number must be refused")


def test_long_numbers_in_json_raise_data_errors(bf: sm.RuleBook, record_dict: dict) -> None:
    state_text = dumps_state(sm.deal(bf, 1)).replace('"seed": 1', f'"seed": {HUGE}')
    view_text = dumps_view(view_of(sm.deal(bf, 1), 0)).replace('"turn": 0', f'"turn": -{HUGE}')
    record_text = json.dumps(record_dict).replace('"seed": 3', '"seed": 1' + "0" * 80)
    for load in (lambda: loads_state(state_text, bf), lambda: loads_view(view_text, bf),
                 lambda: loads_record(record_text)):
        with pytest.raises(DataError, match="at most 80 are read"):
            load()


def test_deep_nesting_raises_data_errors(bf: sm.RuleBook) -> None:
    deep = "[" * 1000 + "]" * 1000
    with pytest.raises(DataError, match="nested 1000 deep"):
        loads_record(deep)
    nested_state = '{"format": "spitemalice-state", "seats": ' + deep + "}"
    with pytest.raises(DataError, match="at most 32 levels"):
        loads_state(nested_state, bf)
    with pytest.raises(DataError, match="at most 32 levels"):
        loads_view('{"a": ' * 1000 + "1" + "}" * 1000, bf)
    # Brackets inside strings are text, not nesting:
    with pytest.raises(DataError, match="format"):
        loads_record(json.dumps({"x": "[" * 1000}))


def test_toml_with_long_numbers_or_deep_nesting_is_a_ruleset_error(tmp_path: Path) -> None:
    head = 'title = "T"\nversion = "1"\nbase = "blackwood-frey"\n'
    cases = {
        "huge.toml": (head + f"[params]\npayoff_size = {HUGE}\n", "longer than 80 digits"),
        "long.toml": (head + f"[params]\npayoff_size = {'9' * 81}\n", "longer than 80 digits"),
        "deep.toml": (head + "x = " + "[" * 1000 + "]" * 1000 + "\n", "nested deeper than 32"),
        "deep2.toml": (head + "x = " + "[" * 40 + "]" * 40 + "\n", "nested deeper than 32"),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(sm.RulesetError, match=expected):
            sm.load(path)


def test_the_command_line_prints_one_line_for_long_numbers_and_deep_nesting(
        tmp_path: Path, capsys) -> None:
    # The examples: --set with 4,301 nines, and check/replay/rules on deep nesting.
    _one_line_error(*_run(capsys, "simulate", "blackwood-frey", "--games", "1",
                          "--set", f"payoff_size={HUGE}")[::2])
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 1000 + "]" * 1000)
    for command in ("check", "replay"):
        _one_line_error(*_run(capsys, command, str(deep))[::2])
    toml = tmp_path / "deep.toml"
    toml.write_text('title = "T"\nversion = "1"\nbase = "g4a"\nx = ' + "{a = " * 1000
                    + "1" + "}" * 1000 + "\n")
    _one_line_error(*_run(capsys, "rules", str(toml))[::2])


# -- class 4: files named by untrusted files -----------------------------------------------


@pytest.mark.parametrize("params", [{"players": 10**5000}, {"payoff_size": -(10**100)},
                                    {"mandatory_ranks": [10**5000]}])
def test_huge_integers_from_python_are_a_ruleset_error_naming_the_bound(params: dict) -> None:
    # Python refuses to print an integer of over 4,300 digits; the message must not try to.
    name = next(iter(params))
    with pytest.raises(sm.RulesetError, match=f"^{name}.*(80 digits|not a rank)"):
        sm.load("blackwood-frey", **params)


def test_a_record_naming_a_file_as_its_rule_set_is_refused(record_dict: dict, tmp_path: Path,
                                                          capsys) -> None:
    # The example: a record whose rule-set name is /dev/zero.
    for name in ("/dev/zero", str(tmp_path / "fifo"), "rules.toml"):
        record_dict["ruleset"]["name"] = name
        record = loads_record(json.dumps(record_dict))
        with pytest.raises(sm.RulesetError, match="is a file path"):
            rules_for(record)
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record_dict))
        _one_line_error(*_run(capsys, "check", str(path))[::2])


def test_devices_fifos_and_directories_are_never_read(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo, tmp_path):
        start = time.monotonic()
        with pytest.raises(DataError, match="cannot read the record"):
            load_record(path)
        with pytest.raises(sm.RulesetError, match="not a regular file"):
            sm.load(Path(path))
        _one_line_error(*_run(capsys, "check", str(path))[::2])
        assert time.monotonic() - start < 5


def test_a_fifo_opened_for_reading_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = threading.Event()

    def read() -> None:
        with pytest.raises(files.FileRefused):
            files.read_file(fifo, 100)
        done.set()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    assert done.wait(5), "reading a FIFO blocked"


def test_files_over_the_cap_are_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: no disk space, no time
        handle.truncate(limits.MAX_JSON_BYTES + 1)
    with pytest.raises(DataError, match="larger than 8,388,608 bytes"):
        load_record(big)
    toml = tmp_path / "big.toml"
    with toml.open("wb") as handle:
        handle.truncate(limits.MAX_TOML_BYTES + 1)
    with pytest.raises(sm.RulesetError, match="larger than 1,048,576 bytes"):
        sm.load(toml)


# -- class 5: untrusted text shown on terminals -------------------------------------------


@pytest.mark.parametrize("name", ["\ud800", "ann\x1b[2J", "bob\n", "\u202eevil", "x" * 201])
def test_unprintable_names_are_refused_at_load(record_dict: dict, tmp_path: Path, name: str,
                                               capsys) -> None:
    record_dict["seats"][0]["name"] = name
    text = json.dumps(record_dict)  # "\ud800" is valid JSON
    with pytest.raises(DataError, match=r"record\.seats\[0\]\.name: .* is not printable"):
        loads_record(text)
    path = tmp_path / "record.json"
    path.write_text(text)
    _one_line_error(*_run(capsys, "check", str(path))[::2])


def test_printable_names_in_any_script_load(record_dict: dict) -> None:
    record_dict["seats"][0]["name"] = "Zoë 張 Ωmega"
    assert loads_record(json.dumps(record_dict)).seats[0].name == "Zoë 張 Ωmega"


@pytest.mark.parametrize("encoding", ["ascii", "utf-8:strict"])
def test_every_command_survives_any_output_encoding(tmp_path: Path, encoding: str,
                                                    bf: sm.RuleBook) -> None:
    record = record_game(bf, 3, [sm.legal_moves(bf, sm.deal(bf, 3))[0]], seats=[
        SeatInfo("Zoë", "human"), SeatInfo("張", "human")])
    path = tmp_path / "r.json"
    path.write_text(dumps_record(record))
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    script = ("import sys; from spitemalice.cli import main; "
              "sys.exit(sum(main(a) for a in "
              f"[['replay', {str(path)!r}], ['check', {str(path)!r}], "
              "['rules', 'blackwood-frey'], ['variants']]))")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Zo\\xeb" in done.stdout or b"Zo\xc3\xab" in done.stdout


# -- class 8: memory bounded -------------------------------------------------------------


def test_a_record_over_the_cap_is_refused_before_it_is_parsed() -> None:
    text = " " * (limits.MAX_JSON_BYTES + 1)
    with pytest.raises(DataError, match="at most 8,388,608 are read"):
        loads_record(text)


def test_loading_a_record_at_the_cap_stays_well_under_a_gigabyte(tmp_path: Path) -> None:
    # The example: an 80 MB record peaked at 863 MB.  Over the cap it is refused
    # unread; at the cap (8 MiB of moves) the reading process stays small.
    moves = ["9H>D1"] * ((limits.MAX_JSON_BYTES - 400) // 9)
    data = {"format": "spitemalice-record", "version": 1,
            "ruleset": {"name": "blackwood-frey", "version": "1.0", "house_rules": [],
                        "params": {}},
            "seats": [{"name": "a", "kind": "b"}, {"name": "c", "kind": "d"}],
            "seed": 1, "dealer": None, "moves": moves, "outcome": None}
    at_cap = tmp_path / "at-cap.json"
    at_cap.write_text(json.dumps(data))
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(80_000_000)
    script = (
        "import resource, sys; from spitemalice.formats.records import load_record\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"assert len(load_record({str(at_cap)!r}).moves) == {len(moves)}\n"
        f"try: load_record({str(big)!r})\n"
        "except ValueError: pass\n"
        "else: sys.exit('80 MB read')\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 250  # MB above the interpreter's own; measured about 60


def test_the_bounds_are_the_documented_constants() -> None:
    text = Path(__file__).resolve().parents[2].joinpath("docs", "embedding.md").read_text()
    for name in ("MAX_DIGITS", "MAX_DEPTH", "MAX_JSON_BYTES", "MAX_TOML_BYTES",
                 "MAX_POSITION_CHARS", "MAX_MOVE_CHARS", "MAX_NAME_CHARS",
                 # the play server's (docs/playing.md quotes them too)
                 "MAX_MESSAGE_BYTES", "MAX_RULESET_FILE_BYTES", "MAX_FRAME_BYTES",
                 "MESSAGES_PER_SECOND",
                 "MESSAGE_BURST", "MAX_TABLES_PER_CLIENT", "MAX_TABLES", "MAX_SEAT_NAME_CHARS",
                 "MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_CLIENT", "CONNECTION_BACKLOG",
                 "HANDSHAKE_SECONDS", "JOIN_SECONDS"):
        assert name in text, name
        assert f"{getattr(limits, name):,}" in text, name


def test_only_library_errors_come_from_non_text(bf: sm.RuleBook) -> None:
    for value in (None, 5, b"9H>B1", ["9H"]):
        for parse in (sm.parse_move, parse_card, lambda v: parse_position(v, bf),
                      lambda v: parse_view(v, bf), loads_record, lambda v: loads_state(v, bf)):
            with pytest.raises(SpiteMaliceError):
                parse(value)
    assert format_position(sm.deal(bf, 1)) and format_view(view_of(sm.deal(bf, 1), 0))


# -- class 6: impossible states are refused --------------------------------------------


@pytest.mark.parametrize(("fields", "expected"), [
    ("end=win:0:35,-7", "the winner still has pay-off cards"),   # the example
    ("end=blocked:-:5,5", "the rules give"),
    ("end=drawn:-:-3,0", "the rules give"),
    ("idle=2", "idle turns in a row"),
    ("turn=5000", "the turn limit 3000 ends it"),
    ("moves=3000", "the turn limit 3000 ends it"),
])
def test_impossible_positions_and_states_are_refused(bf: sm.RuleBook, fields: str,
                                                     expected: str) -> None:
    text = f"{POSITION} {fields}"
    with pytest.raises(PositionError, match=expected):
        parse_position(text, bf)
    # The same state as JSON is refused the same way.
    live = parse_position(POSITION, bf)
    data = json.loads(dumps_state(live))
    for field in fields.split():
        key, _, value = field.partition("=")
        if key == "end":
            kind, winner, scores = value.split(":")
            data["outcome"] = {"kind": kind, "winner": None if winner == "-" else int(winner),
                               "scores": [int(s) for s in scores.split(",")]}
        else:
            data[{"idle": "idle_turns", "moves": "turn_moves"}.get(key, key)] = int(value)
    with pytest.raises(PositionError, match=expected):
        loads_state(json.dumps(data), bf)


def test_states_the_engine_reaches_load_and_their_scores_check(bf: sm.RuleBook) -> None:
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.runs.loop import play_game

    for seed in range(3):
        final = play_game(bf, [GreedyPlayer(1), GreedyPlayer(2)], seed=seed).final
        assert final.outcome is not None
        assert loads_state(dumps_state(final), bf) == final
        assert parse_position(format_position(final), bf) == final
        assert parse_view(format_view(view_of(final, 0)), bf) == view_of(final, 0)


def test_impossible_views_are_refused(bf: sm.RuleBook) -> None:
    view = "?1,JH:5H:-|-|-|-/2S:?1:-|-|-|- - ?40 - on=0 view=0"
    assert parse_view(view, bf).seats[0].payoff[0].count == 2
    with pytest.raises(PositionError, match="won but still has pay-off cards"):
        parse_view(view + " end=win:0:0,0", bf)
    with pytest.raises(PositionError, match="idle turns"):
        parse_view(view + " idle=7", bf)


# -- class 7: nothing lost, no surprises ----------------------------------------------------


def test_parse_view_refuses_named_face_down_pay_off_cards(bf: sm.RuleBook) -> None:
    # The example: '3C,JH' in a view was silently read as '?1,JH'.
    with pytest.raises(sm.NotationError, match="face down; a view shows them only as a count"):
        parse_view("3C,JH:5H:-|-|-|-/2S:-:-|-|-|- - - - on=0 view=0", bf)


def test_simulate_record_refuses_to_overwrite_without_force(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "games"
    argv = ["simulate", "blackwood-frey", "--games", "2", "--set", "payoff_size=4",
            "--record", str(folder)]
    assert _run(capsys, *argv)[0] == 0
    first = (folder / "game-00000.json").read_text()
    (folder / "game-00001.json").write_text("mine")
    status, _, err = _run(capsys, *argv[:3], "3", *argv[4:])  # another run, 2 games first
    _one_line_error(status, err)
    assert "--force" in err and (folder / "game-00001.json").read_text() == "mine"
    assert not (folder / "game-00002.json").exists()  # refused before any game was played
    assert _run(capsys, *argv, "--force", "--seed", "9")[0] == 0
    assert (folder / "game-00000.json").read_text() != first
    assert load_record(folder / "game-00001.json").seed != 0


def test_simulate_record_never_writes_through_a_symlink(tmp_path: Path, capsys) -> None:
    """One rule for every file written (issue 20 class 8): a link is refused without
    --force, and replaced (never followed) with it."""
    folder, outside = tmp_path / "games", tmp_path / "outside.txt"
    folder.mkdir()
    outside.write_text("keep")
    link = folder / "game-00000.json"
    link.symlink_to(outside)
    argv = ["simulate", "blackwood-frey", "--games", "1", "--record", str(folder)]
    status, _, err = _run(capsys, *argv)
    _one_line_error(status, err)
    assert "--force" in err and outside.read_text() == "keep" and link.is_symlink()
    assert _run(capsys, *argv, "--force")[0] == 0
    assert outside.read_text() == "keep" and not link.is_symlink()
    assert load_record(link).seed is not None
