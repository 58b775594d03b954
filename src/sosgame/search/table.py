"""The transposition table of the search: a fixed block of memory, never more than asked for.

A position's key (never 0, which marks a free slot) lives at its home slot ``key % size`` or
the slot after it: the home slot keeps the deeper of the entries that meet there, the next one
takes the newest. A slot holds four numbers: the value, its kind (:data:`EXACT`, or a
:data:`LOWER` or :data:`UPPER` bound), the best move and the depth. The solver's values, moves
and depths fit a byte each; the player's evaluation needs wider ones (``typecode``).
"""

from __future__ import annotations

import os
from typing import Final

from sosgame.errors import InvalidSettingsError
from sosgame.kernel import JIT, IntArray, jit_inline, new_array

__all__ = [
    "BYTES_PER_ENTRY",
    "DEFAULT_MEMORY_MB",
    "DEPTH",
    "EXACT",
    "KIND",
    "LOWER",
    "MOVE",
    "UPPER",
    "VALUE",
    "TranspositionTable",
    "available_mb",
    "probe",
    "store",
]

DEFAULT_MEMORY_MB: Final = 512 if JIT else 64
"""The solver's default table size in MiB (smaller without numba, which could not fill it)."""
BYTES_PER_ENTRY: Final = 12
"""A 64-bit key and four bytes (value, kind, move, depth), for the default ``typecode``."""
_ITEM_BYTES: Final = {"b": 1, "i": 4}
_SHARE_OF_FREE: Final = 0.75
# Kinds of entry (0 is a free slot), and the fields of a slot's data.
EXACT, LOWER, UPPER = 1, 2, 3
VALUE, KIND, MOVE, DEPTH = 0, 1, 2, 3


@jit_inline
def probe(keys: IntArray, key: int) -> int:
    """The slot holding ``key``, or -1."""
    slot = key % (len(keys) - 1)
    if keys[slot] == key:
        return slot
    if keys[slot + 1] == key:
        return slot + 1
    return -1


@jit_inline
def store(
    keys: IntArray, data: IntArray, key: int, depth: int, value: int, kind: int, move: int
) -> None:
    """Record a position's result, keeping the deeper entry at the home slot."""
    slot = key % (len(keys) - 1)
    if keys[slot] != key:
        if keys[slot + 1] == key:
            slot += 1
        elif depth >= data[4 * slot + DEPTH]:
            keys[slot + 1] = keys[slot]
            for field in range(4):
                data[4 * slot + 4 + field] = data[4 * slot + field]
        else:
            slot += 1
    keys[slot] = key
    data[4 * slot + VALUE] = value
    data[4 * slot + KIND] = kind
    data[4 * slot + MOVE] = move
    data[4 * slot + DEPTH] = depth


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
    """Positions already searched (exactly or as a bound), in ``memory_mb`` MiB.

    Reuse one table across :func:`sosgame.solver.solve` calls on the same board size and mode
    (as a player does move after move) and later solves find earlier work. ``typecode`` is
    the width of the data: "b" (a byte, the solver's) or "i" (32 bits, the player's).

    :raises InvalidSettingsError: for a size below 1 MiB or above 3/4 of the free memory.
    """

    def __init__(self, memory_mb: int = DEFAULT_MEMORY_MB, *, typecode: str = "b") -> None:
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
        self.typecode = typecode
        # Slots come in pairs (a key may sit at its home slot or the next one).
        entry = 8 + 4 * _ITEM_BYTES[typecode]
        self.size = max(2, memory_mb * (1 << 20) // entry - 1)
        self.keys: IntArray = new_array(self.size + 1, "q")
        self.data: IntArray = new_array(4 * (self.size + 1), typecode)
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
        self.data = new_array(4 * (self.size + 1), self.typecode)
        self.owner = None
        self.used = False
