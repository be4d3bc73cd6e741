"""Shared test setup: deterministic hypothesis profiles and rule-book fixtures."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from hypothesis import HealthCheck, settings

import spitemalice as sm

# A suite started from a background job or under nohup inherits SIGINT ignored, and so would
# every process it starts (pexpect's terminal game, the stop tests' commands). The stop tests
# mean Ctrl-C as at a terminal, so the suite (each xdist worker loads this file) puts
# Python's own handler back; a child started from it then begins with SIGINT at its default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# CI runs derandomised so a run is repeatable; locally examples vary between runs.
settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=40, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev", deadline=None, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def bf() -> sm.RuleBook:
    """Blackwood/Frey for two players."""
    return sm.load("blackwood-frey")


@pytest.fixture(params=["forkserver", "spawn"])
def start_method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each way worker processes start (never fork; issue 20), set through
    SPITEMALICE_START_METHOD for the test; skipped where the platform lacks it."""
    import multiprocessing

    from spitemalice.runs.workers import START_METHOD

    if request.param not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this platform cannot start processes by {request.param}")
    monkeypatch.setenv(START_METHOD, request.param)
    return str(request.param)


# ---- a closed capture file is put back, and the test it happened in is named ----
# Three full runs (one of them a CI run) ended with every later test of one xdist worker
# failing with "I/O operation on closed file": something closed the file pytest captures
# that worker's stderr into (sys.stderr during a test), and pytest could not resume capturing
# after it.  What closed it is not found (cli.main no longer closes a caller's stderr; no code
# of the library or the suite closes sys.stderr otherwise).  So that one such event costs
# one warning instead of a worker's remaining tests, the global capture's files are checked
# after each test's phases; a closed one is replaced by a fresh file, and a warning names the
# test during which it was found closed.


def _reopen_closed_capture(config: pytest.Config) -> list[str]:
    """Replace each closed file of pytest's global capture (stdout, stderr) by a fresh one;
    the names of the streams replaced.  Reads pytest's capture manager (pytest 8 and 9);
    a layout it does not know is left alone."""
    from tempfile import TemporaryFile

    from _pytest.capture import EncodedFile, SysCapture

    manager = config.pluginmanager.getplugin("capturemanager")
    capturing = getattr(manager, "_global_capturing", None)
    replaced = []
    for name in ("out", "err"):
        capture = getattr(capturing, name, None)
        old = getattr(capture, "tmpfile", None)
        if old is None or not old.closed:
            continue
        fresh = EncodedFile(TemporaryFile(buffering=0),  # noqa: SIM115 - pytest closes it
                            encoding="utf-8", errors="replace",
                            newline="", write_through=True)
        capture.tmpfile = fresh  # type: ignore[union-attr]
        if isinstance(capture.syscapture, SysCapture):  # type: ignore[union-attr]
            capture.syscapture.tmpfile = fresh  # type: ignore[union-attr]
        stream = "stdout" if name == "out" else "stderr"
        if getattr(sys, stream) is old:
            setattr(sys, stream, fresh)
        if getattr(capture, "_state", "") == "started":
            os.dup2(fresh.fileno(), capture.targetfd)  # type: ignore[union-attr]
        replaced.append(stream)
    return replaced


def _check_capture(item: pytest.Item, phase: str) -> None:
    replaced = _reopen_closed_capture(item.config)
    if replaced:
        item.warn(pytest.PytestWarning(
            f"pytest's capture file for {' and '.join(replaced)} was found closed after the "
            f"{phase} of this test (something closed sys.stderr or sys.stdout); put back"))


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> object:
    _check_capture(item, "tests before")
    return (yield)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    try:
        return (yield)
    finally:
        _check_capture(item, "call")


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    try:
        return (yield)
    finally:
        _check_capture(item, "teardown")
