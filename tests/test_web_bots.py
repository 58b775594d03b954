"""The bot API over HTTP: personal API tokens (made, listed without themselves, revoked),
bot accounts, challenges (accepted, declined, cancelled) and a game's moves and actions,
with every refusal: no token, a revoked one, a missing scope, another's game, an illegal
move, and a flood (429 with ``Retry-After``) that never refuses a move the seat may make."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sos_web import TestClient, app_client
from sosgame.web.endpoints.bots import ACTION_BURST
from sosgame.web.storage.schema import api_tokens, players
from test_web_accounts import claim, error

Headers = dict[str, str]
GAME = {"rows": 3, "cols": 3, "mode": "general", "clock": None, "days": None, "rated": False}
ALL = ["bot:play", "challenge:write", "board:play"]


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Any:
    with app_client(tmp_path / "games.sqlite3") as client:
        yield client


def token(client: TestClient, session: Headers, scopes: list[str] | None = None) -> Headers:
    """A new API token of the session's player, as the header that sends it."""
    made = client.post(
        "/api/tokens", json={"description": "test", "scopes": scopes or ALL}, headers=session
    )
    assert made.status_code == 201, made.text
    return {"authorization": f"Bearer {made.json()['token']}"}


def bot(client: TestClient, name: str) -> Headers:
    """A named player made a bot: its token's header."""
    headers = token(client, claim(client, name))
    upgraded = client.post("/api/bot/account/upgrade", headers=headers)
    assert upgraded.status_code == 200 and upgraded.json()["bot"] is True
    return headers


def game_between(client: TestClient, one: Headers, two: Headers, name: str) -> str:
    """The game of a challenge from ``one`` to the player ``name`` (``two``), accepted."""
    made = client.post(f"/api/challenge/{name}", json=GAME, headers=one)
    assert made.status_code == 200, made.text
    accepted = client.post(f"/api/challenge/{made.json()['challenge']['id']}/accept", headers=two)
    assert accepted.status_code == 200, accepted.text
    game_id: str = accepted.json()["game"]["id"]
    return game_id


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return found


def test_a_token_is_shown_once_listed_without_itself_and_revoked(client: TestClient) -> None:
    ann = claim(client, "Ann")
    made = client.post(
        "/api/tokens", json={"description": "my bot", "scopes": ["bot:play"]}, headers=ann
    )
    assert made.status_code == 201
    body = made.json()
    assert set(body) >= {"id", "token", "scopes"} and body["scopes"] == ["bot:play"]
    listed = client.get("/api/tokens", headers=ann).json()["tokens"]
    assert [one["id"] for one in listed] == [body["id"]]
    assert body["token"] not in json.dumps(listed)
    # Only its hash is stored.
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        stored = db.execute(api_tokens.select()).mappings().one()
    assert body["token"] not in json.dumps(dict(stored))
    headers = {"authorization": f"Bearer {body['token']}"}
    assert client.get("/api/account", headers=headers).json()["name"] == "Ann"
    assert client.delete(f"/api/tokens/{body['id']}", headers=ann).status_code == 200
    assert client.get("/api/tokens", headers=ann).json()["tokens"] == []
    error(client.get("/api/account", headers=headers), 401, "bad_token")
    error(client.delete(f"/api/tokens/{body['id']}", headers=ann), 404, "no_token_id")


def test_tokens_are_for_named_players_and_known_scopes(client: TestClient) -> None:
    error(client.post("/api/tokens", json={"description": "", "scopes": ALL}), 401, "not_logged_in")
    ann = claim(client, "Ann")
    message = error(
        client.post("/api/tokens", json={"description": "", "scopes": ["bot:fly"]}, headers=ann),
        400,
        "unknown_scope",
    )
    assert "bot:fly" in message and "bot:play" in message
    error(client.post("/api/tokens", json={"scopes": ALL}, headers=ann), 400, "bad_field")


