"""``spitemalice play`` through a real pseudo-terminal (issue 18 §1): a whole short game typed
by the test, a refusal with its clause, an undo, save and resume, Ctrl-C and the end of input;
and the game's text escaped wherever a stranger wrote it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

import spitemalice as sm
from spitemalice.formats.records import load_record
from spitemalice.play import HUMAN, Session
from spitemalice.play.terminal import TerminalGame

PROMPT = re.escape("your move (a number, a move, or help)> ")
SHORT = ["blackwood-frey", "--set", "payoff_size=5", "--delay", "0"]


def _spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "spitemalice", "play", *args], cwd=str(cwd),
                          encoding="utf-8", timeout=30, dimensions=(50, 100))
    child.delaybeforesend = None  # the game reads whole lines: no need to wait before typing
    child.expect(PROMPT)
    return child


def _to_the_end(child: pexpect.spawn) -> str:
    """At a prompt: type the first listed move at every prompt to the end; the record file
    named there."""
    child.sendline("1")
    while child.expect([PROMPT, r"replay it: spitemalice replay (\S+)\r\n"]) == 0:
        child.sendline("1")
    record = child.match.group(1)
    assert "game over:" in child.before and "scores:" in child.before
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return record


def test_a_whole_short_game_typed_at_a_terminal(tmp_path: Path) -> None:
    child = _spawn([*SHORT, "--seed", "5"], tmp_path)
    assert "your hand" in child.before and "pay-off" in child.before
    child.sendline("pass")  # BF-20: no passing while another move is legal
    child.expect(PROMPT)
    assert "refused:" in child.before and "BF-20:" in child.before
    clause = sm.load("blackwood-frey").clause("BF-20").text
    assert clause in " ".join(child.before.split())  # the clause's own text, wrapped
    child.sendline("1")
    child.expect(PROMPT)
    moved = re.search(r"move (\d+)", child.before)
    assert moved is not None
    child.sendline("undo")
    child.expect(PROMPT)
    assert "took back 1 move" in child.before and "move 1 " in child.before
    assert "undo is for practice" in child.before
    child.sendline("hint")
    child.expect(PROMPT)
    assert re.search(r"hint: \d+ ", child.before)
    name = _to_the_end(child)
    record = load_record(tmp_path / name)
    assert record.outcome is not None and sm.check_record(record) is None
    assert record.moves[0] != "pass" and [s.kind for s in record.seats] == [HUMAN, "greedy"]
    assert record.practice and record.undone[0].at == 0  # the undo is kept in the record


def test_save_then_resume_goes_on_with_the_same_game(tmp_path: Path) -> None:
    child = _spawn([*SHORT, "--seed", "9", "--bots", "heuristic"], tmp_path)
    for _ in range(3):
        child.sendline("1")
        child.expect(PROMPT)
    child.sendline("save saved.json")
    child.expect(PROMPT)
    assert "go on with: spitemalice play --resume saved.json" in child.before
    child.sendline("quit")
    child.expect(re.escape("save the game before you stop? [Y/n] "))
    child.sendline("n")
    child.expect(pexpect.EOF)
    saved = load_record(tmp_path / "saved.json")
    assert len(saved.moves) >= 3 and saved.outcome is None
    child = _spawn(["--resume", "saved.json", "--delay", "0"], tmp_path)
    assert f"move {len(saved.moves) + 1} " in child.before
    name = _to_the_end(child)
    finished = load_record(tmp_path / name)
    assert finished.moves[:len(saved.moves)] == saved.moves
    assert finished.outcome is not None and sm.check_record(finished) is None


def test_ctrl_c_offers_to_save_and_exits_130(tmp_path: Path) -> None:
    child = _spawn([*SHORT, "--seed", "2"], tmp_path)
    child.sendintr()
    child.expect(re.escape("save the game? [Y/n] "))
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert load_record(tmp_path / "spitemalice-game.json").outcome is None


def test_the_end_of_input_saves_to_a_new_file(tmp_path: Path) -> None:
    (tmp_path / "spitemalice-game.json").write_text("somebody else's")
    child = _spawn([*SHORT, "--seed", "2"], tmp_path)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "end of input" in child.before
    assert (tmp_path / "spitemalice-game.json").read_text() == "somebody else's"
    assert load_record(tmp_path / "spitemalice-game-2.json").outcome is None


def _scripted(session: Session, lines: list[str], echo: bool = True) -> list[str]:
    """What the game prints when ``lines`` are typed, until they run out; with ``echo`` each
    typed line follows its prompt, as a terminal echoes it."""
    out: list[str] = []
    answers = iter(lines)

    def read(prompt: str) -> str:
        answer = next(answers)
        out.append(prompt + answer if echo else prompt)
        return answer

    game = TerminalGame(session, 0, read=read, write=out.append)
    with pytest.raises(StopIteration):
        game.run()
    return out


def test_the_screen_shown_in_the_docs_is_what_the_game_prints() -> None:
    """docs/playing.md: ``spitemalice play blackwood-frey --house-rule mandatory-aces --seed
    7``, eleven moves typed as 1, then QC>B1 (refused), hint, 8S>D2."""
    page = (Path(__file__).parents[2] / "docs" / "playing.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", page, re.DOTALL)
    assert len(blocks) == 1 and "your move" in blocks[0]
    rules = sm.load("blackwood-frey", ["mandatory-aces"])
    session = Session(rules, [HUMAN, "greedy"], seed=7)
    printed = "\n".join(_scripted(session, ["1"] * 11 + ["QC>B1", "hint", "8S>D2"]))
    assert blocks[0].rstrip("\n") in printed


def test_text_from_strangers_is_escaped(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "\x1b]0;PWNED\x07.json").write_text("there")  # "go on with" quotes it
    rules = sm.load("blackwood-frey", params={"payoff_size": 5})
    session = Session(rules, [HUMAN, "greedy"], seed=4)
    typed = ["save \x1b]0;PWNED\x07.json", "y", "9H>B\x1b[2J", "rules \x9b1m"]
    out = _scripted(session, typed, echo=False)
    assert not any(char in line for line in out for char in "\x1b\x07\x9b")
    assert any("\\x1b]0;PWNED\\x07.json" in line for line in out)
    with pytest.raises(sm.PlayError, match="printable"):
        Session(rules, [HUMAN, "greedy"], names=["you", "\x1b[2Jbot"])


def test_a_terminal_game_refuses_what_it_cannot_seat(tmp_path: Path) -> None:
    record = tmp_path / "bots.json"
    sm_rules = sm.load("blackwood-frey", params={"payoff_size": 5})
    from spitemalice.formats.records import save_record

    save_record(sm.record_game(sm_rules, 1, seats=["greedy", "greedy"]), record)
    from spitemalice.cli import main

    assert main(["play", "--resume", str(record), "--seed", "3"]) == 2
    assert main(["play", "--resume", str(record)]) == 2  # nobody's seat is a person's
    assert main(["play"]) == 2
    assert main(["play", "blackwood-frey", "--seat", "2"]) == 2
    assert main(["play", "blackwood-frey", "--bots", "greedy,greedy"]) == 2


def test_every_line_fits_an_80_column_terminal(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout promises any terminal 80 columns wide: seats with names of the longest
    length allowed and discard piles of twenty cards and more are broken between fields, the
    move list takes fewer columns when its moves are long, a bot's move in words wraps."""
    monkeypatch.chdir(tmp_path)  # where the end saves the record
    rules = sm.load("blackwood-frey", ["pair-discards"], {"players": 3})
    names = ["N" * 40, "a greedy bot with a name of forty chars", "heuristic " * 4]
    session = Session(rules, [HUMAN, "greedy", "heuristic"], names=names, seed=2)
    out: list[str] = []
    longest = 0

    def read(prompt: str) -> str:
        nonlocal longest
        if session.is_over or len(out) > 20000:
            raise EOFError
        table = session.table_view(0)
        longest = max(longest, *(len(pile) for seat in table.public for pile in seat.discards))
        on_d1 = [str(move) for move in table.legal if str(move).endswith(">D1")]
        out.append(prompt)
        return on_d1[0] if on_d1 else "1"

    TerminalGame(session, 0, read=read, write=out.append).run()
    assert session.is_over and longest >= 20
    assert [line for line in out if len(line) > 80] == []


