"""The solver's transposition table, which lives in :mod:`sosgame.search.table` now."""

from __future__ import annotations

from sosgame.search.table import (
    BYTES_PER_ENTRY,
    DEFAULT_MEMORY_MB,
    TranspositionTable,
    available_mb,
)

__all__ = ["BYTES_PER_ENTRY", "DEFAULT_MEMORY_MB", "TranspositionTable", "available_mb"]
