"""Studies on the command line: ``compare`` (two configurations on the same seeds) and
``tournament`` (each bot against the one before it).

Every run shows a progress bar on a terminal (games done, rate, time left), none with
``--json``, ``--quiet`` or when output is not a terminal.  Ctrl-C stops a run and prints the
summary of the games finished.
"""

from __future__ import annotations

import argparse
import math
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from spitemalice.cli._args import (
    INTERRUPTED,
    Parser,
    add_allow_files,
    add_rules_args,
    add_run_options,
    add_set,
    bot_list,
    count,
    cut_short,
    describe,
    json_text,
    load_rules,
    note_interrupted,
    number,
    players,
    progress_shown,
    say,
    seed,
    share,
    switches,
    table,
    with_players,
)
from spitemalice.errors import SpiteMaliceError
from spitemalice.measures.coverage import format_paired_coverage
from spitemalice.measures.interval import Interval
from spitemalice.rules.loader import load
from spitemalice.runs import parallel
from spitemalice.runs.commit import Outputs
from spitemalice.runs.games_out import GamesOut
from spitemalice.runs.outputs import GameOutput
from spitemalice.runs.progress import Progress
from spitemalice.runs.provenance import RunConfiguration, describe_run
from spitemalice.runs.runner import Configuration, GameRow, configuration
from spitemalice.stops import held_stops
from spitemalice.study.compare import Comparison, compare, compare_until_decided
from spitemalice.study.plot import check_path, plot_runs
from spitemalice.study.statistic import check_margin, statistics
from spitemalice.study.tournament import (
    Tournament,
    format_table,
    tournament,
    tournament_sides,
)
from spitemalice.wording import count_of, together

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands

BATCH = 100
"""``compare --batch``'s default."""


def add_compare(commands: Commands) -> Parser:
    """Add ``compare`` to ``commands`` (argparse subparsers)."""
    cmp = commands.add_parser(
        "compare", help="play two configurations on the same seeds and compare them",
        description="Play configuration A and configuration B on the same seeds and report "
                    "each statistic for A, for B and the paired difference B - A with its 95% "
                    "interval (* when the interval excludes 0).  --a-house-rule and --a-set "
                    "describe A, --b-house-rule and --b-set describe B (--house-rule and --set "
                    "without a prefix are B's too: B is the change under study); --bots "
                    "applies to both unless --a-bots or --b-bots is given.")
    cmp.add_argument("a", metavar="A", help="rule set of configuration A (the baseline)")
    cmp.add_argument("b", metavar="B", help="rule set of configuration B (the change)")
    cmp.add_argument("--players", type=players, help="seats in both games")
    cmp.add_argument("--a-house-rule", action="append", default=[], metavar="NAME",
                     help="a house rule for A (repeatable)")
    add_set(cmp, "a_settings", "--a-set", whose=" of A")
    cmp.add_argument("--b-house-rule", "--house-rule", action="append", default=[],
                     metavar="NAME", dest="house_rule",
                     help="a house rule for B (repeatable; --house-rule is the same)")
    add_set(cmp, "settings", "--b-set", "--set", whose=" of B; --set is the same")
    cmp.add_argument("--bots", default="greedy", help="bots of both, one or one per seat")
    cmp.add_argument("--a-bots", help="bots of A (default --bots)")
    cmp.add_argument("--b-bots", help="bots of B (default --bots)")
    cmp.add_argument("--games", type=count, default=200, help="paired games (default 200)")
    cmp.add_argument("--seed", type=seed, default=0, help="seed of the run (default 0)")
    cmp.add_argument("--until-decided", type=_margin, metavar="MARGIN",
                     help="play batches of --batch games until a sequential probability "
                          "ratio test decides whether B differs from A by MARGIN or more in "
                          "--statistic (at most --games games)")
    cmp.add_argument("--statistic", default=None,
                     help="the statistic --until-decided tests (default moves; see the "
                          "table's keys in --json)")
    cmp.add_argument("--batch", type=count, default=None,
                     help="games per batch with --until-decided (default 100)")
    cmp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cmp.add_argument("--no-coverage", action="store_true",
                     help="skip counting which clauses the games exercised (faster, but no "
                          "warning about a rule no game used)")
    add_allow_files(cmp)
    add_run_options(cmp)
    parallel.add_arguments(cmp)
    return cmp


