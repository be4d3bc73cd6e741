"""Plots of untrusted names (issue 20, class 5): every text drawn (run labels, the title,
legends, axes) is plain text, never matplotlib's mathematics, and everything that can stop a
plot is refused before the first game: the file's extension, matplotlib missing, a file
already there, a missing or read-only folder."""

from __future__ import annotations

import builtins
import importlib
import re
from pathlib import Path
from typing import Any

import matplotlib.figure
import matplotlib.text
import pytest

import spitemalice as sm
from spitemalice import files
from spitemalice.cli import main
from spitemalice.runs.runner import play_one
from spitemalice.study import plot

NASTY = "./b$\\frac{x$"
"""The issue's rule-set file name: an unclosed TeX fraction."""
GOOD_TOML = 'title = "T"\nversion = "1"\nbase = "blackwood-frey"\n[params]\npayoff_size = 3\n'


def test_the_issue_example_plays_and_draws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path(f"{NASTY}.toml").write_text(GOOD_TOML, encoding="utf-8")
    assert main(["simulate", f"{NASTY}.toml", "--games", "3", "--quiet",
                 "--plot", "p.png"]) == 0, capsys.readouterr().err
    assert (tmp_path / "p.png").stat().st_size > 1000
    assert main(["compare", f"{NASTY}.toml", "blackwood-frey", "--set", "payoff_size=3",
                 "--games", "2", "--quiet", "--plot", "c.svg"]) == 0, capsys.readouterr().err
    assert "$\\frac{x$" in (tmp_path / "c.svg").read_text()  # drawn as written
    assert main(["ladder", f"{NASTY}.toml", "--bots", "random,greedy", "--games", "1",
                 "--all-games", "--quiet", "--plot", "l.svg"]) == 0, capsys.readouterr().err
    assert "$\\frac{x$" in (tmp_path / "l.svg").read_text()
    assert main(["balance", f"{NASTY}.toml", "--bots", "random,greedy", "--games", "2",
                 "--deals", "1", "--no-base", "--quiet", "--plot", "b.svg"]) == 0, \
        capsys.readouterr().err
    assert "$\\frac{x$" in (tmp_path / "b.svg").read_text()


def test_every_text_of_a_plot_is_plain(tmp_path: Path) -> None:
    config = sm.study.configuration(sm.load("blackwood-frey", payoff_size=3), ["greedy"])
    rows = [play_one(config, 0, game) for game in range(3)]
    labels = [NASTY, "$x^2$", "a\x1b[2Jb", "$$"]
    figure = plot.plot_runs(tmp_path / "p.svg", [(label, rows) for label in labels], 2,
                            "title $\\alpha$ \x07")
    texts = [t for t in figure.findobj(matplotlib.text.Text) if t.get_text()]
    assert texts and all(not t.get_parse_math() and not t.get_usetex() for t in texts)
    drawn = "\n".join(t.get_text() for t in texts)
    assert "$x^2$" in drawn and "\x1b" not in drawn and "\\x1b[2J" in drawn
    assert "\x07" not in drawn


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: each refusal must come before the first game."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before the plot was checked")

    loop = importlib.import_module("spitemalice.runs.loop")
    runner = importlib.import_module("spitemalice.runs.runner")
    monkeypatch.setattr(loop.BotGame, "__call__", refuse)
    monkeypatch.setattr(runner, "play_one", refuse)


def _refused(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err


@pytest.mark.parametrize("command", [
    ["simulate", "blackwood-frey", "--games", "3"],
    ["compare", "blackwood-frey", "blackwood-frey", "--games", "3"],
    ["ladder", "blackwood-frey", "--bots", "random,greedy", "--games", "1", "--quiet"],
    ["balance", "blackwood-frey", "--bots", "random,greedy", "--games", "2", "--deals", "1",
     "--no-base", "--quiet"],
])
def test_what_can_stop_a_plot_is_refused_before_any_game(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _no_games(monkeypatch)
    _refused([*command, "--plot", str(tmp_path / "p.jpg")], "name a .png or .svg", capsys)
    _refused([*command, "--plot", str(tmp_path / "none" / "p.png")], "does not exist", capsys)
    (tmp_path / "there.png").write_bytes(b"mine")
    _refused([*command, "--plot", str(tmp_path / "there.png")], "--force", capsys)
    assert (tmp_path / "there.png").read_bytes() == b"mine"
    # The suite may run as root, whom no folder's mode stops: ask as another user would.
    monkeypatch.setattr(files.os, "access", lambda path, mode: False)
    _refused([*command, "--plot", str(tmp_path / "p.png")], "cannot be written to", capsys)
    monkeypatch.undo()
    _no_games(monkeypatch)
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    _refused([*command, "--plot", str(tmp_path / "p.png")], "needs matplotlib", capsys)


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "2"],
    ["balance", "--bots", "random,greedy", "--games", "2", "--deals", "1", "--no-base"],
    ["ladder", "--bots", "random,greedy", "--games", "1", "--all-games"],
])
def test_a_plot_title_names_each_setting_once(command: list[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The title's first line and the provenance line under it do not both say a parameter
    or the players (tryout 16: balance said payoff_size=13 and 2 players twice)."""
    titles: list[str] = []
    suptitle = matplotlib.figure.Figure.suptitle

    def kept(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        titles.append(text)
        return suptitle(self, text, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "suptitle", kept)
    argv = [command[0], "blackwood-frey", "--house-rule", "mandatory-aces", "--set",
            "payoff_size=5", *command[1:], "--quiet", "--plot", str(tmp_path / "p.svg")]
    assert main(argv) == 0, capsys.readouterr().err
    (title,) = titles
    items = [item.strip() for line in title.splitlines() for item in re.split("[,:]", line)]
    assert "payoff_size=5" in items and "mandatory_ranks=1" in items, title
    assert [item for item in items if item and items.count(item) > 1] == [], title
