"""One rule for every file the library writes (issue 20, class 8): never through a symbolic
link, never over an existing file without --force (overwrite=True in Python), whole or not
at all (a temporary name, then a rename).  Every writer of the library is listed here and
held to the rule; a source scan fails when a new writer bypasses
spitemalice.files."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

import spitemalice as sm
from spitemalice import files
from spitemalice.cli import main
from spitemalice.errors import OutputError, PlayError
from spitemalice.files import NewFile, check_new, write_file
from spitemalice.formats.records import save_record
from spitemalice.play.session import HUMAN, Session

PACKAGE = Path(sm.__file__).parent
FAST = ["--set", "payoff_size=3"]


# -- the function itself ------------------------------------------------------------------


def test_a_new_file_is_written_whole(tmp_path: Path) -> None:
    path = write_file(tmp_path / "a.txt", "text\n")
    assert path.read_text() == "text\n" and os.listdir(tmp_path) == ["a.txt"]
    write_file(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"


def test_an_existing_file_or_link_is_refused_without_force(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    link, dangling, file = tmp_path / "link", tmp_path / "dangling", tmp_path / "file"
    link.symlink_to(outside)
    dangling.symlink_to(tmp_path / "nowhere")
    file.write_text("mine")
    for path in (link, dangling, file):
        with pytest.raises(OutputError, match=r"exists already.*--force"):
            write_file(path, "new")
    assert outside.read_text() == "keep" and file.read_text() == "mine"
    assert link.is_symlink() and dangling.is_symlink()
    assert not (tmp_path / "nowhere").exists()
    assert sorted(os.listdir(tmp_path)) == ["dangling", "file", "link", "outside.txt"]


def test_force_replaces_a_link_itself_never_its_target(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    link = tmp_path / "link"
    link.symlink_to(outside)
    write_file(link, "new", force=True)
    assert outside.read_text() == "keep"
    assert not link.is_symlink() and link.read_text() == "new"


def test_a_folder_a_missing_folder_and_a_read_only_folder_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(OutputError, match="is a folder"):
        write_file(tmp_path, "x", force=True)
    with pytest.raises(OutputError, match="does not exist"):
        check_new(tmp_path / "missing" / "a.txt")
    # The suite may run as root, whom a mode of 0o500 does not stop: ask as another would.
    monkeypatch.setattr(files.os, "access", lambda path, mode: False)
    with pytest.raises(OutputError, match="cannot be written to"):
        write_file(tmp_path / "a.txt", "x")
    assert os.listdir(tmp_path) == []


def test_a_folder_that_takes_no_new_file_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``os.access`` says yes to root and on folders that refuse new files for their own
    reasons: check_new makes (and removes) a file to know.  Before, ``simulate --plot`` into
    such a folder played every game and then failed, printing no summary."""
    check_new(tmp_path / "a.png")
    assert os.listdir(tmp_path) == []  # the probe is gone

    def refuse(**_: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    with pytest.raises(OutputError, match=r"cannot be written to \(Permission denied\)"):
        check_new(tmp_path / "a.png")
    played: list[int] = []
    monkeypatch.setattr("spitemalice.runs.runner.play_one",
                        lambda *a, **k: played.append(1))
    status = main(["simulate", "blackwood-frey", "--games", "2", "--jobs", "1", *FAST,
                   "--plot", str(tmp_path / "a.png")])
    out, err = capsys.readouterr()
    assert (status, out, played) == (2, "", [])
    assert err.startswith("spitemalice: error: --plot ") and err.count("\n") == 1


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_proc_takes_no_new_file_even_for_root() -> None:
    with pytest.raises(OutputError, match="cannot be written to"):
        check_new("/proc/spitemalice-plot.png")


def test_games_out_in_a_missing_folder_names_the_file_asked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "missing" / "games.csv"
    assert main(["simulate", "blackwood-frey", "--games", "2", *FAST, "--games-out",
                 str(rows)]) == 2
    err = capsys.readouterr().err
    assert f"--games-out {rows}: the folder" in err and ".config.json" not in err


def test_a_file_where_a_folder_is_asked_for_is_called_a_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain"
    plain.write_text("keep")
    for argv in (["simulate", "blackwood-frey", "--games", "2", *FAST, "--record", str(plain)],
                 ["serve", "--records", str(plain), "--port", "1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"{plain} is a file, not a folder" in err and err.count("\n") == 1, err
    assert plain.read_text() == "keep"


@pytest.mark.parametrize("there, says", [
    (1, "game-00000.json is there already; give --force to replace it,"),
    (2, "game-00000.json and 1 other record are there already; give --force to replace them"),
    (3, "game-00000.json and 2 other records are there already"),
])
def test_records_there_already_are_counted_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], there: int, says: str) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for game in range(there):
        (folder / f"game-{game:05d}.json").write_text("{}")
    assert main(["simulate", "blackwood-frey", "--games", "3", *FAST, "--record",
                 str(folder)]) == 2
    assert says in capsys.readouterr().err


def test_a_failed_or_dropped_write_leaves_no_temporary_and_the_old_content(
        tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("old")
    with pytest.raises(RuntimeError), NewFile(path, force=True) as out:
        out.write("half")
        raise RuntimeError("stopped")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["a.txt"]
    new = NewFile(tmp_path / "b.txt")
    new.write("rows")
    assert not (tmp_path / "b.txt").exists()  # nothing at the name until the commit
    new.commit()
    assert (tmp_path / "b.txt").read_text() == "rows"


def test_a_name_taken_while_writing_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    new = NewFile(path)
    new.write("mine")
    path.write_text("theirs")  # appears between the check and the rename
    with pytest.raises(OutputError, match="exists already"):
        new.commit()
    assert path.read_text() == "theirs" and os.listdir(tmp_path) == ["a.txt"]


def test_a_link_planted_at_the_temporary_name_is_never_followed(tmp_path: Path,
                                                                 monkeypatch) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    monkeypatch.setattr(files, "_TEMPORARY", iter([7]))
    (tmp_path / f".a.txt.{os.getpid()}.7.tmp").symlink_to(outside)
    with pytest.raises(OutputError, match="cannot write"):
        write_file(tmp_path / "a.txt", "x")
    assert outside.read_text() == "keep" and not (tmp_path / "a.txt").exists()


def test_messages_escape_the_name(tmp_path: Path) -> None:
    path = tmp_path / "a\x1b]0;PWNED\x07.txt"
    path.write_text("")
    with pytest.raises(OutputError) as error:
        write_file(path, "x")
    assert "\x1b" not in str(error.value) and "\\x1b]0;PWNED\\x07" in str(error.value)


# -- every writer of the library, in Python -----------------------------------------------


@pytest.fixture(scope="module")
def record() -> sm.GameRecord:
    rules = sm.load("blackwood-frey", payoff_size=3)
    return sm.record_game(rules, 1, seats=["greedy", "greedy"])


def _session_save(record: sm.GameRecord, path: Path, force: bool) -> None:
    Session.resume(record).save(path, overwrite=force)


def _session_path(record: sm.GameRecord, path: Path, force: bool) -> None:
    rules = sm.load("blackwood-frey", payoff_size=3)
    Session(rules, [HUMAN, "greedy"], seed=1, record_path=path, overwrite=force)


def _session_resume(record: sm.GameRecord, path: Path, force: bool) -> None:
    live = attrs.evolve(record, moves=record.moves[:3], outcome=None)
    Session.resume(live, record_path=path, overwrite=force)


def _save_record(record: sm.GameRecord, path: Path, force: bool) -> None:
    save_record(record, path, overwrite=force)


def _games_out(record: sm.GameRecord, path: Path, force: bool) -> None:
    from spitemalice.runs.games_out import GamesOut

    GamesOut(path.with_suffix(".csv"), 2, force=force).close()


def _plot(record: sm.GameRecord, path: Path, force: bool) -> None:
    from spitemalice.study.plot import plot_runs

    plot_runs(path.with_suffix(".png"), [("a", [])], 2, "t", force=force)


def _seed_sheets(record: sm.GameRecord, path: Path, force: bool) -> None:
    from helpers.seed_sheets import write_seed_sheets

    write_seed_sheets(str(path.parent), force=force)


PYTHON_WRITERS: dict[str, tuple[Callable[[sm.GameRecord, Path, bool], None], str]] = {
    "save_record": (_save_record, "r.json"),
    "Session.save": (_session_save, "r.json"),
    "Session(record_path)": (_session_path, "r.json"),
    "Session.resume(record_path)": (_session_resume, "r.json"),
    "GamesOut": (_games_out, "rows.csv"),
    "plot_runs": (_plot, "p.png"),
    "write_seed_sheets": (_seed_sheets, "blackwood-frey.txt"),
}


@pytest.mark.parametrize("name", PYTHON_WRITERS)
def test_every_python_writer_follows_the_rule(name: str, record: sm.GameRecord,
                                              tmp_path: Path) -> None:
    writer, file_name = PYTHON_WRITERS[name]
    path = tmp_path / "out" / file_name
    path.parent.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    path.symlink_to(outside)
    with pytest.raises((OutputError, PlayError), match="exists already"):
        writer(record, path, False)
    assert outside.read_text() == "keep" and path.is_symlink()
    writer(record, path, True)
    assert outside.read_text() == "keep" and not path.is_symlink() and path.stat().st_size
    assert not [n for n in os.listdir(path.parent) if n.endswith(".tmp")]


@pytest.mark.parametrize("name", [n for n in PYTHON_WRITERS if n != "write_seed_sheets"])
def test_every_python_writer_refuses_a_name_the_system_cannot_take(  # (seed sheets: fixed names)
        name: str, record: sm.GameRecord, tmp_path: Path) -> None:
    """A name longer than the system's limit failed in the lookups themselves, an OSError
    the writers did not catch (the terminal game crashed on ``save`` with it: try-out s6
    P1); now every writer refuses it, naming the reason, and writes nothing."""
    writer, file_name = PYTHON_WRITERS[name]
    path = tmp_path / ("y" * 300 + file_name)
    with pytest.raises((OutputError, PlayError), match="cannot be written: File name too long"):
        writer(record, path, True)
    assert os.listdir(tmp_path) == []


def test_a_folder_that_is_a_file_is_called_a_file(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("")
    with pytest.raises(OutputError, match=r"the folder .*plain is a file, not a folder"):
        check_new(tmp_path / "plain" / "a.txt")


def _atlas_data(path: Path) -> None:
    from spitemalice.study import atlas

    atlas._write(path, {"settings": {}, "reports": {}})  # after each entry of a run


def _atlas_picture(path: Path) -> None:
    from spitemalice.study.plot_ratings import small_length_plot

    small_length_plot(path, {10: 2, 12: 1}, 11.0, 40)


# Files a run rewrites as its own (so always with force): a link there is replaced, never
# followed.  (The play server's table file: test_server_protocol.py.)
REWRITERS: dict[str, tuple[Callable[[Path], None], str]] = {
    "atlas data file": (_atlas_data, "atlas.json"),
    "atlas page picture": (_atlas_picture, "lengths.png"),
}


@pytest.mark.parametrize("name", REWRITERS)
def test_a_file_a_run_rewrites_replaces_a_link_never_follows_it(name: str,
                                                                tmp_path: Path) -> None:
    writer, file_name = REWRITERS[name]
    path = tmp_path / file_name
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    path.symlink_to(outside)
    guessed = tmp_path / f"{file_name}.partial"  # the atlas's own temporary name once
    guessed.symlink_to(outside)
    writer(path)
    assert outside.read_text() == "keep" and not path.is_symlink() and path.stat().st_size
    assert sorted(os.listdir(tmp_path)) == sorted([file_name, guessed.name, "outside.txt"])


# -- every writer of the command line -----------------------------------------------------


def _record_file(tmp: Path) -> Path:
    path = tmp / "game.json"
    if not path.exists():
        assert main(["simulate", "blackwood-frey", "--games", "1", *FAST,
                     "--record", str(tmp / "rec")]) == 0
        (tmp / "rec" / "game-00000.json").rename(path)
    return path


def _failing_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    """validate with a failing game, so that the record is written (a real report, with the
    smallest failing game of a real record)."""
    import spitemalice.cli.validate as command
    from spitemalice.formats.records import record_to_dict

    real = command.validate

    def failing(*args, **kwargs):
        report = real(*args, **kwargs)
        rules = sm.load("blackwood-frey", payoff_size=3)
        game = record_to_dict(sm.record_game(rules, 1, seats=["greedy", "greedy"]))
        return attrs.evolve(report, reproduction={"seed": 1, "moves": [], "problem": "x",
                                                  "record": game})

    monkeypatch.setattr(command, "validate", failing)


# command line (a function of the temporary folder), the file to plant, the status on success
CLI_WRITERS: dict[str, tuple[Callable[[Path], list[str]], str, int]] = {
    "simulate --record DIR": (lambda t: ["simulate", "blackwood-frey", "--games", "2", *FAST,
                                         "--record", str(t / "out")], "game-00001.json", 0),
    "simulate --games-out": (lambda t: ["simulate", "blackwood-frey", "--games", "2", *FAST,
                                        "--games-out", str(t / "out" / "g.csv")], "g.csv", 0),
    "simulate --plot": (lambda t: ["simulate", "blackwood-frey", "--games", "2", *FAST,
                                   "--plot", str(t / "out" / "p.png")], "p.png", 0),
    "compare --games-out": (lambda t: ["compare", "blackwood-frey", "blackwood-frey",
                                       "--games", "2", "--quiet", "--games-out",
                                       str(t / "out" / "g.jsonl")], "g.jsonl", 0),
    "compare --plot": (lambda t: ["compare", "blackwood-frey", "blackwood-frey", "--games",
                                  "2", "--quiet", "--plot", str(t / "out" / "p.svg")],
                       "p.svg", 0),
    "tournament --games-out": (lambda t: ["tournament", "blackwood-frey", "--bots",
                                          "random,greedy", "--games", "1", *FAST, "--quiet",
                                          "--games-out", str(t / "out" / "g.csv")],
                               "g.csv", 0),
    "ladder --games-out": (lambda t: ["ladder", "blackwood-frey", "--bots", "random,greedy",
                                      "--games", "1", "--all-games", *FAST, "--quiet",
                                      "--games-out", str(t / "out" / "g.csv")], "g.csv", 0),
    "ladder --plot": (lambda t: ["ladder", "blackwood-frey", "--bots", "random,greedy",
                                 "--games", "1", "--all-games", *FAST, "--quiet", "--plot",
                                 str(t / "out" / "p.png")], "p.png", 0),
    "balance --plot": (lambda t: ["balance", "blackwood-frey", "--bots", "random,greedy",
                                  "--games", "2", "--deals", "1", "--no-base", *FAST,
                                  "--quiet", "--plot", str(t / "out" / "p.svg")], "p.svg", 0),
    "replay --svg DIR": (lambda t: ["replay", str(_record_file(t)), "--svg", str(t / "out")],
                         "move-0001.svg", 0),
    "show --svg FILE": (lambda t: ["show", "3C,JH:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0",
                                   "--ruleset", "blackwood-frey", "--svg",
                                   str(t / "out" / "p.svg")], "p.svg", 0),
    "validate --record FILE": (lambda t: ["validate", "blackwood-frey", "--games", "2", *FAST,
                                          "--json", "--record", str(t / "out" / "f.json")],
                               "f.json", 0),
    "validate (default file)": (lambda t: ["validate", "blackwood-frey", "--games", "2",
                                           *FAST, "--json"], "validate-failure.json", 0),
    "play --record FILE": (lambda t: ["play", "blackwood-frey", "--record",
                                      str(t / "out" / "g.json")], "g.json", None),  # type: ignore[dict-item]
}


@pytest.mark.parametrize("name", CLI_WRITERS)
def test_every_command_line_writer_follows_the_rule(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv_of, planted, status = CLI_WRITERS[name]
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)  # validate's default file lands here
    _failing_validate(monkeypatch)
    argv = argv_of(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    (out / planted).symlink_to(outside)
    capsys.readouterr()
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "--force" in captured.err and captured.err.count("\n") == 1
    assert outside.read_text() == "keep" and (out / planted).is_symlink()
    assert sorted(os.listdir(out)) == [planted]  # refused before anything was written
    if status is None:
        return  # play: the game needs a person at a terminal (tests/play/test_play_terminal.py)
    assert main([*argv, "--force"]) == status, capsys.readouterr()
    assert outside.read_text() == "keep" and not (out / planted).is_symlink()
    assert (out / planted).stat().st_size > 0
    assert not [n for n in os.listdir(out) if n.endswith(".tmp")]


@pytest.mark.parametrize("name", [n for n in CLI_WRITERS
                                  if n not in ("replay --svg DIR", "simulate --record DIR",
                                               "validate (default file)")])
def test_every_command_line_writer_refuses_a_name_the_system_cannot_take(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A file name longer than the system's limit is refused in one line, exit 2, nothing
    written (a folder's fixed names, and validate's default file, cannot be too long)."""
    argv_of, planted, _ = CLI_WRITERS[name]
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    _failing_validate(monkeypatch)
    given = str(out / planted)
    argv = [str(out / ("y" * 300 + planted)) if arg == given else arg
            for arg in argv_of(tmp_path)]
    assert argv != argv_of(tmp_path)
    capsys.readouterr()
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "File name too long" in error and error.count("\n") == 1, error
    assert os.listdir(out) == []


def test_the_command_line_writers_are_every_command_with_an_output_option() -> None:
    """A new output option is added to CLI_WRITERS (so the test above holds it)."""
    from spitemalice.cli import build_parser

    outputs = {"--record", "--games-out", "--plot", "--svg"}
    found = set()
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for command, parser in commands.items():
        for action in parser._actions:
            if outputs & set(action.option_strings):
                found.add(f"{command} {action.option_strings[0]}")
    listed = {" ".join(name.split()[:2]) for name in CLI_WRITERS}
    assert found <= listed, found - listed
    for command in {name.split()[0] for name in found}:
        assert any("--force" in a.option_strings for a in commands[command]._actions), command


# -- nothing else in the library writes a file ---------------------------------------------


_PATH_WRITERS = {"write_text", "write_bytes", "symlink_to", "hardlink_to", "touch", "mkdir"}
_OS_WRITERS = {"open", "replace", "rename", "link", "symlink", "mkdir", "makedirs"}


def _writes(node: ast.Call) -> str | None:
    """What ``node`` writes to the file system, or ``None``: open() in a writing mode, an
    os (or shutil) call that makes or moves a name, a pathlib writer, matplotlib's savefig
    to a name."""
    func = node.func
    text = ast.unparse(func)
    name = func.attr if isinstance(func, ast.Attribute) else text
    owner = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
    if text == "os.open":
        flags = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
        return text if any(f in flags for f in ("O_WRONLY", "O_RDWR", "O_CREAT")) else None
    if owner in ("os", "shutil") and (name in _OS_WRITERS or owner == "shutil"):
        return text
    if name == "open":
        modes = list(node.args[1:2]) + [k.value for k in node.keywords if k.arg == "mode"]
        if any(isinstance(mode, ast.Constant) and set(str(mode.value)) & set("wax+")
               for mode in modes):
            return text
        return None
    if name in _PATH_WRITERS or (name in ("replace", "rename") and len(node.args) == 1):
        return text  # Path.replace(target) takes one argument; str.replace takes two
    if name == "savefig" and not (node.args and ast.unparse(node.args[0]) == "file.file"):
        return text  # plot.py draws into a NewFile
    return None


def test_no_module_but_files_writes_a_file() -> None:
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "files.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (what := _writes(node)):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {what}")
    assert found == []


def _special_files(folder: Path) -> list[Path]:
    """A named pipe and a socket (a device node needs root; these do not)."""
    import socket

    pipe = folder / "pipe"
    os.mkfifo(pipe)
    place = folder / "sock"
    with socket.socket(socket.AF_UNIX) as unix:
        unix.bind(str(place))
    return [pipe, place]


def test_a_device_pipe_or_socket_is_never_replaced_even_with_force(tmp_path: Path) -> None:
    # A fresh user's `save /dev/null`, answered yes, as root: the rename put a file where the
    # device was (`play --record DEV --force` and `validate --record` alike).
    for special in _special_files(tmp_path):
        kind = os.lstat(special).st_mode
        for call in (lambda p: write_file(p, "x", force=True),
                     lambda p: check_new(p, force=True),
                     lambda p: NewFile(p, force=True).discard()):
            with pytest.raises(OutputError, match=r"is a (named pipe|socket), not a file"):
                call(special)
            assert os.lstat(special).st_mode == kind


def test_a_pipe_made_at_the_name_meanwhile_is_not_replaced_at_the_commit(
        tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    file = NewFile(target, force=True)
    file.file.write("{}")
    os.mkfifo(target)
    with pytest.raises(OutputError, match="is a named pipe"):
        file.commit()
    assert os.path.exists(target) and not target.is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # the temporary file is gone