def add_tournament(commands: Commands) -> Parser:
    """Add ``tournament`` to ``commands`` (argparse subparsers)."""
    tour = commands.add_parser(
        "tournament", help="each bot against the one before it, with win rates and intervals")
    add_rules_args(tour)
    add_allow_files(tour)
    tour.add_argument("--bots", default="random,greedy,heuristic,mcts",
                      help="bots in order, weakest first (default random,greedy,heuristic,mcts)")
    tour.add_argument("--games", type=count, default=100,
                      help="deals per pairing; each is played once per seat, per team with teams "
                           "(default 100)")
    tour.add_argument("--seed", type=seed, default=0, help="seed of the run (default 0)")
    tour.add_argument("--json", action="store_true", help="print the table as JSON")
    add_run_options(tour, plot=None)
    parallel.add_arguments(tour)
    return tour


_margin = share(0, math.inf, "a margin")
"""``compare --until-decided``: a positive finite difference in the statistic's own unit
(the library's :func:`~spitemalice.measures.sequential.sprt` takes any positive margin)."""


# --- compare ----------------------------------------------------------------------------


@attrs.frozen
class _Side:
    """One configuration of ``compare``: what it plays and how its outputs name it."""

    config: Configuration
    named: RunConfiguration


def _sides(args: argparse.Namespace) -> tuple[_Side, _Side]:
    sides, problems = [], []
    for name, rules, settings, bots, option in (
            (args.a, args.a_house_rule, args.a_settings, args.a_bots, "--a-set"),
            (args.b, args.house_rule, args.settings, args.b_bots, "--b-set")):
        try:  # each side's problems named by its side, both sides' together (try-out)
            book = load(name, rules, with_players(settings, args.players, option),
                        allow_files=args.allow_files)
            # An empty --a-bots is an empty list, not "use --bots" (try-out s8b).
            config = configuration(book, bot_list(args.bots if bots is None else bots))
        except SpiteMaliceError as error:
            problems.append(f"{option[2].upper()} ({option}, {option[:4]}house-rule, "
                            f"{option[:4]}bots): {error}")
            continue
        named = describe_run(book, config.bots, args.seed, ruleset=name, house_rules=rules,
                             settings=settings)
        sides.append(_Side(attrs.evolve(config, label=named.label()), named))
    if problems:
        raise SpiteMaliceError(together(problems))
    a, b = sides
    if a.config.label == b.config.label and a.config.bots != b.config.bots:
        # The same rules under other bots: each label names its bots, else the JSON's "a"
        # and "b" and the picture's legend name both sides alike (try-out).
        a, b = (attrs.evolve(side, config=attrs.evolve(
            side.config, label=f"{side.config.label}, bots {side.named.bots_text()}"))
            for side in (a, b))
    return a, b


def compare_command(args: argparse.Namespace, a: RunConfiguration, b: RunConfiguration) -> str:
    """The command that reruns a comparison: both configurations with their ``--a-`` and
    ``--b-`` options, the shared ``--players``, ``--games``, ``--seed``, the sequential
    test's options, ``--no-coverage`` and ``--allow-files`` (never the options of
    :data:`~spitemalice.cli._args.NOT_IN_RERUN`, such as ``--jobs``: the result does not
    depend on them)."""
    argv = ["spitemalice", "compare", a.ruleset, b.ruleset]
    for side, named in (("a", a), ("b", b)):
        for rule in named.given_house_rules:
            argv += [f"--{side}-house-rule", rule]
        for key, value in named.overrides:
            if key != "players":
                argv += [f"--{side}-set", f"{key}={value}"]
    argv += ["--players", str(a.players), "--a-bots", a.bots_text(), "--b-bots", b.bots_text(),
             "--games", str(args.games), "--seed", str(args.seed)]
    if args.until_decided is not None:
        argv += ["--until-decided", number(args.until_decided), "--statistic", args.statistic,
                 "--batch", str(args.batch)]
    return shlex.join([*argv, *switches(args, "no_coverage", "allow_files")])


