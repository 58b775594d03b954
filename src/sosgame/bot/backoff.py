"""How long to wait before connecting again: exponential, with jitter, capped."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["Backoff"]


@dataclass
class Backoff:
    """Waits of ``first`` seconds, doubling at each failure up to ``most``, each drawn
    between half and all of that (so that many clients dropped at once by a restarted server
    come back spread out); :meth:`reset` after a success."""

    first: float = 0.25
    most: float = 20.0
    rng: random.Random = field(default_factory=random.Random)
    failures: int = 0

    def next(self) -> float:
        """The wait before the next attempt; counts one more failure."""
        ceiling = min(self.most, self.first * 2**self.failures)
        self.failures += 1
        return self.rng.uniform(ceiling / 2, ceiling)

    def reset(self) -> None:
        """The connection works again: the next failure waits ``first`` again."""
        self.failures = 0
