"""Transactions that take turns: for a check of what is stored followed by a write that
depends on it (a count under a cap, a name not taken yet), which two processes must not
make at the same moment, each reading what the other has not written yet.

PostgreSQL takes an advisory lock on each key, held until the transaction ends, so only the
transactions of a same key wait for each other (a transaction of several keys takes them in
one order, so two of them never wait for each other's). SQLite has one writer at a time: the
transaction takes the write lock before it reads (``BEGIN IMMEDIATE``; Python's sqlite3
would begin only at the first write, after the check).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, text

__all__ = ["in_turn", "lock_key"]


def lock_key(key: str) -> int:
    """The advisory lock number of ``key``: 64 bits of its hash, signed as PostgreSQL's
    ``bigint`` is (two keys sharing one only wait for each other without need)."""
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@contextmanager
def in_turn(engine: Engine, key: str, *more: str) -> Iterator[Connection]:
    """A transaction on ``engine`` (committed at the end, undone on an error) that waits
    for every other transaction of ``key`` (and of each key of ``more``) to end before it
    reads anything."""
    with engine.begin() as db:
        if db.dialect.name == "postgresql":
            for number in sorted({lock_key(one) for one in (key, *more)}):
                db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": number})
        elif db.dialect.name == "sqlite":
            db.exec_driver_sql("BEGIN IMMEDIATE")
        yield db
