"""The solver's transposition table: a fixed block of memory, never more than asked for."""

from __future__ import annotations

import os
from typing import Final

from sosgame.errors import InvalidSettingsError
from sosgame.kernel import JIT, IntArray, new_array

__all__ = ["BYTES_PER_ENTRY", "DEFAULT_MEMORY_MB", "TranspositionTable", "available_mb"]

DEFAULT_MEMORY_MB: Final = 512 if JIT else 64
"""The table's default size in MiB (smaller without numba, which could not fill it)."""
BYTES_PER_ENTRY: Final = 12  # a 64-bit key and four bytes: value, bound kind, move, depth
_SHARE_OF_FREE: Final = 0.75


def available_mb() -> int | None:
    """The memory the system has free, in MiB, if it can tell."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (OSError, ValueError, AttributeError):
        return None


class TranspositionTable:
    """Positions already solved (exactly or as a bound), in ``memory_mb`` MiB.

    Reuse one table across :func:`sosgame.solver.solve` calls on the same board size and mode
    (as a player does move after move) and later solves find earlier work.

    :raises InvalidSettingsError: for a size below 1 MiB or above 3/4 of the free memory.
    """

    def __init__(self, memory_mb: int = DEFAULT_MEMORY_MB) -> None:
        if not isinstance(memory_mb, int) or isinstance(memory_mb, bool) or memory_mb < 1:
            raise InvalidSettingsError(
                f"memory must be a whole number of MiB, at least 1, not {memory_mb!r}"
            )
        free = available_mb()
        if free is not None and memory_mb > free * _SHARE_OF_FREE:
            raise InvalidSettingsError(
                f"memory {memory_mb} MiB is more than this machine can spare: it has {free} MiB"
                f" free, so ask for at most {int(free * _SHARE_OF_FREE)} MiB"
            )
        self.memory_mb = memory_mb
        # Slots come in pairs (a key may sit at its home slot or the next one).
        self.size = max(2, memory_mb * (1 << 20) // BYTES_PER_ENTRY - 1)
        self.keys: IntArray = new_array(self.size + 1, "q")
        self.data: IntArray = new_array(4 * (self.size + 1), "b")
        self.owner: tuple[object, ...] | None = None
        self.used = False

    def claim(self, owner: tuple[object, ...]) -> None:
        """Make the table hold entries for ``owner`` (board size, mode, keying) only."""
        if owner != self.owner:
            if self.used:
                self.clear()
            self.owner = owner
        self.used = True

    def clear(self) -> None:
        """Forget every entry."""
        # Drop the old arrays first, so memory never holds two tables at once.
        self.keys = self.data = new_array(0)
        self.keys = new_array(self.size + 1, "q")
        self.data = new_array(4 * (self.size + 1), "b")
        self.owner = None
        self.used = False
