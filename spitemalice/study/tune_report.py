"""The report of a ``tune`` search (:mod:`~spitemalice.study.tune`): its targets, budget and
CPU time, the best candidates re-evaluated at fresh seeds with their intervals, verdicts and
rule coverage, and each as a rule-set file ready to load (:mod:`spitemalice.rules.custom`'s
format)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spitemalice.files import write_file
from spitemalice.formats import strict_json
from spitemalice.guards import check_int
from spitemalice.measures.coverage import clause_coverage
from spitemalice.measures.interval import Interval, mean_text, percent_text
from spitemalice.rules.ruleset import convert_param
from spitemalice.study.tune import Outcome, Rechecked, Search
from spitemalice.study.tune_targets import RATES, Target
from spitemalice.wording import count_of


def candidate_file(search: Search, rechecked: Rechecked, rank: int) -> str:
    """The rule-set file (TOML) of a re-evaluated candidate: the search's rule set as
    ``base``, its house rules, the fixed settings and the candidate's values under
    ``[params]``, with the figures it was chosen on in comments; ``rank`` its place, from 1.

    Raises:
        SpiteMaliceError: ``rank`` not a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    check_int(rank, "candidate_file's rank", 1)
    book = search.book(rechecked.candidate.values)
    params = {**dict(search.settings), **rechecked.candidate.values}
    number = rechecked.candidate.number
    figures = [f"#   {t.text()}: {_figure(t, rechecked.fresh.metrics[t.metric])} "
               f"{verdict}" for t, verdict in
               zip(search.targets, rechecked.fresh.verdicts(search.targets), strict=True)]
    lines = [f"# Found by spitemalice tune (trial {rechecked.candidate.number}, rank {rank});",
             f"# re-evaluated on {count_of(search.recheck_games, 'fresh self-play game')}:",
             *figures,
             f"title = {_toml(f'{book.ruleset.title} (tuned, trial {number})')}",
             'version = "1"', f"base = {_toml(search.ruleset)}",
             f"name = {_toml(f'{book.name}-tuned-{rank}')}"]
    if search.house_rules:
        lines.append(f"house_rules = [{', '.join(_toml(r) for r in search.house_rules)}]")
    lines += ["", "[params]", *(f"{key} = {_toml(value, key)}" for key, value in params.items())]
    return "\n".join(lines) + "\n"


def _toml(value: object, key: str = "") -> str:
    """A TOML value: under ``key`` (a parameter), the value in the parameter's type (a whole
    number, ``true``/``false``, a list of ranks); else, and for a word such as
    ``unlimited``, a basic string (JSON's escapes are TOML's for such texts)."""
    if key:
        converted = convert_param(key, value)
        if isinstance(converted, bool):
            return "true" if converted else "false"
        if isinstance(converted, int):
            return str(converted)
        if isinstance(converted, frozenset):
            return "[" + ", ".join(str(rank) for rank in sorted(converted)) + "]"
    return strict_json.dumps(str(value))


def write_candidates(outcome: Outcome, folder: Path) -> list[Path]:
    """Write each re-evaluated candidate's rule-set file, ``candidate-1.toml`` (the winner),
    ``candidate-2.toml`` ... into ``folder``; returns the paths."""
    paths = []
    for rank, rechecked in enumerate(outcome.rechecked, 1):
        path = folder / f"candidate-{rank}.toml"
        write_file(path, candidate_file(outcome.search, rechecked, rank), force=True,
                   what="a candidate's rule-set file")
        paths.append(path)
    return paths


def _figure(target: Target, interval: Interval) -> str:
    return percent_text(interval) if target.metric in RATES else mean_text(interval, 0)


def _values(values: dict[str, object]) -> str:
    return " ".join(f"{key}={value}" for key, value in values.items()) or "(no parameters)"


def all_refused(outcome: Outcome) -> str:
    """The first trial's refusal when every trial was refused (no game played: the search
    found nothing, try-out), else ``""``; refused trials are no trials of the outcome."""
    if outcome.trials or not outcome.refused:
        return ""
    first, more = outcome.refused[0], len(outcome.refused) - 1
    return (f"trial {first.number}, {_values(first.values)}: {first.refused}"
            + (f" (and {more} more)" if more else ""))


