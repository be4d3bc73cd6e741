"""Rule sheets: clause templates rendered from the resolved rules, and the sheet as text.

A clause's text may hold placeholders in braces that are filled from the resolved
:class:`Ruleset` when a :class:`~spitemalice.rules.book.RuleBook` is built, so the sheet always
says what the engine does (design notes §8 "One source of truth").  A placeholder is

* a parameter: ``{payoff_size}`` (as ``--set`` writes it);
* a parameter with a form: ``{hand_size:word}`` ("five"), ``{build_ceiling:rank}``
  ("queen"), ``{discard_forbidden:ranks}`` ("A and 2"), ``{discard_forbidden:ranks_or}``,
  ``{players:Word}`` (capitalised);
* a phrase made from several parameters (:data:`PHRASES`): ``{wild_rule}``,
  ``{build_pile_limit}``, ``{completed}``, ``{discard_rule}``, ``{players_range}``,
  ``{discard_count}``, ``{payoff_deal}``, ``{deck}``;
* ``{teams}``: the teams the rule book formed ("0+2 and 1+3"), which the rule book passes in
  when it renders its sheet.

Write ``{{`` and ``}}`` for a literal brace.  A placeholder naming nothing here refuses the
rule set at load, naming the clause and the plugin.  This module reads only values; it knows
no rule book.
"""

from __future__ import annotations

import string
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from spitemalice.errors import RulesetError
from spitemalice.rules.policies import Clause
from spitemalice.rules.ruleset import IDENTITY_FIELDS, Ruleset, field_help
from spitemalice.wording import a_or_an, count_of

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen")
_RANK_WORDS = {0: "joker", 1: "ace", 11: "jack", 12: "queen", 13: "king"}
_RANK_SHORT = {0: "joker", 1: "A", 11: "J", 12: "Q", 13: "K"}


def number_word(n: int | None) -> str:
    """``4`` -> ``"four"`` (digits above fifteen; ``None`` -> ``"any number of"``)."""
    if n is None:
        return "any number of"
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def rank_word(rank: int) -> str:
    """``12`` -> ``"queen"``, ``7`` -> ``"7"``."""
    return _RANK_WORDS.get(rank, str(rank))


def rank_list(ranks: frozenset[int] | set[int], joint: str = "and") -> str:
    """``{1, 2, 7}`` -> ``"A, 2 and 7"``; ``"none"`` for no rank."""
    words = [_RANK_SHORT.get(rank, str(rank)) for rank in sorted(ranks)]
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {joint} " + words[-1]


def _wild_names(rules: Ruleset) -> list[str]:
    """The wild cards the deck holds, as plural words."""
    names = []
    if 13 in rules.wild_ranks and rules.seat_packs:
        names.append("kings")
    if 0 in rules.wild_ranks and rules.seat_jokers:
        names.append("jokers")
    names += [f"{rank_word(r)}s" for r in sorted(rules.wild_ranks) if r not in (0, 13)]
    return names


def wild_rule(rules: Ruleset) -> str:
    """What the wild cards are and may stand for, as a sentence."""
    names = _wild_names(rules)
    if not names:
        return "There are no wild cards."
    which = " and ".join(names)
    one = names[0][:-1] if len(names) == 1 else "wild card"
    excluded = sorted(rules.wild_excluded)
    if not excluded:
        return (f"{which.capitalize()} are wild: {a_or_an(one)} stands for any rank a build pile "
                "needs, and on an empty build pile it starts the pile as its ace.")
    except_ = rank_list(frozenset(r for r in excluded if r != 1) if 1 in excluded else
                        frozenset(excluded))
    if 1 in excluded:
        others = [r for r in excluded if r != 1]
        tail = f", {except_} or the ace" if others else " the ace"
        return (f"{which.capitalize()} are wild: {a_or_an(one)} stands for any rank except{tail}, "
                f"so {a_or_an(one)} may not start a build pile.")
    return (f"{which.capitalize()} are wild: {a_or_an(one)} stands for any rank except {except_}, "
            f"and on an empty build pile it starts the pile as its ace.")


def build_pile_limit(rules: Ruleset) -> str:
    if rules.max_build_piles is None:
        return "Any number of build piles may be open at once."
    many = "pile is" if rules.max_build_piles == 1 else "piles are"
    return f"At most {number_word(rules.max_build_piles)} build {many} open at once."


