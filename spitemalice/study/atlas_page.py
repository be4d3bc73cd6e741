"""The atlas page (``docs/atlas.md``) and its pictures, from the atlas data file alone.

:func:`render` is a pure function of the data (:func:`spitemalice.study.atlas.run`): the
docs test renders the committed data file again and compares it with the committed page, so
every number on the page comes from the data file.  :func:`draw` makes the pictures the page
shows (matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from spitemalice.measures.interval import Interval, percent_text
from spitemalice.study.fresh import both, first_position, fresh_seed, skill_change
from spitemalice.wording import count_of

PICTURES = "atlas"
"""The folder beside the page that holds its pictures."""

COMMAND = "python bench/atlas.py"
"""The command that makes the data file, the pictures and the page."""


def render(data: dict[str, Any], planned: list[str]) -> str:
    """The atlas page as Markdown, from the data file's contents.

    Args:
        data: the data file's contents (:func:`spitemalice.study.atlas.run`).
        planned: the keys of every configuration the atlas covers when complete
            (:func:`spitemalice.study.atlas.entries`), so that the page says which ones its
            data file still lacks.
    """
    settings = data["settings"]
    fresh = data.get("fresh", {})
    # Each report with its fresh seed set's report (None until played), whose verdicts must
    # agree with its own (spitemalice.study.fresh).
    reports = [report | {"fresh": fresh.get(key)} for key, report in data["reports"].items()]
    tiers = settings["tiers"]
    # Data made before balance recorded coverage renders as it did then: the column, its
    # explanation and its summary line appear once some report carries coverage.
    covered = any("coverage" in report for report in reports)
    lines = [*_introduction(settings, reports), _coverage(data["reports"], planned), "",
             *_how_to_read(tiers, reports, covered), *_table_head(tiers, covered)]
    lines += [_row(report, covered) for report in reports]
    lines += ["", "## In short", ""]
    lines += _summary(reports)
    if covered:
        missed = [f"{r['label']} ({r['players']}: {', '.join(_house_never(r))})"
                  for r in reports if _house_never(r)]
        lines.append("* A house rule's own clause was never exercised (the report says "
                     f"nothing about it) in: {'; '.join(missed) or 'none'}.")
    return "\n".join(lines) + "\n"


def _introduction(settings: dict[str, Any], reports: list[dict[str, Any]]) -> list[str]:
    """The page's title and what made it, ending with an empty line."""
    tiers = settings["tiers"]
    cpu = sum(r["cpu_seconds"] for r in reports)
    fresh_cpu = sum(r["fresh"]["cpu_seconds"] for r in reports if r["fresh"] is not None)
    return [
        "# Balance atlas",
        "",
        "Is each configuration fair to the seat that moves first, and does skill matter more "
        "or less than in its base rule set? One `balance` report per configuration "
        "(`docs/studying.md`), every built-in rule set at every seat count it allows and "
        "every house rule on blackwood-frey (partnerships with four seats), Skip-Bo's own "
        "house rules on skip-bo.",
        "",
        f"Made by `{COMMAND}` from the data file `docs/{PICTURES}/atlas.json` (the command "
        "plays what the file lacks, so an interrupted run resumes; `--jobs N` or `--scheduler` "
        "spread its games over cores without changing them; this page is rendered from "
        "the file alone). Per configuration: "
        f"{count_of(settings['games'], 'self-play game')} of {tiers[-1]} in every seat, and "
        f"{count_of(settings['deals'], 'deal')} for every pair of the tiers "
        f"{', '.join(tiers)}, each played twice with the sides swapped; seed "
        f"{settings['seed']}. {count_of(len(reports), 'configuration')} took "
        f"{cpu / 3600:.1f} CPU-hours. All intervals are 95%.",
        "",
        f"Every verdict is re-checked on the same study played from a fresh seed set (seed "
        f"{fresh_seed(settings['seed'])}, the `fresh` reports of the data file): it is "
        f"printed only when both say the same, else *undecided*. "
        f"{sum(r['fresh'] is not None for r in reports)} of the "
        f"{count_of(len(reports), 'configuration')} have their fresh report"
        + (f" ({fresh_cpu / 3600:.1f} CPU-hours more)." if fresh_cpu else "; "
           "without it a verdict reads *undecided*."),
        "",
    ]


