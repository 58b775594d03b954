"""A queue served round robin by owner (a client address), so that one client's many
requests cannot push everyone else's back: new sessions waiting to be admitted, and computer
moves waiting for a worker."""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["FairQueue"]

_T = TypeVar("_T")


class FairQueue(Generic[_T]):
    """Items queued per owner; :meth:`pop` takes the first item of the owner whose turn it
    is, and sends that owner to the back. Items ``live`` calls dead (given up while they
    waited) are skipped."""

    def __init__(self, live: Callable[[_T], bool]) -> None:
        self._live = live
        self._owners: OrderedDict[Hashable, deque[_T]] = OrderedDict()
        self._count = 0

    def __len__(self) -> int:
        """Items queued (dead ones too, until they are reached)."""
        return self._count

    def push(self, owner: Hashable, item: _T) -> None:
        """Queue ``item`` behind ``owner``'s others."""
        self._owners.setdefault(owner, deque()).append(item)
        self._count += 1

    def pop(self) -> _T | None:
        """The next live item, in turn by owner; ``None`` if none is left."""
        while self._owners:
            owner, items = next(iter(self._owners.items()))
            item = items.popleft()
            self._count -= 1
            if items:
                self._owners.move_to_end(owner)
            else:
                del self._owners[owner]
            if self._live(item):
                return item
        return None

    def drop_newest(self, owner: Hashable) -> _T | None:
        """Take ``owner``'s last queued item out of the queue; ``None`` if it has none."""
        items = self._owners.get(owner)
        if not items:
            return None
        item = items.pop()
        self._count -= 1
        if not items:
            del self._owners[owner]
        return item

    def remove(self, owner: Hashable, item: _T) -> None:
        """Take ``item`` out of the queue, if it is there."""
        items = self._owners.get(owner)
        if items is not None and item in items:
            items.remove(item)
            self._count -= 1
            if not items:
                del self._owners[owner]

    def clear(self) -> list[_T]:
        """Empty the queue; the items it held."""
        items = [item for queued in self._owners.values() for item in queued]
        self._owners.clear()
        self._count = 0
        return items
