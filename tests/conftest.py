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
