"""``spitemalice ladder`` (a round robin of bots with ratings) and ``spitemalice balance`` (is a
configuration fair, does skill matter) on the command line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from spitemalice.cli._args import (
    INTERRUPTED,
    Parser,
    add_allow_files,
    add_force,
    add_rules_args,
    add_run_options,
    bot_list,
    count,
    count_or_none,
    describe,
    json_text,
    load_rules,
    note_interrupted,
    number,
    say,
    seed,
    share,
    switches,
    table,
)
from spitemalice.cli.simulate import designer_text
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.measures.interval import NOT_MEASURED, percent_text
from spitemalice.measures.shape import skill_over_chance
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load
from spitemalice.runs import parallel
from spitemalice.runs.commit import Outputs
from spitemalice.runs.games_out import GamesOut
from spitemalice.runs.outputs import GameOutput
from spitemalice.runs.progress import Progress
from spitemalice.runs.runner import GameRow, configuration
from spitemalice.stops import held_stops
from spitemalice.study.balance import COVERAGE_GAMES, TIERS, Balance, Baseline, balance
from spitemalice.study.balance_coverage import format_section
from spitemalice.study.fresh import fresh_seed
from spitemalice.study.ladder import format_ladder, ladder
from spitemalice.study.plot import check_path
from spitemalice.study.tournament import tournament_sides
from spitemalice.wording import count_of

if TYPE_CHECKING:
    from spitemalice.cli._args import Commands

_share = share(0, 0.5, "a margin")
"""``ladder --until-decided``: a share of games above 0 and below 0.5, as
:func:`~spitemalice.study.ladder.ladder` checks."""
MARGIN, LADDER_BATCH = 0.05, 50
"""``ladder``'s default ``--until-decided`` and ``--batch``."""
LADDER_BOTS = "random,greedy,heuristic,mcts,ismcts"
BASE = "blackwood-frey"
"""The base rule set of a bare rule set's skill gradient."""


def add_ladder(commands: Commands) -> Parser:
    """Add ``ladder`` to ``commands`` (argparse subparsers)."""
    lad = commands.add_parser(
        "ladder", help="a round robin of bots on duplicate deals, rated with intervals",
        description="Every two bots meet on the same deals, each deal played twice with the "
                    "sides swapped; Bradley-Terry ratings (Elo scale, the anchor bot at 0) "
                    "with 95% intervals (bootstrap and Wald).  A game of more than two sides "
                    "is one observation of Luce's choice model: its winner was chosen among the "
                    "sides at the table in proportion to their bots' strengths (docs/"
                    "studying.md).  Stops when the order is decided: each pair of neighbours "
                    "in the order has passed a sequential test.")
    add_rules_args(lad)
    add_allow_files(lad)
    lad.add_argument("--bots", default=LADDER_BOTS,
                     help=f"bots to rate, two or more (default {LADDER_BOTS})")
    lad.add_argument("--games", type=count, default=500,
                     help="deals per pair at most; each is played twice (default 500)")
    stop = lad.add_mutually_exclusive_group()  # a margin to stop at, or no early stop
    stop.add_argument("--until-decided", type=_share, default=MARGIN, metavar="MARGIN",
                      help="stop when every two neighbours in the order are decided by a "
                           "sequential test of whether one wins MARGIN more than half of their "
                           "games (default 0.05)")
    stop.add_argument("--all-games", action="store_true",
                      help="play every deal of --games; no early stop")
    lad.add_argument("--batch", type=count, default=LADDER_BATCH,
                     help="deals per batch between tests (default 50)")
    lad.add_argument("--anchor", help="the bot rated 0 (default random, else the first)")
    lad.add_argument("--seed", type=seed, default=0, help="seed of the run (default 0)")
    lad.add_argument("--json", action="store_true", help="print the ladder as JSON")
    add_run_options(lad, plot="each bot's rating with its interval and each pair's share of "
                              "won games")
    parallel.add_arguments(lad)
    return lad


