"""``GET /api/games/{id}/analysis`` and ``/moves``: the engine's analysis, in a worker process,
one per game at a time, cached; and every action with its mover and points."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("sosgame.ai")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame import Game, kernel_cache
from sosgame.ai.analysis import BLUNDER, MISTAKE, analyze, summarize
from sosgame.record import Record
from sosgame.snapshot import Snapshot
from sosgame.web import create_app
from sosgame.web.computer.analysis import (
    BUDGET_SECONDS,
    Analyses,
    _analyse,
    analysis_json,
    seconds_per_position,
)
from sosgame.web.live.protocol import ProtocolError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor, computer_pause=0.01
    )
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


def _upload(client: TestClient, game: Game, players: list[str]) -> str:
    record = Record.from_game(game, players=players)
    created = client.post("/api/records", json=record.to_dict())
    assert created.status_code == 201, created.json()
    game_id: str = created.json()["id"]
    return game_id


def _asked(client: TestClient, game_id: str) -> Any:
    """The game's analysis as the API answers, once the client may ask again if it polled
    faster than a client may (429)."""
    for _ in range(120):
        response = client.get(f"/api/games/{game_id}/analysis")
        if response.status_code != 429:
            return response.json()
        time.sleep(0.25)
    raise AssertionError("still refused for polling too fast after 30 s")


def _finished(client: TestClient, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    seen = []
    while time.monotonic() < deadline:
        answer: dict[str, Any] = _asked(client, game_id)
        seen.append(answer["status"])
        if answer["status"] in ("done", "failed"):
            answer["seen"] = seen
            return answer
        assert 0 <= answer["done"] <= answer["total"]
        time.sleep(0.1)
    raise AssertionError(f"no analysis within 120 s: {seen[-5:]}")


def test_the_moves_give_each_action_its_seat_and_points(client: TestClient) -> None:
    game = Game(3, 3, players=3, moves=["Sa1", "resign:1", "Ob1", "Sc1", "Sb2"])
    game_id = _upload(client, game, ["Ann", "Bao", "Chi"])
    moves = client.get(f"/api/games/{game_id}/moves").json()["moves"]
    assert [entry["action"] for entry in moves] == [str(action) for action in game.actions]
    replaying = Game(3, 3, players=3)
    for entry in moves:
        seat = entry["seat"] if entry["action"].startswith("resign") else replaying.turn
        assert entry["seat"] == seat
        assert entry["points"] == len(replaying.apply(entry["action"]))
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert replay["moves"] == moves
    assert client.get("/api/games/nope/moves").status_code == 404


def test_the_analysis_is_the_engines_and_is_kept(client: TestClient) -> None:
    game = Game(3, 3, moves=GAME)
    game_id = _upload(client, game, ["Ann", "Bao"])
    first = client.get(f"/api/games/{game_id}/analysis").json()
    assert first["status"] in ("queued", "running")
    assert first["total"] == len(GAME)
    # A second request while it runs joins the same analysis rather than starting another.
    again = client.get(f"/api/games/{game_id}/analysis").json()
    assert again["status"] in ("queued", "running")
    answer = _finished(client, game_id)
    assert answer["status"] == "done", answer
    reports = analyze(game, seconds=seconds_per_position(len(GAME)))
    assert [move["played"] for move in answer["moves"]] == GAME
    for move, report in zip(answer["moves"], reports, strict=True):
        assert move["ply"] == report.ply and move["seat"] == report.seat
        if report.exact:  # exact values do not depend on the search's timing
            assert move["exact"] and move["cost"] == report.cost and move["flag"] == report.flag
            assert move["best_value"] == report.best_value
    assert answer["thresholds"] == {"mistake": MISTAKE["general"], "blunder": BLUNDER["general"]}
    summaries = summarize(reports, 2)
    assert [player["moves"] for player in answer["players"]] == [s.moves for s in summaries]
    # Cached: the next visitor gets it at once.
    assert _asked(client, game_id)["status"] == "done"


def test_an_analysis_of_a_missing_game_is_refused(client: TestClient) -> None:
    response = client.get("/api/games/nope/analysis")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_game"


def test_the_search_time_is_spread_over_the_game_within_bounds() -> None:
    assert seconds_per_position(9) == 0.5
    big = seconds_per_position(26 * 26)
    assert big * 2 * 26 * 26 <= BUDGET_SECONDS + 1e-9
    assert seconds_per_position(10**6) >= 0.02


def test_a_game_of_three_gets_best_moves_but_no_costs() -> None:
    game = Game(3, 3, players=3, moves=["Sa1", "Ob1", "Sc1", "Sa2"])
    snapshot = Snapshot(3, 3, 3, "general", None, tuple(str(a) for a in game.actions))
    result = analysis_json(snapshot, 0.02)
    assert [move["played"] for move in result["moves"]] == ["Sa1", "Ob1", "Sc1", "Sa2"]
    assert all(move["cost"] is None and move["flag"] is None for move in result["moves"])
    assert all(move["best"] for move in result["moves"])


def _position(*moves: str) -> Snapshot:
    return Snapshot(3, 3, 2, "general", None, moves)


class _Workers:
    """Stands in for the worker processes: each analysis runs until the test lets it end
    (``finish``), and notes whether it was cancelled."""

    def __init__(self) -> None:
        self.started: list[Snapshot] = []
        self.cancelled: list[Snapshot] = []
        self.release = asyncio.Event()

    async def run(self, snapshot: Snapshot, job: Any) -> dict[str, Any]:
        self.started.append(snapshot)
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled.append(snapshot)
            raise
        return {"moves": list(snapshot.actions)}


def _analyses(workers: _Workers, **options: Any) -> Analyses:
    analyses = Analyses(**options)
    analyses._in_worker = workers.run  # type: ignore[method-assign]
    return analyses


async def _until(check: Any) -> None:
    """Let the event loop run until ``check()`` holds (an event, with a deadline)."""
    deadline = time.monotonic() + 30
    while not check():
        assert time.monotonic() < deadline, "it never happened"
        await asyncio.sleep(0.01)


def test_one_analysis_per_game_version_is_shared_by_everyone_who_asks() -> None:
    async def scenario() -> None:
        workers = _Workers()
        analyses = _analyses(workers)
        first = analyses.request("g", _position("Sa1"), version=3, client="1.1.1.1")
        again = analyses.request("g", _position("Sa1"), version=3, client="2.2.2.2")
        # A free slot starts it at once.
        assert first["status"] == again["status"] == "running"
        await _until(lambda: workers.started)
        # A new version of the game is a new analysis.
        analyses.request("g", _position("Sa1", "Ob1"), version=4, client="3.3.3.3")
        workers.release.set()
        await _until(lambda: len(workers.started) == 2)
        await _until(lambda: analyses.request("g", _position("Sa1"), version=3)["status"] == "done")
        done = analyses.request("g", _position("Sa1"), version=3, client="2.2.2.2")
        assert done["moves"] == ["Sa1"]
        assert len(workers.started) == 2 and not workers.cancelled
        await analyses.close()

    asyncio.run(scenario())


def test_an_analysis_kept_frees_its_client_before_its_task_has_seen_it_end() -> None:
    async def scenario() -> None:
        workers = _Workers()
        analyses = _analyses(workers)
        analyses.request("g", _position("Sa1"), version=1, client="1.1.1.1")
        await _until(lambda: workers.started)
        # The result is kept (as the work does on its last step) while the task that ran it
        # has not yet woken up to say it is over: the client is served, and may ask for
        # the next version at once.
        analyses._cache[("g", 1)] = {"moves": ["Sa1"]}
        done = analyses.request("g", _position("Sa1"), version=1, client="1.1.1.1")
        assert done["status"] == "done"
        after = analyses.request("g", _position("Sa1", "Ob1"), version=2, client="1.1.1.1")
        assert after["status"] in ("queued", "running")
        workers.release.set()
        await analyses.close()

    asyncio.run(scenario())


def test_a_client_waits_for_one_analysis_at_a_time_and_the_queue_is_bounded() -> None:
    async def scenario() -> None:
        workers = _Workers()
        analyses = _analyses(workers, max_running=1, queue=2)
        analyses.request("g1", _position("Sa1"), version=1, client="1.1.1.1")
        with pytest.raises(ProtocolError) as busy:
            analyses.request("g2", _position("Sa1"), version=1, client="1.1.1.1")
        assert busy.value.code == "analysis_busy"
        # Asking again for its own is fine, and so is joining one someone else started.
        analyses.request("g1", _position("Sa1"), version=1, client="1.1.1.1")
        await _until(lambda: workers.started)
        for number in (2, 3):
            answer = analyses.request("g", _position("Sa1"), version=number, client=f"{number}")
            assert answer["status"] == "queued"
        with pytest.raises(ProtocolError) as full:
            analyses.request("g", _position("Sa1"), version=4, client="4")
        assert full.value.code == "analysis_queue_full"
        assert analyses.request("g", _position("Sa1"), version=3, client="5")["status"] == "queued"
        assert len(workers.started) == 1
        await analyses.close()

    asyncio.run(scenario())


def test_an_analysis_nobody_waits_for_any_more_is_cancelled() -> None:
    async def scenario() -> None:
        now = [0.0]
        workers = _Workers()
        analyses = _analyses(workers, abandon_seconds=0.2, clock=lambda: now[0])
        analyses.request("g1", _position("Sa1"), version=1, client="1.1.1.1")
        analyses.request("g2", _position("Ob1"), version=1, client="2.2.2.2")
        await _until(lambda: len(workers.started) == 1)
        # Time passes: the first client goes on asking, the second has gone.
        for _ in range(4):
            now[0] += 0.15
            analyses.request("g1", _position("Sa1"), version=1, client="1.1.1.1")
        await _until(lambda: analyses.cancelled == 1)
        assert workers.cancelled == []  # g2 was still queued: dropped before it started
        # The client that left may start another analysis now.
        analyses.request("g3", _position("Sc1"), version=1, client="2.2.2.2")
        assert workers.started == [_position("Sa1")]
        # Once the first client stops asking too, its running analysis is stopped.
        now[0] += 1.0
        await _until(lambda: _position("Sa1") in workers.cancelled)
        await analyses.close()

    asyncio.run(scenario())


def test_the_worker_sends_each_moves_report_as_soon_as_known_from_the_last() -> None:
    mine, theirs = multiprocessing.Pipe(duplex=False)
    snapshot = Snapshot(3, 3, 2, "general", None, tuple(GAME))
    result = _analyse(snapshot, 0.02, 1.0, theirs)
    sent = []
    while mine.poll():
        sent.append(mine.recv())
    # First what is known from the start, then the moves' reports.
    assert [kind for kind, _ in sent] == ["head"] + ["report"] * len(GAME)
    assert sent[0][1] == {key: result[key] for key in ("mode", "thresholds")}
    assert [report["ply"] for _, report in sent[1:]] == list(range(len(GAME), 0, -1))
    assert [report for _, report in sent[1:]][::-1] == result["moves"]


class _Streaming:
    """Stands in for a worker process that reports one move at a time, from the last, each
    when the test lets it (``step``)."""

    def __init__(self) -> None:
        self.steps = asyncio.Semaphore(0)

    async def run(self, snapshot: Snapshot, job: Any) -> dict[str, Any]:
        moves = []
        for ply in range(len(snapshot.actions), 0, -1):
            await self.steps.acquire()
            report = {"ply": ply, "played": snapshot.actions[ply - 1], "cost": 0.0}
            job.reports[ply] = report
            job.done = len(job.reports)
            moves.insert(0, report)
        return {"moves": moves, "players": []}


def test_an_analysis_under_way_answers_with_the_reports_so_far_and_the_moves_pending() -> None:
    async def scenario() -> None:
        worker = _Streaming()
        analyses = Analyses()
        analyses._in_worker = worker.run  # type: ignore[method-assign]
        snapshot = _position("Sa1", "Ob1", "Sc1")

        def ask() -> dict[str, Any]:
            return analyses.request("g", snapshot, version=1, client="1.1.1.1")

        first = ask()
        assert first["status"] == "running"
        assert first["moves"] == [] and first["pending"] == [1, 2, 3]
        worker.steps.release()
        await _until(lambda: ask()["done"] == 1)
        partial = ask()
        assert [move["ply"] for move in partial["moves"]] == [3]
        assert partial["pending"] == [1, 2]
        worker.steps.release()
        await _until(lambda: ask()["done"] == 2)
        assert [move["ply"] for move in ask()["moves"]] == [2, 3]
        assert ask()["pending"] == [1]
        worker.steps.release()
        await _until(lambda: ask()["status"] == "done")
        done = ask()
        assert [move["ply"] for move in done["moves"]] == [1, 2, 3]
        assert done["moves"][2:] == partial["moves"]  # a move's report, once shown, stays
        assert done["pending"] == []
        await analyses.close()

    asyncio.run(scenario())


def test_a_worker_process_waits_ready_and_takes_one_analysis_after_another() -> None:
    async def scenario() -> None:
        analyses = Analyses()
        analyses.prepare()
        (worker,) = analyses._idle
        for version in (1, 2):
            snapshot = _position(*GAME[: 2 + version])
            answer = analyses.request("g", snapshot, version=version, client="1.1.1.1")
            while answer["status"] != "done":
                assert answer["status"] in ("queued", "running"), answer
                await asyncio.sleep(0.05)
                answer = analyses.request("g", snapshot, version=version, client="1.1.1.1")
            assert [move["played"] for move in answer["moves"]] == GAME[: 2 + version]
        assert analyses._idle == [worker] and worker.process.is_alive()
        await analyses.close()
        assert not worker.process.is_alive()

    asyncio.run(scenario())


def test_a_worker_begun_before_the_kernels_were_built_gives_way_once_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = [False]
    monkeypatch.setattr(kernel_cache, "ready", lambda: built[0])

    async def scenario() -> None:
        analyses = Analyses()
        analyses.prepare()
        (plain,) = analyses._idle
        built[0] = True  # the background build has finished
        snapshot = _position(*GAME[:3])
        while analyses.request("g", snapshot, version=1, client="1.1.1.1")["status"] != "done":
            await asyncio.sleep(0.05)
        (worker,) = analyses._idle
        assert worker is not plain and not worker.plain
        assert not plain.process.is_alive()
        await analyses.close()

    asyncio.run(scenario())
