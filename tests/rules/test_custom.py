"""Custom rule sets in TOML files: the shipped examples load, and every fault of a file is
refused with the file, the key and the closest valid name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.cli import main
from spitemalice.rules.custom import is_file_name, read
from spitemalice.runs.loop import play_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHORT = EXAMPLES / "short-three.toml"
G4A_ACES = EXAMPLES / "g4a-mandatory-aces.toml"


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path: Path | str, *args: object, **kwargs: object) -> str:
    with pytest.raises(sm.RulesetError) as error:
        sm.load(path, *args, **kwargs)  # type: ignore[arg-type]
    return str(error.value)


HEAD = 'title = "Mine"\nversion = "1.0"\n'


def test_the_short_three_player_example_loads_and_plays() -> None:
    rules = sm.load(SHORT)
    r = rules.ruleset
    assert (r.name, r.title, r.version) == ("short-three", "Short three-player Spite and Malice",
                                            "1.0")
    assert (r.players, r.payoff_size, r.match_target, r.max_discard_cards) == (3, 13, 25, 2)
    assert rules.plugins == ("blackwood-frey", "pair-discards", "short-three.toml")
    result = play_game(rules, [GreedyPlayer(seat) for seat in range(3)], seed=2)
    assert result.final.outcome is not None
    assert [len(seat.payoff[0]) for seat in sm.deal(rules, 1).seats] == [13, 13, 13]


def test_the_g4a_mandatory_aces_example_forces_twos() -> None:
    rules = sm.load(str(G4A_ACES))
    assert rules.ruleset.mandatory_ranks == {1, 2}
    assert "mandatory-aces" in rules.plugins and rules.ruleset.max_build_piles == 3
    assert any(clause.id == "MA-1" for clause in rules.clauses)


def test_arguments_given_with_a_file_come_after_the_files_own() -> None:
    rules = sm.load(SHORT, ["mandatory-aces"], {"payoff_size": 10})
    assert rules.plugins == ("blackwood-frey", "pair-discards", "mandatory-aces",
                             "short-three.toml")
    assert (rules.ruleset.payoff_size, rules.ruleset.players) == (10, 3)
    assert sm.load(SHORT, players=4).players == 4


def test_a_fault_of_the_given_arguments_is_not_blamed_on_the_file() -> None:
    message = refusal(SHORT, players=5)
    assert "2 to 4 players, not 5" in message and str(SHORT) not in message
    message = refusal(SHORT, ["pair-discards"])
    assert "given twice" in message


def test_names_and_paths_are_told_apart() -> None:
    assert is_file_name("x.toml") and is_file_name("dir/x") and is_file_name(Path("x"))
    assert not is_file_name("blackwood-frey")


def test_a_base_may_be_another_file(tmp_path: Path) -> None:
    parent = write(tmp_path, HEAD + 'base = "uspcc"\nhouse_rules = ["pair-discards"]\n'
                   "[params]\npayoff_size = 15\nmatch_target = 20\n", "parent.toml")
    child = write(tmp_path, 'title = "Child"\nversion = "2"\nbase = "parent.toml"\n'
                  'house_rules = ["mandatory-aces"]\n[params]\npayoff_size = 12\n')
    spec = read(child, allow_files=True)
    assert spec.base == "uspcc" and spec.house_rules == ("pair-discards", "mandatory-aces")
    assert spec.params == {"payoff_size": 12, "match_target": 20}
    rules = sm.load(child, allow_files=True)
    assert (rules.ruleset.title, rules.ruleset.payoff_size) == ("Child", 12)
    assert parent.exists()
    # Each value is credited to the file that set it, not to the outermost file.
    assert spec.param_files == {"payoff_size": "mine.toml", "match_target": "parent.toml"}
    assert rules.origin["match_target"] == "file parent.toml"
    assert rules.origin["payoff_size"] == "file mine.toml"


def test_files_that_name_each_other_are_refused(tmp_path: Path) -> None:
    write(tmp_path, HEAD + 'base = "b.toml"\n', "a.toml")
    write(tmp_path, HEAD + 'base = "a.toml"\n', "b.toml")
    assert "cycle" in refusal(tmp_path / "a.toml", allow_files=True)


def test_a_base_names_an_installed_rule_set_unless_files_are_allowed(tmp_path: Path) -> None:
    # A file may come from a stranger: its base must not make us read some other path
    # (issue 10, class 4).
    write(tmp_path, HEAD + 'base = "uspcc"\n', "parent.toml")
    child = write(tmp_path, HEAD + 'base = "parent.toml"\n')
    assert "is a file; a base names an installed rule set" in refusal(child)
    for target in ("/dev/zero", "../../etc/passwd"):
        child.write_text(HEAD + f'base = "{target}"\n', encoding="utf-8")
        assert "is a file" in refusal(child)
    assert main(["rules", str(child)]) == 2


@pytest.mark.parametrize(("body", "expected"), [
    (HEAD + 'base = "blackwod-frey"\n',
     ["base: unknown rule set \"blackwod-frey\" (did you mean \"blackwood-frey\"?)"]),
    (HEAD + 'base = "pair-discards"\n', ['base: "pair-discards" is a house-rule']),
    (HEAD + 'base = "g4a"\nhouse_rules = ["mandatory-ace"]\n',
     ["house_rules: unknown house rule \"mandatory-ace\" (did you mean \"mandatory-aces\"?)"]),
    (HEAD + 'base = "g4a"\nhouse_rule = ["mandatory-aces"]\n',
     ["unknown key \"house_rule\" (did you mean \"house_rules\"?)"]),
    (HEAD + 'base = "g4a"\nbuild_ceiling = 13\n',
     ['"build_ceiling" is a parameter: put it in the [params] table']),
    (HEAD + 'base = "g4a"\nhouse_rules = "mandatory-aces"\n',
     ["house_rules must be a list of names"]),
    ('title = "Mine"\nbase = "g4a"\n', ["missing key \"version\""]),
    ('title = "Mine"\nversion = 1.0\nbase = "g4a"\n',
     ["version must be a non-empty printable text"]),
    (HEAD + 'base = "g4a"\n[params]\npayof_size = 13\n',
     ["params: unknown parameter \"payof_size\" (did you mean \"payoff_size\"?)"]),
    (HEAD + 'base = "g4a"\n[params]\npayoff_size = "thirteen"\n',
     ["params.payoff_size: payoff_size is a whole number"]),
    (HEAD + 'base = "g4a"\n[params]\npacks_per_seat = 1\n',
     ["params.packs_per_seat: packs_per_seat is true or false, not 1"]),
    (HEAD + 'base = "g4a"\n[params]\nwild_ranks = ["K", "X"]\n',
     ['params.wild_ranks: wild_ranks: "X" is not a rank']),
    (HEAD + 'base = "g4a"\n[params]\nname = "x"\n', ["params.name: set name at the top"]),
    (HEAD + 'base = "g4a"\nparams = 3\n', ["params must be a table"]),
    (HEAD + 'base = "g4a"\n[params]\npayoff_size = 99\n',
     ["payoff_size = 99: it must be at least 0 and at most 60"]),
    (HEAD + 'base = "uspcc"\n[params]\nplayers = 3\n', ["mine is for 2 players only, not 3"]),
    (HEAD + 'base = "g4a"\n[params]\nmandatory_ranks = [1, 2]\n',
     ["add --house-rule mandatory-aces"]),
    (HEAD + 'base = "starturn"\nhouse_rules = ["wild-must-be-covered"]\n'
     '[params]\ndraw_pack = 52\njokers = 0\nwild_ranks = "none"\n',  # no star cards
     ["wild-must-be-covered", "starturn has no wild cards"]),
    (HEAD + 'base = "g4a"\n[params\n', ["not valid TOML"]),
])
def test_faults_name_the_file_and_the_key(tmp_path: Path, body: str,
                                          expected: list[str]) -> None:
    path = write(tmp_path, body)
    message = refusal(path)
    # a fault of a [params] value names its line and column too (the test below checks them)
    assert re.match(re.escape(str(path.resolve())) + r"(:\d+:\d+)?: ", message), message
    for part in expected:
        assert part in message


# [params] text -> (the text the column points at, words of the message): each fault of a
# parameter names the line and column of its value, found when the file is read or when the
# rule book is built
PARAM_FAULTS = {
    "[params]\npayof_size = 13\n": ("13", 'unknown parameter "payof_size"'),
    '[params]\npayoff_size = "thirteen"\n': ('"thirteen"', "payoff_size is a whole number"),
    '[params]\nname = "x"\n': ('"x"', "params.name: set name at the top"),
    "params = 3\n": ("3", "params must be a table"),
    "[params]\nhand_size = 5\npayoff_size = 99\n": ("99", "params.payoff_size: payoff_size "
                                                     "= 99: it must be at least 0 and at most 60"),
    "params = { hand_size = 5, payoff_size = 99 }\n": ("99", "at most 60"),
    "[params]\nplayers = 3\n": ("3", "params.players: mine is for 2 players only, not 3"),
    "[params]\nmandatory_ranks = [1, 2]\n": ("[1, 2]", "add --house-rule mandatory-aces"),
}


@pytest.mark.parametrize("table", sorted(PARAM_FAULTS))
def test_a_fault_of_a_parameter_names_its_line_and_column(tmp_path: Path, table: str) -> None:
    points_at, words = PARAM_FAULTS[table]
    text = HEAD + 'base = "g4a"\n' + table
    path = write(tmp_path, text)
    lines = text.split("\n")
    line = len(lines) - 1  # the last line written holds the fault
    column = lines[line - 1].rindex(points_at) + 1
    message = refusal(path)
    assert message.startswith(f"{path.resolve()}:{line}:{column}: "), message
    assert words in message


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    assert "no such custom rule set file" in refusal(tmp_path / "absent.toml")


def test_the_command_line_takes_a_file_wherever_it_takes_a_rule_set(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", str(SHORT)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Short three-player Spite and Malice — short-three 1.0")
    assert "PD-1" in out
    assert main(["simulate", str(G4A_ACES), "--games", "3", "--set", "match_target=10",
                 "--house-rule", "pair-discards"]) == 0
    assert "g4a-mandatory-aces" in capsys.readouterr().out
    assert main(["rules", str(EXAMPLES / "absent.toml")]) == 2
    assert "no such custom rule set file" in capsys.readouterr().err


def test_a_file_that_is_not_text_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(sm.RulesetError, match="not a text file"):
        sm.load(str(path))


def test_a_setting_with_a_fixed_set_of_values_accepts_exactly_its_type_s_values() -> None:
    """Each ``Literal`` field of a Ruleset is validated against the type's own values (written
    once, in the type): every value is accepted, anything else refused naming them all."""
    import typing

    import attrs

    base = sm.load("blackwood-frey").ruleset
    hints = typing.get_type_hints(sm.Ruleset)
    fields = {name: typing.get_args(hint) for name, hint in hints.items()
              if typing.get_origin(hint) is typing.Literal}
    assert {"first_seat", "completed_piles", "exhaustion", "partner_piles"} <= set(fields)
    for name, values in fields.items():
        for value in values:
            assert getattr(attrs.evolve(base, **{name: value}), name) == value
        with pytest.raises(sm.RulesetError, match=f'{name} = "bogus": choose one of '
                                                  f"{', '.join(values)}$"):
            attrs.evolve(base, **{name: "bogus"})


def test_every_bad_value_of_a_file_is_refused_together_each_with_its_place(
        tmp_path: Path) -> None:
    """Found by a fresh user: docs/rulesets.md says bad values are refused together, but a
    file's [params] were refused one at a time."""
    path = write(tmp_path, HEAD + 'base = "g4a"\n[params]\npacks = 99\nhand_size = "y"\n'
                 'pakcs = 2\nexhaustion = "none"\n')
    where = path.resolve()
    assert refusal(path) == (
        f'4 problems: (1) {where}:5:9: params.packs: packs = 99: it must be at least 0 and at '
        f'most 12; (2) {where}:6:13: params.hand_size: hand_size is a whole number, not "y"; '
        f'(3) {where}:7:9: params: unknown parameter "pakcs" (did you mean "packs"?); '
        '`spitemalice rules NAME` lists them; '
        f'(4) {where}:8:14: params.exhaustion: exhaustion = "none": choose one of difference, '
        'tie')