def completed(rules: Ruleset) -> str:
    if rules.completed_piles == "shuffle-in":
        return "is shuffled into the draw pile at once"
    return "is set aside out of play"


def discard_rule(rules: Ruleset) -> str:
    forbidden = rules.discard_forbidden
    if not forbidden:
        return "Any hand card may be discarded."
    if len(forbidden) == 1:
        rank = next(iter(forbidden))
        article = "An" if rank in (1, 8, 11) else "A"
        return f"{article} {rank_word(rank)} may not be discarded."
    return f"Cards of rank {rank_list(forbidden, 'or')} may not be discarded."


def discard_count(rules: Ruleset) -> str:
    if rules.max_discard_cards >= 2:
        return "one hand card, or two of equal rank,"
    return "exactly one hand card"


def payoff_deal(rules: Ruleset) -> str:
    size = (count_of(rules.payoff_size, "card") if rules.payoff_size
            else "an equal share of the pay-off pack")
    if rules.payoff_piles == 1:
        return f"one pay-off pile of {size}"
    return f"{number_word(rules.payoff_piles)} pay-off piles of {size} each"


def deck(rules: Ruleset) -> str:
    """The standard packs and jokers in force, with the card count: "three standard 52-card
    packs without jokers (156 cards)"; "one standard 52-card pack per seat" when the pack count
    follows the seats.  Numbered packs are described by their own rule sets' clauses."""
    packs = rules.seat_packs
    noun = "pack" if packs == 1 else "packs"
    if rules.packs_per_seat:
        what = f"one standard 52-card pack per seat ({number_word(packs)} {noun} for " \
               f"{number_word(rules.players)} players)"
    else:
        what = f"{number_word(packs)} standard 52-card {noun}"
    jokers = rules.seat_jokers
    extra = (f" and {number_word(jokers)} joker{'s' if jokers != 1 else ''}" if jokers
             else " without jokers")
    return f"{what}{extra} ({52 * packs + jokers} cards)"


def players_range(rules: Ruleset) -> str:
    low, high = number_word(rules.min_players), number_word(rules.max_players)
    if low == high:
        return f"{low.capitalize()} players."
    return f"{low.capitalize()} to {high} players."


def team_list(teams: Sequence[Sequence[int]]) -> str:
    """``((0, 2), (1, 3))`` -> ``"0+2 and 1+3"``; ``((0, 3), (1, 4), (2, 5))`` ->
    ``"0+3, 1+4 and 2+5"``."""
    words = ["+".join(map(str, team)) for team in teams]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


PHRASES: dict[str, Callable[[Ruleset], str]] = {
    "wild_rule": wild_rule,
    "build_pile_limit": build_pile_limit,
    "completed": completed,
    "discard_rule": discard_rule,
    "discard_count": discard_count,
    "players_range": players_range,
    "payoff_deal": payoff_deal,
    "deck": deck,
}
"""Phrases made from several parameters, by placeholder name."""


def _form(value: Any, spec: str) -> str:
    if spec == "":
        return format_value(value)
    if spec in ("word", "Word"):
        word = number_word(value)
        return word.capitalize() if spec == "Word" else word
    if spec == "rank":
        return rank_word(value)
    if spec in ("ranks", "ranks_or"):
        return rank_list(value, "or" if spec == "ranks_or" else "and")
    raise KeyError(f"form :{spec}")


class _Fields(string.Formatter):
    def __init__(self, rules: Ruleset, teams: Sequence[Sequence[int]] | None) -> None:
        self.rules = rules
        self.teams = teams

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if key == "teams":
            if self.teams is None:
                raise KeyError("teams (no teams given to render from)")
            return team_list(self.teams)
        if isinstance(key, str) and key in PHRASES:
            return PHRASES[key](self.rules)
        if isinstance(key, str) and hasattr(self.rules, key) and not key.startswith("_"):
            return getattr(self.rules, key)
        raise KeyError(key)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, str) and not format_spec:
            return value
        return _form(value, format_spec)


def render_text(text: str, rules: Ruleset,
                teams: Sequence[Sequence[int]] | None = None) -> str:
    """``text`` with its placeholders filled from ``rules``; ``{teams}`` from ``teams`` (seat
    numbers per team, as the rule book formed them).

    Raises:
        KeyError, ValueError, TypeError: a placeholder or form that does not exist.
    """
    if "{" not in text and "}" not in text:
        return text
    return _Fields(rules, teams).format(text)


