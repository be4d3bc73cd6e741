"""Progress bars (spitemalice.runs.progress): shown on a terminal, silent otherwise."""

import io
from pathlib import Path

import pytest

from spitemalice.cli import main
from spitemalice.runs.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_shows_on_a_terminal_with_count_and_rate() -> None:
    stream = _Terminal()
    with Progress(5, "simulate", stream=stream) as bar:
        for _ in range(5):
            bar.advance()
    text = stream.getvalue()
    assert "simulate" in text and "/5" in text and "game/s" in text


@pytest.mark.parametrize("enabled, stream", [(False, _Terminal()), (True, io.StringIO())])
def test_no_bar_when_disabled_or_off_a_terminal(enabled: bool, stream: io.StringIO) -> None:
    with Progress(5, "simulate", enabled=enabled, stream=stream) as bar:
        bar.advance(5)
    assert stream.getvalue() == ""


def test_json_and_quiet_runs_print_no_bar(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("spitemalice.runs.progress._is_terminal", lambda stream: True)
    main(["simulate", "blackwood-frey", "--games", "3", "--json", "--jobs", "1",
          "--set", "payoff_size=5"])
    main(["simulate", "blackwood-frey", "--games", "3", "--quiet", "--jobs", "1",
          "--set", "payoff_size=5"])
    assert capsys.readouterr().err == ""
    main(["simulate", "blackwood-frey", "--games", "3", "--jobs", "1",
          "--set", "payoff_size=5"])
    assert "simulate" in capsys.readouterr().err  # the bar, on the (pretend) terminal


@pytest.mark.parametrize("target", [["blackwood-frey"], ["short-payoff", "--on", "g4a"]],
                         ids=["ruleset", "house-rule"])
def test_validate_quiet_prints_no_bar_and_the_same_report(
        target: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """validate takes --quiet as simulate, compare, tournament, ladder and balance do: no
    progress bar on stderr, the report on stdout and the exit status unchanged."""
    monkeypatch.setattr("spitemalice.runs.progress._is_terminal", lambda stream: True)
    argv = ["validate", *target, "--games", "3", "--jobs", "1",
            "--record", str(tmp_path / "failure.json")]
    loud = main(argv)
    shown = capsys.readouterr()
    assert "validate" in shown.err  # the bar, on the (pretend) terminal
    assert main([*argv, "--quiet"]) == loud
    quiet = capsys.readouterr()
    assert quiet.err == ""
    assert quiet.out == shown.out