def compare_head(a: RunConfiguration, b: RunConfiguration, command: str) -> list[str]:
    """The lines that name a comparison's configurations: each side with its players, bots
    and changed parameters, the seed, the versions and the rerun command."""
    lines = []
    for side, named in (("A", a), ("B", b)):
        lines += [f"{side}: {named.label()} ({named.players} players, bots "
                  f"{named.bots_text()})",
                  f"   changed parameters: "
                  f"{'; '.join(c.text() for c in named.changed) or 'none'}"]
    rules = (a.ruleset_version if a.ruleset_version == b.ruleset_version
             else f"{a.ruleset_version} (A), {b.ruleset_version} (B)")
    packages = sorted({*a.packages, *b.packages})
    return [*lines, f"seed {a.seed}; versions: spitemalice {a.version}, rule set {rules}"
            + "".join(f", {p}" for p in packages), f"rerun: {command}", *_mixed_note(a, b)]


def _mixed_note(a: RunConfiguration, b: RunConfiguration) -> list[str]:
    """A note when A and B differ in their house rules and in parameters too (``--set``
    without a prefix changes B only, so ``--house-rule X --set K=V`` does this): then each
    difference measures both changes, which a reader may not have meant (try-out s6 P4)."""
    differ = sorted(key for key in {k for k, _ in (*a.overrides, *b.overrides)} - {"players"}
                    if dict(a.overrides).get(key) != dict(b.overrides).get(key))
    if not differ or set(a.given_house_rules) == set(b.given_house_rules):
        return []
    return [f"note: A and B differ in their house rules and in {', '.join(differ)}: each "
            "difference below measures both changes (--set changes B only; give --a-set too "
            "to measure the house rules alone)"]


def run_compare(args: argparse.Namespace) -> int:
    """``spitemalice compare``: print both columns and the paired differences."""
    side_a, side_b = _sides(args)
    a, b = side_a.config, side_b.config
    if args.plot is not None:
        check_path(args.plot, force=args.force)
    _sequential_options(args, a.rules.players)
    command = compare_command(args, side_a.named, side_b.named)
    provenance = {"configurations": {"A": side_a.named.as_dict(), "B": side_b.named.as_dict()},
                  "command": command}
    outputs = Outputs([GamesOut(args.games_out, a.rules.players, labelled=True,
                                teams=a.rules.teams.any or b.rules.teams.any,
                                configuration=provenance, force=args.force,
                                turn_limit={"A": a.rules.ruleset.turn_limit,
                                            "B": b.rules.ruleset.turn_limit})]
                      if args.games_out else [])
    progress = Progress(args.games, "compare", progress_shown(args))

    def on_game(rows: tuple[GameRow, ...]) -> None:
        outputs.add(outputs.games, GameOutput(((rows[0], "A", a.rules.teams),
                                               (rows[1], "B", b.rules.teams))))
        progress.advance()

    with progress, outputs:
        result = _play_comparison(args, a, b, on_game)
        outputs.close(result.interrupted)
    if result.interrupted:
        note_interrupted(result.games, noun="paired game")  # the table's own unit
    say(json_text({**provenance, **result.as_dict()}) if args.json
          else format_comparison(result, compare_head(side_a.named, side_b.named, command)))
    if args.plot is not None and result.games:
        _plot_comparison(args, side_a, side_b, result)
    return INTERRUPTED if result.interrupted else 0


def _sequential_options(args: argparse.Namespace, seats: int) -> None:
    """Check the options only ``--until-decided`` reads, and fill in their defaults when it
    is given (on ``args``).

    Raises:
        SpiteMaliceError: ``--statistic`` or ``--batch`` without ``--until-decided`` (they
            would silently do nothing), or a statistic the comparison does not have.
    """
    for option, given, role in (
            ("--statistic", args.statistic, "names what --until-decided tests"),
            ("--batch", args.batch, "sets how many games --until-decided plays per test")):
        if given is not None and args.until_decided is None:
            raise SpiteMaliceError(f"{option} {role}; give --until-decided MARGIN too, or "
                                   f"drop {option}")
    if args.until_decided is not None:
        args.statistic = "moves" if args.statistic is None else args.statistic  # '' is no name
        args.batch = BATCH if args.batch is None else args.batch
        known = {s.name: s for s in statistics(seats)}
        if args.statistic not in known:
            testable = sorted(name for name, s in known.items() if s.trials is None)
            raise SpiteMaliceError(f"--statistic: unknown statistic {args.statistic!r}; choose "
                                   f"from {', '.join(testable)}")
        check_margin(known[args.statistic], args.until_decided)


