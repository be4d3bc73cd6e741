"""``spitemalice validate``: static checks and checked simulations of a rule set."""

from __future__ import annotations

import argparse
import os
import shlex
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from spitemalice.cli._args import (
    INTERRUPTED,
    Parser,
    add_allow_files,
    add_force,
    add_rules_args,
    count,
    json_text,
    note_interrupted,
    progress_shown,
    rule_params,
    say,
    seed,
    switches,
)
from spitemalice.errors import SpiteMaliceError
from spitemalice.files import FileRefused, check_new, read_file, write_file
from spitemalice.formats import strict_json
from spitemalice.formats.records.record import FORMAT as RECORD_FORMAT
from spitemalice.limits import MAX_JSON_BYTES
from spitemalice.rules.custom import is_file_name
from spitemalice.rules.custom import read as read_custom
from spitemalice.rules.loader import built_in_rulesets, load
from spitemalice.rules.registry import kind_of
from spitemalice.runs import parallel
from spitemalice.stops import held_stops
from spitemalice.validation.data_rules import (
    format_data_rules_report,
    validate_data_rule,
    validate_data_rules,
)
from spitemalice.validation.house_rule import format_house_rule_report, validate_house_rule
from spitemalice.validation.report import Report, format_report
from spitemalice.validation.run import validate
from spitemalice.validation.simultaneous import (
    format_simultaneous_report,
    validate_simultaneous,
)
from spitemalice.wording import for_terminal

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands
    from spitemalice.rules.book import RuleBook

DEFAULT_RECORD = "validate-failure.json"
"""Where the smallest failing game goes without ``--record`` (and ``validate-failure-X.json``
for each data rule alone, or each rule set a house rule is stacked on).  validate's own file:
a failure record an earlier validate left at one of these names is replaced by the next
failing game without ``--force`` (:func:`_may_replace`); anything else there is refused as
at a name given with ``--record``."""


def add_validate(commands: Commands) -> Parser:
    """Add ``validate`` to ``commands`` (argparse subparsers)."""
    parser = commands.add_parser(
        "validate", help="check a rule set (or a house rule, on each built-in rule set) "
                         "statically and by play")
    add_rules_args(parser)
    add_allow_files(parser)
    parser.add_argument("--on", metavar="RULESET",
                        help="for a house rule: validate it stacked on this rule set only "
                             "(default: on each built-in rule set it stacks on)")
    parser.add_argument("--alone", metavar="CLAUSE",
                        help="for a rule-set file: validate its house rule CLAUSE (a [[rule]] "
                             "table) alone on the file's base, as the file's section for that "
                             "rule does")
    parser.add_argument("--games", type=count, default=300,
                        help="games to simulate, every move checked (default 300)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the games (default 0)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--strict", action="store_true",
                        help="fail (exit 1) on warnings too, not only on errors")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="where to write the smallest failing game as a game record "
                             "(default: validate-failure.json, whose earlier failure record "
                             "the next failing run replaces, and a passing run leaves, "
                             "saying so; a FILE named here is never replaced without "
                             "--force)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_force(parser)
    parallel.add_arguments(parser)
    return parser


def run_validate(args: argparse.Namespace) -> int:
    """Print the report; exit status 0 when every check passed, 1 when one failed (or, under
    ``--strict``, when there is a warning).  A rule-set file with house rules written as data
    is validated whole, then each data rule alone on the rule set the file names
    (:mod:`spitemalice.validation.data_rules`); every report must pass."""
    params = rule_params(args)
    path = args.record or Path(DEFAULT_RECORD)
    if args.alone is not None:
        return _run_alone(args, params, path)
    if kind_of(args.ruleset) == "house-rule":
        return _run_house_rule(args, params, path)
    if args.on:
        raise SpiteMaliceError(f"--on applies to a house rule; {args.ruleset!r} is a rule set: "
                               "stack a house rule on it with --house-rule")
    book = load(args.ruleset, args.house_rule, params, allow_files=args.allow_files)
    if book.simultaneous is not None:  # seats that move at once: their own checks
        return _run_simultaneous(args, book)
    # Checked before any game: the failing game must not be lost at the end of a long run.
    check_new(path, force=_may_replace(args, path), what=_record_option(args))
    alone = _alone_targets(args, path)  # each data rule of a file, judged alone after it
    bar = progress_shown(args)  # the bar, not with --json or --quiet
    with parallel.backend(args) as (jobs, client):
        report = _rerun(args, validate(args.ruleset, args.house_rule, params, args.games,
                                       args.seed, progress=bar, jobs=jobs, client=client,
                                       allow_files=args.allow_files))
        rules = None if report.interrupted or not alone else validate_data_rules(
            args.ruleset, params, allow_files=args.allow_files, games=args.games,
            seed=args.seed, progress=bar, jobs=jobs, client=client)
    if rules is not None:
        rules = attrs.evolve(rules, reports=tuple((name, _rerun(args, one))
                                                  for name, one in rules.reports))
    if args.json:
        shown_data = report.as_dict()
        if rules is not None:
            shown_data["data_rules_alone"] = rules.as_dict()
        say(json_text(shown_data))
    else:
        say(format_report(report, strict=args.strict) + (
            "" if rules is None else "\n\n" + format_data_rules_report(rules, args.strict)))
        if rules is not None and not report.interrupted and not report.ok(strict=args.strict):
            # the rules' own summary comes last: say that the file itself failed (try-out s41)
            say(f"\n{for_terminal(str(args.ruleset))} as a whole failed (its report above); "
                "exit status 1")
    failing = [(path, report, "")] + [(alone[name], one, f" with {name} alone")
                                      for name, one in (rules.reports if rules else ())]
    for target, one, what in failing:
        if one.reproduction is not None:
            _write_record(target, one.reproduction["record"], _may_replace(args, target))
            if not args.json:
                shown = for_terminal(str(target))
                say(f"the {'first' if one.interrupted else 'smallest'} failing game{what}"
                    f"{_where(one)} is in {shown} (spitemalice replay {shlex.quote(shown)})")
    _note_earlier(args, [target for target, one, _ in failing if one.reproduction is None])
    last = rules.reports[-1][1] if rules is not None and rules.interrupted else report
    if last.interrupted:
        note_interrupted(last.stats.played if last.stats else 0, "report")
        return INTERRUPTED
    ok = report.ok(strict=args.strict) and (rules is None or rules.ok(strict=args.strict))
    return 0 if ok else 1


