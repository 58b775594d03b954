"""Settings for the whole suite: nothing may depend on how fast this machine is today."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# The interfaces speak the locale's language: the suite runs in English whatever the machine's
# locale is, and the tests that check other languages say so themselves.
for _variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"

# Hypothesis times each example (200 ms by default) and flags slow data generation: both
# fail on a machine busy with other work, so neither is checked. Speed lives in benchmarks.
settings.register_profile("sosgame", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("sosgame")


def pytest_sessionstart(session: object) -> None:
    """Compile the kernels once, before any test, into the disk cache.

    The servers and worker processes that tests start then load them instead of each
    compiling its own (about a minute of CPU) under a test's timeouts, which on a busy
    machine ran out.
    """
    from sosgame.ai.alphabeta import warm_up as search_warm_up
    from sosgame.solver import warm_up as solver_warm_up

    search_warm_up()  # the move kernels too
    solver_warm_up()
