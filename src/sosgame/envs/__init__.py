"""Research environments for SOS: PettingZoo, Gymnasium and OpenSpiel (``sosgame[envs]``).

* ``from sosgame.envs import sos_v0``: the PettingZoo AEC environment (``sos_v0.env(...)``,
  unwrapped ``sos_v0.raw_env(...)``).
* ``gymnasium.make("sosgame/SOS-v0", rows=5, cols=5, mode="general", opponent="medium")``: a
  single-agent environment against computer or learned opponents. Importing this package
  registers it; ``gymnasium.make("sosgame.envs:sosgame/SOS-v0", ...)`` imports it for you
  (Gymnasium 1.x has no plugin entry points, so nothing registers it without an import).
* ``import sosgame.envs.openspiel`` registers the OpenSpiel game ``python_sos``.

Each adapter is thin: the rules, scores and turns come from :class:`sosgame.Game`.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"sosgame.envs needs {missing.name}: install the envs extra, pip install 'sosgame[envs]'"
    ) from None

__all__ = ["GYMNASIUM_ID", "register_envs"]

GYMNASIUM_ID = "sosgame/SOS-v0"


def register_envs() -> None:
    """Register ``sosgame/SOS-v0`` with Gymnasium (done on import; safe to call again)."""
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(id=GYMNASIUM_ID, entry_point="sosgame.envs.gym:SOSEnv")


register_envs()