def _play_comparison(args: argparse.Namespace, a: Configuration, b: Configuration,
                     on_game: Callable[[tuple[GameRow, ...]], None]) -> Comparison:
    """Play the paired games: ``--games`` of them, or batches until the sequential test
    decides (``--until-decided``).

    Raises:
        SpiteMaliceError: the library refused a value (its ``ValueError``).
    """
    try:
        with parallel.backend(args) as (jobs, client):
            if args.until_decided is None:
                return compare(a, b, args.games, args.seed, on_game, jobs, client,
                               not args.no_coverage)
            return compare_until_decided(a, b, args.statistic, args.until_decided,
                                         args.seed, args.batch, args.games, on_game,
                                         jobs, client, not args.no_coverage)
    except ValueError as error:
        raise SpiteMaliceError(str(error)) from None


def _plot_comparison(args: argparse.Namespace, side_a: _Side, side_b: _Side,
                     result: Comparison) -> None:
    """``--plot``: the picture of the games finished, whole, even when cut short."""
    a, b = side_a.config, side_b.config
    with held_stops():
        plot_runs(args.plot, [(f"A: {a.label}", result.rows[0]),
                              (f"B: {b.label}", result.rows[1])], a.rules.players,
                  f"{count_of(result.games, 'paired game')}{cut_short(result.interrupted)}, "
                  f"seed {args.seed}, spitemalice {side_a.named.version}\n"
                  f"A: {side_a.named.title(run=False)}\n"
                  f"B: {side_b.named.title(run=False)}", force=args.force)


def format_comparison(result: Comparison, head: list[str] | None = None) -> str:
    """The comparison as a table: statistic, A, B, B - A (``*``: the interval excludes 0),
    after ``head``, the lines that name the configurations (:func:`compare_head`; without
    them each side's label and bots)."""
    head = [*(head or [f"A: {result.a.label} (bots {','.join(result.a.bots)})",
                       f"B: {result.b.label} (bots {','.join(result.b.bots)})"]),
            f"{count_of(result.games, 'paired game')}{cut_short(result.interrupted)} (the same "
            "seeds); 95% intervals; "
            "* = the difference's interval excludes 0" + ("; - = no games to measure" if any(
                not i.n for line in result.lines for i in (line.a, line.b)) else "")]
    rows = [("statistic", "A", "B", "B - A")]
    for line in result.lines:
        rate = line.statistic.rate
        rows.append((line.statistic.label, _value(line.a, rate), _value(line.b, rate),
                     _value(line.difference, rate, signed=True) + (" *" if line.differs
                                                                   else "")))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    table = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    tail = []
    if result.sprt is not None:
        # What Wald's test weighs: a difference of MARGIN against none.  Between the two it
        # may favour either, so "differs" does not say "by MARGIN or more" (try-out s8b).
        tested = next(line.statistic for line in result.lines
                      if line.statistic.name == result.statistic)
        margin, where, band = tested.margin_words(result.margin or 0.0)
        verdict = {"differs": f"B differs from A{where} (a difference of {margin} fits the "
                              "games better than none; the interval above says by how much)",
                   "same": f"B does not differ from A by {margin} or more{where} (the "
                           f"interval lies within {band})",
                   "undecided": "undecided (the game limit came first)"}[result.sprt.decision]
        tail = [f"until decided on {result.statistic}: {verdict} after "
                f"{count_of(result.games, 'game')} "
                f"(log-likelihood ratio {result.sprt.llr:.2f}, bounds "
                f"{result.sprt.lower:.2f}..{result.sprt.upper:.2f})"]
    tail.append(f"identical games: {result.identical} of {result.games} (A and B made the "
                "same moves)")
    if result.coverage is not None:
        tail += ["", *format_paired_coverage(result.coverage[0].rows, result.coverage[1].rows,
                                             result.games)]
    warned = result.warnings()
    if warned:
        tail += ["", *(f"warning  {said}" for said in warned)]
    return "\n".join(head + [""] + table + [""] + tail)


