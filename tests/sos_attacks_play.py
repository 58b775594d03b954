"""The attacks of hostile clients on games, chat, the lobby, ratings, puzzles and names
(see ``sos_attacks`` for the HTTP side): each an ``async`` function that runs one attack,
bounded in connections and time, and returns its figures."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from typing import Any

import httpx
import sqlalchemy
import websockets

from sos_attacks import answer, claim
from sos_hostile import (
    HONEST_ADDRESS,
    WAIT_SECONDS,
    Message,
    Site,
    address,
    http_client,
    kind,
    until,
    ws_connect,
)

CHAT_PER_SECOND = 0.5
CHAT_BURST = 5
"""The documented chat rate (``SOSGAME_CHAT_PER_SECOND``, ``_BURST``): now per seat."""
CASUAL_POOL = "5x5-simple-1+1"
RATED_POOL = "5x5-general-3+2-rated"


def _send(socket: Any, **message: Any) -> Any:
    return socket.send(json.dumps({"v": 1, **message}))


async def _hello(socket: Any, **fields: Any) -> Message:
    await _send(socket, type="hello", **fields)
    return await until(socket, kind("state"))


class Listener:
    """Reads every message a socket gets, as a person's browser does, until it closes."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.messages: list[Message] = []
        self.closed: int | None = None
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.socket:
                self.messages.append(json.loads(text))
        except websockets.ConnectionClosed:
            pass
        rcvd = self.socket.close_code
        self.closed = 1006 if rcvd is None else int(rcvd)

    def chats(self, **fields: Any) -> list[Message]:
        return [
            m
            for m in self.messages
            if m["type"] == "chat" and all(m.get(key) == value for key, value in fields.items())
        ]

    async def wait_for(self, check: Any, seconds: float = WAIT_SECONDS) -> bool:
        """Whether a message passing ``check`` came (polling what was read) in time."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.closed is None:
            if any(check(message) for message in self.messages):
                return True
            await asyncio.sleep(0.02)  # polling for an event (a message), not waiting out time
        return any(check(message) for message in self.messages)


async def _close_all(sockets: list[Any]) -> None:
    for socket in sockets:
        socket.transport.abort()


async def spectator_burst(site: Site, game_id: str, *, sockets: int = 199) -> dict[str, Any]:
    """``sockets`` spectators of one address on ``game_id`` each say a phrase at once, while
    an honest spectator (another address) reads promptly and then says one itself (the
    issue: the honest spectator was closed as too slow within 3 s)."""
    path = f"/ws/games/{game_id}"
    async with ws_connect(site.ws(0, path), HONEST_ADDRESS) as honest_socket:
        await _hello(honest_socket, token=None)
        honest = Listener(honest_socket)
        crowd = await asyncio.gather(
            *(ws_connect(site.ws(n, path), address(12)) for n in range(sockets))
        )
        try:
            await asyncio.gather(*(_hello(socket, token=None) for socket in crowd))
            began = time.monotonic()
            await asyncio.gather(*(_send(s, type="chat", phrase="hello") for s in crowd))
            await asyncio.sleep(0.5)  # the burst on its way to the spectators
            if honest.closed is None:
                await _send(honest_socket, type="chat", phrase="thanks")
            heard = await honest.wait_for(
                lambda m: m["type"] == "chat" and m.get("phrase") == "thanks", 10
            )
            elapsed = time.monotonic() - began
        finally:
            await _close_all(crowd)
        return {
            "spectators": sockets,
            "honest_closed": honest.closed,
            "honest_heard_the_burst": len(honest.chats(phrase="hello")),
            "honest_heard_itself": heard,
            "seconds": round(elapsed, 2),
        }


async def seat_chat_flood(site: Site, *, sockets: int = 100, each: int = 5) -> dict[str, Any]:
    """``sockets`` connections holding one seat each say ``each`` phrases at once; then the
    other player says one (the issue: 100 sockets sent 500 messages in 2.2 s, filled the
    game's store, and the opponent could no longer chat, ``chat_full``)."""
    attacker = address(13)
    async with http_client(site.url(0), attacker) as client:
        body = {"rows": 5, "cols": 5, "kind": "online", "seats": [{"name": "Mal"}, {"name": "Opp"}]}
        created = (await client.post("/api/games", json=body)).json()
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    path = f"/ws/games/{created['id']}"
    async with http_client(site.url(1), address(252)) as client:
        taken = await client.post(f"/api/games/{created['id']}/seats/1", json={"invite": invite})
        opponent_token = taken.json()["token"]
    async with ws_connect(site.ws(0, path), address(252)) as opponent_socket:
        await _hello(opponent_socket, token=opponent_token)
        opponent = Listener(opponent_socket)
        flood = await asyncio.gather(
            *(ws_connect(site.ws(n, path), attacker) for n in range(sockets))
        )
        refusals: Counter[str] = Counter()

        async def say(socket: Any) -> None:
            for _ in range(each):
                await _send(socket, type="chat", phrase="good_luck")
            await _send(socket, type="ping")
            async with asyncio.timeout(WAIT_SECONDS):
                async for text in socket:
                    message = json.loads(text)
                    if message["type"] == "error":
                        refusals[message["code"]] += 1
                    elif message["type"] == "pong":
                        return

        try:
            await asyncio.gather(*(_hello(socket, token=created["token"]) for socket in flood))
            began = time.monotonic()
            await asyncio.gather(*(say(socket) for socket in flood))
            elapsed = time.monotonic() - began
        finally:
            await _close_all(flood)
        await _send(opponent_socket, type="chat", phrase="thanks")
        await opponent.wait_for(
            lambda m: (m["type"] == "chat" and m.get("seat") == 1) or m["type"] == "error", 10
        )
        said = opponent.chats(seat=1, phrase="thanks")
        errors = [m["code"] for m in opponent.messages if m["type"] == "error"]
    sent = sockets * each
    return {
        "sent": sent,
        "refused": dict(refusals),
        "past_the_rate": sent - refusals["rate_limited"],
        "allowed": int(CHAT_BURST + CHAT_PER_SECOND * elapsed) + 1,
        "opponent_heard": len(opponent.chats(seat=0)),
        "opponent_said": "said" if said else (errors[0] if errors else "no answer"),
        "seconds": round(elapsed, 2),
    }


async def _pair_once(site: Site, number: int, source: str, pool: str) -> list[str] | str:
    """Two lobby sockets of ``source`` enter ``pool``: the game ids they are paired into, or
    the first error (or ``"not paired"``)."""
    sockets = []
    try:
        for side in (0, 1):
            socket = await ws_connect(site.ws(number + side, "/ws/lobby"), source)
            sockets.append(socket)
            await _send(socket, type="hello")
            await until(socket, kind("welcome"))
        for socket in sockets:
            await _send(socket, type="pool", pool=pool)
        games = []
        for socket in sockets:
            message = await until(socket, lambda m: m["type"] in ("paired", "error"), 5)
            if message["type"] == "error":
                return str(message["code"])
            games.append(str(message["game"]))
        return games
    except TimeoutError:
        return "not paired"
    finally:
        await _close_all(sockets)


async def pool_minting(site: Site, *, pairs: int = 4, seconds: float = 4.0) -> dict[str, Any]:
    """``pairs`` pairs of guest sockets of one address enter a casual pool together, again
    and again for ``seconds``, and open none of the games they get (the issue: 1,480 games
    in 12 s from one address)."""
    source = address(14)
    games: set[str] = set()
    stops: Counter[str] = Counter()
    began = time.monotonic()

    async def loop(number: int) -> None:
        while time.monotonic() - began < seconds:
            got = await _pair_once(site, number, source, CASUAL_POOL)
            if isinstance(got, str):
                stops[got] += 1
                return
            games.update(got)

    await asyncio.gather(*(loop(n) for n in range(pairs)))
    return {
        "games": sorted(games),
        "made": len(games),
        "stopped_by": dict(stops),
        "seconds": round(time.monotonic() - began, 2),
    }


def _statuses(database: str, game_ids: list[str]) -> Counter[str]:
    engine = sqlalchemy.create_engine(database.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as db:
            rows = db.execute(
                sqlalchemy.text("SELECT status, result FROM games WHERE id IN :ids").bindparams(
                    sqlalchemy.bindparam("ids", expanding=True)
                ),
                {"ids": game_ids},
            ).all()
    finally:
        engine.dispose()
    found: Counter[str] = Counter()
    for status, result in rows:
        termination = json.loads(result)["termination"] if result else None
        found[f"{status} {termination}" if termination else status] += 1
    return found


async def unopened_games_end(site: Site, game_ids: list[str], seconds: float) -> dict[str, Any]:
    """The games nobody opened, as the store has them once ``seconds`` have passed or every
    one is aborted (read from the database, so that no server loads them)."""
    began = time.monotonic()
    loop = asyncio.get_running_loop()
    found: Counter[str] = Counter()
    while time.monotonic() - began < seconds:
        found = await loop.run_in_executor(None, _statuses, site.database, game_ids)
        if found["finished aborted"] == len(game_ids):
            break
        await asyncio.sleep(0.25)  # polling for an event (the aborts), not waiting out time
    return {"games": len(game_ids), "in_the_store": dict(found)}


async def rated_pool_same_address(site: Site) -> dict[str, Any]:
    """Two accounts on one address enter a rated pool, then a third from another address:
    who is paired with whom (the issue: two sockets of one address paired each other)."""
    names = ("Twin1", "Twin2", "Stranger")
    cookies = []
    for number, name in enumerate(names):
        made, cookie = await claim(site, number, address(170 + number), name)
        assert made == "201" and cookie is not None, made
        cookies.append(cookie)
    sources = [address(15), address(15), address(16)]
    sockets = []
    paired: dict[str, str] = {}
    try:
        for number, (source, cookie) in enumerate(zip(sources, cookies, strict=True)):
            socket = await ws_connect(site.ws(number, "/ws/lobby"), source, cookie)
            sockets.append(socket)
            await _send(socket, type="hello")
            await until(socket, kind("welcome"))
        for name, socket in zip(names[:2], sockets[:2], strict=True):
            await _send(socket, type="pool", pool=RATED_POOL)
            answer = await until(socket, lambda m: m["type"] in ("waiting", "paired"))
            if answer["type"] == "paired":
                paired[name] = answer["game"]
        await _send(sockets[2], type="pool", pool=RATED_POOL)

        async def game_of(name: str, socket: Any, seconds: float) -> None:
            if name in paired:
                return
            with contextlib.suppress(TimeoutError):
                paired[name] = (await until(socket, kind("paired"), seconds))["game"]

        # The stranger is paired within the pool's wait, and its twin with it at once: the
        # twin left alone is then waited for a little only.
        await game_of("Stranger", sockets[2], 10)
        await asyncio.gather(
            *(game_of(n, s, 2) for n, s in zip(names[:2], sockets[:2], strict=True))
        )
    finally:
        await _close_all(sockets)
    twins_together = "Twin1" in paired and paired.get("Twin1") == paired.get("Twin2")
    return {
        "paired": sorted(paired),
        "twins_paired_together": twins_together,
        "stranger_paired_with_a_twin": paired.get("Stranger")
        in (
            paired.get("Twin1"),
            paired.get("Twin2"),
        )
        and "Stranger" in paired,
    }


async def _throw(site: Site, farmer: httpx.AsyncClient, target: httpx.AsyncClient) -> str:
    """A rated game the farmer loses to the target after two moves each; its id."""
    body = {"rows": 5, "cols": 5, "kind": "online", "rated": True, "seats": [{"name": "F"}] * 2}
    created = (await farmer.post("/api/games", json=body)).json()
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    seat = await target.post(f"/api/games/{created['id']}/seats/1", json={"invite": invite})
    tokens = [created["token"], seat.json()["token"]]
    async with ws_connect(site.ws(0, f"/ws/games/{created['id']}"), address(169)) as socket:
        await _send(socket, type="hello", tokens=tokens)
        await until(socket, kind("state"))
        # Only O's: no SOS can be made, so the game goes on until the farmer resigns.
        for ply, cell in enumerate(("a1", "c1", "e1", "a3")):
            await _send(socket, type="move", move=f"O{cell}", ply=ply)
            await until(socket, lambda m, p=ply: m["type"] == "state" and m["game"]["ply"] > p)
        await _send(socket, type="resign", ply=4, seat=0)
        await until(socket, lambda m: m["type"] == "state" and m["game"]["result"] is not None)
    return str(created["id"])


async def rating_farm(site: Site, *, farmers: int = 8, games_each: int = 3) -> dict[str, Any]:
    """Fresh accounts each throw ``games_each`` rated games to one more fresh account (the
    issue: 8 x 3 took it from 0 to 29.5 in 4.5 s, top of the leaderboard)."""
    cookies = []
    for number in range(farmers + 1):
        name = "Farmed" if number == farmers else f"Farmer{number}"
        made, cookie = await claim(site, number, address(160 + number), name)
        assert made == "201" and cookie is not None, made
        cookies.append(cookie)
    began = time.monotonic()

    def client(number: int) -> httpx.AsyncClient:
        made = http_client(site.url(number), address(160 + number))
        made.cookies.set("sos_session", cookies[number])
        return made

    async def farmer(number: int) -> list[str]:
        async with client(number) as mine, client(farmers) as target:
            return [await _throw(site, mine, target) for _ in range(games_each)]

    thrown = [
        game for games in await asyncio.gather(*map(farmer, range(farmers))) for game in games
    ]
    async with http_client(site.url(0), HONEST_ADDRESS) as reader:
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            page = (await reader.get("/api/players/Farmed")).json()
            decided = [game for game in page["games"] if game["rated"] is not None]
            if len(decided) >= len(thrown) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)  # polling for an event (the ratings), not waiting out time
        board = (await reader.get("/api/players")).json()
    return {
        "games": len(thrown),
        "rated": sum(1 for game in page["games"] if game["rated"]),
        "rating": page["rating"],
        "on_the_leaderboard": any(p["name"] == "Farmed" for p in board["players"]),
        "leaderboard": [p["name"] for p in board["players"]][:5],
        "seconds": round(time.monotonic() - began, 2),
    }


async def puzzle_replay(site: Site) -> dict[str, Any]:
    """A guest gives up a puzzle and is shown its solution; an account of the same address
    plays that solution (the issue: 40 of 40 solved, 1500 to 2712 in 1.4 s)."""
    source = address(22)
    made, cookie = await claim(site, 0, address(173), "Solver")
    assert made == "201" and cookie is not None, made
    async with http_client(site.url(0), source) as guest:
        puzzle = (await guest.get("/api/puzzles/next")).json()
        path = f"/api/puzzles/{puzzle['id']}/moves"
        shown = (await guest.post(path, json={"moves": [], "give_up": True})).json()
    solution = shown["solution"]
    async with http_client(site.url(1), source) as solver:
        solver.cookies.set("sos_session", cookie)
        # The solution holds the opponent's replies too: the solving side sends its own.
        moves: list[str] = []
        verdict: dict[str, Any] = {}
        index = 0
        while index < len(solution):
            moves.append(solution[index])
            verdict = (await solver.post(path, json={"moves": moves})).json()
            if verdict["done"] or not verdict["correct"]:
                break
            index += 1 if verdict["reply"] is None else 2
    return {"solved": verdict.get("correct"), "rated": verdict.get("rated")}


async def confusable_names(site: Site) -> dict[str, Any]:
    """Names that look like claimed ones within one script: each claim's answer."""
    answers = {}
    pairs = [("Alice", "AIice"), ("Paypal", "PaypaI"), ("Ian", "lan"), ("bob", "b0b")]
    for number, (first, second) in enumerate(pairs):
        answers[first] = (await claim(site, number, address(180 + 2 * number), first))[0]
        answers[second] = (await claim(site, number, address(181 + 2 * number), second))[0]
    return {"answers": answers}


async def _said(socket: Listener, text: str) -> str:
    """Say ``text`` on a spectator's socket: ``"said"`` once it comes back, else the error."""
    await _send(socket.socket, type="chat", text=text)
    came = await socket.wait_for(
        lambda m: (m["type"] == "chat" and m.get("text") == text) or m["type"] == "error", 10
    )
    if socket.chats(text=text):
        return "said"
    errors = [m["code"] for m in socket.messages if m["type"] == "error"]
    return errors[-1] if came and errors else "no answer"


async def chat_after_logout(site: Site) -> dict[str, Any]:
    """A logged-in spectator says free text, logs out over HTTP, and says more on the socket
    it opened before (the issue: free-text chat kept working after logout)."""
    source = address(26)
    made, cookie = await claim(site, 0, address(174), "Talker")
    assert made == "201" and cookie is not None, made
    async with http_client(site.url(0), source) as client:
        client.cookies.set("sos_session", cookie)
        body = {"rows": 3, "cols": 3, "seats": [{"name": "A"}, {"name": "B"}]}
        game = (await client.post("/api/games", json=body)).json()["id"]
        async with ws_connect(site.ws(0, f"/ws/games/{game}"), source, cookie) as socket:
            await _hello(socket, token=None)
            listener = Listener(socket)
            before = await _said(listener, "before logging out")
            logged_out = answer(await client.delete("/api/session"))
            after = await _said(listener, "after logging out")
    return {"before": before, "logout": logged_out, "after": after}


async def takeback_abort(site: Site) -> dict[str, Any]:
    """Both seats move once; the second takes its move back by consent; then the first tries
    to abort (the issue: the takeback re-opened abort after both had moved)."""
    async with http_client(site.url(0), address(24)) as client:
        body = {"rows": 5, "cols": 5, "kind": "online", "seats": [{"name": "A"}, {"name": "B"}]}
        created = (await client.post("/api/games", json=body)).json()
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    path = f"/ws/games/{created['id']}"
    async with http_client(site.url(1), address(25)) as client:
        taken = await client.post(f"/api/games/{created['id']}/seats/1", json={"invite": invite})
    async with (
        ws_connect(site.ws(0, path), address(24)) as first,
        ws_connect(site.ws(1, path), address(25)) as second,
    ):
        await _hello(first, token=created["token"])
        await _hello(second, token=taken.json()["token"])

        def at(ply: int) -> Any:
            return lambda m: m["type"] == "state" and m["game"]["ply"] == ply

        await _send(first, type="move", move="Oa1", ply=0)
        await until(second, at(1))
        await _send(second, type="move", move="Oc1", ply=1)
        await until(first, at(2))
        await _send(second, type="offer", offer="takeback", ply=2)
        await until(first, lambda m: m["type"] == "state" and m["game"]["offers"])
        await _send(first, type="answer", offer="takeback", accept=True, ply=2)
        state = (await until(first, at(1)))["game"]
        await _send(first, type="abort", ply=1)
        outcome = await until(
            first,
            lambda m: (
                m["type"] == "error" or (m["type"] == "state" and m["game"]["result"] is not None)
            ),
            10,
        )
    aborted = outcome["type"] == "state"
    return {
        "can_abort_after_the_takeback": state["can_abort"],
        "abort": "aborted" if aborted else f"refused {outcome['code']}",
    }
