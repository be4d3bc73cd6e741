"""The bounds every bench loop stops at, so that no script waits for ever (issue 39: a
seat that waited for a move that never came hung a run for 12 minutes).

* :data:`MOVES_PER_GAME`: the most moves (or environment steps) one game may take in a bench
  loop; the rule sets' own turn limits end every game long before it, so reaching it means a
  fault, and the loop stops with an error naming the cap.
* :data:`CHILD_SECONDS`: the most wall seconds a child process (a peer engine, a command
  timed, a fresh interpreter) may run before it is stopped and the bench fails naming it.
* :data:`SEARCH_GAMES`: the most games a search for positions plays.
"""

from __future__ import annotations

import subprocess
from typing import Any

MOVES_PER_GAME = 100_000
CHILD_SECONDS = 1_800.0
SEARCH_GAMES = 10_000


def run_child(args: list[str], timeout: float = CHILD_SECONDS,
              **options: Any) -> subprocess.CompletedProcess[Any]:
    """:func:`subprocess.run` with a deadline: a child still running after ``timeout`` wall
    seconds is killed and the bench stops with ``SystemExit`` naming the command."""
    try:
        return subprocess.run(args, timeout=timeout, check=False, **options)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"stopped after {timeout:g} s (bench/bounds.py CHILD_SECONDS): "
                         f"{' '.join(args)[:300]}") from None


def over_cap(moves: int, what: str) -> None:
    """Stop when one game has taken more than :data:`MOVES_PER_GAME` moves."""
    if moves > MOVES_PER_GAME:
        raise SystemExit(f"{what}: one game passed the cap of moves, MOVES_PER_GAME = "
                         f"{MOVES_PER_GAME:,} (bench/bounds.py); the turn limit should end it")
