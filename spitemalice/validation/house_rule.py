"""Validating a house rule by itself: on each built-in rule set it stacks on.

``spitemalice validate HOUSE-RULE`` runs :func:`validate_house_rule`: the house rule is
validated stacked on every built-in rule set (or on the one ``on`` names), as
``spitemalice rules HOUSE-RULE`` shows its sheet on each; a rule set it refuses to stack on is
listed with the reason, as ``rules`` lists it, and is no failure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from spitemalice.errors import RulesetError
from spitemalice.guards import check_list
from spitemalice.rules.loader import built_in_rulesets, load
from spitemalice.rules.registry import load_plugin
from spitemalice.wording import count_of

from .report import Report, format_report
from .run import validate


@attrs.frozen
class HouseRuleReport:
    """What validating a house rule on each rule set found.

    Attributes:
        house_rule: the house rule validated.
        reports: ``(rule set, report)`` for each rule set it stacks on.
        refused: ``(rule set, reason)`` for each rule set it does not stack on.
        not_reached: the rule sets a validation cut short (Ctrl-C, SIGTERM) did not reach;
            the last report then says it was interrupted.
    """

    house_rule: str
    reports: tuple[tuple[str, Report], ...]
    refused: tuple[tuple[str, str], ...] = ()
    not_reached: tuple[str, ...] = ()

    @property
    def interrupted(self) -> bool:
        """A stop cut the validation short."""
        return any(report.interrupted for _, report in self.reports)

    @property
    def passed(self) -> bool:
        """Some rule set took the house rule and no report has an error."""
        return bool(self.reports) and all(r.passed for _, r in self.reports)

    def ok(self, strict: bool = False) -> bool:
        """Whether every report passes (under ``strict``, without warnings too)."""
        return bool(self.reports) and all(r.ok(strict) for _, r in self.reports)

    def as_dict(self) -> dict[str, object]:
        return {"house_rule": self.house_rule, "passed": self.passed,
                "reports": {name: report.as_dict() for name, report in self.reports},
                "refused": dict(self.refused), "interrupted": self.interrupted,
                "not_reached": list(self.not_reached)}


def validate_house_rule(
    name: str, house_rules: Sequence[str] = (), params: Mapping[str, Any] | None = None,
    on: str | None = None, **options: Any,
) -> HouseRuleReport:
    """Validate the installed house rule ``name`` (with ``house_rules`` stacked after it and
    ``params``) on each built-in rule set, or on ``on`` alone; ``options`` are
    :func:`~spitemalice.validation.validate`'s (``games``, ``seed``, ``progress``, ``jobs``,
    ``client``, ``allow_files``: ``on`` may be a rule-set file whose base names another).

    Raises:
        TypeError: ``house_rules`` is a bare str (a list is wanted).
        RulesetError: ``name`` is not an installed house rule, or ``on`` is given and the
            house rule does not stack on it.
    """
    check_list(house_rules, "validate_house_rule", "house_rules, a list of names,",
               '["mandatory-aces"]')
    load_plugin(name, "house-rule")
    reports: list[tuple[str, Report]] = []
    refused: list[tuple[str, str]] = []
    targets = [on] if on else list(built_in_rulesets())
    for index, target in enumerate(targets):
        try:
            load(target, [name, *house_rules], params,
                 allow_files=bool(options.get("allow_files")))
        except RulesetError as error:
            if on:
                raise
            refused.append((target, str(error)))
            continue
        report = validate(target, [name, *house_rules], params, **options)
        reports.append((target, report))
        if report.interrupted:
            return HouseRuleReport(name, tuple(reports), tuple(refused),
                                   tuple(targets[index + 1:]))
    return HouseRuleReport(name, tuple(reports), tuple(refused))


def format_house_rule_report(result: HouseRuleReport, strict: bool = False) -> str:
    """Each rule set's report in turn, the rule sets that refused the house rule, and a last
    line that counts them."""
    parts = [format_report(report, strict) for _, report in result.reports]
    if result.refused:
        parts.append("\n".join([f"{result.house_rule} does not stack on:",
                                *(f"  {name}: {reason}" for name, reason in result.refused)]))
    failed = [name for name, report in result.reports if not report.ok(strict)]
    # Not failed (without --strict) but with a judgement its games did not decide.
    open_ = [name for name, report in result.reports
             if report.open_required and name not in failed]
    passed = len(result.reports) - len(failed) - len(open_)
    last = (f"{result.house_rule}: validated on {count_of(len(result.reports), 'rule set')}, "
            f"{passed} passed"
            + (f", undecided on {', '.join(open_)}" if open_ else "")
            + (f", failed on {', '.join(failed)}" if failed else "")
            + (f"; {len(result.refused)} refused it" if result.refused else ""))
    if not result.reports:
        last = f"{result.house_rule}: no rule set takes it; nothing was validated"
    if result.interrupted:
        last += (f"; interrupted on {result.reports[-1][0]}"
                 + (f", not reached: {', '.join(result.not_reached)}" if result.not_reached
                    else ""))
    return "\n\n".join([*parts, last])


__all__ = ["HouseRuleReport", "format_house_rule_report", "validate_house_rule"]
