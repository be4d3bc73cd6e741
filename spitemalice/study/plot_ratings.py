"""Pictures of ratings and balance reports (``ladder --plot``, ``balance --plot``, the atlas):
matplotlib, the optional extra ``spitemalice[plot]``.

As in :mod:`spitemalice.study.plot`: every text is drawn as written (bot and rule-set names
may hold a ``$``; :func:`~spitemalice.study.plot.plain_text`), escaped for control characters,
and every file is written by :mod:`spitemalice.files` (``force`` to replace one).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spitemalice.guards import check_int, check_real
from spitemalice.measures.interval import Interval
from spitemalice.study.balance import Balance
from spitemalice.study.ladder import Ladder
from spitemalice.study.pairs import PairTally
from spitemalice.study.plot import check_path, interval_bars, plain_text, save
from spitemalice.wording import count_of, for_terminal


def plot_ladder(path: Path, result: Ladder, subtitle: str = "", *, force: bool = False) -> Any:
    """Left: each bot's rating with its 95% interval, best on top.  Right: each pair's share
    of won games, row bot against column bot.

    Raises:
        SpiteMaliceError: as :func:`spitemalice.study.plot.check_path`.
        OutputError: a file there already (without ``force``), or an unwritable one.
    """
    check_path(path, force=force)
    with plain_text() as plt:
        figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
        _draw_ladder(figure, left, right, result, subtitle)
        save(figure, path, force=force)
    return figure


def _draw_ladder(figure: Any, left: Any, right: Any, result: Ladder, subtitle: str) -> None:
    interval_bars(left, [r.bot for r in result.ratings], [r.rating for r in result.ratings],
                  percent=False)
    left.set_xlabel(for_terminal(f"rating (Elo scale, {result.anchor} = 0; 95% interval, "
                                 f"bootstrap and Wald)"))
    left.set_title("Ratings")
    _shares(right, [r.bot for r in result.ratings], [p.tally for p in result.pairs])
    figure.suptitle(for_terminal(f"{result.ruleset}, {result.players} players: up to "
                                 f"{count_of(result.deals, 'deal')} per pair, sides swapped")
                    + (f"\n{for_terminal(subtitle)}" if subtitle else ""))


def plot_balance(path: Path, report: Balance, subtitle: str = "", *,
                 force: bool = False) -> Any:
    """Three panels: each turn position's win rate against the fair share, the distribution
    of game length in turns with its median, and the skill matrix.

    Raises:
        SpiteMaliceError: as :func:`spitemalice.study.plot.check_path`.
        OutputError: a file there already (without ``force``), or an unwritable one.
    """
    check_path(path, force=force)
    with plain_text() as plt:
        figure, axes = plt.subplots(1, 3, figsize=(14, 4.2), layout="constrained")
        _draw_balance(figure, axes, report, subtitle)
        save(figure, path, force=force)
    return figure


def _draw_balance(figure: Any, axes: Any, report: Balance, subtitle: str) -> None:
    seats, lengths, skill = axes
    labels = [f"position {i + 1}" for i in range(len(report.positions))]
    interval_bars(seats, labels, report.positions, report.fair)
    seats.set_xlabel(for_terminal(f"win rate, % ({report.reference} in every seat; fair "
                                  f"{report.fair:.0%})"))
    seats.set_title("Turn positions")
    median = next(q.value for q in report.quantiles if q.share == 0.5)
    length_histogram(lengths, report.lengths, median.estimate)
    lengths.set_title("Game length")
    _shares(skill, list(report.tiers[::-1]), list(report.matrix))
    figure.suptitle(for_terminal(f"{report.label}, {report.players} players: "
                                 f"{count_of(report.games, 'self-play game')}, "
                                 f"{count_of(report.deals, 'deal')} per pair")
                    + (f"\n{for_terminal(subtitle)}" if subtitle else ""))


def length_histogram(axes: Any, lengths: dict[int, int], median: float,
                     upper: int | None = None) -> None:
    """Games per length in turns (``lengths``: turns -> games), the median as an orange
    line; with ``upper`` a bare thumbnail on the scale 0..``upper``.

    Raises:
        SpiteMaliceError: ``median`` a number past :data:`~spitemalice.limits.MAX_REAL` in
            size, or ``upper`` not ``None`` or a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _check_lengths(median, upper, "length_histogram")
    turns = [t for t, count in lengths.items() for _ in range(count)]
    small = upper is not None
    axes.hist(turns, bins=30 if small else min(60, max(5, len(lengths))),
              range=(0, upper) if small else None, color="#4c72b0")
    axes.axvline(median, color="#dd8452", linewidth=1.5)
    if small:
        axes.set_xlim(0, upper)
        axes.set_yticks([])
        axes.tick_params(labelsize=6, length=2, pad=1)
        for side in ("top", "right", "left"):
            axes.spines[side].set_visible(False)
    else:
        axes.set_xlabel(f"turns per game (median {median:.0f})")
        axes.set_ylabel("games")