def _value(interval: Interval, rate: bool, signed: bool = False) -> str:
    """An interval as the table prints it, ``-`` with no game behind it (no won games: not
    0%); a signed figure that rounds to zero is ``+0.00``, never ``-0.00``."""
    if not interval.n:
        return "-"
    scale, form = (100, ".1f") if rate else (1, ".2f")
    spec = ("+" if signed else "") + form

    def shown(value: float) -> str:
        text = f"{value * scale:{spec}}"
        return f"{0.0:{spec}}" if float(text) == 0 else text

    unit = "%" if rate else ""
    return (f"{shown(interval.estimate)}{unit} "
            f"({shown(interval.low)}..{shown(interval.high)})")


# --- tournament -------------------------------------------------------------------------


def run_tournament(args: argparse.Namespace) -> int:
    """``spitemalice tournament``: the ladder table."""
    book = load_rules(args)
    bots = bot_list(args.bots)
    for bot in bots:
        configuration(book, [bot])  # refuses an unknown bot before any game
    if len(bots) < 2:
        raise SpiteMaliceError(f"--bots: a tournament needs two or more bots, not {len(bots)}")
    tournament_sides(book)  # refuses teams that cannot seat two bots before any file opens
    named = describe(args, book)  # the ladder is no seat's bots: named on its own
    command = named.command("tournament", "--bots", ",".join(bots), "--games", str(args.games),
                            *switches(args, "allow_files"))
    provenance = {"configuration": named.as_dict(), "bots": bots, "command": command}
    outputs = Outputs([GamesOut(args.games_out, book.players, labelled=True,
                                teams=book.teams.any, configuration=provenance,
                                force=args.force, turn_limit=book.ruleset.turn_limit)]
                      if args.games_out else [])
    # The bar counts games, as the table does: each deal is played once per seat (team).
    sides = len(tournament_sides(book))
    progress = Progress(args.games * (len(bots) - 1) * sides, "tournament",
                        progress_shown(args))

    def on_game(rows: tuple[GameRow, ...]) -> None:
        # One row per seat (team) the challenger took.
        outputs.add(outputs.games, GameOutput(tuple(
            (row, f"challenger@{book.teams.label(side)}", book.teams)
            for side, row in enumerate(rows))))
        progress.advance(len(rows))

    with progress, outputs:
        with parallel.backend(args) as (jobs, client):
            played = tournament(book, bots, args.games, args.seed, on_game, jobs, client)
        outputs.close(played.interrupted)
    if args.json:
        say(json_text({**provenance, "ruleset": book.name, "players": book.players,
                          "deals": args.games, "seed": args.seed,
                          "interrupted": played.interrupted,
                          "pairings": [p.as_dict() for p in played]}))
    else:
        say(table([*named.rows(), ("bots", ", ".join(bots)), ("rerun", command)]))
        say(f"{book.name}, {book.players} players: each bot against the one before it, "
            f"{_deals(played)}, each played once per {'team' if book.teams.any else 'seat'}"
            f"; 95% intervals over games and deals")
        say(format_table(played))
    if played.interrupted:
        note_interrupted(sum(p.games for p in played), "table",
                         also=count_of(sum(p.deals for p in played), "deal"))
        return INTERRUPTED
    return 0


def _deals(played: Tournament) -> str:
    """How many deals the table's pairings played: those asked for, or (cut short) how
    many the last pairing played and that the pairings after it played none."""
    if not played.interrupted:
        return count_of(played.deals, "deal")
    last = played[-1] if played else None
    if last is None:
        return f"{count_of(played.deals, 'deal')} asked for, none played (interrupted)"
    return (f"{count_of(played.deals, 'deal')} asked for, interrupted: {last.challenger} vs "
            f"{last.incumbent} played {count_of(last.deals, 'deal')} "
            f"({count_of(last.games, 'game')}), any pairing after it none")
