"""Nothing a stranger wrote reaches a terminal raw (issue 20, class 1): text from a file, a
record, a plugin or a person passes spitemalice.wording.for_terminal before any
command prints it, keys and stored messages included.

MEMBERS lists every way such text reaches the command line's output; each is run with a
hostile string and its whole output (stdout and stderr) must hold no character a terminal
acts on, while showing the escaped text (so the test sees the text was printed).  A source
scan holds every command to print through one function (cli._args.say).
"""

from __future__ import annotations

import ast
import contextlib
import json
import sys
import types
import unicodedata
from collections.abc import Callable
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.rules import registry

HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\u202e\x9b31m"
"""Sets the terminal's title, clears the screen, reverses the text, starts a C1 sequence."""
SHOWN = "\\x1b]0;PWNED\\x07"
"""How the start of it looks escaped."""
PACKAGE = Path(sm.__file__).parent
_UNSHOWN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _clean(text: str) -> bool:
    return all(ch == "\n" or unicodedata.category(ch) not in _UNSHOWN for ch in text)


def _record(tmp: Path, change: Callable[[dict], None]) -> str:
    rules = sm.load("blackwood-frey", payoff_size=3)
    data = sm.formats.record_to_dict(sm.record_game(rules, 1, seats=["greedy", "greedy"]))
    change(data)
    path = tmp / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _hostile_key(data: dict) -> None:
    data[HOSTILE] = 1


def _hostile_move(data: dict) -> None:
    data["moves"] = [HOSTILE]


def _toml(tmp: Path, text: str, name: str = "rules.toml") -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD_TOML = 'title = "T"\nversion = "1"\nbase = "blackwood-frey"\n[params]\npayoff_size = 3\n'


# A third-party house rule whose text is hostile, installed for the test only.
def _plugin_module() -> types.ModuleType:
    module = types.ModuleType("hostile_plugin")
    module.NAME = "hostile"  # type: ignore[attr-defined]
    module.KIND = "house-rule"  # type: ignore[attr-defined]
    module.DESCRIPTION = f"describes {HOSTILE}"  # type: ignore[attr-defined]

    @sm.hookimpl
    def spitemalice_rule_sheet(ruleset: sm.Ruleset) -> list[sm.Clause]:
        return [sm.Clause("HX-1", f"A clause that says {HOSTILE}.", f"source {HOSTILE}")]

    module.spitemalice_rule_sheet = spitemalice_rule_sheet  # type: ignore[attr-defined]
    return module


def _failing_module() -> types.ModuleType:
    module = types.ModuleType("hostile_failing")
    module.NAME = "hostile-failing"  # type: ignore[attr-defined]
    module.KIND = "house-rule"  # type: ignore[attr-defined]

    @sm.hookimpl
    def spitemalice_filter_moves(ruleset: sm.Ruleset, state: sm.GameState,
                                 moves: list[sm.Move]) -> None:
        if state.turn >= 3:  # after the deal: validate's checked games report it
            raise RuntimeError(f"a plugin's own message {HOSTILE}")

    module.spitemalice_filter_moves = spitemalice_filter_moves  # type: ignore[attr-defined]
    return module


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    found = dict(registry._entry_points())
    for name, module in (("hostile", _plugin_module()), ("hostile-failing", _failing_module())):
        monkeypatch.setitem(sys.modules, module.__name__, module)
        found[name] = EntryPoint(name, module.__name__, registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: found)
    monkeypatch.setattr(registry, "_INSTANCES", {})


