"""The transposition table of the search: a fixed block of memory, never more than asked for.

A position's key (never 0, which marks a free slot) lives at its home slot ``key % size`` or
the slot after it: the home slot keeps the deeper of the entries that meet there, the next one
takes the newest. A slot holds four numbers: the value, its kind (:data:`EXACT`, or a
:data:`LOWER` or :data:`UPPER` bound), the best move and the depth. The solver's values, moves
and depths fit a byte each; the player's evaluation needs wider ones (``typecode``).

:class:`SharedTable` is the solver's table for several threads at once: each slot is one
64-bit word (:func:`probe_word`, :func:`store_word`), read and written whole, so a thread can
never see half of another's write. A word holds the entry and the key's quotient by the table
size; with the slot, that names the position exactly.
"""

from __future__ import annotations

import os
from typing import Final

from sosgame.errors import InvalidSettingsError
from sosgame.kernel import JIT, IntArray, jit_inline, new_array
from sosgame.limits import SOLVER_MEMORY_MB, SOLVER_PLAIN_MEMORY_MB

__all__ = [
    "BYTES_PER_ENTRY",
    "BYTES_PER_WORD",
    "DEFAULT_MEMORY_MB",
    "DEPTH",
    "EXACT",
    "KIND",
    "LOWER",
    "MOVE",
    "UPPER",
    "VALUE",
    "SharedTable",
    "TranspositionTable",
    "available_mb",
    "probe",
    "probe_word",
    "store",
    "store_word",
    "word_kind",
    "word_move",
    "word_value",
]

DEFAULT_MEMORY_MB: Final = SOLVER_MEMORY_MB if JIT else SOLVER_PLAIN_MEMORY_MB
"""The solver's default table size in MiB (smaller without numba, which could not fill it)."""
BYTES_PER_ENTRY: Final = 12
"""A 64-bit key and four bytes (value, kind, move, depth), for the default ``typecode``."""
_ITEM_BYTES: Final = {"b": 1, "i": 4}
_SHARE_OF_FREE: Final = 0.75
# Kinds of entry (0 is a free slot), and the fields of a slot's data.
EXACT, LOWER, UPPER = 1, 2, 3
VALUE, KIND, MOVE, DEPTH = 0, 1, 2, 3
BYTES_PER_WORD: Final = 8
"""A :class:`SharedTable` slot: the whole entry in one 64-bit word."""
# A word's fields, from bit 0: kind (2 bits, 0 a free slot), value + 128 (8), move + 1 (7),
# depth (6), whether it sits one slot past its home (1), the key's quotient (the rest).
_VALUE_SHIFT: Final = 2
_MOVE_SHIFT: Final = 10
_DEPTH_SHIFT: Final = 17
_PAST_HOME: Final = 1 << 23
_QUOTIENT_SHIFT: Final = 24
QUOTIENT_BITS: Final = 63 - _QUOTIENT_SHIFT


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


@jit_inline
def probe_word(words: IntArray, key: int) -> int:
    """The word holding ``key``'s entry in a :class:`SharedTable`, or 0."""
    home = key % (len(words) - 1)
    quotient = key // (len(words) - 1)
    # One read of each word: what is tested is what is returned.
    word = words[home]
    if word & 3 and word >> _QUOTIENT_SHIFT == quotient and not word & _PAST_HOME:
        return word
    word = words[home + 1]
    if word & 3 and word >> _QUOTIENT_SHIFT == quotient and word & _PAST_HOME:
        return word
    return 0


@jit_inline
def word_value(word: int) -> int:
    """The value in a word from :func:`probe_word`."""
    return ((word >> _VALUE_SHIFT) & 255) - 128


@jit_inline
def word_kind(word: int) -> int:
    """The kind of entry in a word (:data:`EXACT`, :data:`LOWER`, :data:`UPPER`)."""
    return word & 3


@jit_inline
def word_move(word: int) -> int:
    """The best move in a word, or -1."""
    return ((word >> _MOVE_SHIFT) & 127) - 1


