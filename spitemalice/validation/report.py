"""Validation results: one row per check, and the report as text or JSON-able data."""

from __future__ import annotations

import attrs


@attrs.frozen
class Check:
    """One check's result.

    Attributes:
        name: what was checked, short.
        passed: whether it held.
        figure: the number behind the verdict ("1000 games, 0 violations").
        detail: for a failure, what went wrong; empty otherwise.
    """

    name: str
    passed: bool
    figure: str
    detail: str = ""


@attrs.frozen
class GameStats:
    """A summary of the simulated games."""

    games: int
    mean_moves: float
    drawn_share: float
    first_seat_win_rate: float
    first_seat_ci: tuple[float, float]


@attrs.frozen
class Report:
    """Everything ``spitemalice validate`` found.

    Attributes:
        target: the configuration checked (``"g4a + mandatory-aces, 2 players"``).
        checks: one row per check, static first.
        stats: the simulated games, or ``None`` when none were played.
        reproduction: for a failed dynamic check, the smallest failing game as a dict
            ``{"seed": int, "moves": [text, ...], "problem": str}``; else ``None``.
    """

    target: str
    checks: tuple[Check, ...]
    stats: GameStats | None = None
    reproduction: dict[str, object] | None = None

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def as_dict(self) -> dict[str, object]:
        return attrs.asdict(self) | {"passed": self.passed}


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of ``wins`` out of ``games`` (0..1 each)."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    spread = z * ((rate * (1 - rate) / games + z * z / (4 * games * games)) ** 0.5) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def format_report(report: Report) -> str:
    """The report as a table of checks followed by the game summary and any reproduction."""
    width = max(len(check.name) for check in report.checks)
    lines = [f"validate {report.target}", ""]
    for check in report.checks:
        verdict = "pass" if check.passed else "FAIL"
        lines.append(f"{check.name.ljust(width)}  {verdict}  {check.figure}")
        if check.detail:
            lines.append(f"{'':{width}}        {check.detail}")
    if report.stats is not None:
        s = report.stats
        low, high = s.first_seat_ci
        lines += ["", f"games {s.games}: mean {s.mean_moves:.1f} moves, "
                      f"{s.drawn_share:.1%} without a winner, first seat won "
                      f"{s.first_seat_win_rate:.1%} (95% CI {low:.1%}-{high:.1%})"]
    if report.reproduction is not None:
        moves = " ".join(str(m) for m in report.reproduction["moves"])  # type: ignore[attr-defined]
        lines += ["", f"smallest failing game: seed {report.reproduction['seed']}, "
                      f"moves: {moves or '(none)'}", f"problem: {report.reproduction['problem']}"]
    lines += ["", "all checks passed" if report.passed else "some checks FAILED"]
    return "\n".join(lines)