def test_each_endpoint_refuses_no_token_a_bad_one_and_a_missing_scope(client: TestClient) -> None:
    error(client.post("/api/bot/account/upgrade"), 401, "no_token")
    error(client.get("/api/stream/event"), 401, "no_token")
    error(client.post("/api/challenge/Ann", json=GAME), 401, "no_token")
    error(client.post("/api/bot/game/abc/move/Sa1"), 401, "no_token")
    wrong = {"authorization": "Bearer sos_not-a-token"}
    error(client.post("/api/bot/game/abc/move/Sa1", headers=wrong), 401, "bad_token")
    ann = claim(client, "Ann")
    only_challenges = token(client, ann, ["challenge:write"])
    message = error(
        client.post("/api/bot/account/upgrade", headers=only_challenges), 403, "missing_scope"
    )
    assert "bot:play" in message
    error(client.post("/api/bot/game/abc/move/Sa1", headers=only_challenges), 403, "missing_scope")
    play_only = token(client, ann, ["bot:play"])
    error(client.post("/api/challenge/Bao", json=GAME, headers=play_only), 403, "missing_scope")


def test_a_bot_account_says_so_everywhere_and_never_enters_a_pool(client: TestClient) -> None:
    headers = bot(client, "Robo")
    assert client.get("/api/players/Robo").json()["bot"] is True
    assert client.get("/api/account", headers=headers).json()["bot"] is True
    ann = claim(client, "Ann")
    assert client.get("/api/players/Ann").json()["bot"] is False
    # A bot's session in the lobby: refused from the pools.
    session = client.post("/api/session", json={"name": "Robo", "password": "a good password"})
    assert session.status_code == 200
    with client.websocket_connect("/ws/lobby") as socket:
        socket.send_text(json.dumps({"v": 1, "type": "hello"}))
        assert socket.receive_json()["type"] == "welcome"
        socket.send_text(json.dumps({"v": 1, "type": "pool", "pool": "5x5-general-3+2"}))
        for _ in range(10):
            message = socket.receive_json()
            if message["type"] == "error":
                break
        assert message["code"] == "no_bots"
    # A game it offers shows its seat as a bot's.
    body = {
        "kind": "online",
        "rows": 3,
        "cols": 3,
        "public": True,
        "seats": [{"name": "Robo"}, {"name": "x"}],
    }
    assert client.post("/api/games", json=body).status_code == 201
    (offered,) = client.get("/api/lobby").json()["games"]
    assert [seat["bot"] for seat in offered["seats"]] == [True, False]
    client.cookies.clear()
    # Upgrading again changes nothing; a person plays through /api/board/, not /api/bot/.
    assert client.post("/api/bot/account/upgrade", headers=headers).status_code == 200
    person = token(client, ann)
    error(client.post("/api/bot/game/abc/move/Sa1", headers=person), 403, "not_a_bot")


def test_only_an_account_without_a_rated_game_becomes_a_bot(client: TestClient) -> None:
    headers = token(client, claim(client, "Veteran"))
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.begin() as db:
        db.execute(players.update().where(players.c.name == "Veteran").values(games=1))
    error(client.post("/api/bot/account/upgrade", headers=headers), 400, "not_upgradable")
    assert client.get("/api/players/Veteran").json()["bot"] is False


def test_a_challenge_accepted_makes_the_game_with_both_seated(client: TestClient) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    error(client.post("/api/challenge/Nobody", json=GAME, headers=one), 404, "no_player")
    error(client.post("/api/challenge/One", json=GAME, headers=one), 404, "no_player")
    made = client.post("/api/challenge/Two", json=GAME, headers=one).json()["challenge"]
    assert {made["challenger"], made["destUser"], made["rows"]} == {"One", "Two", 3}
    # Only the challenged player accepts it.
    error(client.post(f"/api/challenge/{made['id']}/accept", headers=one), 400, "not_for_you")
    game_id = client.post(f"/api/challenge/{made['id']}/accept", headers=two).json()["game"]["id"]
    game = state(client, game_id)
    assert [seat["name"] for seat in game["seats"]] == ["One", "Two"]
    assert game["status"] == "playing"
    error(client.post(f"/api/challenge/{made['id']}/accept", headers=two), 404, "no_challenge")


