"""Compiling the ``[[rule]]`` tables of a rule-set file into plugins, once, when it is read.

Every fault refuses the whole file before any game, as a
:class:`~spitemalice.errors.RulesetError` of the form ``FILE:LINE:COLUMN: rule CLAUSE: KEY:
what is wrong; what would be right``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from spitemalice import limits, wording
from spitemalice.errors import RulesetError
from spitemalice.rules.datarules.check import Checked, Fault, check
from spitemalice.rules.datarules.evaluate import Condition, evaluator
from spitemalice.rules.datarules.locate import locate
from spitemalice.rules.datarules.plugins import (
    DataRule,
    ForbidRule,
    RequireRule,
    Spec,
    ValuesRule,
)
from spitemalice.rules.datarules.scoring import Score, ScoreRule
from spitemalice.rules.datarules.vocabulary import (
    BOOL,
    CONDITION_NAMES,
    CONDITION_TYPES,
    ENDS,
    INT,
    MOVE_KINDS,
    RULESET_NAMES,
    RULESET_READ_ONLY,
    SCORE_NAMES,
    SCORE_TYPES,
    TEXT,
)
from spitemalice.rules.policies import Clause
from spitemalice.rules.ruleset import closest, convert_param

KEYS = ("clause", "text", "source", "forbid", "when", "require", "values", "reason",
        "message", "reasons", "expects", "events", "refuse_when", "refusal")
"""The keys of a ``[[rule]]`` table."""

_CLAUSE_ID = re.compile(r"[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9.]+)+")
_CODE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_CODE_FORM = ("words of the letters a to z and digits 0 to 9 (a letter first) joined by "
              "hyphens")
"""What :data:`_CODE` accepts, in words: "lower-case" alone would admit "é"."""
_MAX_CODE = 40


@attrs.frozen
class _Where:
    """Where the rule being compiled stands: the file, its text and the table's index."""

    file: str
    text: str
    index: int
    clause: str = ""

    def error(self, key: str, fault: Fault | str, inner: str = "") -> RulesetError:
        return RulesetError(f"{self.place(key, inner, fault)}: {fault}")

    def place(self, key: str, inner: str = "", fault: Fault | str = "") -> str:
        """``FILE:LINE:COLUMN: rule CLAUSE: KEY``: where a key's value (or ``fault`` in it)
        stands."""
        place = locate(self.text, self.index, key, inner)
        # A fault of an expression points into it; any other fault at the value's start.
        line, column = place.at(fault.offset) if isinstance(fault, Fault) else (
            place.line, place.column)
        # The file's name, the clause id and the keys are outside text: escaped here, where
        # the message is built, so str(error) is safe to print as it is.
        rule = f"rule {wording.for_terminal(self.clause)}" if self.clause else \
            f"rule {self.index + 1}"
        path = wording.for_terminal(f"{key}.{inner}" if inner else key)
        return f"{wording.for_terminal(self.file)}:{line}:{column}: {rule}: {path}"


def compile_rules(tables: Any, file: str, text: str) -> tuple[DataRule, ...]:
    """The plugins of a rule-set file's ``[[rule]]`` tables, in file order.

    Args:
        tables: the ``rule`` value the TOML reader gave (a list of tables).
        file: the file's path as messages name it; ``text``: its text (for lines and columns).

    Raises:
        RulesetError: the first fault of any rule, with the file, line and column, what is
            wrong and what would be right; or the ``datarules`` extra is missing.
    """
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise RulesetError(f"{file}: rule: each house rule is a table headed [[rule]] on a "
                           "line of its own, with clause, text, source and forbid, require "
                           "or values lines below it")
    if len(tables) > limits.MAX_DATA_RULES:
        raise RulesetError(f"{file}: rule: {len(tables)} [[rule]] tables; at most "
                           f"{limits.MAX_DATA_RULES} are allowed (limits.MAX_DATA_RULES)")
    seen: set[str] = set()
    return tuple(compile_rule(table, file, index, text, seen)
                 for index, table in enumerate(tables))


