"""Settings for the whole suite: nothing may depend on how fast this machine is today."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Hypothesis times each example (200 ms by default) and flags slow data generation: both
# fail on a machine busy with other work, so neither is checked. Speed lives in benchmarks.
settings.register_profile("sosgame", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("sosgame")
