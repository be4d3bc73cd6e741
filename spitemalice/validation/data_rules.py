"""Validating each house rule a rule-set file writes as data alone, on the rule set the file
names (issue 34 §2: a data house rule is judged as a plugin house rule is, by itself).

``spitemalice validate FILE`` validates the file as a whole (its base, house rules,
parameters and ``[[rule]]`` tables together) and then, with :func:`validate_data_rules`, each
``[[rule]]`` table stacked alone on the installed rule set at the bottom of the file's chain
(its ``base``), without the file's other house rules and parameters: a rule that is sound only
with the others, or one whose flaw the others hide, shows there.  A file whose only house rule
is one data rule and which sets no parameter is that rule alone already; it is not validated
twice.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.rules import custom
from spitemalice.rules.loader import load, load_plugins
from spitemalice.rules.sheet import format_value
from spitemalice.runs.provenance import describe_run
from spitemalice.wording import count_of

from .base import Base
from .report import Report, format_report
from .run import Validation


@attrs.frozen
class DataRulesReport:
    """What validating each data rule of a rule-set file alone found.

    Attributes:
        file: the file's path as given.
        base: the installed rule set each rule was stacked on alone.
        reports: ``(rule name, report)`` for each rule validated, in file order
            (``"my-rules.toml:DD-1"``).
        same_as_file: why no rule was validated alone (the file is one rule alone), or ``""``.
        not_reached: the rules a validation cut short (Ctrl-C, SIGTERM) did not reach.
    """

    file: str
    base: str
    reports: tuple[tuple[str, Report], ...] = ()
    same_as_file: str = ""
    not_reached: tuple[str, ...] = ()

    @property
    def interrupted(self) -> bool:
        """A stop cut the validation short."""
        return any(report.interrupted for _, report in self.reports)

    def ok(self, strict: bool = False) -> bool:
        """Whether every rule's report passes (under ``strict``, without warnings too)."""
        return all(report.ok(strict) for _, report in self.reports)

    def as_dict(self) -> dict[str, object]:
        return {"base": self.base, "passed": all(r.passed for _, r in self.reports),
                "reports": {name: report.as_dict() for name, report in self.reports},
                "same_as_file": self.same_as_file, "interrupted": self.interrupted,
                "not_reached": list(self.not_reached)}


def validate_data_rules(path: str | os.PathLike[str], params: Mapping[str, Any] | None = None,
                        *, allow_files: bool = False, games: int = 300, seed: int = 0,
                        **options: Any) -> DataRulesReport:
    """Validate each ``[[rule]]`` table of the rule-set file ``path`` alone on the rule set
    the file names (its ``base``, at the bottom of a chain of files), with ``params`` (the
    command line's ``--set`` and ``--players``) but without the file's own parameters and
    other house rules; ``options`` are :class:`~spitemalice.validation.run.Validation`'s
    (``progress``, ``jobs``, ``client``).

    Raises:
        RulesetError: the file cannot be read (as :func:`spitemalice.rules.custom.read`), or
            a rule does not stack alone on the base (its refusal names it).
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, or a
            seed not 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    spec = custom.read(path, allow_files)
    given = dict(params or {})
    shown = os.fspath(path)
    if len(spec.rules) == 1 and not spec.house_rules and not spec.params:
        only = str(getattr(spec.rules[0], "NAME", ""))
        return DataRulesReport(shown, spec.base, same_as_file=f"{only} is the file's only "
                               "house rule and the file sets no parameter: the file is "
                               "the rule alone")
    reports: list[tuple[str, Report]] = []
    for index, rule in enumerate(spec.rules):
        name = str(getattr(rule, "NAME", ""))
        report = _alone(spec.base, rule, name, given, shown, games, seed, options)
        reports.append((name, report))
        if report.interrupted:
            rest = tuple(str(getattr(r, "NAME", "")) for r in spec.rules[index + 1:])
            return DataRulesReport(shown, spec.base, tuple(reports), not_reached=rest)
    return DataRulesReport(shown, spec.base, tuple(reports))


def validate_data_rule(path: str | os.PathLike[str], clause: str,
                       params: Mapping[str, Any] | None = None, *, allow_files: bool = False,
                       games: int = 300, seed: int = 0, **options: Any) -> Report:
    """Validate the ``[[rule]]`` table ``clause`` (``"MY-1"``, or its whole name
    ``"mine.toml:MY-1"``) of the rule-set file ``path`` alone, as
    :func:`validate_data_rules` validates each: what ``spitemalice validate FILE --alone
    CLAUSE`` runs, and the command each rule's report names to rerun it.

    Raises:
        RulesetError: the file cannot be read, it has no rule ``clause`` (the message lists
            its rules), or the rule does not stack alone on the base.
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, or a
            seed not 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    spec = custom.read(path, allow_files)
    names = {str(getattr(rule, "NAME", "")).rpartition(":")[2]: rule for rule in spec.rules}
    wanted = str(clause).rpartition(":")[2]
    if wanted not in names:
        raise RulesetError(f"{os.fspath(path)} has no rule {clause!r}: its rules are "
                           f"{', '.join(names) or 'none'}")
    rule = names[wanted]
    return _alone(spec.base, rule, str(getattr(rule, "NAME", "")), dict(params or {}),
                  os.fspath(path), games, seed, options)


def _alone(base: str, rule: object, name: str, given: dict[str, Any], path: str, games: int,
           seed: int, options: Mapping[str, Any]) -> Report:
    """The validation of ``rule`` stacked alone on the installed rule set ``base``, its rerun
    command ``validate FILE --alone CLAUSE``."""
    book = load_plugins(base, [rule], given)

    def reload(extra: Mapping[str, Any]) -> Any:
        return load_plugins(base, [rule], {**given, **extra})

    def stack(order: Any) -> Any:  # one rule: every order is the same stack
        return load_plugins(base, [rule], given)

    named = describe_run(book, (), seed, ruleset=path, house_rules=(),
                         settings=[(key, format_value(value)) for key, value in given.items()])
    compared = Base(load(base, players=book.players), base, "the rule set the file names")
    report = Validation(book, games, seed, reload, stack=stack, house_rules=(name,),
                        base=compared, named=named, **options).run()
    return attrs.evolve(report, command=named.command(
        "validate", "--alone", name.rpartition(":")[2], "--games", str(games)))


def format_data_rules_report(result: DataRulesReport, strict: bool = False) -> str:
    """Each rule's report under a heading that says it is the rule alone, and a last line
    that counts them."""
    if result.same_as_file:
        return f"each data rule alone: {result.same_as_file}"
    parts = [f"{name} alone on {result.base} (without the file's other rules and "
             f"parameters)\n\n{format_report(report, strict)}"
             for name, report in result.reports]
    failed = [name for name, report in result.reports if not report.ok(strict)]
    # Not failed (without --strict) but with a judgement its games did not decide.
    open_ = [name for name, report in result.reports
             if report.open_required and name not in failed]
    last = (f"each data rule alone on {result.base}: "
            f"{count_of(len(result.reports), 'rule')} validated, "
            f"{len(result.reports) - len(failed) - len(open_)} passed"
            + (f", undecided: {', '.join(open_)}" if open_ else "")
            + (f", failed: {', '.join(failed)}" if failed else ""))
    if result.interrupted:
        last += f"; interrupted on {result.reports[-1][0]}" + (
            f", not reached: {', '.join(result.not_reached)}" if result.not_reached else "")
    return "\n\n".join([*parts, last])


__all__ = ["DataRulesReport", "format_data_rules_report", "validate_data_rule",
           "validate_data_rules"]