def add_balance(commands: Commands) -> Parser:
    """Add ``balance`` to ``commands`` (argparse subparsers)."""
    bal = commands.add_parser(
        "balance", help="is a configuration fair, does skill matter: a report with intervals",
        description="Self-play of the strongest tier (win rate of each turn position, games "
                    "without a winner, game length), the skill matrix of the bot tiers on "
                    "duplicate deals, the skill gradient against the base configuration, the "
                    "rule clauses the self-play games exercised, and a verdict with its evidence.")
    add_rules_args(bal)
    add_allow_files(bal)
    bal.add_argument("--bots", default=",".join(TIERS),
                     help=f"bot tiers, weakest first (default {','.join(TIERS)})")
    bal.add_argument("--games", type=count, default=1000,
                     help="self-play games (default 1000)")
    bal.add_argument("--deals", type=count, default=500,
                     help="deals per pair of tiers, each played twice (default 500)")
    base = bal.add_mutually_exclusive_group()  # a base of one's choice, or none
    base.add_argument("--base", metavar="RULESET",
                      help="the base of the skill gradient (default: the rule set without its "
                           f"house rules; for a bare rule set, {BASE} at the same seats)")
    base.add_argument("--no-base", action="store_true", help="no skill gradient (half the games)")
    bal.add_argument("--seed", type=seed, default=0, help="seed of the run (default 0)")
    bal.add_argument("--json", action="store_true", help="print the report as JSON")
    bal.add_argument("--coverage-games", type=count_or_none, default=COVERAGE_GAMES,
                     metavar="N",
                     help="count which rule clauses the first N self-play games exercised, 0 "
                          f"for none (default {COVERAGE_GAMES})")
    bal.add_argument("--quiet", action="store_true", help="no progress bar")
    bal.add_argument("--plot", type=Path, metavar="FILE",
                     help="draw each turn position's win rate, game length and the skill "
                          "matrix to FILE.png or FILE.svg (needs spitemalice[plot])")
    add_force(bal)
    parallel.add_arguments(bal)
    return bal


def _checked_bots(book: RuleBook, text: str, what: str) -> list[str]:
    bots = bot_list(text)
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise SpiteMaliceError(f"--bots: {what} needs two or more different bots, not "
                               f"{text!r}")
    for bot in bots:
        configuration(book, [bot])  # refuses an unknown bot before any game
    tournament_sides(book)  # refuses teams that cannot seat two bots
    return bots


def run_ladder(args: argparse.Namespace) -> int:
    """``spitemalice ladder``: the ratings table and the pairs."""
    book = load_rules(args)
    bots = _checked_bots(book, args.bots, "a ladder")
    if args.anchor is not None and args.anchor not in bots:
        raise SpiteMaliceError(f"--anchor {args.anchor!r} is not among --bots {bots}")
    if args.plot is not None:
        check_path(args.plot, force=args.force)
    named = describe(args, book)  # a round robin is no seat's bots: named on its own
    command = named.command("ladder", "--bots", ",".join(bots), "--games", str(args.games),
                            *_ladder_stop(args), *(["--anchor", args.anchor] if args.anchor
                                                   else []),
                            *switches(args, "allow_files"))
    provenance = {"configuration": named.as_dict(), "bots": bots, "command": command}
    outputs = Outputs([GamesOut(args.games_out, book.players, labelled=True,
                                teams=book.teams.any, configuration=provenance,
                                force=args.force, turn_limit=book.ruleset.turn_limit)]
                      if args.games_out else [])
    pairs = len(bots) * (len(bots) - 1) // 2
    progress = Progress(2 * pairs * args.games, "ladder", not (args.json or args.quiet))

    def on_game(rows: tuple[GameRow, ...]) -> None:
        # A deal's rows (two per pair still playing) are written all or none, before the
        # deal counts (spitemalice.runs.commit).
        outputs.add(outputs.games, GameOutput(tuple(
            (row, "/".join(dict.fromkeys(row.bots)), book.teams) for row in rows)))
        progress.advance(len(rows))

    with progress, outputs:
        with parallel.backend(args) as (jobs, client):
            result = ladder(book, bots, args.games, args.seed,
                            None if args.all_games else args.until_decided, args.batch,
                            args.anchor, on_game, jobs, client)
        outputs.close(result.interrupted)
    if args.json:
        say(json_text({**provenance, **result.as_dict()}))
    else:
        say(table([*named.rows(), ("rerun", command)]))
        say(_ladder_head(result.ruleset, result.players, result.deals, result.margin,
                         result.decided))
        say(format_ladder(result))
    if args.plot is not None and result.deals:
        from spitemalice.study.plot_ratings import plot_ladder

        with held_stops():  # the picture of the deals finished, whole, even when cut short
            plot_ladder(args.plot, result, named.title(players=False), force=args.force)
    if result.interrupted:
        note_interrupted(sum(pair.tally.games for pair in result.pairs), "table")
        return INTERRUPTED
    return 0