def _check_lengths(median: float, upper: int | None, function: str) -> None:
    check_real(median, f"{function}'s median")
    if upper is not None:
        check_int(upper, f"{function}'s upper", 1)


def small_length_plot(path: Path, lengths: dict[int, int], median: float, upper: int) -> None:
    """A thumbnail of :func:`length_histogram` on the scale 0..``upper`` turns, for a table
    row; replaces a picture there (the atlas page redraws its own).

    Raises:
        SpiteMaliceError: ``median`` a number past :data:`~spitemalice.limits.MAX_REAL` in
            size, or ``upper`` not a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _check_lengths(median, upper, "small_length_plot")
    with plain_text() as plt:
        figure, axes = plt.subplots(figsize=(1.8, 0.55), layout="constrained")
        length_histogram(axes, lengths, median, upper)
        save(figure, path, dpi=100, force=True)


def forest(path: Path, labels: Sequence[str], intervals: Sequence[Interval],
           reference: float, xlabel: str, title: str,
           shift: Sequence[float] | None = None) -> None:
    """One interval per configuration, top to bottom, with a reference line; ``shift``
    subtracts a value per row first (a fair share, to show the excess); replaces a picture
    there (the atlas page redraws its own).

    Raises:
        SpiteMaliceError: ``reference`` a number past :data:`~spitemalice.limits.MAX_REAL`
            in size.
    """
    check_real(reference, "forest's reference")
    if shift is not None:
        intervals = [Interval(i.estimate - s, i.low - s, i.high - s, i.n)
                     for i, s in zip(intervals, shift, strict=True)]
    with plain_text() as plt:
        figure, axes = plt.subplots(figsize=(7, 0.24 * len(labels) + 1.1),
                                    layout="constrained")
        interval_bars(axes, labels, intervals, reference)
        axes.set_xlabel(for_terminal(xlabel))
        axes.set_title(for_terminal(title), fontsize="medium")
        axes.tick_params(axis="y", labelsize=7)
        save(figure, path, dpi=100, force=True)


def _shares(axes: Any, bots: Sequence[str], tallies: Sequence[PairTally]) -> None:
    """A heat map: row bot's share of won games against column bot, in percent."""
    share: dict[tuple[str, str], float] = {}
    for t in tallies:  # a pair with no game won measured nothing: its cells stay empty
        share[(t.a, t.b)] = t.rate.estimate if t.rate.n else float("nan")
        share[(t.b, t.a)] = 1 - share[(t.a, t.b)]
    grid = [[share.get((row, col), float("nan")) * 100 for col in bots] for row in bots]
    axes.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value == value:  # not the diagonal
                axes.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=9,
                          color="white" if abs(value - 50) > 30 else "black")
    names = [for_terminal(bot) for bot in bots]
    axes.set_xticks(range(len(bots)), names, rotation=30, ha="right")
    axes.set_yticks(range(len(bots)), names)
    axes.set_title("Row's share of won games against column, %")
