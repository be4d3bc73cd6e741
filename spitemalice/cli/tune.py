"""``spitemalice tune``: search a rule set's parameters toward stated targets
(:mod:`spitemalice.study.tune`), re-evaluate the best at fresh seeds, and write each as a
rule-set file.  Interrupted (Ctrl-C), the search resumes from its journal in ``--out``."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from spitemalice.cli._args import (
    INTERRUPTED,
    Parser,
    add_allow_files,
    add_rules_args,
    bot_list,
    count,
    json_text,
    load_rules,
    rule_params,
    say,
    seed,
)
from spitemalice.errors import SpiteMaliceError
from spitemalice.files import write_file
from spitemalice.formats import strict_json
from spitemalice.limits import MAX_GAMES
from spitemalice.runs import parallel
from spitemalice.runs.runner import configuration
from spitemalice.wording import count_of, for_terminal, shown, together

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands
    from spitemalice.study.tune import Candidate, Search
    from spitemalice.study.tune_targets import Param, Target

BUDGET, BATCH, RECHECK, RECHECK_GAMES = 2000, 50, 3, 200
"""``tune``'s defaults: games the trials may play, self-play games per batch, candidates
re-evaluated and games of each re-evaluation."""


def add_tune(commands: Commands) -> Parser:
    """Add ``tune`` to ``commands`` (argparse subparsers)."""
    tune = commands.add_parser(
        "tune", help="search parameters for configurations that meet stated targets",
        description="Search the --param ranges with Optuna's TPE sampler for configurations "
                    "whose games meet every --target (completion, first-seat, turns, skill). "
                    "Each candidate plays a batch of self-play games (and duplicate deals for "
                    "skill); one whose interval already misses a target is stopped there, the "
                    "others play a second batch.  The best are re-evaluated at fresh seeds, "
                    "with their rule coverage, and written as rule-set files into --out. "
                    "Interrupted, the same command resumes from --out's journal.")
    add_rules_args(tune)
    add_allow_files(tune)
    tune.add_argument("--param", action="append", required=True, metavar="NAME=LOW..HIGH",
                      help="a parameter to vary: whole numbers LOW..HIGH, or values A|B|C as "
                           "--set takes them, or TOTAL-OTHER to keep it and the varied OTHER "
                           "at a fixed total (repeatable)")
    tune.add_argument("--target", action="append", required=True, metavar="METRIC=VALUE",
                      help="an aim: METRIC=VALUE+-TOL, METRIC>=VALUE or METRIC<=VALUE; metrics "
                           "completion, first-seat (VALUE may be 'fair'), turns (the median), "
                           "skill; shares as 0.95 or 95%% (repeatable)")
    tune.add_argument("--budget", type=count, default=BUDGET,
                      help=f"games the trials may play in all (default {BUDGET})")
    tune.add_argument("--batch", type=count, default=BATCH,
                      help=f"self-play games per batch of a trial (default {BATCH})")
    tune.add_argument("--recheck", type=count, default=RECHECK,
                      help=f"best candidates re-evaluated at fresh seeds (default {RECHECK})")
    tune.add_argument("--recheck-games", type=count, default=RECHECK_GAMES,
                      help=f"self-play games of each re-evaluation (default {RECHECK_GAMES})")
    tune.add_argument("--bots", default="heuristic",
                      help="the self-play bot (default heuristic)")
    tune.add_argument("--skill", default="heuristic,random", metavar="STRONG,WEAK",
                      help="the bots of the skill target (default heuristic,random)")
    tune.add_argument("--seed", type=seed, default=0, help="seed of the run (default 0)")
    tune.add_argument("--out", type=Path, default=None, metavar="DIR",
                      help="the folder of the journal, the report and the rule-set files "
                           "(default tune-RULESET)")
    tune.add_argument("--json", action="store_true", help="print the report as JSON")
    tune.add_argument("--quiet", action="store_true", help="no line per trial on stderr")
    parallel.add_arguments(tune)
    return tune


def search_of(args: argparse.Namespace) -> Search:
    """The search the arguments describe, its bots and values checked before any game.

    Raises:
        SpiteMaliceError: a bad --param, --target, bot or rule set; a parameter both varied
            and fixed by --set (the seats: or by --players).
    """
    from spitemalice.study.tune import Search
    from spitemalice.study.tune_targets import Plan, parse_target

    book = load_rules(args)
    params = _params(args.param)
    names = [p.name for p in params]
    for param in params:
        if param.minus and param.minus not in [p.name for p in params if not p.minus]:
            raise SpiteMaliceError(f"--param {param.text()}: {param.minus} is not a varied "
                                   "parameter (give --param "
                                   f"{param.minus}=LOW..HIGH too)")
    for name in sorted({n for n in names if names.count(n) > 1}):
        first, then = [f"--param {p.text()}" for p in params if p.name == name][:2]
        raise SpiteMaliceError(f"--param {name} is given twice, with different values "
                               f"({first} and {then}): keep one (drop {first}, or drop "
                               f"{then})")
    for name in sorted(set(names) & set(dict(args.settings))):
        varied = next(f"--param {p.text()}" for p in params if p.name == name)
        setting = f"--set {name}={for_terminal(dict(args.settings)[name])}"
        raise SpiteMaliceError(f"--param {name}: a parameter is varied once, and not fixed by "
                               f"--set too ({varied} and {setting}): keep one (drop "
                               f"{setting} to vary it, or drop {varied} to fix it)")
    if "players" in names and args.players is not None:
        raise SpiteMaliceError(f"--param players: the seats are varied by --param and fixed "
                               f"by --players {args.players} too: give them once (keep "
                               "--param players and drop --players, or the other way round)")
    bot = bot_list(args.bots)
    skill = bot_list(args.skill)
    # Each name first, then how many: a folder given for --skill is an unknown bot, not a
    # count of one (try-out).
    for option, kinds in (("--bots", bot), ("--skill", skill)):
        for kind in kinds:
            try:
                configuration(book, [kind])  # refuses an unknown bot before any game
            except SpiteMaliceError as error:
                raise SpiteMaliceError(f"{option}: {error}") from None
    if len(bot) != 1:
        raise SpiteMaliceError(f"--bots names one self-play bot, not {len(bot)} "
                               f"({shown(args.bots)})")
    if len(skill) != 2:
        raise SpiteMaliceError(f"--skill names two bots, STRONG,WEAK (heuristic,random), not "
                               f"{len(skill)} ({shown(args.skill)})")
    if 2 * args.batch > MAX_GAMES:  # a candidate may play two batches
        raise SpiteMaliceError(f"--batch is at most {count_of(MAX_GAMES // 2, 'game', spec=',')}"
                               f" (a candidate plays up to two batches), not {args.batch:,}")
    targets = tuple(parse_target(text) for text in args.target)
    _check_turns(targets, params, book.ruleset.turn_limit)
    fixed = tuple((k, str(v)) for k, v in rule_params(args).items())
    return Search(str(args.ruleset), tuple(args.house_rule), fixed, params, targets,
                  args.budget, args.batch, args.recheck, args.recheck_games, args.seed,
                  Plan(bot[0], skill[0], skill[1], frozenset()), args.allow_files)


def _params(texts: list[str]) -> tuple[Param, ...]:
    """The --param values, each once; every bad one named at once, not the first alone."""
    from spitemalice.study.tune_targets import parse_param

    parsed, problems = [], []
    for text in texts:
        try:
            parsed.append(parse_param(text))
        except SpiteMaliceError as error:
            problems.append(str(error))
    if problems:
        raise SpiteMaliceError(together(problems))
    return tuple(dict.fromkeys(parsed))


def spent_text(spent: int, budget: int) -> str:
    """How many games the trials played against the budget: ``40 of 100 games``, or past it
    (the last trial plays its second batch when its first is not hopeless): ``60 games, 20
    past the budget of 40`` rather than ``60 of 40 games`` (try-out)."""
    if spent <= budget:
        return f"{spent:,} of {count_of(budget, 'game', spec=',')}"
    return (f"{count_of(spent, 'game', spec=',')}, {spent - budget:,} past the budget of "
            f"{budget:,}: a trial begun within it plays to its end")


def _check_turns(targets: tuple[Target, ...], params: tuple[Param, ...], limit: int) -> None:
    """Refuse a ``turns`` target no game can reach: a median above the turn limit (the
    largest a varied ``turn_limit`` takes, else the rule set's)."""
    for param in params:
        highest = param.highest() if param.name == "turn_limit" else None
        if highest is not None:
            limit = highest
    for target in targets:
        if target.metric == "turns" and target.value is not None and target.op != "<=" \
                and target.value - target.tol > limit:
            raise SpiteMaliceError(f"--target {target.text()}: no game lasts more than the "
                                   f"turn limit, {count_of(limit, 'turn', spec=',')} "
                                   "(turn_limit): give a target a game can reach")


def tune_command(args: argparse.Namespace, search: Search, out: Path) -> str:
    """The command that repeats the search (and, given the same --out, resumes it)."""
    argv = ["spitemalice", "tune", search.ruleset]
    for rule in search.house_rules:
        argv += ["--house-rule", rule]
    for key, value in search.settings:
        argv += ["--set", f"{key}={value}"]
    for param in search.params:
        argv += ["--param", param.text()]
    for target in search.targets:
        argv += ["--target", target.text()]
    argv += ["--budget", str(search.budget), "--batch", str(search.batch), "--recheck",
             str(search.recheck), "--recheck-games", str(search.recheck_games), "--bots",
             search.plan.bot, "--skill", f"{search.plan.strong},{search.plan.weak}",
             "--seed", str(search.seed), "--out", str(out)]
    return shlex.join(argv + (["--allow-files"] if search.allow_files else []))


def run_tune(args: argparse.Namespace) -> int:
    """``spitemalice tune``: the search, the re-evaluation, the report."""
    from spitemalice.study.tune import tune
    from spitemalice.study.tune_report import (
        all_refused,
        format_report,
        report_data,
        write_candidates,
    )

    search = search_of(args)
    out = args.out if args.out is not None else Path(f"tune-{Path(search.ruleset).stem}")
    command = tune_command(args, search, out)

    said: dict[str, int] = {}  # each refusal's text once: a repeat names the trial that said it

    def on_trial(candidate: Candidate, spent: int) -> None:
        if not (args.quiet or args.json):
            first = said.setdefault(candidate.refused, candidate.number)
            state = (f"refused as trial {first} was" if candidate.refused and first !=
                     candidate.number else f"refused: {candidate.refused}" if candidate.refused
                     else "refused" if candidate.measured is None else "stopped early"
                     if candidate.pruned else f"loss {candidate.loss:.3f}")
            values = " ".join(f"{k}={v}" for k, v in candidate.values.items())
            say(f"trial {candidate.number}: {values}: {state} ({spent_text(spent, search.budget)})",
                file=sys.stderr, flush=True)

    with parallel.backend(args) as (jobs, client):
        outcome = tune(search, out, jobs, client, on_trial)
    paths = write_candidates(outcome, out)
    data = report_data(outcome, command, paths)
    text = format_report(outcome, command, paths)
    # The library's one rule for files: whole, never through a link planted at the name.
    write_file(out / "report.txt", text + "\n", force=True, what="the search's report")
    write_file(out / "report.json", strict_json.dumps(data, indent=1) + "\n", force=True,
               what="the search's report")
    say(json_text(data) if args.json else text)
    if outcome.interrupted:
        say("interrupted: run the same command again to resume", file=sys.stderr)
        return INTERRUPTED
    if all_refused(outcome):  # a search that played no game found nothing
        # why is in the report (and each trial's line): said once, not again here
        say("spitemalice tune: every trial was refused, no game played", file=sys.stderr)
        return 1
    return 0
