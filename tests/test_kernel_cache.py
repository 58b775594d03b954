"""No one waits for the compiler: a process with an incomplete kernel cache runs plain Python,
one build runs in the background, and the processes after it (and a server's new workers)
run the compiled kernels."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sosgame import kernel_cache
from sosgame.kernel_cache import CachePlan, choose_mode, ready_mark


def test_the_mode_follows_numba_the_choice_and_the_cache(tmp_path: Path) -> None:
    cache = CachePlan(True, str(tmp_path))
    assert choose_mode(False, cache, {}) == "plain"  # no numba, or disabled
    assert choose_mode(False, cache, {"SOSGAME_KERNELS": "compiled"}) == "plain"
    assert choose_mode(True, cache, {}) == "pending"  # nothing built yet
    assert choose_mode(True, cache, {"SOSGAME_KERNELS": "plain"}) == "plain"
    assert choose_mode(True, cache, {"SOSGAME_KERNELS": "compiled"}) == "compiled"
    # Nowhere to keep compiled code: a process compiles for itself, as nothing is shared.
    assert choose_mode(True, CachePlan(False, None), {}) == "compiled"
    ready_mark(tmp_path).touch()
    assert choose_mode(True, cache, {}) == "compiled"
    assert choose_mode(True, cache, {"SOSGAME_KERNELS": "plain"}) == "plain"


def test_the_ready_mark_names_the_versions_that_compiled(tmp_path: Path) -> None:
    # Code compiled by one numba or Python is not loaded by another: a new one builds again.
    name = ready_mark(tmp_path).name
    assert f"py{sys.version_info.major}{sys.version_info.minor}" in name
    assert name.startswith("ready-numba")


def _python(environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _mode(environment: dict[str, str]) -> str:
    done = _python(environment, "-c", "from sosgame.kernel import MODE; print(MODE)")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.compiled
@pytest.mark.slow
def test_a_first_run_searches_at_once_and_the_next_runs_compiled(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    if os.environ.get("NUMBA_DISABLE_JIT") == "1" or not kernel_cache.ready():
        pytest.skip("needs numba and the built kernels (the test session builds them)")
    built = kernel_cache.plan().folder
    assert built is not None
    # A new install's cache, but holding the compiled code already, so that the build
    # below loads rather than compiles: only the mark of a finished build is missing.
    cache = tmp_path / "numba"
    shutil.copytree(
        built, cache / f"sosgame-{Path(built).name}", ignore=shutil.ignore_patterns("ready-*")
    )
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    environment.pop("SOSGAME_KERNELS", None)
    assert _mode(environment) == "pending"
    hint = _python(environment, "-m", "sosgame", "hint", "3x3", "--nodes", "200", "--json")
    assert hint.returncode == 0, hint.stderr
    assert '"move"' in hint.stdout
    folder = cache / f"sosgame-{Path(built).name}"
    assert (folder / "build.log").exists()  # the hint started the background build
    waited = _python(environment, "-m", "sosgame.ai.build", "--wait")
    assert waited.returncode == 0, waited.stderr
    assert ready_mark(folder).exists()
    assert _mode(environment) == "compiled"


class _Executor:
    """A stand-in process pool that runs work at once and remembers being shut down."""

    made: ClassVar[list[_Executor]] = []

    def __init__(self, **options: Any) -> None:
        self.closed = False
        _Executor.made.append(self)

    def submit(self, work: Any, *arguments: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(work(*arguments))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        self.closed = True


def test_a_server_replaces_its_plain_workers_once_the_kernels_are_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("starlette")
    import concurrent.futures

    from sosgame.snapshot import Snapshot
    from sosgame.web.computer import workers
    from sosgame.web.computer.workers import ComputerPool

    _Executor.made.clear()
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _Executor)
    monkeypatch.setattr(workers, "choose_move", lambda level, snapshot: "Sa1")
    built = [False]
    monkeypatch.setattr(kernel_cache, "ready", lambda: built[0])
    snapshot = Snapshot(rows=3, cols=3, players=2, mode="general", start=None, actions=())

    async def think(pool: ComputerPool) -> str:
        return await pool.think("easy", snapshot, owner="a", interactive=True)

    async def scenario() -> None:
        pool = ComputerPool(workers=1)
        assert await think(pool) == "Sa1"
        assert await think(pool) == "Sa1"
        assert len(_Executor.made) == 1  # kept while nothing is built
        built[0] = True
        assert await think(pool) == "Sa1"
        assert len(_Executor.made) == 2 and _Executor.made[0].closed
        assert await think(pool) == "Sa1"
        assert len(_Executor.made) == 2 and not _Executor.made[1].closed
        pool.close()

    asyncio.run(scenario())


def test_a_server_readies_its_workers_before_the_first_move_and_again_once_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("starlette")
    import concurrent.futures

    from sosgame.web.computer import workers
    from sosgame.web.computer.workers import ComputerPool

    _Executor.made.clear()
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _Executor)
    prepared: list[int] = []
    monkeypatch.setattr(workers, "prepare", lambda: prepared.append(len(_Executor.made)))
    monkeypatch.setattr(workers, "READY_POLL_SECONDS", 0.01)
    monkeypatch.setattr(kernel_cache, "numba_wanted", lambda: True)
    built = [False]
    monkeypatch.setattr(kernel_cache, "ready", lambda: built[0])

    async def scenario() -> None:
        pool = ComputerPool(workers=2)
        readying = asyncio.get_running_loop().create_task(pool.keep_ready())
        await asyncio.sleep(0.1)
        # Both workers of the first pool loaded their kernels before anyone asked...
        assert prepared == [1, 1] and not readying.done()
        built[0] = True
        await asyncio.wait_for(readying, 5)
        # ...and, once the kernels were built, both of a new pool, the old one let go.
        assert prepared == [1, 1, 2, 2]
        assert _Executor.made[0].closed and not _Executor.made[1].closed
        pool.close()

    asyncio.run(scenario())


def test_long_searches_compile_first_and_moves_do_not(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A first exact solve would take far longer as plain Python than the compiler's minute;
    # a hint or a move must not wait for it.
    from sosgame.cli import main

    monkeypatch.setenv("SOSGAME_KERNELS", "auto")  # so that the test's end restores it
    monkeypatch.delenv("SOSGAME_KERNELS")
    assert main(["hint", "3x3", "--nodes", "50"]) == 0
    assert "SOSGAME_KERNELS" not in os.environ
    assert main(["solve", "1x3"]) == 0
    assert os.environ["SOSGAME_KERNELS"] == "compiled"
    capsys.readouterr()