def compile_rule(table: Mapping[str, Any], file: str, index: int, text: str,
                 seen: set[str]) -> DataRule:
    """The plugin of one ``[[rule]]`` table (the ``index``-th of ``file``); its clause id is
    added to ``seen``, the ids of the tables before it.

    Raises:
        RulesetError: as :func:`compile_rules`.
    """
    where = _Where(file, text, index)
    unknown = [key for key in table if key not in KEYS]
    if unknown:
        raise where.error(unknown[0], f"unknown key {wording.shown(unknown[0])}"
                          f"{closest(unknown[0], KEYS)}; a rule's keys are {', '.join(KEYS)}")
    for key in ("clause", "text", "source"):
        if key not in table:
            raise where.error("rule", f"missing key {key}: every rule names its clause (an id "
                              'such as "DD-1"), its text (the rule in words) and its source')
    clause_id = _text(where, table, "clause", limits.MAX_NAME_CHARS)
    if not _CLAUSE_ID.fullmatch(clause_id):
        raise where.error("clause", f"{wording.shown(clause_id)} is not a clause id: the "
                          "letters A to Z (either case) and digits 0 to 9, a letter first, then "
                          'a hyphen and letters, digits or dots, such as "DD-1" or "dd-2.1"'
                          f"{_outside(clause_id, '-.')}")
    if clause_id in seen:
        raise where.error("clause", f"clause {clause_id} is used twice in this file: give "
                          "each rule its own id")
    seen.add(clause_id)
    where = attrs.evolve(where, clause=clause_id)
    kinds = [key for key in ("forbid", "require", "values") if key in table]
    if len(kinds) > 1:
        raise where.error(kinds[1], f"a rule either forbids, requires or sets values, not "
                          f"{' and '.join(kinds)}: write two rules")
    spec = _spec(where, table, kinds[0] if kinds else "")
    cls = {"forbid": ForbidRule, "require": RequireRule, "values": ValuesRule}.get(
        kinds[0] if kinds else "", DataRule)
    return (ScoreRule if spec.score is not None else cls)(spec)


def rebuild(table: Mapping[str, Any], file: str, index: int) -> DataRule:
    """The plugin of a table compiled before (in another process: how a rule book travels to
    a worker), without the file's text.

    Raises:
        RulesetError: as :func:`compile_rules` (only if the table was changed).
    """
    return compile_rule(table, file, index, "", set())


def compile_named(name: str, table: Any) -> DataRule:
    """The plugin of the data rule ``name`` (``"FILE.toml:CLAUSE"``) from its ``[[rule]]``
    table, as a game record or a play server's ``welcome`` carries it (no file is read).

    Raises:
        RulesetError: ``name`` is not ``FILE.toml:CLAUSE``, the table is no table or states
            another clause, or it does not compile (as :func:`compile_rules`, with the line
            and column of a table without its file: 0).
    """
    file, colon, clause = name.rpartition(":")
    if not (colon and file.lower().endswith(".toml")) or "/" in file:
        raise RulesetError(f"{wording.shown(name)} is no data rule's name: FILE.toml:CLAUSE, "
                           'such as "my-rules.toml:DD-1"')
    stated = table.get("clause") if isinstance(table, Mapping) else table
    if not isinstance(table, Mapping) or stated != clause:
        raise RulesetError(f"{name}: the table of this data rule states clause {clause}, not "
                           f"{wording.shown(stated)}")
    return rebuild(dict(table), file, 0)