def _ladder_stop(args: argparse.Namespace) -> list[str]:
    """How the ladder stops, as a rerun gives it: ``--all-games`` (and a batch given with it,
    which then changes nothing; ``--until-decided`` is refused with it), else the margin and
    the batch."""
    batch = ["--batch", str(args.batch)]
    if not args.all_games:
        return ["--until-decided", number(args.until_decided), *batch]
    return ["--all-games", *(batch if args.batch != LADDER_BATCH else [])]


def _ladder_head(ruleset: str, players: int, deals: int, margin: float | None,
                 decided: bool) -> str:
    stop = ("" if margin is None else
            f"; the order is decided (margin {margin:g})" if decided
            else f"; the order is not decided yet (margin {margin:g}): play more --games")
    return (f"{ruleset}, {players} players: up to {count_of(deals, 'deal')} per pair, each "
            f"played twice with the sides swapped; ratings on the Elo scale with 95% intervals "
            f"(bootstrap and Wald){stop}")


def base_of(args: argparse.Namespace, book: RuleBook) -> RuleBook | None:
    """The base configuration of the skill gradient, or ``None`` (this is the base, or
    ``--no-base``, or the default base does not take these seats)."""
    if args.no_base:
        return None
    params: dict[str, object] = {"players": book.players}
    if args.base is not None:
        try:
            return load(args.base, [], params, allow_files=args.allow_files)
        except RulesetError as error:
            raise RulesetError(f"--base: {error}") from None
    if args.house_rule:
        return load(args.ruleset, [], {**dict(args.settings), **params},
                    allow_files=args.allow_files)
    if book.name == BASE and not args.settings:
        return None
    try:
        return load(BASE, [], params)
    except RulesetError:
        return None


def run_balance(args: argparse.Namespace) -> int:
    """``spitemalice balance``: the report and its verdicts."""
    book = load_rules(args)
    tiers = _checked_bots(book, args.bots, "a skill matrix")
    if args.plot is not None:
        check_path(args.plot, force=args.force)
    base_book = base_of(args, book)
    pairs = len(tiers) * (len(tiers) - 1) // 2
    per_run = args.games + 2 * pairs * args.deals
    # The configuration twice (its seed set and a fresh one), the base once.
    progress = Progress(per_run * (3 if base_book is not None else 2), "balance",
                        not (args.json or args.quiet))
    named = describe(args, book)
    command = named.command(
        "balance", "--bots", ",".join(tiers), "--games", str(args.games), "--deals",
        str(args.deals), *(["--base", args.base] if args.base is not None else []),
        *(["--coverage-games", str(args.coverage_games)]
          if args.coverage_games != COVERAGE_GAMES else []),
        *switches(args, "no_base", "allow_files"))
    label = named.label()
    with progress, parallel.backend(args) as (jobs, client):
        base: Baseline | None = None
        base_cut = False
        if base_book is not None:
            measured = balance(base_book, _base_label(args, base_book), tiers, args.games,
                               args.deals, args.seed, on_game=progress.advance, jobs=jobs,
                               client=client, coverage=0)
            base, base_cut = measured.baseline(), measured.interrupted
        if base_cut:
            # Cut short while the base was measured: nothing of this configuration is played
            # (a stop ends the run, it does not move on to the next part).
            report = attrs.evolve(balance(book, label, tiers, 0, 0, args.seed),
                                  interrupted=True)
        else:
            report = balance(book, label, tiers, args.games, args.deals, args.seed, base=base,
                             on_game=progress.advance, jobs=jobs, client=client,
                             coverage=args.coverage_games)
            if not report.interrupted:  # every verdict is re-checked on a fresh seed set
                fresh = balance(book, label, tiers, args.games, args.deals,
                                fresh_seed(args.seed), base=base, on_game=progress.advance,
                                jobs=jobs, client=client, coverage=0)
                report = attrs.evolve(report, fresh=fresh, interrupted=fresh.interrupted)
    if args.json:
        say(json_text({"configuration": named.as_dict(), "command": command,
                        **report.as_dict()}))
    else:
        say(table([*named.rows(), ("rerun", command)]))
        say(format_balance(report))
    if args.plot is not None and (report.games or report.matrix[0].games):
        from spitemalice.study.plot_ratings import plot_balance

        with held_stops():  # the picture of the games finished, whole, even when cut short
            plot_balance(args.plot, report, named.title(under_label=True, players=False),
                         force=args.force)
    if report.interrupted:
        note_interrupted(report.games + sum(t.games for t in report.matrix), "report")
        return INTERRUPTED
    return 0