def render_clause(clause: Clause, rules: Ruleset, plugin: str,
                  teams: Sequence[Sequence[int]] | None = None) -> Clause:
    """``clause`` with its text rendered from ``rules`` (and ``teams``, see
    :func:`render_text`).

    Raises:
        RulesetError: a placeholder that names no parameter, phrase or form; the message
            names the clause and the plugin.
    """
    try:
        return attrs.evolve(clause, text=render_text(clause.text, rules, teams))
    except (KeyError, ValueError, TypeError, IndexError) as error:
        raise RulesetError(
            f"plugin {plugin!r}: clause {clause.id} has a placeholder that cannot be filled "
            f"({error}); placeholders name a Ruleset parameter or a phrase of "
            "spitemalice.rules.sheet, and {{ }} write literal braces") from None


class SheetSource(Protocol):
    """What a sheet is rendered from (a :class:`~spitemalice.rules.book.RuleBook`)."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def own(self) -> Ruleset: ...
    @property
    def plugins(self) -> tuple[str, ...]: ...
    @property
    def clauses(self) -> tuple[Clause, ...]: ...
    @property
    def origin(self) -> Mapping[str, str]: ...


def render_sheet(book: SheetSource, width: int = 88) -> str:
    """The rule sheet as text: title, plugins, numbered clauses with sources, parameters,
    each clause and each parameter's description wrapped to lines of at most ``width``
    characters.

    A parameter that differs from the rule set's own value is marked ``*`` and followed by
    its own value and who changed it (a house rule, a file, an override or a plugin's hook).
    """
    rules = book.ruleset
    lines = [f"{rules.title} — {rules.name} {rules.version}",
             textwrap.fill(f"plugins: {' + '.join(book.plugins)}", width,
                           subsequent_indent="  ", break_on_hyphens=False), "", "Clauses"]
    for clause in book.clauses:
        body = textwrap.fill(f"{clause.id}  {clause.text} [{clause.source}]", width,
                             subsequent_indent=" " * (len(clause.id) + 2))
        lines.append(body)
    lines += _scoring(book, width)
    lines += ["", textwrap.fill("Parameters (change with --set key=value; * = changed from "
                                f"{book.plugins[0]}'s own value)", width)]
    helps = field_help()
    names = [f.name for f in attrs.fields(Ruleset) if f.name not in IDENTITY_FIELDS]
    game = getattr(book, "simultaneous", None)
    if game is not None:  # seats that move at once: only the parameters the game reads
        helps = {**helps, **game.PARAMETERS}
        names = [name for name in names if name in game.PARAMETERS]
    width_name = max(len(n) for n in names)
    for name in names:
        value = format_value(getattr(rules, name))
        changed = name in book.origin and getattr(rules, name) != getattr(book.own, name)
        mark = "*" if changed else " "
        lead = f" {mark}{name.ljust(width_name)}  {value:<14} "
        lines.append(textwrap.fill(lead + helps[name], max(width, len(lead) + 20),
                                   subsequent_indent=" " * len(lead),
                                   break_on_hyphens=False))
        if changed:
            was = format_value(getattr(book.own, name))
            lines.append(f"   {''.ljust(width_name)}  (was {was}; changed by {book.origin[name]})")
    return "\n".join(lines)


def _scoring(book: SheetSource, width: int) -> list[str]:
    """The lines of a data rule's scoring expression (``values.score``), when the rule book
    scores by one: the hook that answers first."""
    for hook in getattr(book, "score_hooks", ()):
        spec: Any = getattr(getattr(hook, "__self__", None), "spec", None)
        score = getattr(spec, "score", None)
        if score is None:
            return []  # a Python scoring hook answers first
        return ["", "Scoring", textwrap.fill(
            f"{spec.clause.id}  score = {score.text}  [{spec.name}: each seat's points when "
            "a game ends; win_bonus, points_per_card and exhaustion count only where it "
            "names them]", width, subsequent_indent=" " * (len(spec.clause.id) + 2),
            break_on_hyphens=False)]
    return []


def format_value(value: object) -> str:
    """A parameter value as ``--set`` takes it; rank sets as sorted numbers (``1,13``)."""
    if isinstance(value, frozenset):
        return ",".join(str(rank) for rank in sorted(value)) or "none"
    if value is None:
        return "unlimited"
    return str(value).lower() if isinstance(value, bool) else str(value)
