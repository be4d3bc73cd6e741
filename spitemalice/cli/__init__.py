"""The ``spitemalice`` command line.

Every error a user can cause ends in one line on stderr and exit status 2; no traceback.
Output survives any terminal encoding: a character the terminal cannot show is written as a
backslash escape rather than ending the command.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import NoReturn

from spitemalice import __version__
from spitemalice.cli.interop import add_interop
from spitemalice.cli.records import add_records, record_writer
from spitemalice.cli.study import INTERRUPTED, SimulateStudy, add_simulate_options, add_study
from spitemalice.cli.validate import add_validate
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.limits import MAX_DIGITS, whole_number
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import house_rule_sheet, load
from spitemalice.rules.registry import installed, kind_of
from spitemalice.rules.sheet import render_sheet
from spitemalice.study import parallel
from spitemalice.study.simulate import Summary, simulate
from spitemalice.study.stats import Interval


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _count(text: str) -> int:
    number = whole_number(text)
    if number is None or number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not "
                                         f"{text[:40]!r}")
    return number


def _seed(text: str) -> int:
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0 of at most "
                                         f"{MAX_DIGITS} digits, not {text[:40]!r}")
    return number


def _setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"write a setting as key=value, not {text!r}")
    return key.strip(), value.strip()


def _add_rules_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="an installed rule set (see `spitemalice variants`) "
                        "or the path of a custom rule set file (.toml)")
    parser.add_argument("--players", type=int, help="seats in the game")
    parser.add_argument("--house-rule", action="append", default=[], metavar="NAME",
                        help="a house rule to stack on the rule set (repeatable)")
    parser.add_argument("--set", action="append", default=[], type=_setting, metavar="KEY=VALUE",
                        dest="settings", help="override a rule-set parameter (repeatable)")


def _add_allow_files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-files", action="store_true",
                        help="let a custom rule set file's base name another file (by default "
                             "a base names an installed rule set)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="spitemalice", description="Spite and Malice rules, simulated.")
    parser.add_argument("--version", action="version", version=f"spitemalice {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sim = commands.add_parser("simulate", help="play seeded games with bots and summarise them")
    _add_rules_args(sim)
    _add_allow_files(sim)
    sim.add_argument("--games", type=_count, default=100, help="games to play (default 100)")
    sim.add_argument("--seed", type=_seed, default=0, help="seed of the whole run (default 0)")
    sim.add_argument("--bots", default="greedy",
                     help="player kinds, one for all seats or one per seat: random,greedy")
    sim.add_argument("--json", action="store_true",
                     help="print the summary as JSON (without timings: equal runs print equal "
                          "bytes)")
    parallel.add_arguments(sim)
    add_simulate_options(sim)  # --metrics, --games-out, --plot, --quiet
    rules = commands.add_parser("rules", help="print the sheet and parameters of a rule set "
                                "(or of a house rule)")
    _add_rules_args(rules)
    _add_allow_files(rules)
    rules.add_argument("--on", metavar="RULESET",
                       help="for a house rule: show it stacked on this rule set only (default: "
                            "on each built-in rule set)")
    commands.add_parser("variants", help="list installed rule sets and house rules")
    add_validate(commands, _add_rules_args, _count, _seed)
    add_records(commands, _setting)  # replay, check, show; simulate --record
    add_interop(commands)  # schema
    add_study(commands, _add_rules_args, _add_allow_files, _count, _seed, _setting)
    return parser


def _load(args: argparse.Namespace) -> RuleBook:
    params: dict[str, object] = dict(args.settings)
    if args.players is not None:
        params["players"] = args.players
    return load(args.ruleset, args.house_rule, params, allow_files=args.allow_files)


def _simulate(args: argparse.Namespace) -> int:
    book = _load(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    study = SimulateStudy(args, book, bots)  # progress, --metrics, --games-out, --plot
    try:
        with parallel.backend(args) as (jobs, client):
            summary = simulate(book, bots, args.games, args.seed,
                               on_game=study.on_game(record_writer(args, book)), jobs=jobs,
                               client=client)
    finally:
        study.close()
    if summary.interrupted:
        print(f"interrupted: the summary covers the {summary.games} games finished",
              file=sys.stderr)
    data = summary.as_dict(timing=False)
    metrics = study.finish(data)
    print(json.dumps(data, indent=2) if args.json
          else format_summary(summary) + (f"\n\n{metrics}" if metrics else ""))
    return INTERRUPTED if summary.interrupted else 0


def format_summary(summary: Summary) -> str:
    """The summary as an aligned two-column table; every rate and mean with its 95% interval
    (Wilson for rates, normal for means)."""
    o, n, ci = summary.outcomes, summary.games, summary.intervals()
    seats = "  ".join(f"{s}:{w} {_rate(i)}"
                      for s, (w, i) in enumerate(zip(summary.wins_per_seat,
                                                     ci["wins_per_seat"], strict=True)))
    rows = [
        ("rule set", f"{summary.ruleset} ({summary.players} players, "
                     f"bots {','.join(summary.bots)})"),
        ("games", str(n) + ("  (interrupted)" if summary.interrupted else "")),
        ("won", f"{o['win']} {_rate(ci['won'])}"),
        ("drawn (the draw pile ran out)", f"{o['drawn']} {_rate(ci['drawn'])}"),
        ("other (blocked, turn limit)", f"{o['blocked'] + o['turn-limit']} {_rate(ci['other'])}"),
        ("wins per seat", seats),
        ("wins by the seat that moved first",
         f"{summary.first_seat_wins} {_rate(ci['first_seat_wins'])}"),
        *([("wins per team", "  ".join(
            f"{team}:{w} {_rate(i)}" for team, w, i in
            zip(summary.teams, summary.wins_per_team, ci["wins_per_team"], strict=True)))]
          if summary.teams else []),
        ("moves per game (mean / p95)",
         f"{_mean(ci['mean_moves'])} / {summary.p95_moves:.0f}"),
        ("turns per game (mean / p95)",
         f"{_mean(ci['mean_turns'])} / {summary.p95_turns:.0f}"),
        ("games per second", f"{summary.games_per_second:.1f}"),
        ("moves per second", f"{summary.moves_per_second:.0f}"),
    ]
    width = max(len(label) for label, _ in rows)
    return "\n".join(f"{label.ljust(width)}  {value}" for label, value in rows)


def _rate(interval: Interval) -> str:
    return (f"= {interval.estimate:.1%} ({interval.low:.1%}..{interval.high:.1%})")


def _mean(interval: Interval) -> str:
    return f"{interval.estimate:.1f} ({interval.low:.1f}..{interval.high:.1f})"


def _rules(args: argparse.Namespace) -> None:
    if kind_of(args.ruleset) == "house-rule":  # a house rule's own sheet
        params: dict[str, object] = dict(args.settings)
        if args.players is not None:
            params["players"] = args.players
        print(house_rule_sheet(args.ruleset, args.house_rule, params, on=args.on))
        return
    if args.on:
        raise RulesetError(f"--on applies to a house rule's sheet; {args.ruleset!r} is a rule "
                           f"set: stack a house rule on it with --house-rule")
    print(render_sheet(_load(args)))


def _variants(args: argparse.Namespace) -> None:
    infos = installed()
    width = max((len(info.name) for info in infos), default=0)
    for info in infos:
        print(f"{info.name.ljust(width)}  {info.kind:<10}  {info.description}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    _survive_any_encoding()
    args = build_parser().parse_args(argv)
    handlers = {"simulate": _simulate, "rules": _rules, "variants": _variants}
    handler = getattr(args, "handler", None) or handlers[args.command]
    try:
        with _sigterm_stops_cleanly():
            status = handler(args)
    except SpiteMaliceError as error:
        print(f"spitemalice: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        # The reader (say `| head`) closed the pipe; stop quietly, as other tools do.
        sys.stderr.close()
        return 0
    return int(status or 0)


@contextlib.contextmanager
def _sigterm_stops_cleanly() -> Iterator[None]:
    """While a command runs, SIGTERM stops it as Ctrl-C does: the run unwinds, so ``--jobs``
    worker processes are ended with it instead of being left running.  The previous handler
    comes back afterwards (``main`` may be called from a program or a test)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _survive_any_encoding() -> None:
    """Write characters the output encoding cannot hold (a lone surrogate in a name, a dash on
    an ASCII terminal) as backslash escapes instead of raising ``UnicodeEncodeError``."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # A closed or detached stream is left alone.
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


if __name__ == "__main__":
    sys.exit(main())