def _base_label(args: argparse.Namespace, base: RuleBook) -> str:
    """The base's label as :meth:`RunConfiguration.label` writes one: the rule set and the
    overrides it shares with the configuration, which only the rule set without its house
    rules keeps (:func:`base_of`: blackwood-frey with ``--set`` and no house rule is measured
    against blackwood-frey as it comes)."""
    keeps = bool(args.house_rule) and not args.base and base.name == args.ruleset
    settings = args.settings if keeps else []
    return ", ".join([base.name, *(f"{key}={value}" for key, value in settings)])


def format_balance(report: Balance) -> str:
    """The report as text: verdicts, then the figures behind them."""
    from spitemalice.study.balance import verdicts

    lines = [f"{report.label}, {report.players} players: {count_of(report.games, 'game')} of "
             f"{report.reference} in every seat, {count_of(report.deals, 'deal')} per pair of "
             f"tiers (each played twice, the sides swapped); 95% intervals", ""]
    lines += [f"* {line}" for line in verdicts(report)]
    lines += ["", f"share of won games by turn position (fair {report.fair:.1%})"]
    lines += ([f"  position {i + 1}: {percent_text(p)}" for i, p in enumerate(report.positions)]
              if report.positions[0].n else ["  no self-play game had a winner"])
    lines += ["", "outcomes"]
    lines += [f"  {kind}: {percent_text(i)}" for kind, i in report.outcomes.items()]
    quantiles = "  ".join(f"{q.share:.0%}: {q.value.estimate:.0f} "
                          f"({q.value.low:.0f}..{q.value.high:.0f})"
                          for q in report.quantiles)
    lines += ["", f"turns per game: mean {report.turns.estimate:.1f} "
                  f"({report.turns.low:.1f}..{report.turns.high:.1f}); quantiles {quantiles}"]
    lines += ["", "skill matrix: the stronger tier's share of won games"
              + (f"; change from {report.base}" if report.base else "")]
    for index, t in enumerate(report.matrix):
        share = percent_text(t.rate) if t.rate.n else "no game won"  # not 0.0% of no games
        line = f"  {t.a} v {t.b}: {share}, {t.no_winner} of {t.games} without a winner"
        if report.gradient:
            g = report.gradient[index]
            line += (f"; {g.estimate * 100:+.1f} points ({g.low * 100:+.1f}.."
                     f"{g.high * 100:+.1f})" if g.n else f"; {NOT_MEASURED}")  # no game won
        lines.append(line)
    top = report.top
    if top.rate.n:
        skill = skill_over_chance(top.rate)
        lines.append(f"  skill over chance, {top.a} v {top.b}: {skill.estimate:.3f} "
                     f"({skill.low:.3f}..{skill.high:.3f}; 0 = chance, 1 = skill always wins)")
    lines += _shape_lines(report)
    if report.coverage is not None:
        lines += ["", *format_section(report.coverage)]
    return "\n".join(lines)


def _shape_lines(report: Balance) -> list[str]:
    """The designer metrics of the self-play games, on this seed set and (when played) on
    the fresh one beside it (docs/studying.md gives each formula)."""
    if not report.shape:
        return []
    fresh = report.fresh.shape if report.fresh is not None else {}
    rows = [(name, designer_text(name, i),
             designer_text(name, fresh[name]) if name in fresh else "")
            for name, i in report.shape.items()]
    width = max(len(name) for name, _, _ in rows)
    middle = max(len(text) for _, text, _ in [*rows, ("", "this seed set", "")])
    lines = ["", "designer metrics of the self-play games (lead = pay-off cards cleared; "
                 "docs/studying.md)"]
    if fresh:
        lines.append(f"  {''.ljust(width)}  {'this seed set'.ljust(middle)}  fresh seeds")
    return lines + [f"  {name.ljust(width)}  {text.ljust(middle)}  {again}".rstrip()
                    for name, text, again in rows]