def format_report(outcome: Outcome, command: str, paths: list[Path]) -> str:
    """The report as text."""
    search = outcome.search
    pruned = sum(c.pruned for c in outcome.trials)
    lines = [f"tune {search.ruleset}: {count_of(len(search.params), 'parameter')}, "
             f"{count_of(len(search.targets), 'target')}; budget "
             f"{count_of(search.budget, 'game')}, spent {outcome.games:,} in "
             f"{count_of(len(outcome.trials), 'trial')} ({pruned} stopped after the first "
             f"batch); CPU {outcome.cpu_seconds:,.1f} s",
             f"targets: {'; '.join(t.text() for t in search.targets)}",
             f"parameters: {'; '.join(p.text() for p in search.params)}",
             f"bots: self-play {search.plan.bot}" + (
                 f"; skill {search.plan.strong} v {search.plan.weak}"
                 if any(t.metric == "skill" for t in search.targets) else ""),
             f"rerun: {command}", ""]
    if not outcome.rechecked:
        refused = all_refused(outcome)
        lines.append("no candidate was re-evaluated" + (
            " (interrupted: run the same command again to resume)" if outcome.interrupted
            else f" (every trial was refused, no game played: {refused}; give ranges the "
                 "rule set can take)" if refused
            else " (no trial completed both batches: widen the ranges or the budget)"))
        return "\n".join(lines)
    lines.append(f"the best {count_of(len(outcome.rechecked), 'candidate')} re-evaluated on "
                 f"{count_of(search.recheck_games, 'fresh self-play game')} each (seeds no "
                 "trial used); 95% intervals; pass/fail only when the interval lies wholly "
                 "on one side")
    for rank, (rechecked, path) in enumerate(zip(outcome.rechecked, paths, strict=True), 1):
        lines += _candidate_lines(search, rechecked, rank, path)
    winner = outcome.rechecked[0]
    lines += ["", f"winner: trial {winner.candidate.number}, {_values(winner.candidate.values)}"
                  f": {winner.passed(search.targets)} of {len(search.targets)} targets pass "
                  f"at fresh seeds ({paths[0]})"]
    return "\n".join(lines)


def _candidate_lines(search: Search, rechecked: Rechecked, rank: int, path: Path) -> list[str]:
    candidate, fresh = rechecked.candidate, rechecked.fresh
    stopped = ", stopped after its first batch" if candidate.pruned else ""
    lines = [f"{rank}. trial {candidate.number}: {_values(candidate.values)} (search loss "
             f"{candidate.loss:.3f}{stopped}; fresh {fresh.loss(search.targets):.3f})"]
    for target, verdict in zip(search.targets, fresh.verdicts(search.targets), strict=True):
        lines.append(f"   {target.text():<24} {_figure(target, fresh.metrics[target.metric])}"
                     f"  {verdict}")
    if fresh.coverage is not None:
        rows = clause_coverage(search.book(candidate.values), fresh.coverage)
        missed = [row.clause for row in rows
                  if row.counted and not row.exercised and not row.intended]
        never = f"; never: {', '.join(missed)}" if missed else ""
        lines.append(f"   rule coverage: {sum(r.exercised for r in rows)} of "
                     f"{count_of(len(rows), 'clause')} exercised{never}")
    lines.append(f"   rule-set file: {path}")
    return lines


def report_data(outcome: Outcome, command: str, paths: list[Path]) -> dict[str, Any]:
    """The report as JSON-ready data: the search, its rerun command, games and CPU time,
    ``trials`` (each trial that played, with its figures), ``refused`` (each trial whose
    rules could not be made: ``number``, ``values`` and the ``refusal``'s text, in trial
    order) and ``rechecked`` (the re-evaluated best, winner first)."""
    search = outcome.search
    return {"search": search.as_dict(), "command": command, "games": outcome.games,
            "cpu_seconds": outcome.cpu_seconds, "interrupted": outcome.interrupted,
            "trials": [{"number": c.number, "values": c.values, "loss": c.loss,
                        "pruned": c.pruned,
                        "measured": None if c.measured is None else c.measured.as_dict()}
                       for c in outcome.trials],
            "refused": [{"number": c.number, "values": c.values, "refusal": c.refused}
                        for c in outcome.refused],
            "rechecked": [{"number": r.candidate.number, "values": r.candidate.values,
                           "file": str(path), "fresh": r.fresh.as_dict(),
                           "verdicts": r.fresh.verdicts(search.targets)}
                          for r, path in zip(outcome.rechecked, paths, strict=True)]}