def _run_simultaneous(args: argparse.Namespace, book: RuleBook) -> int:
    """``validate`` of a rule set whose seats move at once (Spit): its own report, which
    writes no failure record (a failing run says so: each error names its game's seed)."""
    found = validate_simultaneous(book, args.games, args.seed)
    say(json_text(found.as_dict()) if args.json
        else format_simultaneous_report(found, args.strict))
    if not found.ok(strict=args.strict) and not args.json:
        say("no failure record is written for a rule set whose seats move at once: an "
            "error of its games names the game by its seed (game N)")
    return 0 if found.ok(strict=args.strict) else 1


def _run_alone(args: argparse.Namespace, params: dict[str, object], path: Path) -> int:
    """``validate FILE --alone CLAUSE``: one data rule of a rule-set file alone on the file's
    base (what the file's section for that rule ran); its smallest failing game goes to
    PATH.

    Raises:
        SpiteMaliceError: the rule set is not a rule-set file, or ``--house-rule`` or
            ``--on`` is given.
        RulesetError: the file has no such rule (as :func:`validate_data_rule`).
    """
    if not is_file_name(args.ruleset) or args.house_rule or args.on:
        given = shlex.join([str(args.ruleset), *(f"--house-rule={n}" for n in args.house_rule),
                            *([f"--on={args.on}"] if args.on else [])])
        raise SpiteMaliceError(f"--alone validates one house rule of a rule-set file alone "
                               f"on the file's base: give a .toml file and neither "
                               f"--house-rule nor --on, not {for_terminal(given)}")
    check_new(path, force=_may_replace(args, path), what=_record_option(args))
    with parallel.backend(args) as (jobs, client):
        report = _rerun(args, validate_data_rule(
            args.ruleset, args.alone, params, allow_files=args.allow_files, games=args.games,
            seed=args.seed, progress=progress_shown(args), jobs=jobs, client=client))
    say(json_text(report.as_dict()) if args.json
        else format_report(report, strict=args.strict))
    if report.reproduction is not None:
        _write_record(path, report.reproduction["record"], _may_replace(args, path))
        if not args.json:
            shown = for_terminal(str(path))
            say(f"the {'first' if report.interrupted else 'smallest'} failing game"
                f"{_where(report)} is in {shown} (spitemalice replay {shlex.quote(shown)})")
    _note_earlier(args, [path] if report.reproduction is None else [])
    if report.interrupted:
        note_interrupted(report.stats.played if report.stats else 0, "report")
        return INTERRUPTED
    return 0 if report.ok(strict=args.strict) else 1


def _where(report: Report) -> str:
    """`` (stacked as A + B)``: the configuration a recorded failing game was played under,
    where it is not the one validated (another seat count, a stacking order); else ``""``."""
    where = report.reproduction.get("where") if report.reproduction else ""
    return f" ({where})" if where else ""


def _alone_targets(args: argparse.Namespace, path: Path) -> dict[str, Path]:
    """For a rule-set file whose data rules are validated alone after it
    (:mod:`spitemalice.validation.data_rules`): where each rule's smallest failing game goes,
    ``PATH-CLAUSE.json``, every name checked before any game; ``{}`` otherwise."""
    if not is_file_name(args.ruleset):
        return {}
    spec = read_custom(args.ruleset, args.allow_files)
    if len(spec.rules) < 2 and not spec.house_rules and not spec.params:
        return {}  # no rule, or one rule alone: the file itself
    targets = {}
    for rule in spec.rules:
        name = str(getattr(rule, "NAME", ""))
        targets[name] = path.with_name(f"{path.stem}-{name.rpartition(':')[2]}{path.suffix}")
        check_new(targets[name], force=_may_replace(args, targets[name]),
                  what=_record_option(args))
    return targets


