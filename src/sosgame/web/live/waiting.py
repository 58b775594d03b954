"""Waiting for the next item of a queue, for at most a while, without losing a cancellation.

Python 3.11's ``asyncio.wait_for`` returns the item when the task is cancelled at the moment
the item arrives, and the cancellation is lost: a stream cancelled because its client left
would go on following its game. ``asyncio.timeout`` has no such race, so the project waits
with it (``ruff`` bans ``asyncio.wait_for`` in ``src/``).
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

__all__ = ["next_within"]

T = TypeVar("T")


async def next_within(queue: asyncio.Queue[T], seconds: float) -> T | None:
    """The queue's next item, or None if none comes within ``seconds``."""
    try:
        async with asyncio.timeout(max(0.0, seconds)):
            return await queue.get()
    except TimeoutError:
        return None