@pytest.mark.parametrize(("params", "message"), [
    ({"packs": 99, "hand_size": 0, "pakcs": 3, "wild_ranks": "X"},
     '4 problems: (1) packs = 99: it must be at least 0 and at most 12; (2) hand_size = 0: it '
     'must be at least 1 and at most 12; (3) unknown parameter "pakcs" (did you mean '
     '"packs"?); `spitemalice rules NAME` lists every parameter; (4) wild_ranks: "X" is not a '
     'rank; write whole numbers (1 = ace, 13 = king, 0 = joker) or A, J, Q, K, *'),
    ({"completed_piles": "x", "wild_excluded": [-2, -1]},
     '2 problems: (1) completed_piles = "x": choose one of set-aside, shuffle-in; '
     '(2) wild_excluded: ranks are 0 (joker) or more, not -2, -1'),
    # every value right on its own: what the built book cannot do, together
    ({"players": 4, "payoff_size": 60, "wild_ranks": "none", "mandatory_ranks": "14"},
     "4 problems: (1) blackwood-frey: the deck of 156 cards cannot deal each of 4 seats 1 "
     "pay-off pile of 60 cards (payoff_size) and a hand of 5: 260 cards; use fewer players, "
     "smaller pay-off piles (payoff_size at most 34 for 4 seats), a smaller hand_size or more "
     "packs; (2) mandatory_ranks names rank(s) 14 that no card has; ranks here run from 0 "
     "(joker) to 13; (3) mandatory_ranks = 14 has no effect on blackwood-frey unless a plugin "
     "that enforces it is loaded; add --house-rule mandatory-aces; (4) blackwood-frey: no "
     "build pile can ever take the 12 cards of rank K (build ceiling 12, wild_ranks = none): "
     "such a card can only be discarded, and one in a pay-off pile never leaves it; make them "
     "wild (wild_ranks = 13) or build up to them (build_ceiling = 13)"),
])
def test_load_refuses_every_bad_value_together(params: dict[str, object],
                                               message: str) -> None:
    """Found by a fresh user: load named only the first bad value (docs/rulesets.md: "refused
    together").  Values that only others make wrong (players against max_players) are
    weighed once each is right on its own."""
    assert refusal("blackwood-frey", **params) == message


