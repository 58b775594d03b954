"""The store seen from the event loop: its calls run on one thread, and writes that arrive
together share one commit (a group commit)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from sosgame.web.store import Change, Store

__all__ = ["Database", "StaleWriteError"]

_T = TypeVar("_T")


class StaleWriteError(Exception):
    """The change was made for a version of the game that is no longer the latest: another
    change (from another server process) came first, and nothing was written."""


class Database:
    """Asynchronous access to a :class:`Store`."""

    def __init__(self, store: Store, on_finished: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.on_finished = on_finished
        """Called with a game's id when a change this process committed finished it."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sosgame-db")
        self._pending: list[tuple[Change, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def run(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a store call on the one database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, partial(function, *args, **kwargs))

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


def _settle(done: asyncio.Future[None], refused: set[str]) -> None:
    if refused:
        done.set_exception(StaleWriteError(f"game {next(iter(refused))} changed meanwhile"))
    else:
        done.set_result(None)
