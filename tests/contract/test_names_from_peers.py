"""Names from a peer, a record or a table file are installed names, never files (issue 38,
class 4): the bot once loaded whatever rule-set file a server's ``welcome`` named.

Discovery: every call in the package of a function that turns a name into rules or a plugin
(``load``, ``load_installed``, ``load_plugin``, ``rules_for``, a rule-set file's reader) is a
row of :data:`CALLS`, saying where its name comes from.  A name from someone else goes
through :func:`~spitemalice.rules.loader.load_installed` (or ``rules_for``, which does), the
installed list, or ``load_plugin`` (entry points by name only); each such member is provoked
below with file paths.  A new call without a row fails.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.formats import dumps_record, loads_record, record_result, replay
from spitemalice.formats.replay import rules_for
from spitemalice.play import Session
from spitemalice.rules.loader import load_installed
from spitemalice.runs.loop import play_game

PACKAGE = Path(sm.__file__).resolve().parent
LOADERS = {"load", "load_installed", "load_plugin", "load_plugins", "load_text", "rules_for",
           "_load_file", "read_custom", "check_installed_name"}

PEER = "installed only (provoked below)"
CALLER = "the caller's own name: an argument, the command line or an installed list"
CALLS: dict[str, str] = {
    # names someone else wrote: each provoked in this file or named test
    "server/remote.py:_rules_of -> check_installed_name": PEER + ": a server's welcome "
    "(tests/server/test_remote_bot.py, a welcome naming a file)",
    "server/remote.py:_rules_of -> load_plugin": "a welcome's house rules: entry points by "
    "name only",
    "server/remote.py:_rules_of -> load_plugins": "after check_installed_name; a file's data "
    "rules arrive as their tables, by content",
    "formats/replay.py:rules_for -> check_installed_name": PEER + ": a record",
    "formats/replay.py:rules_for -> load_plugin": "a record's house rules: entry points by "
    "name only",
    "formats/replay.py:rules_for -> load_plugins": "after check_installed_name (a path only "
    "when the caller allows files, --allow-files); data rules by content",
    "formats/replay.py:check_record -> rules_for": PEER + ": a record (check)",
    "server/replays.py:_replayed -> rules_for": PEER + ": a finished game's record on the "
    "server",
    "server/spit_restore.py:rebuilt -> rules_for": PEER + ": a live Spit table's record, "
    "read again at a restart or a takeover",
    "server/replays.py:sent_file -> rules_for": PEER + ": a record file a person sent from "
    "the replay page (POST /games)",
    "server/rulefile.py:file_rules -> load_text": PEER + ": a client's pasted rule-set file, "
    "text only; its base an installed name (custom.read_text)",
    "rules/loader.py:load_text -> load_plugin": "installed house rules by name",
    "rules/loader.py:load -> load_plugins": CALLER + " (load's own arguments)",
    "rules/loader.py:load_plugins -> load_plugin": "house rules by name: entry points only",
    "rules/loader.py:load_plugins -> _load_file": CALLER + " (a path given to load or "
    "load_plugins)",
    "rules/loader.py:load_installed -> check_installed_name": "refuses a path first",
    "formats/replay.py:_replay -> rules_for": PEER + ": a record (replay)",
    "play/session.py:resume -> rules_for": PEER + ": a record (play --resume, a server's table "
    "file's current game)",
    "cli/records.py:record_rules -> rules_for": PEER + ": a record file (check, replay, play "
    "--resume)",
    "server/quickplay.py:_open -> load": PEER + ": a client's quickplay, checked against the "
    "catalog's turn-based rule sets first (_request)",
    "server/lobby.py:table_rules -> load": PEER + ": a client's create, checked against the "
    "installed list first (_known)",
    "rules/loader.py:load -> load_plugin": "house rules by name: entry points only, so a "
    "record's or welcome's house rule that names a file is refused",
    "rules/loader.py:_file_plugin -> load_plugin": "a rule-set file's base and house rules: "
    "installed names unless the caller allows files (custom.read)",
    "rules/loader.py:load_installed -> load": "after refusing a path",
    "cli/validate.py:_alone_targets -> read_custom": CALLER + " (validate FILE)",
    "validation/data_rules.py:_alone -> load": CALLER + " (the file's base, as the file "
    "reader checked it)",
    "validation/data_rules.py:_alone -> load_plugins": CALLER,
    "validation/data_rules.py:reload -> load_plugins": CALLER,
    "validation/data_rules.py:stack -> load_plugins": CALLER,
    # names the caller gives (the Python API, the command line) or the library lists itself
    "cli/_args.py:load_rules -> load": CALLER,
    "cli/ratings.py:base_of -> load": CALLER,
    "cli/records.py:shown_position -> load": CALLER,
    "cli/study.py:_sides -> load": CALLER,
    "cli/validate.py:run_validate -> load": CALLER,
    "env/arguments.py:rules_of -> load": CALLER,
    "openspiel.py:_game_type -> load": CALLER,
    "openspiel.py:register_rulesets -> load": CALLER,
    "openspiel.py:rules_of -> load": CALLER,
    "rules/loader.py:house_rule_sheet -> load": CALLER,
    "rules/loader.py:house_rule_sheet -> load_plugin": CALLER,
    "rules/loader.py:turn_based_rulesets -> load_plugin": CALLER,
    "rules/registry.py:base_sheet -> load_plugin": CALLER,
    "server/lobby.py:_installed -> load": CALLER,
    "study/atlas.py:_fewest_seats -> load": CALLER,
    "study/atlas.py:_seats -> load": CALLER,
    "study/atlas.py:rules -> load": CALLER,
    "study/tune.py:book -> load": CALLER + " (tune's --ruleset, kept in the search's settings "
    "and compared, never loaded from the file)",
    "testing/conformance.py:load_rules -> load": CALLER,
    "testing/conformance.py:loader -> load": CALLER,
    "testing/conformance.py:rules -> load": CALLER,
    "testing/conformance.py:test_loads_from_entry_point -> load_plugin": CALLER,
    "validation/base.py:_inherited_from -> load": CALLER,
    "validation/base.py:_loaded -> load": CALLER,
    "validation/base.py:base_of -> load_plugin": CALLER,
    "validation/base.py:base_of -> read_custom": CALLER,
    "validation/house_rule.py:validate_house_rule -> load": CALLER,
    "validation/house_rule.py:validate_house_rule -> load_plugin": CALLER,
    "validation/run.py:_entry_point_check -> load_plugin": CALLER,
    "validation/run.py:_stacker -> load_plugin": CALLER,
    "validation/run.py:reload -> load": CALLER,
    "validation/run.py:stack -> load": CALLER,
    "validation/run.py:stack -> load_plugin": CALLER,
    "validation/run.py:validate -> load": CALLER,
    "validation/spread.py:check_seat_counts -> load": CALLER,
    "validation/spread.py:check_clause_settings -> load": CALLER,
    "validation/static.py:check_player_counts -> load": CALLER,
    "validation/steps.py:usual_configurations -> load": CALLER,
    # not a name of rules: a bot plugin's entry point, the shipped weights, the trained-for set
    "bots/players.py:__call__ -> load": "a bot plugin's entry point (EntryPoint.load), "
    "installed only",
    "env/learned.py:_weights -> load": "numpy's np.load of the package's own weights file, "
    "no pickle",
    "env/learned.py:check_rules -> load": "the rule-set name stored in the package's own "
    "weights file (an installed rule set)",
}
"""Every call that turns a name into rules or a plugin, by ``module:function -> callee``,
with where the name comes from."""


def _calls() -> set[str]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                func = call.func
                name = (func.id if isinstance(func, ast.Name)
                        else func.attr if isinstance(func, ast.Attribute) else "")
                owner = func.value.id if (isinstance(func, ast.Attribute)
                                          and isinstance(func.value, ast.Name)) else ""
                if name in LOADERS and owner not in ("json", "tomllib", "config", "ep",
                                                     "pickle", "self"):
                    found.add(f"{path.relative_to(PACKAGE).as_posix()}:{node.name} -> {name}")
    return found


def test_every_call_that_turns_a_name_into_rules_has_a_row() -> None:
    assert _calls() == set(CALLS)


PATHS = ["/etc/passwd", "x.toml", "X.TOML", "../variants/g4a.toml", "sub/rules", "/dev/zero"]


@pytest.mark.parametrize("name", PATHS)
def test_load_installed_refuses_a_path_naming_the_field_and_opens_nothing(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("spitemalice.rules.custom.read",
                        lambda *args, **kw: opened.append(str(args[0])))
    with pytest.raises(sm.RulesetError) as refused:
        load_installed(name, field="x.name", owner="a peer")
    assert str(refused.value).startswith("x.name: ")
    assert "is a file path; a peer names an installed rule set" in str(refused.value)
    assert opened == []


def test_load_installed_loads_an_installed_name() -> None:
    assert load_installed("blackwood-frey", field="f", owner="o").name == "blackwood-frey"


@pytest.fixture
def record_data() -> dict[str, Any]:
    rules = sm.load("blackwood-frey", payoff_size=5)
    result = play_game(rules, [GreedyPlayer(1), GreedyPlayer(2)], seed=4)
    return json.loads(dumps_record(record_result(rules, result)))


def _record_naming(data: dict[str, Any], **ruleset: Any) -> Any:
    return loads_record(json.dumps({**data, "ruleset": {**data["ruleset"], **ruleset}}))


@pytest.mark.parametrize("name", PATHS)
def test_a_record_naming_a_file_is_refused_at_every_door(record_data: dict[str, Any],
                                                         name: str) -> None:
    record = _record_naming(record_data, name=name)
    doors = [lambda: rules_for(record), lambda: list(replay(record)),
             lambda: Session.resume(record), lambda: sm.check_record(record)]
    for door in doors:
        with pytest.raises(sm.RulesetError, match="is a file path; a record names an installed"):
            door()


def test_a_record_or_welcome_house_rule_naming_a_file_is_refused(
        record_data: dict[str, Any]) -> None:
    record = _record_naming(record_data, house_rules=["/etc/passwd", "x.toml:R-1"])
    with pytest.raises(sm.RulesetError, match=r"unknown house rule|rule-set file"):
        rules_for(record)


def test_a_servers_table_whose_record_names_a_file_is_skipped(
        record_data: dict[str, Any], tmp_path: Path) -> None:
    """The table file's current game: its record is read by rules_for, so a path there is
    refused and the table skipped with the reason."""
    pytest.importorskip("uvicorn")
    from spitemalice.server.store import SeatEntry, Store, TableEntry
    from spitemalice.server.tables import Hub

    store = Store(tmp_path)
    table = "0123456789abcdef"
    unfinished = {**record_data, "moves": record_data["moves"][:3], "outcome": None,
                  "ruleset": {**record_data["ruleset"], "name": "x.toml"}}
    store.record_path(table, 1).write_text(json.dumps(unfinished), encoding="utf-8")
    store.save(TableEntry(table, 1, (SeatEntry("a", "human", "0" * 64),
                                     SeatEntry("b", "greedy", None))))
    said = Hub(store).restore()
    assert len(said) == 1 and "is a file path; a record names an installed" in said[0]


@pytest.mark.parametrize("name", PATHS)
def test_a_clients_create_naming_a_file_is_refused(name: str) -> None:
    pytest.importorskip("starlette")
    from spitemalice.server.lobby import table_rules
    from spitemalice.server.protocol import Message, SeatRequest

    message = Message("create", {"ruleset": name, "seats": (SeatRequest("a", "human"),
                                                            SeatRequest("b", "greedy"))})
    with pytest.raises(sm.ProtocolError) as refused:
        table_rules(message)
    assert refused.value.code == "bad-rules"
    assert "create.ruleset" in str(refused.value) and "is not an installed rule set" in str(
        refused.value)