@jit_inline
def store_word(words: IntArray, key: int, depth: int, value: int, kind: int, move: int) -> None:
    """Record a position's result in a :class:`SharedTable`, as :func:`store` does."""
    home = key % (len(words) - 1)
    quotient = key // (len(words) - 1)
    word = (
        (quotient << _QUOTIENT_SHIFT)
        | (depth << _DEPTH_SHIFT)
        | ((move + 1) << _MOVE_SHIFT)
        | ((value + 128) << _VALUE_SHIFT)
        | kind
    )
    first = words[home]
    if first >> _QUOTIENT_SHIFT == quotient and not first & _PAST_HOME:
        words[home] = word
        return
    second = words[home + 1]
    if second >> _QUOTIENT_SHIFT == quotient and second & _PAST_HOME:
        words[home + 1] = word | _PAST_HOME
        return
    if depth >= (first >> _DEPTH_SHIFT) & 63:
        # The home slot keeps the deeper entry; one that belongs here moves to the next slot
        # (one that overflowed from the slot before is dropped: it could not be found there).
        if first & 3 and not first & _PAST_HOME:
            words[home + 1] = first | _PAST_HOME
        words[home] = word
    else:
        words[home + 1] = word | _PAST_HOME


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
        self._check(memory_mb)
        self.memory_mb = memory_mb
        self.typecode = typecode
        # Slots come in pairs (a key may sit at its home slot or the next one).
        entry = 8 + 4 * _ITEM_BYTES[typecode]
        self.size = max(2, memory_mb * (1 << 20) // entry - 1)
        self.keys: IntArray = new_array(self.size + 1, "q")
        self.data: IntArray = new_array(4 * (self.size + 1), typecode)
        self.owner: tuple[object, ...] | None = None
        self.used = False

    @staticmethod
    def _check(memory_mb: int) -> None:
        if not isinstance(memory_mb, int) or isinstance(memory_mb, bool) or memory_mb < 1:
            raise InvalidSettingsError(
                f"memory must be a whole number of MiB, at least 1, not {memory_mb!r}",
                code="memory",
                values={"value": memory_mb},
            )
        free = available_mb()
        if free is not None and memory_mb > free * _SHARE_OF_FREE:
            raise InvalidSettingsError(
                f"memory {memory_mb} MiB is more than this machine can spare: it has {free} MiB"
                f" free, so ask for at most {int(free * _SHARE_OF_FREE)} MiB",
                code="memory_spare",
                values={"value": memory_mb, "free": free, "most": int(free * _SHARE_OF_FREE)},
            )

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

    def prefault(self) -> TranspositionTable:
        """Write every page of the table now (and return it), before any clock runs.

        Fresh zeroed memory is mapped page by page as it is first written, a few microseconds a
        page: left to a search, that is a tenth of a second of a small budget.
        """
        for array in (self.keys, self.data):
            fill = getattr(array, "fill", None)  # numpy arrays; the plain ones are written already
            if fill is not None:
                fill(0)
        return self


class SharedTable:
    """The solver's transposition table for threads searching at once, in ``memory_mb`` MiB.

    It holds positions whose keys are below ``2**QUOTIENT_BITS`` times its size
    (:meth:`holds`).

    :raises InvalidSettingsError: as :class:`TranspositionTable`.
    """

    def __init__(self, memory_mb: int = DEFAULT_MEMORY_MB) -> None:
        # The same checks of the size as the single-threaded table.
        TranspositionTable._check(memory_mb)
        self.memory_mb = memory_mb
        self.size = max(2, memory_mb * (1 << 20) // BYTES_PER_WORD - 1)
        self.words: IntArray = new_array(self.size + 1, "q")

    def holds(self, largest_key: int) -> bool:
        """Whether keys up to ``largest_key`` fit the words of this table."""
        return largest_key // self.size < 1 << QUOTIENT_BITS