def _how_to_read(tiers: list[str], reports: list[dict[str, Any]], covered: bool) -> list[str]:
    """What each column means, ending with an empty line."""
    return [
        "## How to read it",
        "",
        "* **first position**: the share of the self-play games with a winner that the side "
        "that moved first won (a seat, or a team under partnerships); *favoured* when its "
        "whole interval lies "
        "above the fair share (1 over the number of sides), *disfavoured* when below, "
        "*undecided* when the interval holds it (no bias was measured, which is no evidence "
        "of fairness until the interval is narrow) or when the same study on a fresh seed set "
        "does not say the same.",
        f"* **skill**: {tiers[-1]}'s share of the games with a winner against {tiers[-2]} "
        "(duplicate deals, sides swapped; fair 50%).",
        "* **skill against base**: how many points more (or fewer) of a deal's games the "
        "stronger tier wins above half than in the base (blackwood-frey at the same seats, "
        "or the rule set without its house rule); *more* or *less* when the interval "
        "excludes 0, *undecided* when it holds it (no difference was measured) or when the "
        "fresh seed set does not say the same.",
        "* **no winner**: self-play games that ended drawn, blocked or at the turn limit.",
        "* **length**: median turns per game with its interval; the thumbnail is the "
        "distribution (every thumbnail on one scale, the median in orange).",
        *([_coverage_help(reports)] if covered else []),
        "",
    ]


def _table_head(tiers: list[str], covered: bool) -> list[str]:
    """The pictures at a glance, then the table's title and head."""
    top = f"{tiers[-1]} v {tiers[-2]}"
    return [
        "## At a glance",
        "",
        f"![The first position's win rate per configuration]({PICTURES}/first.png)",
        "",
        f"![The skill gradient per configuration]({PICTURES}/skill.png)",
        "",
        "## The table",
        "",
        f"| configuration | seats | first position wins | first position | {top} | "
        "skill against base | no winner | median turns | "
        f"{'rule coverage | ' if covered else ''}length |",
        "|---|---:|---|---|---|---|---|---|" + ("---|" if covered else "") + "---|",
    ]


def _coverage(reports: dict[str, Any], planned: list[str]) -> str:
    missing = [key for key in planned if key not in reports]
    if not missing:
        return f"Coverage: all {count_of(len(planned), 'configuration')}."
    return (f"Coverage: {len(planned) - len(missing)} of the "
            f"{count_of(len(planned), 'configuration')}; "
            f"not yet played: {', '.join(f'`{key}`' for key in missing)} (run the command "
            "again to add them).")


def _coverage_help(reports: list[dict[str, Any]]) -> str:
    counted = max(r["coverage"]["games"] for r in reports if "coverage" in r)
    return ("* **rule coverage**: the share of the clauses on the configuration's rule sheet "
            f"that its first {count_of(counted, 'self-play game')} exercised, and each "
            "house-rule clause they never exercised (*never*: the report says nothing about "
            "it; clauses that declare they may go unexercised are not named); *not measured* "
            "for a report made before balance recorded coverage.")


def _row(report: dict[str, Any], covered: bool = False) -> str:
    first = _interval(report["positions"][0])
    top = report["matrix"][report["top_pair"]]
    won = _interval(report["outcomes"]["win"])
    median = next(q for q in report["quantiles"] if q["share"] == 0.5)
    cells = [
        report["label"], str(report["players"]), percent_text(first),
        _fairness(report), percent_text(_interval(top["rate_a"])),
        _gradient(report), f"{(1 - won.estimate) * 100:.1f}%",
        f"{median['estimate']:.0f} ({_turns(median['low'])}..{_turns(median['high'])})",
        *([_clauses(report)] if covered else []),
        f"![]({PICTURES}/{picture_name(report['key'])})",
    ]
    return "| " + " | ".join(cells) + " |"


def _clauses(report: dict[str, Any]) -> str:
    """The rule-coverage cell: the share of the sheet's clauses exercised and the house-rule
    clauses never exercised."""
    coverage = report.get("coverage")
    if coverage is None:
        return "not measured"
    clauses = coverage["clauses"]
    done = sum(row["exercised"] for row in clauses.values())
    cell = f"{done / len(clauses):.0%} ({done} of {len(clauses)})"
    never = _house_never(report)
    return cell + (f"; never: {', '.join(never)}" if never else "")


def _house_never(report: dict[str, Any]) -> list[str]:
    """The house-rule clauses of ``report`` that no game exercised, that coverage can see
    and that do not declare they may go unexercised; none for a report without coverage."""
    coverage = report.get("coverage")
    if coverage is None:
        return []
    clauses = coverage["clauses"]
    return [clause for ids in coverage["house_rules"].values() for clause in ids
            if not clauses[clause]["exercised"] and clauses[clause]["counted"]
            and not clauses[clause]["intended"]]