# member -> the command line, given a temporary folder
MEMBERS: dict[str, Callable[[Path], list[str]]] = {
    "check: a record's unknown key": lambda t: ["check", _record(t, _hostile_key)],
    "check: a record's move": lambda t: ["check", _record(t, _hostile_move)],
    "replay: a record's move": lambda t: ["replay", _record(t, _hostile_move)],
    "replay --svg: a record's move": lambda t: ["replay", _record(t, _hostile_move), "--svg",
                                               str(t / "pictures")],
    "play --resume: a record's unknown key": lambda t: ["play", "--resume",
                                                        _record(t, _hostile_key)],
    "check: the file's name": lambda t: ["check", str(t / f"{HOSTILE}.json")],
    "show: the position": lambda t: ["show", HOSTILE, "--ruleset", "blackwood-frey"],
    "simulate: an unknown rule set": lambda t: ["simulate", HOSTILE, "--games", "1"],
    "simulate: a bot's name": lambda t: ["simulate", "blackwood-frey", "--bots", HOSTILE],
    "simulate: a house rule's name": lambda t: ["simulate", "blackwood-frey", "--house-rule",
                                                HOSTILE],
    "simulate: a parameter's key": lambda t: ["simulate", "blackwood-frey", "--set",
                                              f"{HOSTILE}=1"],
    "simulate: a rule-set file's name (its label)": lambda t: [
        "simulate", _toml(t, GOOD_TOML, f"{HOSTILE}.toml"), "--games", "2", "--quiet"],
    "compare: a rule-set file's name (its label)": lambda t: [
        "compare", _toml(t, GOOD_TOML, f"{HOSTILE}.toml"), "blackwood-frey", "--games", "2",
        "--quiet", "--set", "payoff_size=3"],
    "tournament: a rule-set file's name": lambda t: [
        "tournament", _toml(t, GOOD_TOML, f"{HOSTILE}.toml"), "--bots", "random,greedy",
        "--games", "1", "--quiet"],
    "ladder: a rule-set file's name": lambda t: [
        "ladder", _toml(t, GOOD_TOML, f"{HOSTILE}.toml"), "--bots", "random,greedy",
        "--games", "1", "--all-games", "--quiet"],
    "balance: a rule-set file's name": lambda t: [
        "balance", _toml(t, GOOD_TOML, f"{HOSTILE}.toml"), "--bots", "random,greedy",
        "--games", "2", "--deals", "1", "--no-base", "--quiet"],
    "validate: a rule-set file's name": lambda t: [
        "validate", _toml(t, GOOD_TOML, f"{HOSTILE}.toml"), "--games", "2", "--jobs", "1",
        "--record", str(t / "f.json")],
    "rules: a rule-set file's unknown key": lambda t: [
        "rules", _toml(t, GOOD_TOML + f'"{HOSTILE}" = 1\n')],
    "rules: a rule-set file's title": lambda t: [
        "rules", _toml(t, GOOD_TOML.replace('"T"', json.dumps(HOSTILE)))],
    "rules: a plugin's clause": lambda t: ["rules", "blackwood-frey", "--house-rule", "hostile"],
    "rules: a house rule's sheet": lambda t: ["rules", "hostile"],
    "variants: a plugin's description": lambda t: ["variants"],
    "validate: a plugin's own error message": lambda t: [
        "validate", "blackwood-frey", "--house-rule", "hostile-failing", "--games", "2",
        "--set", "payoff_size=3", "--jobs", "1", "--record", str(t / "f.json")],
    "schema: an unknown name (the parser's error)": lambda t: ["schema", HOSTILE],
    "--games-out: the file's name": lambda t: [
        "simulate", "blackwood-frey", "--games", "1", "--games-out",
        str(t / f"{HOSTILE}.txt")],
    "--plot: an existing file's name": lambda t: [
        "simulate", "blackwood-frey", "--games", "1", "--plot", _toml(t, "", f"{HOSTILE}.png")],
}


@pytest.mark.parametrize("member", MEMBERS)
def test_no_hostile_text_reaches_the_terminal_raw(member: str, tmp_path: Path, plugins: None,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = MEMBERS[member](tmp_path)
    with contextlib.suppress(SystemExit):  # the parser's own exit (status 2)
        main(argv)
    out, err = capsys.readouterr()
    assert _clean(out) and _clean(err), (out + err)[-600:]
    assert SHOWN in out + err or "\\x1b" in out + err, (out + err)[-600:]


def test_the_issue_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record whose JSON has an unknown key "\\x1b]0;PWNED\\x07\\x1b[2J"."""
    path = _record(tmp_path, lambda data: data.update({"\x1b]0;PWNED\x07\x1b[2J": 1}))
    assert main(["check", path]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\\x1b]0;PWNED\\x07\\x1b[2J" in err


def test_every_command_prints_through_say() -> None:
    """The command modules print only through cli._args.say (which escapes), or the one
    escaped error line of cli.main; a new print() is caught here."""
    found = []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                    "print", "sys.stdout.write", "sys.stderr.write"):
                text = ast.unparse(node)
                if "for_terminal(" not in text:
                    found.append(f"{path.name}:{node.lineno} {text[:60]}")
    assert found == []
