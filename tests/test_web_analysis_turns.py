"""The analysis queue takes turns by address: a few addresses asking again and again never
keep another out, a newcomer goes before those already served, and an address that asks for
another analysis while its own still waits has it replaced."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("sosgame.ai")

from sosgame.snapshot import Snapshot
from sosgame.web.computer.analysis import Analyses
from sosgame.web.live.protocol import ProtocolError


class _Workers:
    """Stands in for the worker processes: each analysis runs until the test ends it."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self._ends: dict[str, asyncio.Event] = {}

    async def run(self, snapshot: Snapshot, job: Any) -> dict[str, Any]:
        name = snapshot.actions[0]
        self.started.append(name)
        await self._ends.setdefault(name, asyncio.Event()).wait()
        return {"moves": list(snapshot.actions)}

    def end(self, name: str) -> None:
        self._ends.setdefault(name, asyncio.Event()).set()


def _game(name: str) -> Snapshot:
    """A game told apart by its first action (``name``, a move such as ``Sa1``)."""
    return Snapshot(3, 3, 2, "general", None, (name,))


def _analyses(workers: _Workers, **options: Any) -> Analyses:
    analyses = Analyses(max_running=1, **options)
    analyses._in_worker = workers.run  # type: ignore[method-assign]
    return analyses


def _ask(analyses: Analyses, client: str, name: str) -> dict[str, Any]:
    return analyses.request(name, _game(name), version=1, client=client)


async def _until(check: Any) -> None:
    """Let the event loop run until ``check()`` holds (an event, with a deadline)."""
    for _ in range(3000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


MOVES = [f"S{column}{row}" for column in "abc" for row in "123"]


def test_addresses_asking_again_and_again_never_keep_a_newcomer_out() -> None:
    async def scenario() -> None:
        workers = _Workers()
        analyses = _analyses(workers, queue=len(MOVES) - 1)
        # Nine addresses fill the queue: one analysis runs, eight wait.
        for number, move in enumerate(MOVES):
            assert _ask(analyses, f"10.0.0.{number}", move)["status"] in ("queued", "running")
        await _until(lambda: workers.started == [MOVES[0]])
        # The first is done, and its address asks for another at once.
        workers.end(MOVES[0])
        await _until(lambda: len(workers.started) == 2)
        assert _ask(analyses, "10.0.0.0", "Oa1")["status"] == "queued"
        # A newcomer is not refused: it takes the place of the address already served.
        assert _ask(analyses, "192.0.2.1", "Ob2")["status"] == "queued"
        # Nobody waits who was served before them: the queue is full for the served address
        # asking again and for another newcomer alike.
        for client, move in (("10.0.0.0", "Oa1"), ("192.0.2.2", "Oc3")):
            with pytest.raises(ProtocolError) as full:
                _ask(analyses, client, move)
            assert full.value.code == "analysis_queue_full"
        await analyses.close()

    asyncio.run(scenario())


def test_a_newcomer_goes_before_an_address_already_served() -> None:
    async def scenario() -> None:
        workers = _Workers()
        analyses = _analyses(workers)
        _ask(analyses, "10.0.0.1", "Sa1")
        _ask(analyses, "10.0.0.2", "Sb1")
        await _until(lambda: workers.started == ["Sa1"])
        workers.end("Sa1")
        await _until(lambda: workers.started == ["Sa1", "Sb1"])
        _ask(analyses, "10.0.0.1", "Sc1")  # served once already
        _ask(analyses, "192.0.2.1", "Sa2")  # never served
        workers.end("Sb1")
        await _until(lambda: len(workers.started) == 3)
        assert workers.started[-1] == "Sa2"
        await analyses.close()

    asyncio.run(scenario())


def test_asking_for_another_analysis_replaces_ones_own_that_still_waits() -> None:
    async def scenario() -> None:
        workers = _Workers()
        analyses = _analyses(workers)
        _ask(analyses, "10.0.0.1", "Sa1")
        await _until(lambda: workers.started == ["Sa1"])
        assert _ask(analyses, "10.0.0.2", "Sb1")["status"] == "queued"
        assert _ask(analyses, "10.0.0.2", "Sc1")["status"] == "queued"  # instead of Sb1
        with pytest.raises(ProtocolError) as busy:
            _ask(analyses, "10.0.0.1", "Sa2")  # its own runs already
        assert busy.value.code == "analysis_busy"
        workers.end("Sa1")
        workers.end("Sc1")
        await _until(lambda: _ask(analyses, "10.0.0.2", "Sc1")["status"] == "done")
        assert workers.started == ["Sa1", "Sc1"]
        await analyses.close()

    asyncio.run(scenario())
