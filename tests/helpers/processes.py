"""Processes a command started, read from /proc (Linux): for tests that stop runs and check
that no worker outlives them."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (children, their children, ...), by /proc."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:  # the process ended meanwhile
                continue
            for child in map(int, children):
                if child not in found:
                    found.append(child)
                    todo.append(child)
    return found


def running(pid: int) -> bool:
    """``pid`` exists and is not a zombie (ended, waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used so far (user and system), 0 once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # utime and stime: fields 14 and 15 of proc(5), the 12th and 13th after the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


STOPPABLE = ("import runpy, signal; "
             "signal.signal(signal.SIGINT, signal.default_int_handler); "
             "runpy.run_module('spitemalice', run_name='__main__', alter_sys=True)")
"""``python -c STOPPABLE ARGS...`` runs ``spitemalice ARGS...`` as ``python -m spitemalice``
does, but answering Ctrl-C even when the tests were started with SIGINT ignored (a shell
starts a background job so, ``nohup`` too, and a child keeps it): the command then begins
as it would at a terminal."""


@contextlib.contextmanager
def ended(run: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """``run`` (started with ``start_new_session=True``), its whole process group killed on
    leaving if it is still running (a failed test leaves no run behind)."""
    try:
        yield run
    finally:
        if run.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