def _spec(where: _Where, table: Mapping[str, Any], kind: str) -> Spec:
    reason, message = _refusal(where, table, kind)
    codes = (reason,) if reason else _codes(where, table)
    # the texts and lists are read (and their own faults reported at their keys) first; only
    # what Clause itself refuses is a fault of expects or events
    text = _text(where, table, "text", 2000)
    source = _text(where, table, "source", 500)
    expects, events = _list(where, table, "expects"), _list(where, table, "events")
    scores = kind == "values" and isinstance(table["values"], dict) and "score" in table[
        "values"]
    if scores and "events" not in table:
        events = ENDS  # a scoring clause is exercised by every end of game it scores
    try:
        clause = Clause(where.clause, text, source, reasons=codes, expects=expects,
                        events=events)
    except (RulesetError, ValueError) as error:
        key = "events" if "event" in str(error) and "events" in table else "expects"
        raise where.error(key, str(error)) from None
    fields: dict[str, Any] = {}
    if kind == "forbid":
        fields["kinds"] = _kinds(where, table["forbid"])
        if "when" in table:
            fields.update(_condition(where, table, "when"))
    elif kind == "require":
        fields.update(_condition(where, table, "require"))
    elif "when" in table:
        raise where.error("when", "when belongs to a forbid rule (forbid = \"discard\", "
                          "when = \"...\"); a require rule states its condition in require")
    if kind == "values":
        values = table["values"]
        if isinstance(values, dict) and "score" in values:
            fields["score"] = _score(where, values["score"])
            values = {field: value for field, value in values.items() if field != "score"}
            fields["values"] = _values(where, values) if values else {}
        else:
            fields["values"] = _values(where, values)
    if "refuse_when" in table or "refusal" in table:
        fields.update(_refuse(where, table))
    name = f"{where.file.rpartition('/')[2]}:{where.clause}"
    return Spec(name, clause, dict(table), where.file, where.index, reason=reason,
                message=message, rebuild=rebuild, **fields)


def _text(where: _Where, table: Mapping[str, Any], key: str, most: int) -> str:
    value = table[key]
    if not isinstance(value, str) or not value.strip() or not wording.printable(value, most):
        raise where.error(key, f"{key} must be a non-empty printable text in quotes of at "
                          f"most {most} characters, not {wording.shown(value)}")
    return value.strip()


