"""Shared test setup: deterministic hypothesis profiles and rule-book fixtures."""

from __future__ import annotations

import os
import signal

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