@pytest.mark.parametrize(("name", "toml", "cli", "why"), [
    ("payoff_size", "true", "true", "true and false are not numbers (write the number"),
    ("payoff_size", "13.0", "13.0", "write it without a decimal point, 13"),
    ("hand_size", "5.5", "5.5", "a number with a fraction (or not a number at all) is not "
                                "whole"),
    ("payoff_size", '"٣"', "٣", "write it in the digits 0 to 9, 3"),
    ("turn_limit", '"-٣"', "-٣", "write it in the digits 0 to 9, -3"),
])
def test_a_value_that_is_not_a_whole_number_is_told_why(tmp_path: Path, name: str, toml: str,
                                                        cli: str, why: str) -> None:
    """A new user's payoff_size = true, 13.0 and "٣" were refused as not "a whole number of
    at most 80 digits": the digit limit was not what was wrong.  Every integer field of a
    file and of --set (one reader) says what is wrong and what is right; the limit is named
    only for a number too long."""
    path = write(tmp_path, f'{HEAD}base = "blackwood-frey"\n[params]\n{name} = {toml}\n')
    for message in (refusal(path), refusal("blackwood-frey", **{name: cli})):
        assert f"{name} is a whole number" in message and why in message, message
        assert "80 digits" not in message, message
    assert "at most 80 digits are read" in refusal("blackwood-frey", **{name: "9" * 81})


def test_a_rank_that_is_not_a_whole_number_is_told_why() -> None:
    """The rank sets share the fault: 13.0 said only "is not a rank"."""
    message = refusal("blackwood-frey", wild_ranks=[13.0])
    assert "wild_ranks: 13.0 is not a rank: write it without a decimal point, 13" in message


@pytest.mark.parametrize("name", ["Ü.toml", ".hidden.toml", "a b.toml"])
def test_a_file_name_refusal_says_exactly_which_characters(name: str) -> None:
    """As a clause id's refusal, "letters, digits" admitted Ü, a letter the name refuses."""
    from spitemalice.rules.custom import read_text

    with pytest.raises(sm.RulesetError) as refused:
        read_text(f'{HEAD}base = "blackwood-frey"\n', name)
    assert 'the letters A to Z (either case), digits 0 to 9, "-", "_" or "."' in str(
        refused.value)