def _list(where: _Where, table: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(key, f'{key} must be a list of names in quotes, such as '
                          f'{key} = ["stuck-seat"], not {wording.shown(value)}')
    return tuple(value)


def _refusal(where: _Where, table: Mapping[str, Any], kind: str) -> tuple[str, str]:
    if kind not in ("forbid", "require"):
        for key in ("reason", "message"):
            if key in table:
                raise where.error(key, f"{key} belongs to a forbid or require rule; a clause "
                                  "that covers reason codes lists them in reasons = [...]")
        return "", ""
    if "reason" not in table:
        raise where.error(kind, f"{wording.a_or_an(kind)} rule names the reason code its "
                          'refusals carry: reason = "my-code" and message = "what the rule '
                          'demands"')
    reason = _text(where, table, "reason", _MAX_CODE)
    if not _CODE.fullmatch(reason):
        raise where.error("reason", f"{wording.shown(reason)} is not a reason code: "
                          f'{_CODE_FORM}, such as "discard-pile-full"{_outside(reason, "-")}')
    if "message" not in table:
        raise where.error("reason", f"the reason code {reason} has no message: add message = "
                          '"what the rule demands" (a refusal shows it)')
    return reason, _text(where, table, "message", limits.MAX_NAME_CHARS)


def _codes(where: _Where, table: Mapping[str, Any]) -> tuple[str, ...]:
    codes = _list(where, table, "reasons")
    for code in codes:
        if not _CODE.fullmatch(code.partition("@")[0]):
            raise where.error("reasons", f"{wording.shown(code)} is not a reason code: "
                              f'{_CODE_FORM}, such as "forbidden-discard"{_outside(code, "-@")}')
    return codes


def _kinds(where: _Where, value: Any) -> frozenset[str]:
    kinds = [value] if isinstance(value, str) else value
    if not isinstance(kinds, list) or not kinds or not all(isinstance(k, str) for k in kinds):
        raise where.error("forbid", f"forbid names a kind of move or a list of them ("
                          f"{', '.join(map(repr, MOVE_KINDS))}), not {wording.shown(value)}")
    for kind in kinds:
        if kind == "pass":
            raise where.error("forbid", "a pass cannot be forbidden: a seat passes only when "
                              "no other move is left; forbid the moves instead")
        if kind not in MOVE_KINDS:
            raise where.error("forbid", f"{wording.shown(kind)} is no kind of move"
                              f"{closest(kind, MOVE_KINDS)}; the kinds are "
                              f"{', '.join(MOVE_KINDS)}")
    return frozenset(kinds)


def _expression(where: _Where, key: str, value: Any, names: Mapping[str, str], want: str,
                inner: str = "") -> Checked:
    if not isinstance(value, str):
        raise where.error(key, f"an expression is written in quotes, such as "
                          f'"move.rank == 1", not {wording.shown(value)}', inner)
    try:
        return check(value, names, want)
    except Fault as fault:
        raise where.error(key, fault, inner) from None


def _condition(where: _Where, table: Mapping[str, Any], key: str) -> dict[str, Any]:
    checked = _expression(where, key, table[key], CONDITION_TYPES, BOOL)
    return {"condition": Condition(checked.text.strip(), checked.tree, checked.names)}


def _values(where: _Where, table: Any) -> dict[str, Any]:
    if not isinstance(table, dict) or not table:
        raise where.error("values", "values is a table of parameters: values = { payoff_size "
                          '= "payoff_size - 5" } or a [rule.values] table below the rule')
    settable = [name for name in RULESET_NAMES if name not in RULESET_READ_ONLY]
    found: dict[str, Any] = {}
    for field, value in table.items():
        if field not in settable:
            raise where.error("values", f"unknown parameter {wording.shown(field)}"
                              f"{closest(field, [*settable, 'score'])}; `spitemalice rules "
                              "NAME` lists them (and score sets the scoring)", field)
        want = RULESET_NAMES[field]
        if not isinstance(value, str) or want == TEXT:
            # A value as [params] writes it (3, [1, 13], true, "shuffle-in"), not an expression.
            try:
                found[field] = convert_param(field, value)
            except RulesetError as error:
                raise where.error("values", str(error), field) from None
            continue
        checked = _expression(where, "values", value, RULESET_NAMES, want, field)
        found[field] = evaluator(checked.text.strip(), checked.tree)
    return found


def _score(where: _Where, value: Any) -> Score:
    checked = _expression(where, "values", value, SCORE_TYPES, INT, "score")
    text = checked.text.strip()
    return Score(text, evaluator(text, checked.tree), checked.names,
                 where.place("values", "score"))


def _refuse(where: _Where, table: Mapping[str, Any]) -> dict[str, Any]:
    if "refuse_when" not in table or "refusal" not in table:
        raise where.error("refuse_when" if "refuse_when" in table else "refusal",
                          "refuse_when and refusal go together: a test of the rule set "
                          '(refuse_when = "not has_wild_cards") and why it cannot stack')
    checked = _expression(where, "refuse_when", table["refuse_when"], RULESET_NAMES, BOOL)
    return {"refuse_when": evaluator(checked.text.strip(), checked.tree),
            "refusal": _text(where, table, "refusal", limits.MAX_NAME_CHARS)}


def names_table(kind: str) -> Sequence[tuple[str, str, str]]:
    """The names an expression of ``kind`` (``"condition"``, ``"score"`` or ``"values"``)
    may read, as (name, type, meaning) rows, for the documentation and ``spitemalice schema``
    (a score also reads the ``"values"`` names)."""
    if kind == "condition":
        return [(name, type_, meaning) for name, (type_, meaning) in CONDITION_NAMES.items()]
    if kind == "score":
        return [(name, type_, meaning) for name, (type_, meaning) in SCORE_NAMES.items()]
    return [(name, type_, "") for name, type_ in RULESET_NAMES.items()]


def _outside(text: str, marks: str) -> str:
    """``'; "Ü" is not among them'`` for the first character of ``text`` outside the
    letters A to Z, a to z, the digits 0 to 9 and ``marks``, else ``""``."""
    odd = next((c for c in text if not (c.isascii() and c.isalnum()) and c not in marks), "")
    return f"; {wording.shown(odd)} is not among them" if odd else ""