def _record_option(args: argparse.Namespace) -> str:
    """How a message names the failure record: the option given, or its default."""
    return "--record" if args.record else "the failure record (--record's default)"


def _may_replace(args: argparse.Namespace, target: Path) -> bool:
    """Whether the failing game may replace what is at ``target``: with ``--force``, or, at
    validate's own default name (no ``--record`` given), a failure record an earlier
    validate left there (:func:`_earlier_record`).  A name given with ``--record``, and
    anything else at a default name (a link, another file), is refused without
    ``--force`` as every output is (:func:`spitemalice.files.check_new`)."""
    return bool(args.force) or (args.record is None and _earlier_record(target) is not None)


def _earlier_record(path: Path) -> str | None:
    """The rule set of the failure record at ``path`` (its record's ``ruleset.name``, or
    ``"its rule set"`` where that is not a name), or ``None`` where ``path`` is not a
    regular file (a link is not) holding a game record (``"format": "spitemalice-record"``)
    with a ``finding``, as validate writes."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        data = strict_json.loads(read_file(path, MAX_JSON_BYTES).decode("utf-8"))
    except (OSError, FileRefused, ValueError, RecursionError):
        return None
    if not (isinstance(data, dict) and data.get("format") == RECORD_FORMAT
            and isinstance(data.get("finding"), dict)):
        return None
    ruleset = data.get("ruleset")
    name = ruleset.get("name") if isinstance(ruleset, dict) else None
    return name if isinstance(name, str) and name else "its rule set"


def _note_earlier(args: argparse.Namespace, unwritten: list[Path]) -> None:
    """Tell stderr which default failure records this run left from an earlier run (it
    recorded no failing game there): a reader must not take them for this run's."""
    if args.record is not None:
        return
    for target in unwritten:
        ruleset = _earlier_record(target)
        if ruleset is not None:
            say(f"{for_terminal(str(target))} is an earlier run's failing game (of "
                f"{for_terminal(ruleset)}): this run recorded none there and left it as it "
                "was", file=sys.stderr)


def _run_house_rule(args: argparse.Namespace, params: dict[str, object], path: Path) -> int:
    """``validate HOUSE-RULE``: the house rule on each built-in rule set (``--on``: one); the
    smallest failing game of each failing rule set goes to ``PATH-RULESET.json``, every one
    of those names checked before any game is played."""
    # --on may name a rule-set file: its record is named by the file's stem, not its path
    targets = {name: path.with_name(f"{path.stem}-{Path(name).stem}{path.suffix}")
               for name in ([args.on] if args.on else built_in_rulesets())}
    for target in targets.values():
        check_new(target, force=_may_replace(args, target), what=_record_option(args))
    with parallel.backend(args) as (jobs, client):
        result = validate_house_rule(args.ruleset, args.house_rule, params, args.on,
                                     games=args.games, seed=args.seed,
                                     progress=progress_shown(args), jobs=jobs, client=client,
                                     allow_files=args.allow_files)
    result = attrs.evolve(result, reports=tuple((name, _rerun(args, report))
                                                for name, report in result.reports))
    say(json_text(result.as_dict()) if args.json
          else format_house_rule_report(result, strict=args.strict))
    for name, report in result.reports:
        if report.reproduction is not None:
            target = targets[name]
            _write_record(target, report.reproduction["record"], _may_replace(args, target))
            if not args.json:
                shown = for_terminal(str(target))
                say(f"the {'first' if report.interrupted else 'smallest'} failing game on "
                    f"{name}{_where(report)} is in {shown} (spitemalice replay "
                    f"{shlex.quote(shown)})")
    recorded = {name for name, report in result.reports if report.reproduction is not None}
    _note_earlier(args, [target for name, target in targets.items() if name not in recorded])
    if result.interrupted:
        where, last = result.reports[-1]
        note_interrupted(last.stats.played if last.stats else 0, f"report on {where}")
        return INTERRUPTED
    return 0 if result.ok(strict=args.strict) else 1


def _rerun(args: argparse.Namespace, report: Report) -> Report:
    """``report`` with ``--strict`` on its rerun command when it was given (the library's
    command names the configuration, ``--seed`` and ``--games``; a house rule's report names
    the rule set it was stacked on, ``RULESET --house-rule NAME``, which is how ``--on``
    reruns), and ``--allow-files`` when it was given.  The options of
    :data:`~spitemalice.cli._args.NOT_IN_RERUN` are left out."""
    if not report.command or not switches(args, "allow_files", "strict"):
        return report
    return attrs.evolve(report, command=" ".join(
        [report.command, *switches(args, "allow_files", "strict")]))


def _write_record(path: Path, record: object, force: bool) -> None:
    """Write a failing game's record whole, under held stops (:mod:`spitemalice.files`);
    ``force``: what is at ``path`` may be replaced (:func:`_may_replace`).

    Raises:
        OutputError: the file is there already (without ``force``) or cannot be written.
    """
    with held_stops():
        write_file(path, strict_json.dumps(record, indent=1) + "\n", force=force,
                   what="the failure record")