def test_every_message_fits_80_columns_and_commands_stay_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line the terminal prints that carries outside or long text (a seat's name in the
    game-over line, a refused input's error, an unknown clause with the sheet's list, a hint,
    a file's path when saving, interrupting or ending) is broken between words to fit 80
    columns; a command offered to copy (go on with, replay it) is never broken but put on a
    line of its own."""
    monkeypatch.chdir(tmp_path)
    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    folder = tmp_path / ("a folder with a long name " * 3).strip()
    folder.mkdir()
    record = folder / "the record of a game against a bot with a long name.json"
    long = "a bot with a name forty characters long!"
    session = Session(rules, [HUMAN, "greedy"], names=["you", long], seed=5)
    (folder / "a file").write_text("")
    typed = iter(["x" * 200, "rules NO-SUCH-CLAUSE", "hint", "undo",
                  f"save {folder / 'saved game with a long name.json'}",
                  f"save {'y' * 300}.json",  # too long a name for the system: refused, play on
                  f"save {folder}",  # a folder: refused before any question
                  f"save {folder / 'a file' / 'x.json'}"])  # through a file
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        if session.is_over:
            raise EOFError
        return next(typed, "1")

    game = TerminalGame(session, 0, read=read, write=out.append, record_path=record)
    assert game.run() == 0
    fresh = Session(rules, [HUMAN, "greedy"], seed=6)  # stopped mid-game: offers --resume
    TerminalGame(fresh, 0, write=out.append, record_path=record)._interrupted(ask=False)
    text = "\n".join(out)
    for member in ("not a move or a command", "no clause 'NO-SUCH-CLAUSE'", "hint:",
                   "saved; go on with:", "game over:", "replay it:", "every move so far is in",
                   "cannot be written: File name too long", "is a folder; name a file",
                   "is a file, not a folder"):
        assert member in " ".join(text.split()), member
    assert "replace it?" not in text  # neither refusal asked first
    commands = [line for line in out if line.startswith("  spitemalice ")]
    assert len(commands) >= 3  # saved, replay it, every move so far: each too long to share
    assert all(str(folder.name) in line for line in commands)
    too_wide = [line for line in out if len(line) > 80 and line not in commands
                and len(line.split()) > 1]
    assert too_wide == []


def test_the_help_fits_the_width_whole() -> None:
    """The help's lines fit the screen's width as written, so none is broken raggedly
    between its two columns (try-out s6 P11: three were 81 and 82 characters)."""
    from spitemalice.play import screen
    from spitemalice.play.terminal import HELP

    assert [line for line in HELP.splitlines() if screen.fitted(line) != [line]] == []


def test_a_quit_whose_save_does_not_happen_goes_back_to_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Try-out s7 M4: at quit, an answer that was not y or n ended the game unsaved ("yes
    please", a file name typed at the y/n question), and so did a folder given as the file
    name or a "no" to replacing a file: the game the person asked to keep was lost."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kept.json").write_text("somebody else's")
    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    session = Session(rules, [HUMAN, "greedy"], seed=3)
    typed = ["quit", "yes please", f"{tmp_path / 'x.json'}", "y", str(tmp_path),  # a folder
             "quit", "y", "kept.json", "n",  # not replaced
             "quit", "", "mine.json"]  # saved: stops
    out = _scripted_until_stop(session, typed)
    text = "\n".join(out)
    assert text.count("answer y or n") == 2
    assert text.count("the game goes on: quit again to stop, or save FILE") == 2
    assert (tmp_path / "kept.json").read_text() == "somebody else's"
    assert load_record(tmp_path / "mine.json").outcome is None


def _scripted_until_stop(session: Session, lines: list[str]) -> list[str]:
    out: list[str] = []
    answers = iter(lines)

    def read(prompt: str) -> str:
        answer = next(answers)
        out.append(prompt + answer)
        return answer

    assert TerminalGame(session, 0, read=read, write=out.append).run() == 0
    return out


@pytest.mark.parametrize("typed, said", [
    ("²", "move '²'"),  # str.isdigit took it and int() then raised: the game crashed
    ("-1", "there is no move -1: choose 1 to"),
    ("9" * 5000, "move '999"),  # past int()'s 4,300 digits: read as a move, and refused
])
def test_a_typed_number_that_is_no_move_number_is_refused_not_a_crash(
        typed: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Try-out s7 L14 and the class behind it: every place that reads a person's digits
    (the move number here, a seat in a --connect link) reads ASCII digits only."""
    monkeypatch.chdir(tmp_path)
    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    out = _scripted(Session(rules, [HUMAN, "greedy"], seed=3), [typed], echo=False)
    assert said in " ".join(" ".join(out).split())


def test_a_connect_link_with_a_seat_of_other_digits_is_refused() -> None:
    from spitemalice.server.remote import parse_link

    for seat in ("²", "\u0661", "9" * 5000):  # superscript two, Arabic-Indic one
        with pytest.raises(sm.SpiteMaliceError, match="expected a seat's link"):
            parse_link(f"http://127.0.0.1:1/table/0123456789abcdef#seat={seat}&token=ab")


def test_a_typed_file_name_expands_the_home_folder(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Try-out s7 L10: save ~/x.json said "the folder ~ does not exist"."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    _scripted(Session(rules, [HUMAN, "greedy"], seed=3), ["save ~/x.json"], echo=False)
    assert load_record(tmp_path / "x.json").outcome is None
    assert not (tmp_path / "~").exists()


def test_play_spit_says_it_is_a_browser_game_and_how_to_start_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37 §4: spit's seats move at once, in real time, which a turn-by-turn terminal
    cannot play; ``play spit`` (and ``--resume`` of a spit record) says so and names the
    command and the page that play it, and writes no record."""
    from spitemalice.cli import main

    record = Path(__file__).parents[2] / "seeds" / "records" / "spit.json"
    for args in (["play", "spit", "--record", str(tmp_path / "r.json")],
                 ["play", "--resume", str(record), "--seat", "0"]):
        assert main(args) == 2
        said = capsys.readouterr().err
        assert "browser game" in said and "spitemalice serve" in said, said
        assert "/spit" in said
    assert not (tmp_path / "r.json").exists()


def test_help_says_how_to_play_and_a_completed_pile_is_announced(tmp_path: Path) -> None:
    """Issue 36 §1: ``help`` says the goal, what a turn is, how the game ends and where the
    rule sheet is; when the person's own move completes a build pile (BF-6), the terminal
    says which pile left and which piles took its number, as it does for a bot's move."""
    rules = sm.load("blackwood-frey", params={"payoff_size": 12})
    session = Session(rules, [HUMAN, "greedy"], seed=3, record_path=tmp_path / "g.json")
    typed: list[str] = ["help"]
    out: list[str] = []

    def read(prompt: str) -> str:
        if typed:
            return typed.pop(0)
        table = session.table_view(0)
        tops = table.view.build_tops
        # a move that completes a pile when there is one, else the first move
        ceiling = rules.ruleset.build_ceiling
        for move in table.legal:
            if isinstance(move, sm.Play) and move.pile != sm.NEW_PILE \
                    and tops[move.pile] + 1 == ceiling:
                return str(move)
        return str(table.legal[0])

    TerminalGame(session, 0, read=read, write=out.append, record_path=tmp_path / "g.json").run()
    text = "\n".join(out)
    for words in ("the goal", "a turn", "the end", "rule sheet", "pay-off pile"):
        assert words in text, words
    mine = [p for p in session.history if p.seat == 0 and p.completed]
    assert mine, "the person completed no pile in this game"
    assert all(p.note in " ".join(text.split()) for p in mine)


def test_a_move_number_past_a_lone_move_names_the_only_move(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # "choose 1 to 1" read as a range that is not there
    monkeypatch.chdir(tmp_path)
    out: list[str] = []
    game = TerminalGame(Session(sm.load("blackwood-frey"), [HUMAN, "greedy"], seed=3), 0,
                        read=lambda prompt: "quit", write=out.append)
    game._play_number(99, 1)
    game._play_number(99, 5)
    assert "there is no move 99: the only move is 1" in out
    assert "there is no move 99: choose 1 to 5" in out


def test_a_move_typed_with_spaces_around_its_parts_is_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``AC > B+`` typed at the prompt said "not a move or a command"."""
    monkeypatch.chdir(tmp_path)
    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    session = Session(rules, [HUMAN, "greedy"], seed=3)
    while session.bot_on_turn:
        session.play_bot()
    move = str(session.table_view(0).legal[0])
    moves = len(session.history)
    out = _scripted(session, [move.replace(">", "  >  ")], echo=False)
    assert "not a move" not in " ".join(out)
    assert str(session.history[moves].move) == move
