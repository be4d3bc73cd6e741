"""What the commands share: the parser that exits with status 2, the argument types (counts,
seeds, ``KEY=VALUE`` settings), the rule-set arguments, loading the rules an invocation names,
and the exit status of an interrupted run.

Each command module imports these directly, so no command passes helpers to another.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import whole_number
from spitemalice.limits import MAX_GAMES, MAX_INT, MAX_SEED
from spitemalice.rules.book import RuleBook
from spitemalice.rules.loader import load
from spitemalice.rules.ruleset import MAX_SEATS, MIN_SEATS, convert_param
from spitemalice.wording import count_of, for_terminal, shown

if TYPE_CHECKING:
    from spitemalice.runs.provenance import RunConfiguration

INTERRUPTED = 130
"""Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it), also when it
printed the summary of the games it finished, so a script can tell a cut-short run."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors print one line and exit with status 2."""

    def error(self, message: str) -> NoReturn:
        # The message may quote an argument as typed (an unknown choice): escaped.
        self.exit(2, f"{self.prog}: error: {for_terminal(message)}\n")


if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[Parser]
    """What a command's ``add_<command>`` adds its parser to (``Parser.add_subparsers``)."""


def whole(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high`` (at most
    :data:`~spitemalice.limits.MAX_DIGITS` digits), else argparse's one-line error naming the
    option and the range (exit 2).  Every numeric option takes the range the library checks,
    so no value passes the parser to fail deeper (tests/cli/test_cli_options.py)."""
    bound = f"{what} from {_number(low)} to {_number(high)}"

    def parse(text: str) -> int:
        number = whole_number(text)
        if number is None or not low <= number <= high:
            raise argparse.ArgumentTypeError(f"expected {bound}, not {shown(text)}")
        return number

    parse.__name__ = what.split()[-1]  # argparse names the type in some errors
    parse.__doc__ = f"{bound[0].upper()}{bound[1:]}."
    return parse


def _number(value: int) -> str:
    return ("10**80 - 1" if value == MAX_INT else f"{value:,}" if value >= 10**6
            else str(value))


def share(low: float, high: float, what: str, *, closed_low: bool = False,
          closed_high: bool = False) -> Callable[[str], float]:
    """An argument type: a finite number between ``low`` and ``high`` (each end excluded
    unless ``closed_*``), else argparse's one-line error naming the range."""
    ends = (f"{'from' if closed_low else 'above'} {low:g} "
            + ("(finite)" if high == math.inf else
               f"{'to' if closed_high else 'and below'} {high:g}"))

    def parse(text: str) -> float:
        try:  # ASCII only, as every whole-number option: float() reads "٣" as 3 (try-out s8)
            value = float(text) if text.isascii() else math.nan
        except ValueError:
            value = math.nan
        inside = ((low <= value if closed_low else low < value)
                  and (value <= high if closed_high else value < high))
        if not inside:  # nan fails every comparison
            raise argparse.ArgumentTypeError(f"{what} is a number {ends}, not {shown(text)}")
        return value

    parse.__name__ = what.split()[-1]
    return parse


count = whole(1, MAX_GAMES)
"""``--games``, ``--batch``, ``--deals``: 1 to :data:`~spitemalice.limits.MAX_GAMES`."""
count_or_none = whole(0, MAX_GAMES)
"""``--coverage-games``: 0 (none) to :data:`~spitemalice.limits.MAX_GAMES`."""
seed = whole(0, MAX_SEED, "a seed, a whole number")
"""``--seed``: 0 to :data:`~spitemalice.limits.MAX_SEED`."""
players = whole(MIN_SEATS, MAX_SEATS)
"""``--players``: the seat counts any rule set may allow (2 to 8; the rule set narrows them
and says so)."""
seat = whole(0, MAX_SEATS - 1)
"""``play --seat``: 0 to 7 (the game's seats narrow it and say so)."""


def setting(text: str) -> tuple[str, str]:
    """``--set KEY=VALUE``: the pair, both sides stripped; the loader checks the key."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"write a setting as key=value, not {text!r}")
    return key.strip(), value.strip()


class _SetOnce(argparse.Action):
    """``--set``'s action: appends the pair; the same parameter given again with the same
    value (``players=3`` twice, ``3`` and ``03``, ``K`` and ``13``: :func:`same_value`) is
    kept once, with another value it is refused naming both (which value was meant cannot be
    told; the last one would win silently), as :func:`with_players` does for
    ``--players``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._options: dict[int, dict[str, str | None]] = {}

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        pairs = list(getattr(namespace, self.dest, None) or [])
        key, value = values
        earlier = [v for k, v in pairs if k == key]
        if earlier and same_value(earlier[0], value, key):
            return
        # The option that gave the earlier value (compare's --b-set and --set share a list).
        said = self._options.setdefault(id(namespace), {})
        if earlier:
            first = f"{said.get(key, option_string)} {key}={for_terminal(earlier[0])}"
            then = f"{option_string} {key}={for_terminal(value)}"
            parser.error(f"argument {option_string}: {key} is set twice, to different values "
                         f"({first} and {then}): keep one (drop {first}, or drop {then})")
        said[key] = option_string
        setattr(namespace, self.dest, [*pairs, values])


def same_value(first: str, second: str, name: str = "") -> bool:
    """Whether two values given for parameter ``name`` on the command line say the same:
    equal text, the same whole number (``3`` and ``03``), or the same value once read as the
    parameter's type (``K`` and ``13``, ``0,13`` and ``13,0``, ``true`` and ``yes``);
    values that do not read are compared as text (the loader refuses them)."""
    number = whole_number(first)
    if first == second or (number is not None and number == whole_number(second)):
        return True
    try:
        return bool(convert_param(name, first) == convert_param(name, second))
    except SpiteMaliceError:
        return False


def add_set(parser: argparse.ArgumentParser, dest: str = "settings", *flags: str,
            whose: str = "") -> None:
    """``--set KEY=VALUE`` (repeatable, each parameter once; or the option names ``flags``)
    into ``args.<dest>``, a list of pairs; a parameter given twice is a usage error naming
    it."""
    parser.add_argument(*(flags or ("--set",)), action=_SetOnce, default=[], type=setting,
                        metavar="KEY=VALUE", dest=dest,
                        help=f"override a rule-set parameter{whose} (repeatable, each "
                             "parameter once)")


def add_rules_args(parser: argparse.ArgumentParser, required: bool = True) -> None:
    """The rule set a command plays: ``RULESET``, ``--players``, ``--house-rule``, ``--set``
    (``RULESET`` may be left out when not ``required``: ``None`` then)."""
    parser.add_argument("ruleset", nargs=None if required else "?",
                        help="an installed rule set (see `spitemalice variants`) "
                        "or the path of a custom rule set file (.toml)")
    parser.add_argument("--players", type=players, help="seats in the game")
    parser.add_argument("--house-rule", action="append", default=[], metavar="NAME",
                        help="a house rule to stack on the rule set (repeatable)")
    add_set(parser)


def add_allow_files(parser: argparse.ArgumentParser) -> None:
    """``--allow-files``: a custom rule set file's ``base`` may name another file."""
    parser.add_argument("--allow-files", action="store_true",
                        help="let a custom rule set file's base name another file (by default "
                             "a base names an installed rule set)")


def rule_params(args: argparse.Namespace) -> dict[str, object]:
    """The parameters ``--set`` and ``--players`` give, for :func:`~spitemalice.load`.

    Raises:
        SpiteMaliceError: ``--set players=N`` and ``--players M`` give the seats twice with
            different values (:func:`with_players`).
    """
    return with_players(args.settings, args.players)


def with_players(settings: list[tuple[str, str]], players: int | None,
                 option: str = "--set") -> dict[str, object]:
    """``settings`` (``--set``'s pairs, or ``option``'s) as parameters, with ``players``
    (``--players``, ``None`` when not given) added: the one command-line option that gives
    a rule-set parameter beside ``--set``.

    Raises:
        SpiteMaliceError: ``settings`` gives ``players`` too, with another value: which one
            was meant cannot be told (the last would win silently), so the message names both
            and which to keep.
    """
    params: dict[str, object] = dict(settings)
    if players is None:
        return params
    given = params.get("players")
    if given is not None and whole_number(str(given)) != players:
        setting = f"{option} " + "players=" + for_terminal(str(given))
        raise SpiteMaliceError(
            f"the seats are given twice, as --players {players} and {setting}: give them "
            f"once (keep --players {players} and drop {setting}, or the other way round)")
    params["players"] = players
    return params


def load_rules(args: argparse.Namespace) -> RuleBook:
    """The rule book :func:`add_rules_args` (and :func:`add_allow_files`, when the command
    has it) name.

    Raises:
        RulesetError: as :func:`~spitemalice.load`.
    """
    return load(args.ruleset, args.house_rule, rule_params(args),
                allow_files=getattr(args, "allow_files", False))


def add_force(parser: argparse.ArgumentParser) -> None:
    """``--force``: let the command's output files replace files already there.  Without it
    a command refuses, before it does any work, to write over anything at an output's name
    (:func:`spitemalice.files.check_new`); a symbolic link there is replaced, never
    written through."""
    parser.add_argument("--force", action="store_true",
                        help="replace output files that are there already (a symbolic link "
                             "is replaced, never written through)")


PLOT_RUNS = "moves per game and the win rate of each seat and of the seat that moved first"
"""What :func:`~spitemalice.study.plot.plot_runs` draws (``simulate``, ``compare``)."""


def add_run_options(parser: argparse.ArgumentParser, plot: str | None = PLOT_RUNS) -> None:
    """``--quiet``, ``--force``, ``--games-out FILE`` and ``--plot FILE`` (drawing ``plot``,
    the picture's contents as its help says them; ``None``: no ``--plot``), for a command
    that plays games."""
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_force(parser)
    parser.add_argument("--games-out", type=Path, metavar="FILE",
                        help="write one row per game as it finishes: FILE.csv or FILE.jsonl")
    if plot:
        parser.add_argument("--plot", type=Path, metavar="FILE",
                            help=f"draw {plot} to FILE.png or FILE.svg (needs "
                                 "spitemalice[plot])")


def progress_shown(args: argparse.Namespace) -> bool:
    """Whether a run shows its progress bar: not with ``--json`` or ``--quiet`` (and, as
    :class:`~spitemalice.runs.progress.Progress` decides, only on a terminal)."""
    return not (args.json or args.quiet)


def cut_short(interrupted: bool) -> str:
    """What a title or a count adds when the run was interrupted."""
    return " (interrupted)" if interrupted else ""


def bot_list(text: str) -> list[str]:
    """``--bots random,greedy``: the names, spaces around each dropped (the runner checks
    each).

    Raises:
        SpiteMaliceError: a name is empty (``greedy,,`` or a trailing comma): a seat or a
            tier would silently go missing (try-out s8).
    """
    bots = [bot.strip() for bot in text.split(",")]
    if not all(bots):
        raise SpiteMaliceError(f"--bots is a list of bot names separated by commas, such as "
                               f"random,greedy, with no empty name; not {shown(text)}")
    return bots


def bot_list_option(text: str) -> list[str]:
    """:func:`bot_list` as an argparse type: its error as argparse's one-line error."""
    try:
        return bot_list(text)
    except SpiteMaliceError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--bots is ")) from None


def say(text: str, *, file: TextIO | None = None, flush: bool = False) -> None:
    """Print ``text`` (one or more lines) to stdout (or ``file``), every character a terminal
    would act on written as an escape (:func:`~spitemalice.wording.for_terminal`): how
    every command prints, because what it prints may quote a file, a record, a plugin or a
    person."""
    print(for_terminal(text, lines=True), file=file, flush=flush)


def json_text(data: object) -> str:
    """``data`` as strict JSON text, indented by 2: what every ``--json`` prints (a float
    that is not finite written as null: :func:`spitemalice.formats.strict_json.dumps`)."""
    # Imported here: the formats package loads the engine, which `variants` does without.
    from spitemalice.formats import strict_json

    return strict_json.dumps(data, indent=2)


def note_interrupted(done: int, what: str = "summary", noun: str = "game",
                     also: str = "") -> None:
    """Tell stderr that what was printed (the summary, the table, the report) covers only the
    games finished: every output of each of them is written, and nothing of any other.

    Args:
        noun: what ``done`` counts, in the words the printed output counts it
            (``"paired game"`` for compare, whose table counts pairs).
        also: the same count in another unit, in brackets after it (``"3 deals"``).
    """
    extra = f" ({also})" if also else ""
    say(f"interrupted: the {what} covers the {count_of(done, noun)}{extra} finished",
        file=sys.stderr)


def describe(args: argparse.Namespace, book: RuleBook, bots: list[str] | tuple[str, ...] = (),
             ) -> RunConfiguration:
    """The configuration of a run of ``book`` named by :func:`add_rules_args`' arguments,
    with ``bots`` and ``--seed`` (:func:`~spitemalice.runs.provenance.describe_run`)."""
    # imported here: the studies (and the engine under them) are loaded only by the commands
    # that run games, so that `spitemalice variants` starts quickly (tests/contract/test_startup.py)
    from spitemalice.runs.provenance import describe_run

    return describe_run(book, bots, args.seed, ruleset=str(args.ruleset),
                        house_rules=args.house_rule, settings=args.settings)


NOT_IN_RERUN = {
    "json": "how the result is printed (text or JSON), not what it is",
    "quiet": "the progress bar only",
    "force": "whether output files already there may be replaced",
    "games_out": "where a copy of the games' rows goes (--games-out FILE)",
    "plot": "where a picture of the result goes (--plot FILE)",
    "record": "where game records go (simulate --record DIR, validate --record FILE)",
    "jobs": "how many processes play the games; every game is the same on any (parallel.py)",
    "scheduler": "which machines play the games; every game is the same on any",
}
"""The options of the study commands (``simulate``, ``compare``, ``tournament``,
``validate``, ``ladder``, ``balance``) that their rerun command leaves out, each with why:
none changes what the run plays, measures or prints as its result.  Every other option is in
the rerun whenever it differs from its default (tests/study/test_rerun.py walks each command's
options against this list)."""


def switches(args: argparse.Namespace, *dests: str) -> list[str]:
    """The ``store_true`` options among ``dests`` that are set, as a rerun gives them:
    ``["--allow-files", "--metrics"]``."""
    return [f"--{dest.replace('_', '-')}" for dest in dests if getattr(args, dest, False)]


def number(value: float) -> str:
    """A float option's value as a rerun gives it: exactly, and as short as it reads back
    (``15``, ``0.05``, ``0.0123456789``; ``:g`` alone would round the last to 0.0123457)."""
    text = f"{value:g}"
    return text if float(text) == value else repr(value)


def table(rows: list[tuple[str, str]]) -> str:
    """``rows`` (label, value) as two aligned columns."""
    width = max(len(label) for label, _ in rows)
    return "\n".join(f"{label.ljust(width)}  {value}".rstrip() for label, value in rows)