def test_a_challenge_declined_or_cancelled_is_gone(client: TestClient) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    first = client.post("/api/challenge/Two", json=GAME, headers=one).json()["challenge"]["id"]
    error(client.post(f"/api/challenge/{first}/decline", headers=one), 404, "no_challenge")
    declined = client.post(f"/api/challenge/{first}/decline", json={"reason": "later"}, headers=two)
    assert declined.status_code == 200
    error(client.post(f"/api/challenge/{first}/accept", headers=two), 404, "no_challenge")
    second = client.post("/api/challenge/Two", json=GAME, headers=one).json()["challenge"]["id"]
    error(client.post(f"/api/challenge/{second}/cancel", headers=two), 404, "no_challenge")
    assert client.post(f"/api/challenge/{second}/cancel", headers=one).status_code == 200
    error(client.post(f"/api/challenge/{second}/accept", headers=two), 404, "no_challenge")


def test_only_challenges_still_waiting_count_against_the_cap(client: TestClient) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    # Answered challenges are kept until they lapse (for the event streams), but wait no more.
    for answer, by in (("decline", two), ("cancel", one), ("decline", two), ("cancel", one)):
        made = client.post("/api/challenge/Two", json=GAME, headers=one)
        assert made.status_code == 200, made.text
        seek_id = made.json()["challenge"]["id"]
        assert client.post(f"/api/challenge/{seek_id}/{answer}", headers=by).status_code == 200
    waiting = [client.post("/api/challenge/Two", json=GAME, headers=one) for _ in range(4)]
    assert [answer.status_code for answer in waiting[:3]] == [200, 200, 200]
    error(waiting[3], 429, "too_many_challenges")


def test_moves_go_through_the_game_s_rules(client: TestClient) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    game_id = game_between(client, one, two, "Two")
    outsider = bot(client, "Three")
    error(client.post(f"/api/bot/game/{game_id}/move/Sa1", headers=outsider), 403, "not_your_seat")
    error(client.post("/api/bot/game/nosuchgame/move/Sa1", headers=one), 404, "no_game")
    error(client.post(f"/api/bot/game/{game_id}/move/Sa1", headers=two), 400, "wrong_turn")
    assert client.post(f"/api/bot/game/{game_id}/move/Sa1", headers=one).status_code == 200
    message = error(
        client.post(f"/api/bot/game/{game_id}/move/Oa1", headers=two), 400, "illegal_move"
    )
    assert "a1" in message
    error(client.post(f"/api/bot/game/{game_id}/move/Xa1", headers=two), 400, "bad_move")
    error(client.post(f"/api/bot/game/{game_id}/move/Ob1?ply=0", headers=two), 400, "stale")
    assert client.post(f"/api/bot/game/{game_id}/move/Ob1", headers=two).status_code == 200
    assert state(client, game_id)["actions"] == ["Sa1", "Ob1"]


def test_draws_takebacks_chat_and_resigning_are_the_seat_s_messages(client: TestClient) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    game_id = game_between(client, one, two, "Two")
    base = f"/api/bot/game/{game_id}"
    error(client.post(f"{base}/draw/no", headers=two), 400, "no_offer")
    assert client.post(f"{base}/move/Sa1", headers=one).status_code == 200
    assert client.post(f"{base}/move/Ob2", headers=two).status_code == 200
    assert client.post(f"{base}/draw/yes", headers=one).status_code == 200
    offers = state(client, game_id)["offers"]
    assert [offer["offer"] for offer in offers] == ["draw"]
    assert client.post(f"{base}/draw/no", headers=two).status_code == 200
    assert state(client, game_id)["offers"] == []
    assert client.post(f"{base}/takeback/yes", headers=two).status_code == 200
    assert client.post(f"{base}/takeback/yes", headers=one).status_code == 200
    assert state(client, game_id)["actions"] == ["Sa1"]
    said = client.post(f"{base}/chat", json={"room": "player", "text": "gl"}, headers=one)
    assert said.status_code == 200
    error(
        client.post(f"{base}/chat", json={"room": "x", "text": "gl"}, headers=one), 400, "bad_field"
    )
    assert client.post(f"{base}/resign", headers=two).status_code == 200
    game = state(client, game_id)
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [0]
    error(client.post(f"{base}/move/Ob2", headers=two), 400, "game_over")


