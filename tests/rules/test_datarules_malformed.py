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
    "score: unknown name": (rule('values = { score = "5 + opponents.payof" }'), 9,
                            "opponents.payof", ["values.score: unknown name opponents.payof",
                                                "did you mean opponents.payoff?"]),
    "score: not a number": (rule('values = { score = "seat.won" }'), 9, "seat.won",
                            ["gives true or false, but here it must give a whole number"]),
    "score: a condition's name": (rule('values = { score = "move.rank" }'), 9, "move.rank",
                                  ["unknown name move.rank", "the groups are game, "
                                   "opponents, seat, team"]),
    "score: divided by 0": (rule('values = { score = "opponents.payoff // (2 - 2)" }'), 9,
                            "2 - 2)", ["divides by 0, which has no value"]),
    "score: not in quotes": (rule("values = { score = 25 }"), 9, "25",
                             ["an expression is written in quotes"]),
    "score: a text": (rule('values = { score = "game.end" }'), 9, "game.end",
                      ["gives a text in quotes, but here it must give a whole number"]),
    "condition divided by 0": (forbid_when("move.rank % 0 == 1"), 10, "0 == 1",
                               ["'move.rank % 0' divides by 0"]),
    # A new user's "Ü-1" was refused as not "letters, a hyphen and a number", though Ü is a
    # letter: the message says which letters (and so does a reason code's, "lower-case").
    "clause id not A to Z": (rule(*FORBID, clause="Ü-1"), 6, '"Ü-1"',
                             ["the letters A to Z (either case) and digits 0 to 9",
                              '"Ü" is not among them']),
    "reason code not a to z": (rule(FORBID[0], 'reason = "no-gé"', FORBID[2]), 10,
                               '"no-gé"', ["words of the letters a to z and digits 0 to 9",
                                           '"é" is not among them']),
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


def test_a_score_that_can_fall_below_zero_is_refused_before_any_game(tmp_path: Path) -> None:
    """The file reads (the type is right), but the rule book is refused when it is built:
    some end of game would score a seat less than 0.  The place is the expression's."""
    text = HEAD + rule('values = { score = "opponents.payoff - 20 if seat.won else 0" }')
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    custom.read(path)
    column = text.split("\n")[8].index('"opponents') + 1
    with pytest.raises(sm.RulesetError) as refused:
        sm.load(path)
    message = str(refused.value)
    assert message.startswith(f"{path.resolve()}:9:{column}: rule X-1: values.score: the "
                              "score of seat "), message
    assert "opponents.payoff = 0, seat.won = true" in message
    assert "a score is a whole number 0 or more" in message


def test_a_score_may_read_every_end_of_game_quantity(tmp_path: Path) -> None:
    from spitemalice.rules.datarules.vocabulary import SCORE_NAMES
    ints = [name for name, (kind, _) in SCORE_NAMES.items() if kind == "int"]
    flags = "(1 if seat.won and game.won and game.end == 'win' else 0)"
    expression = _balanced([*ints, "len(opponents.payoffs)"])
    path = tmp_path / "all.toml"
    path.write_text(HEAD + rule(f'values = {{ score = "{expression} + {flags}" }}'),
                    encoding="utf-8")
    rules = sm.load(path)
    state = sm.deal(rules, 3)
    points = rules.score(state, "drawn", None)
    seats = state.seats
    hands = [len(seat.hand) for seat in seats]
    payoffs = [seat.payoff_count for seat in seats]
    discards = [sum(map(len, seat.discards)) for seat in seats]
    for seat in (0, 1):
        other = 1 - seat
        expected = (2 + 2 + 1 + state.turn + len(state.draw)  # game.*
                    + 2 * (payoffs[seat] + hands[seat] + discards[seat])  # seat.*, team.*
                    + payoffs[other] + hands[other] + discards[other] + 1)
        assert points[seat] == expected


def _balanced(terms: list[str]) -> str:
    """A sum nested as a balanced tree (a chain of + would pass the depth limit)."""
    if len(terms) == 1:
        return terms[0]
    half = len(terms) // 2
    return f"({_balanced(terms[:half])} + {_balanced(terms[half:])})"


def test_a_negative_score_the_trial_missed_stops_the_game_naming_its_place(
        tmp_path: Path) -> None:
    """The trial sees pay-off piles of 0, 1 and 20 cards (g4a's full pile); this score is
    below 0 only between them, so the file loads, and the first game that ends there stops
    with the expression's place rather than record the score."""
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.runs.loop import play_game

    score = "seat.payoff - 25 if seat.payoff > 1 and seat.payoff < 20 else 0"
    text = HEAD.replace("blackwood-frey", "g4a") + rule(f'values = {{ score = "{score}" }}')
    path = tmp_path / "late.toml"
    path.write_text(text, encoding="utf-8")
    rules = sm.load(path, turn_limit=10)
    column = text.split("\n")[8].index('"seat') + 1
    with pytest.raises(sm.RulesetError) as refused:
        play_game(rules, [GreedyPlayer(1), GreedyPlayer(2)], 3)  # ends with 18 and 18
    assert str(refused.value).startswith(f"{path.resolve()}:9:{column}: rule X-1: values.score: "
                                         "the score of seat 0 is ")
    assert "a score is a whole number 0 or more" in str(refused.value)
