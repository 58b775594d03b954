"""The store seen from the event loop: its calls run on one thread, and writes that arrive
together share one commit (a group commit)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import Any, Final, TypeVar

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from sosgame.web.storage.rows import Change
from sosgame.web.storage.store import Store

__all__ = ["MAX_BACKOFF_SECONDS", "Database", "StaleWriteError", "StorageUnavailableError"]

_T = TypeVar("_T")
_log = logging.getLogger(__name__)

MAX_BACKOFF_SECONDS: Final = 15.0
"""The longest a background loop waits between tries while the database is unreachable."""


class StaleWriteError(Exception):
    """The change was made for a version of the game that is no longer the latest: another
    change (from another server process) came first, and nothing was written."""


class StorageUnavailableError(Exception):
    """The database cannot be reached now (HTTP answers 503 ``storage_unavailable``)."""


class Database:
    """Asynchronous access to a :class:`Store`."""

    def __init__(
        self,
        store: Store,
        on_finished: Callable[[str], None] | None = None,
        on_unheld: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.on_finished = on_finished
        """Called with a game's id when a change this process committed finished it."""
        self.on_unheld = on_unheld
        """Called when a change this process committed left a computer move nobody holds."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sosgame-db")
        # Store calls that are not the games' changes (whole games loaded into memory, login
        # attempts counted, sessions started and looked up) on a thread of their own, so a crowd
        # of them never delays the moves' commits; an in-memory SQLite database is one connection's
        # alone, so it is used on the one thread.
        url = make_url(store.url)
        shared = url.get_backend_name() != "sqlite" or url.database not in (None, "", ":memory:")
        self._aside = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="sosgame-db-aside")
            if shared
            else self._thread
        )
        self._pending: list[tuple[Change, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._server = make_url(store.url).get_backend_name() != "sqlite"
        self.down_since: float | None = None
        """When calls began to fail for want of the database (``None`` while it answers)."""
        self._failures = 0

    async def run(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a store call on the one database thread.

        A call that fails because the database cannot be reached raises
        :class:`StorageUnavailableError`; the outage is logged once, in one line, and its
        end too.
        """
        return await self._call(self._thread, partial(function, *args, **kwargs))

    async def aside(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a store call that changes no game (a whole game read, a login attempt
        counted) on the side thread, beside the games' changes (as :meth:`run` does
        otherwise)."""
        return await self._call(self._aside, partial(function, *args, **kwargs))

    async def _call(self, thread: Executor, call: Callable[[], _T]) -> _T:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(thread, call)
        except Exception as error:
            if not self._unreachable(error):
                raise
            self._failures += 1
            if self.down_since is None:
                self.down_since = time.monotonic()
                _log.warning("the database is unreachable: %s", _first_line(error))
            raise StorageUnavailableError("the database cannot be reached now") from None
        if self.down_since is not None:
            _log.warning(
                "the database answers again (after %.1f s)", time.monotonic() - self.down_since
            )
            self.down_since = None
            self._failures = 0
        return result

    @property
    def available(self) -> bool:
        """Whether the last call reached the database."""
        return self.down_since is None

    def backoff(self, period: float) -> float:
        """How long a background loop that runs every ``period`` seconds waits before its
        next try: ``period`` while the database answers, then twice as long after every
        failure, up to :data:`MAX_BACKOFF_SECONDS`."""
        if self.down_since is None:
            return period
        return min(MAX_BACKOFF_SECONDS, period * 2.0 ** min(self._failures, 16))

    def _unreachable(self, error: Exception) -> bool:
        if isinstance(error, PoolTimeoutError):
            return True
        if isinstance(error, DBAPIError) and error.connection_invalidated:
            return True
        # A database server's operational errors are about reaching it (SQLite's, about
        # the file and the statements, are the program's).
        return self._server and isinstance(error, OperationalError | InterfaceError)

    async def write(self, change: Change) -> None:
        """Commit one change; returns once it is in the database.

        Changes that arrive while a commit is under way wait for the next one and share it,
        so a busy server commits far less often than it moves.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((change, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        await done
        if change.status == "finished" and self.on_finished is not None:
            self.on_finished(change.game_id)
        if change.job is not None and change.job.holder is None and self.on_unheld is not None:
            self.on_unheld()

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                refused = await self.run(self.store.write, [change for change, _ in batch])
            except Exception:
                # One bad change must not sink the others: retry them one by one.
                for change, done in batch:
                    try:
                        _settle(done, await self.run(self.store.write, [change]))
                    except Exception as error:
                        done.set_exception(error)
            else:
                for change, done in batch:
                    _settle(done, refused if change.game_id in refused else set())

    async def close(self) -> None:
        """Finish pending writes and stop the thread."""
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        self._thread.shutdown(wait=True)
        self._aside.shutdown(wait=True)


def _settle(done: asyncio.Future[None], refused: set[str]) -> None:
    if refused:
        done.set_exception(StaleWriteError(f"game {next(iter(refused))} changed meanwhile"))
    else:
        done.set_result(None)


def _first_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