def test_an_abort_before_the_first_moves_and_a_claim_too_early(client: TestClient) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    game_id = game_between(client, one, two, "Two")
    base = f"/api/bot/game/{game_id}"
    assert client.post(f"{base}/claim-victory", headers=one).status_code >= 400
    assert client.post(f"{base}/abort", headers=two).status_code == 200
    assert state(client, game_id)["result"]["termination"] == "aborted"


def test_a_flood_gets_429_with_retry_after_but_a_move_of_the_seat_passes(
    client: TestClient,
) -> None:
    one, two = bot(client, "One"), bot(client, "Two")
    game_id = game_between(client, one, two, "Two")
    base = f"/api/bot/game/{game_id}"
    flooded = []
    for _ in range(ACTION_BURST * 10):
        answer = client.post(f"{base}/draw/no", headers=one)
        if answer.status_code == 429:
            flooded.append(answer)
            break
        assert answer.json()["error"]["code"] == "no_offer"
    assert flooded, "no request was refused for the rate"
    assert flooded[0].headers["retry-after"] == "1"
    assert flooded[0].json()["error"]["code"] == "rate_limited"
    # Its bucket is empty, yet the move its seat may make now is taken, and the next one.
    assert client.post(f"{base}/move/Sa1", headers=one).status_code == 200
    assert client.post(f"{base}/move/Ob2", headers=two).status_code == 200
    assert client.post(f"{base}/move/Oc1", headers=one).status_code == 200
    # A move when it is not its turn is charged, like anything else (the bucket has only
    # refilled the few tokens of the time since).
    codes = [client.post(f"{base}/move/Sc3", headers=one).status_code for _ in range(20)]
    assert 429 in codes and set(codes) <= {400, 429}


def test_a_token_revoked_mid_game_is_refused_at_once(client: TestClient) -> None:
    ann = claim(client, "One")
    made = client.post("/api/tokens", json={"description": "", "scopes": ALL}, headers=ann).json()
    one = {"authorization": f"Bearer {made['token']}"}
    assert client.post("/api/bot/account/upgrade", headers=one).status_code == 200
    two = bot(client, "Two")
    game_id = game_between(client, one, two, "Two")
    assert client.delete(f"/api/tokens/{made['id']}", headers=ann).status_code == 200
    error(client.post(f"/api/bot/game/{game_id}/move/Sa1", headers=one), 401, "bad_token")


def test_every_server_process_accepts_the_tokens_in_the_store(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with app_client(database) as first:
        headers = bot(first, "Robo")
    with app_client(database) as second:
        assert second.get("/api/account", headers=headers).json()["name"] == "Robo"


def test_the_bot_api_answers_wrong_turn_never_not_your_turn(client: TestClient) -> None:
    # The WebSocket's not_your_turn is the bot API's wrong_turn: one name over HTTP, for a
    # move out of turn through either prefix, and declared where it may come, only there.
    from sosgame.web.api import operation_of
    from sosgame.web.endpoints import botgames

    for route in botgames.ROUTES:
        operation = operation_of(route.endpoint)
        assert operation is not None
        said = " ".join(answer.description for answer in operation.responses.values())
        assert "not_your_turn" not in said, route.path
        assert ("wrong_turn" in said) == route.path.endswith("/move/{move}"), route.path
    one, two = bot(client, "Uno"), bot(client, "Dos")
    game_id = game_between(client, one, two, "Dos")
    for prefix in ("/api/bot", "/api/board"):
        path = f"{prefix}/game/{game_id}/move/Sa1"
        error(client.post(path, headers=two), 400, "wrong_turn")
        error(client.post(f"{path}?ply=0", headers=two), 400, "wrong_turn")
    # Resigning is not a turn's: the seat not to move resigns.
    assert client.post(f"/api/bot/game/{game_id}/resign", headers=two).status_code == 200
