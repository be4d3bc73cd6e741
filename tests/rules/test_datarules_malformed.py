"""A malformed data house rule refuses its whole file when it is read, before any game, with
the line and column of the fault, what is wrong and what would be right (issue 34 §2).

Each case is a file, the line of its fault and the text the column points at (the column
expected is where that text starts on that line: computed from the file, not from the
library), and words the message must hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.rules import custom

HEAD = 'title = "T"\nversion = "1"\nbase = "blackwood-frey"\n\n'


def rule(*lines: str, clause: str = "X-1") -> str:
    return ("[[rule]]\n" f'clause = "{clause}"\n' 'text = "A rule."\n' 'source = "HOUSE"\n'
            + "".join(f"{line}\n" for line in lines))


FORBID = ('forbid = "discard"', 'reason = "no-go"', 'message = "refused"')


def forbid_when(condition: str) -> str:
    return rule(FORBID[0], f'when = "{condition}"', *FORBID[1:])


# name -> (file text after HEAD, line of the fault, text the column points at, message words)
CASES = {
    "unknown name": (forbid_when("target.size > 0 and move.rnak > target.top"), 10,
                     "move.rnak", ["unknown name move.rnak", "did you mean move.rank?"]),
    "type error": (forbid_when("move.rank > 'ace'"), 10, "'ace'",
                   ["'>' compares whole numbers", "is a text in quotes"]),
    "hidden draw pile": (forbid_when("draw.top == 1"), 10, "draw.top",
                         ["draw.top would read a hidden card", "draw pile is face down"]),
    "hidden pay-off card": (forbid_when("payoff.under > move.rank"), 10, "payoff.under",
                            ["would read a hidden card", "face down below its top card"]),
    "another seat's hand": (forbid_when("1 in opponent.hand"), 10, "opponent.hand",
                            ["another seat's hand is hidden"]),
    "reason without message": (rule(FORBID[0], 'reason = "no-go"'), 10, '"no-go"',
                               ["the reason code no-go has no message", "add message ="]),
    "clause used twice": (rule(*FORBID) + rule(*FORBID), 13, '"X-1"',
                          ["clause X-1 is used twice in this file"]),
    "too deep": (forbid_when("not " * 14 + "move.wild"), 10, "not not move.wild",
                 ["nested deeper than 12 levels", "limits.MAX_CONDITION_DEPTH"]),
    "too long": (forbid_when("move.rank == 1 or " * 23 + "move.wild"), 10, "move.rank",
                 ["characters long; at most 400", "limits.MAX_CONDITION_CHARS"]),
    "pass forbidden": (rule('forbid = "pass"', *FORBID[1:]), 9, '"pass"',
                       ["a pass cannot be forbidden"]),
    "misspelt kind": (rule('forbid = "discrad"', *FORBID[1:]), 9, '"discrad"',
                      ['is no kind of move (did you mean "discard"?)']),
    "unknown key": (rule(*FORBID, 'wen = "move.wild"'), 12, '"move.wild"',
                    ['unknown key "wen"', 'did you mean "when"?']),
    "no reason": (rule('forbid = "discard"'), 9, '"discard"',
                  ["names the reason code its refusals carry"]),
    "not true or false": (forbid_when("move.rank + 1"), 10, "move.rank",
                          ["gives a whole number, but here it must give true or false"]),
    "syntax": (forbid_when("move.rank >"), 10, "move.rank >", ["not a valid expression"]),
    "unknown parameter": (rule('values = { payof_size = "payoff_size - 5" }'), 9,
                          '"payoff_size - 5"', ['unknown parameter "payof_size"',
                                                'did you mean "payoff_size"?']),
    "value of the wrong type": (rule('values = { payoff_size = "wild_ranks" }'), 9,
                                "wild_ranks", ["gives a list of whole numbers, but here it "
                                               "must give a whole number"]),
    "attribute escape": (forbid_when("move.__class__ == 1"), 10, "move.__class__",
                         ["unknown name move.__class__"]),
    "a call out": (forbid_when("open('x') == 1"), 10, "open('x')",
                   ["open() is not a function of the rule language"]),
    "comprehension": (forbid_when("[x for x in hand.ranks] == []"), 10, "[x for",
                      ["a comprehension is not part of the rule language"]),
    "refusal missing": (rule('values = { payoff_size = "payoff_size - 5" }',
                             'refuse_when = "not has_wild_cards"'), 10, '"not has',
                        ["refuse_when and refusal go together"]),
    "unknown finding": (rule('expects = ["stuck seat"]'), 9, '["stuck seat"]',
                        ["'stuck seat'", "which is no finding a clause may declare"]),
    "in a text": (forbid_when("move.rank in 'abc'"), 10, "'abc'",
                  ["'in' asks whether a value is in a list of its kind"]),
    "forbid and require": (rule(FORBID[0], 'require = "move.wild"', *FORBID[1:]), 10,
                           '"move.wild"', ["a rule either forbids, requires or sets values"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_malformed_rule_refuses_the_file_at_its_line_and_column(
        name: str, tmp_path: Path) -> None:
    body, line, points_at, words = CASES[name]
    text = HEAD + body
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    column = text.split("\n")[line - 1].index(points_at) + 1
    with pytest.raises(sm.RulesetError) as refused:
        sm.load(path)
    message = str(refused.value)
    assert message.startswith(f"{path.resolve()}:{line}:{column}: rule "), message
    for word in words:
        assert word in message, message
    with pytest.raises(sm.RulesetError):  # refused when read, before any rule book is built
        custom.read(path)


def test_twenty_or_more_faults_are_covered() -> None:
    assert len(CASES) >= 20


def test_a_sound_file_with_every_kind_of_rule_loads(tmp_path: Path) -> None:
    body = (forbid_when("target.size > 0 and move.rank > target.top")
            + rule('require = "move.kind == \'play\' and move.rank == 1"',
                   'reason = "forced-play"', 'message = "play the ace"', clause="X-2")
            + rule('values = { payoff_size = "payoff_size - 5" }', clause="X-3")
            + rule('expects = ["stuck-seat"]', clause="X-4"))
    path = tmp_path / "good.toml"
    path.write_text(HEAD + body, encoding="utf-8")
    rules = sm.load(path)
    assert rules.ruleset.payoff_size == sm.load("blackwood-frey").ruleset.payoff_size - 5
    assert [c.id for c in rules.clauses if c.id.startswith("X-")] == ["X-1", "X-2", "X-3",
                                                                        "X-4"]
    assert len(rules.filter_moves_hooks) == 2