def _gradient(report: dict[str, Any]) -> str:
    if report["base"] is None:
        return ("(the base)" if report["label"] == "blackwood-frey"
                else f"(no base with {report['players']} seats)")
    change = _interval(report["gradient"][report["top_pair"]])
    again = report.get("fresh")
    second = (skill_change(_interval(again["gradient"][again["top_pair"]]))
              if again and again["gradient"] else None)
    word = {"pass": "more", "fail": "less",
            "undecided": "undecided"}[both(skill_change(change), second).outcome]
    if not change.n:  # no game behind it: not measured, never 0 (nor a verdict)
        return f"not measured: - (no games) vs {report['base']}"
    return (f"{word}: {change.estimate * 100:+.1f} ({change.low * 100:+.1f}.."
            f"{change.high * 100:+.1f}) vs {report['base']}")


def _fairness(report: dict[str, Any]) -> str:
    """favoured, disfavoured or undecided: the first position's share of won games against
    the fair share, on the report's seeds and on the fresh ones."""
    fair = report["fair"]
    first = first_position(_interval(report["positions"][0]), fair)
    again = report.get("fresh")
    second = (first_position(_interval(again["positions"][0]), fair)
              if again and again["positions"][0]["n"] else None)
    return {"pass": "favoured", "fail": "disfavoured",
            "undecided": "undecided"}[both(first, second).outcome]


def _summary(reports: list[dict[str, Any]]) -> list[str]:
    """One line per question: which configurations favour the first position, in which skill
    matters more or less than in the base."""
    def names(keep: Any) -> str:
        found = [f"{r['label']} ({r['players']})" for r in reports if keep(r)]
        return ", ".join(found) if found else "none"

    def first(r: dict[str, Any]) -> str:
        return _fairness(r)

    def skill(r: dict[str, Any]) -> str:
        return _gradient(r).split(":")[0]

    return [
        f"* The first position is favoured in: {names(lambda r: first(r) == 'favoured')}.",
        f"* It is disfavoured in: {names(lambda r: first(r) == 'disfavoured')}.",
        f"* Skill matters more than in the base in: {names(lambda r: skill(r) == 'more')}.",
        f"* Skill matters less than in the base in: {names(lambda r: skill(r) == 'less')}.",
    ]


def _interval(data: dict[str, float]) -> Interval:
    return Interval(data["estimate"] or 0.0, data["low"], data["high"],  # null: no game
                    int(data["n"]))


def _turns(end: float | None) -> str:
    """A quantile's end in turns; the data file writes an end without a bound as null."""
    return "inf" if end is None else f"{end:.0f}"


def picture_name(key: str) -> str:
    """The thumbnail's file name for a data-file key (``blackwood-frey+pair-discards/2`` ->
    ``blackwood-frey+pair-discards-2.png``)."""
    return re.sub(r"[^a-z0-9+-]", "-", key.lower()) + ".png"


def draw(data: dict[str, Any], folder: Path) -> list[Path]:
    """Draw the page's pictures into ``folder``: the two overview charts and one thumbnail
    per configuration; returns their paths.

    Raises:
        SpiteMaliceError: matplotlib is missing, or a file cannot be written.
    """
    from spitemalice.study.plot_ratings import forest, small_length_plot

    reports = list(data["reports"].values())
    labels = [f"{r['label']} ({r['players']})" for r in reports]
    made = [folder / "first.png", folder / "skill.png"]
    forest(made[0], labels, [_interval(r["positions"][0]) for r in reports], 0.0,
           "first position's win rate minus the fair share, %",
           "Does the first position win more than its share?",
           shift=[r["fair"] for r in reports])
    based = [r for r in reports if r["base"] is not None]
    forest(made[1], [f"{r['label']} ({r['players']})" for r in based],
           [_interval(r["gradient"][r["top_pair"]]) for r in based], 0.0,
           f"change of {data['settings']['tiers'][-1]}'s wins above half, points, against "
           "the base", "Does skill matter more than in the base?")
    # The longest 95% quantile's end sets the thumbnails' scale; an unbounded end (a few
    # games) gives way to that report's longest game.
    upper = max(max(map(int, r["lengths"]), default=0) if q["high"] is None else q["high"]
                for r in reports for q in r["quantiles"] if q["share"] == 0.95)
    for report in reports:
        path = folder / picture_name(report["key"])
        median = next(q for q in report["quantiles"] if q["share"] == 0.5)["estimate"]
        small_length_plot(path, {int(k): v for k, v in report["lengths"].items()}, median,
                          int(upper) + 5)
        made.append(path)
    return made
