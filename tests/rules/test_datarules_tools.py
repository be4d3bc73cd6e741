"""A rule-set file's data house rules where the rest of the library meets them: records,
worker processes (pickling), a stack they refuse, the missing extra, values rules."""

from __future__ import annotations

import pickle
import re
import sys
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.cli import main
from spitemalice.formats import (
    dumps_record,
    loads_record,
    record_from_dict,
    record_game,
    record_to_dict,
)
from spitemalice.formats.replay import replay, rules_for
from spitemalice.runs.loop import play_game

HOUSE = Path(__file__).parents[2] / "examples" / "house-rules"
PAYOFF_FIRST = HOUSE / "payoff-first.toml"


def test_a_record_names_the_data_rules_and_replays_with_the_files_rules() -> None:
    rules = sm.load(PAYOFF_FIRST)
    game = play_game(rules, [GreedyPlayer(1), GreedyPlayer(2)], 7)
    record = loads_record(dumps_record(record_game(rules, 7, game.moves[:40])))
    assert record.ruleset.house_rules == ("payoff-first.toml:PF-1", "payoff-first.toml:PF-2")
    # the record carries the rules themselves (tests/formats/test_records_data_rules.py)
    assert [c.id for c in rules_for(record).clauses] == [c.id for c in rules.clauses]
    states = list(replay(record, rules))
    assert len(states) == 41 and not states[-1].is_over


def test_a_record_without_the_tables_says_to_load_the_file() -> None:
    """A record written before records carried data rules names them only."""
    rules = sm.load(PAYOFF_FIRST)
    data = record_to_dict(record_game(rules, 7, []))
    del data["ruleset"]["data_rules"]
    with pytest.raises(sm.RulesetError, match=r'house rule "PF-1" of the rule-set file '
                       r'"payoff-first.toml", not an installed plugin: load that file'):
        rules_for(record_from_dict(data))


def test_a_rule_book_with_data_rules_travels_to_a_worker_process() -> None:
    rules = sm.load(PAYOFF_FIRST)
    copy = pickle.loads(pickle.dumps(rules))
    assert copy.plugins == rules.plugins
    assert [c.id for c in copy.clauses] == [c.id for c in rules.clauses]
    state = sm.deal(rules, 12)
    for _ in range(30):
        assert sm.legal_moves(copy, state) == sm.legal_moves(rules, state)
        state = sm.apply_move(rules, state, sm.legal_moves(rules, state)[-1])


def test_refuse_when_refuses_a_stack_the_rule_cannot_change(tmp_path: Path) -> None:
    text = (HOUSE / "natural-ace-two.toml").read_text(encoding="utf-8")
    path = tmp_path / "natural-on-starturn.toml"
    no_stars = '\n[params]\ndraw_pack = 52\njokers = 0\nwild_ranks = "none"\n'
    path.write_text(text.replace('base = "blackwood-frey"', 'base = "starturn"') + no_stars,
                    encoding="utf-8")
    assert not sm.load("starturn", draw_pack=52, jokers=0, wild_ranks="none").ruleset\
        .has_wild_cards
    with pytest.raises(sm.RulesetError, match=re.escape(
            "natural-on-starturn.toml:NA-1 cannot stack on starturn: the rule set has no wild "
            "cards")):
        sm.load(path)


def test_a_values_rule_sets_a_parameter_from_the_rule_sets_own_values() -> None:
    rules = sm.load(HOUSE / "natural-ace-two.toml")
    base = sm.load("blackwood-frey")
    assert rules.ruleset.wild_excluded == base.ruleset.wild_excluded | {1, 2}
    assert rules.clause_for["wild-excluded"] == "NA-1"


def test_without_the_evaluator_the_file_is_refused_naming_the_extra(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "simpleeval", None)  # import simpleeval fails
    with pytest.raises(sm.RulesetError, match=r"pip install 'spitemalice\[datarules\]'"):
        sm.load(PAYOFF_FIRST)
    assert sm.load("blackwood-frey").plugins == ("blackwood-frey",)  # no file, no need


def test_a_condition_is_asked_once_per_combination_of_what_it_reads() -> None:
    rules = sm.load(HOUSE / "descending-discards.toml")
    plugin = rules.plugin("descending-discards.toml:DD-1")
    condition = plugin.spec.condition  # type: ignore[attr-defined]
    assert condition.position == () and condition.per_move == (
        "move.rank", "target.size", "target.top")
    calls = []
    run = condition.run
    condition.run = lambda names: calls.append(names) or run(names)
    state = sm.deal(rules, 4)
    moves = sm.legal_moves(sm.load("blackwood-frey"), state)
    hook = rules.filter_moves_hooks[0]
    first = hook(rules.ruleset, state, moves)
    asked = len(calls)
    assert hook(rules.ruleset, state, moves) == first and len(calls) == asked  # remembered


def test_coverage_counts_the_data_rules_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", str(PAYOFF_FIRST), "--games", "4", "--seed", "1", "--jobs", "1",
                   "--coverage"])
    out = capsys.readouterr().out
    assert status == 0
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.startswith("PF-")}
    played, refused = (int(rows["PF-1"][i].replace(",", "")) for i in (1, 2))
    assert played > 0 and refused > 0 and "payoff-first" in rows["PF-1"]
    assert int(rows["PF-2"][2].replace(",", "")) > 0 and "doubled-discard" in rows["PF-2"]


def test_a_data_rule_may_not_take_a_clause_id_of_the_sheet_it_joins(tmp_path: Path) -> None:
    # try-out s41: a [[rule]] with clause = "BF-3" on blackwood-frey gave a sheet with two
    # BF-3s, so a refusal citing BF-3 named two clauses
    path = tmp_path / "clash.toml"
    path.write_text('title = "t"\nversion = "1.0"\nbase = "blackwood-frey"\n\n[[rule]]\n'
                    'clause = "BF-3"\ntext = "t"\nsource = "s"\nforbid = "discard"\n'
                    'reason = "r"\nmessage = "no"\n', encoding="utf-8")
    with pytest.raises(sm.RulesetError, match=r"clash.toml: rule BF-3: clause BF-3 is already "
                                              r"on the rule sheet \(of blackwood-frey"):
        sm.load(path)
    renamed = path.read_text(encoding="utf-8").replace('"BF-3"', '"HR-1"')
    path.write_text(renamed, encoding="utf-8")
    assert [c.id for c in sm.load(path).clauses].count("HR-1") == 1


def test_a_fault_of_a_rules_text_is_reported_at_its_own_key(tmp_path: Path) -> None:
    # try-out s41: text = 5 was reported as a fault of "expects", a key the rule did not have
    path = tmp_path / "text.toml"
    path.write_text('title = "t"\nversion = "1.0"\nbase = "blackwood-frey"\n\n[[rule]]\n'
                    'clause = "X-1"\ntext = 5\nsource = "s"\nforbid = "discard"\n'
                    'reason = "r"\nmessage = "no"\n', encoding="utf-8")
    with pytest.raises(sm.RulesetError, match=r"text.toml:7:8: rule X-1: text: ") as refused:
        sm.load(path)
    assert "expects" not in str(refused.value)
