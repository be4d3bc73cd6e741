"""Pictures of a run (``--plot FILE.png|svg``): matplotlib, the optional extra
``spitemalice[plot]``.

:func:`plot_runs` draws, for one configuration (``simulate``) or two side by side
(``compare``), the distribution of game length in moves and the win rate of each seat (and of
the seat that moved first) with 95% Wilson intervals as error bars.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from spitemalice.errors import SpiteMaliceError
from spitemalice.files import NewFile, check_new
from spitemalice.guards import check_int, check_real
from spitemalice.limits import MAX_DPI
from spitemalice.measures.rates import wilson
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.runner import GameRow
from spitemalice.wording import for_terminal

FORMATS = (".png", ".svg")


def plot_runs(path: Path, runs: Sequence[tuple[str, Sequence[GameRow]]], seats: int,
              title: str, *, force: bool = False) -> Any:
    """Draw ``runs`` (label, rows) to ``path`` and return the matplotlib figure.

    Left: histograms of moves per game, one series per run.  Right: win rate per seat and
    for the seat that moved first, one bar series per run, with 95% intervals.  Labels and
    the title are drawn as plain text: a ``$`` in a rule set's name is a dollar sign, never
    matplotlib's mathematics, and characters a terminal would act on are written as escapes
    (:func:`~spitemalice.wording.for_terminal`).  The file is written by the library's
    one rule for files (:mod:`spitemalice.files`).

    Raises:
        SpiteMaliceError: a file name that is not ``.png`` or ``.svg``, matplotlib missing,
            or ``seats`` not a whole number from 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
        OutputError: a file there already (without ``force``), or one that cannot be
            written.
    """
    check_path(path, force=force)
    check_int(seats, "plot_runs' seats", 1, MAX_SEATS,
              constant="spitemalice.rules.ruleset.MAX_SEATS")
    runs = [(for_terminal(label), rows) for label, rows in runs]
    with plain_text() as plt:
        figure, (lengths, rates) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
        try:
            _lengths(lengths, runs)
            _rates(rates, runs, seats)
            figure.suptitle(for_terminal(title, lines=True))  # its lines are ours
        except BaseException:
            plt.close(figure)
            raise
        save(figure, path, force=force)
    return figure


PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}
"""matplotlib settings under which every text is drawn as it is written."""


def check_path(path: Path, *, force: bool = False) -> None:
    """Refuse, before any game is played, everything that could stop a plot at the end: a
    picture name that is not ``.png``/``.svg``, a file there already (without ``force``) or
    a folder that is missing or read-only, matplotlib missing.

    Raises:
        SpiteMaliceError: naming the file and what would be right.
        OutputError: as :func:`spitemalice.files.check_new`.
    """
    if path.suffix.lower() not in FORMATS:
        raise SpiteMaliceError(f"--plot {for_terminal(str(path))}: name a .png or .svg file")
    check_new(path, force=force, what="--plot")
    _pyplot()  # before any game is played, not after the whole run


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only.

    Raises:
        SpiteMaliceError: matplotlib is not installed (the ``plot`` extra).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never open a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise SpiteMaliceError("--plot needs matplotlib: pip install 'spitemalice[plot]'"
                               ) from None
    return plt


def _lengths(axes: Any, runs: Sequence[tuple[str, Sequence[GameRow]]]) -> None:
    values = [[row.moves for row in rows] for _, rows in runs]
    everything = [v for vs in values for v in vs] or [0]
    bins = min(40, max(5, len(set(everything))))
    for (label, _), moves in zip(runs, values, strict=True):
        axes.hist(moves, bins=bins, range=(min(everything), max(everything) + 1),
                  histtype="step", linewidth=1.8,
                  label=f"{label} (mean {sum(moves) / max(1, len(moves)):.0f})")
    axes.set_xlabel("moves per game")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    axes.legend(loc="upper right", fontsize="small")


def _rates(axes: Any, runs: Sequence[tuple[str, Sequence[GameRow]]], seats: int) -> None:
    groups = [f"seat {s}" for s in range(seats)] + ["moved first"]
    width = 0.8 / len(runs)
    for index, (label, rows) in enumerate(runs):
        intervals = [wilson(sum(r.winner == s for r in rows), len(rows)) for s in range(seats)]
        intervals.append(wilson(sum(r.winner is not None and r.winner == r.first_seat
                                    for r in rows), len(rows)))
        xs = [g + (index - (len(runs) - 1) / 2) * width for g in range(len(groups))]
        heights = [i.estimate for i in intervals]
        errors = [[i.estimate - i.low for i in intervals], [i.high - i.estimate for i in intervals]]
        axes.bar(xs, heights, width, yerr=errors, capsize=4, label=label)
    axes.axhline(1 / seats, color="grey", linestyle="--", linewidth=1, label="fair share")
    axes.set_xticks(range(len(groups)), groups)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% interval)")
    axes.set_title("Wins per seat")
    axes.legend()


def save(figure: Any, path: Path, dpi: int = 110, *, force: bool = False) -> None:
    """Write ``figure`` to ``path`` by the library's one rule for files (a temporary beside
    it, then its name; never through a link, never over a file without ``force``) and close
    the figure, written or not.

    Raises:
        OutputError: a file there already (without ``force``), or one that cannot be written.
        SpiteMaliceError: ``dpi`` not a whole number from 1 to
            :data:`~spitemalice.limits.MAX_DPI` (the figure is closed all the same).
    """
    plt = _pyplot()
    if not (isinstance(dpi, int) and 1 <= dpi <= MAX_DPI):
        plt.close(figure)
        check_int(dpi, "save's dpi", 1, MAX_DPI, constant="spitemalice.limits.MAX_DPI")
    try:
        with plt.rc_context(PLAIN_TEXT), \
                NewFile(path, force=force, what="--plot", binary=True) as file:
            figure.savefig(file.file, dpi=dpi, format=path.suffix.lower()[1:])
    finally:
        plt.close(figure)


@contextmanager
def plain_text() -> Iterator[Any]:
    """pyplot, under settings that draw every text as written (:data:`PLAIN_TEXT`): make a
    figure's texts inside this block.

    Raises:
        SpiteMaliceError: matplotlib is not installed.
    """
    plt = _pyplot()
    with plt.rc_context(PLAIN_TEXT):
        yield plt


def interval_bars(axes: Any, labels: Sequence[str], intervals: Sequence[Any],
                  reference: float | None = None, percent: bool = True) -> None:
    """Horizontal point-and-interval marks, one row per label, top to bottom (a forest
    plot); ``reference`` draws a dashed line (a fair share, a zero change).  Each interval
    has ``estimate``, ``low``, ``high`` and ``n``; one of no games (``n`` 0) measured
    nothing and leaves its row empty.

    Raises:
        SpiteMaliceError: ``reference`` a number past :data:`~spitemalice.limits.MAX_REAL`
            in size.
    """
    if reference is not None:
        reference = check_real(reference, "interval_bars' reference")
    scale = 100 if percent else 1
    rows = list(range(len(labels)))[::-1]
    # An interval of no games (n 0) measured nothing: its row stays empty, never a mark at 0.
    nan = float("nan")
    estimates = [i.estimate * scale if i.n else nan for i in intervals]
    errors = [[(i.estimate - i.low) * scale if i.n else nan for i in intervals],
              [(i.high - i.estimate) * scale if i.n else nan for i in intervals]]
    axes.errorbar(estimates, rows, xerr=errors, fmt="o", capsize=3, markersize=4)
    if reference is not None:
        axes.axvline(reference * scale, color="grey", linestyle="--", linewidth=1)
    axes.set_yticks(rows, [for_terminal(label) for label in labels])
    axes.grid(axis="x", alpha=0.3)
