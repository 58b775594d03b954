"""The OpenAPI description of the HTTP endpoints, served at ``/openapi.json``."""

from __future__ import annotations

from typing import Any

from sosgame import __version__
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_SIDE, WEB_MAX_NAME
from sosgame.web.limits import MAX_PASSWORD, MIN_PASSWORD
from sosgame.web.protocol import COMPUTER_LEVELS
from sosgame.web.rows import HUMAN

__all__ = ["openapi"]

_ERROR = {
    "description": "A bad request: the error names the problem and nothing was changed",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _refused(description: str) -> dict[str, Any]:
    return {**_ERROR, "description": description}


_FORBIDDEN = _refused("No right to do it (a missing or wrong seat token or invite)")
_TOO_LARGE = _refused("The body is over 256 KiB (too_large)")
_TOO_MANY = _refused(
    "Too many unfinished games (with computer players, from this address or on the server;"
    " from this address or player: too_many_games), or public games waiting for players"
    " (too_many_lobby_games)"
)
_READS = _refused(
    "Too many replays, records, move lists and analyses from this address (rate_limited)"
)
_BEARER: list[dict[str, list[str]]] = [{"seatToken": []}]


def _json(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _game_id() -> dict[str, Any]:
    return {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}


def _player_paths() -> dict[str, Any]:
    """Named players, ratings and the lobby (``sosgame.web.accounts``)."""
    credentials = {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Credentials"}}},
    }
    limited = _refused(
        "Too many attempts to log in or claim a name from this address (rate_limited)"
    )
    session = _json("Session", "The player, logged in: the sos_session cookie is set")
    not_logged_in = _refused("No live session came with the request (not_logged_in)")
    return {
        "/api/players": {
            "get": {
                "summary": "The leaderboard: named players by rating, and the computer levels'"
                " fixed ratings",
                "responses": {"200": _json("Leaderboard", "Best rating first")},
            },
            "post": {
                "summary": "Claim a name with a password (and log in)",
                "requestBody": credentials,
                "responses": {
                    "201": session,
                    "400": _refused("A bad name (bad_field) or password (weak_password)"),
                    "409": _refused(
                        "Somebody has the name already (name_taken), or one that looks like"
                        " it (name_confusable)"
                    ),
                    "429": limited,
                },
            },
        },
        "/api/players/{name}": {
            "get": {
                "summary": "A player's rating, games (newest first) and rating history",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": _json("PlayerPage", "The player"),
                    "404": _refused("Nobody has claimed the name (no_player)"),
                },
            }
        },
        "/api/session": {
            "get": {
                "summary": "Who is logged in here (player null: a guest)",
                "responses": {"200": _json("Session", "The player, or null")},
            },
            "post": {
                "summary": "Log in with a claimed name and its password",
                "requestBody": credentials,
                "responses": {
                    "200": session,
                    "400": _ERROR,
                    "401": _refused("Wrong name or password (wrong_password)"),
                    "429": limited,
                },
            },
            "delete": {
                "summary": "Log out: this browser's session ends (the cookie is removed)",
                "responses": {"200": _json("Session", "player: null")},
            },
        },
        "/api/sessions": {
            "delete": {
                "summary": "Log out everywhere: every session of the player ends, this one too",
                "responses": {
                    "200": _json("Session", "player: null"),
                    "401": not_logged_in,
                },
            },
        },
        "/api/session/password": {
            "post": {
                "summary": "Change the password: every session of the player ends and this"
                " browser gets a new one",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/PasswordChange"}
                        }
                    },
                },
                "responses": {
                    "200": session,
                    "400": _refused("A bad body (bad_field) or new password (weak_password)"),
                    "401": _refused(
                        "Not logged in (not_logged_in) or a wrong password (wrong_password)"
                    ),
                    "429": limited,
                },
            },
        },
        "/api/lobby": {
            "get": {
                "summary": "Public online games waiting for players: size, mode, clock, and"
                " each seat with its player's rating",
                "responses": {"200": _json("Lobby", "Newest first")},
            }
        },
    }


def _player_schemas() -> dict[str, Any]:
    rating = {
        "rating": {"type": "number", "description": "mu - 3 sigma, shown on the leaderboard"},
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
    }
    player = {
        "type": "object",
        "properties": {"name": {"type": "string"}, **rating, "rated_games": {"type": "integer"}},
    }
    return {
        "Credentials": {
            "type": "object",
            "required": ["name", "password"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": WEB_MAX_NAME},
                "password": {
                    "type": "string",
                    "minLength": MIN_PASSWORD,
                    "maxLength": MAX_PASSWORD,
                    "description": "not the name, not one character repeated",
                },
            },
        },
        "PasswordChange": {
            "type": "object",
            "required": ["password", "new_password"],
            "properties": {
                "password": {"type": "string", "description": "the current password"},
                "new_password": {
                    "type": "string",
                    "minLength": MIN_PASSWORD,
                    "maxLength": MAX_PASSWORD,
                    "description": "not the name, not one character repeated",
                },
            },
        },
        "Player": player,
        "Session": {
            "type": "object",
            "properties": {"player": {"oneOf": [player, {"type": "null"}]}},
        },
        "Leaderboard": {
            "type": "object",
            "properties": {
                "players": {"type": "array", "items": player},
                "computers": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"level": {"enum": list(COMPUTER_LEVELS)}, **rating},
                    },
                },
            },
        },
        "PlayerPage": {
            "type": "object",
            "description": "A Player with 'games' (id, public, rows, cols, mode, status, seat,"
            " names, result, rating after it or null, rated: true, false or null while"
            " undecided) and 'history' (game, at, rating, mu, sigma); a private game's id and"
            " game are null unless the player asks",
        },
        "Lobby": {
            "type": "object",
            "description": "'games': id, rows, cols, mode, clock (initial, increment in"
            " seconds, or null), open_seats, created, and seats (seat, name, player, free,"
            " named, rating or null)",
        },
    }


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document (see docs/protocol.md for the WebSocket messages)."""
    created = _json("Created", "The new game, the creator's seat token and the links")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "sosgame",
            "version": __version__,
            "description": "SOS games in the browser. Live play uses the WebSocket"
            " /ws/games/{game_id} described in docs/protocol.md.",
        },
        "paths": {
            "/api/health": {
                "get": {
                    "summary": "Is the server up, and do its database and Redis answer",
                    "responses": {"200": {}, "503": {"description": "the database is away"}},
                }
            },
            "/api/i18n": {
                "get": {
                    "summary": "Every interface text in every language",
                    "responses": {"200": {"description": "languages and catalog"}},
                }
            },
            "/api/config": {
                "get": {
                    "summary": "Computer levels, seat colours and symbols, new-game limits",
                    "responses": {"200": {"description": "levels, seats and limits"}},
                }
            },
            "/api/pools": {
                "get": {
                    "summary": "The quick-pairing pools (entered on the /ws/lobby WebSocket)",
                    "responses": {"200": {"description": "pools: id, size, mode, clock, rated"}},
                }
            },
            "/api/seeks": {
                "get": {
                    "summary": "The seeks (games offered in the lobby) the caller may take",
                    "responses": {"200": {"description": "seeks"}},
                },
                "post": {
                    "summary": "Offer a game in the lobby, for the lobby connection whose"
                    " secret comes as the bearer; it dies with that connection",
                    "responses": {
                        "201": {"description": "the seek's id"},
                        "400": {"description": "a bad field"},
                        "401": {"description": "no lobby secret"},
                        "403": {"description": "a rated seek without an account"},
                        "429": {"description": "too many seeks from this address"},
                    },
                },
            },
            "/api/seeks/{seek_id}": {
                "delete": {
                    "summary": "Withdraw a seek (its creator's lobby secret as the bearer)",
                    "responses": {"200": {"description": "withdrawn"}, "404": {}},
                }
            },
            "/api/games": {
                "get": {
                    "summary": "Public games open for players, being played, or finished"
                    " (private games are listed nowhere)",
                    "parameters": [
                        {
                            "name": "list",
                            "in": "query",
                            "schema": {"enum": ["open", "playing", "archive"]},
                        }
                    ],
                    "responses": {"200": _json("GameList", "Newest first"), "400": _ERROR},
                },
                "post": {
                    "summary": "Start a new game",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/NewGame"}}
                        },
                    },
                    "responses": {
                        "201": created,
                        "400": _ERROR,
                        "413": _TOO_LARGE,
                        "429": _TOO_MANY,
                    },
                },
            },
            "/api/games/{game_id}": {
                "get": {
                    "summary": "A game's state, as the WebSocket 'state' message holds it",
                    "parameters": [_game_id()],
                    "responses": {"200": _json("Game", "The game"), "404": _ERROR},
                }
            },
            "/api/games/{game_id}/seats/{seat}": {
                "post": {
                    "summary": "Take a free seat of an online game",
                    "parameters": [
                        _game_id(),
                        {
                            "name": "seat",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer"},
                        },
                    ],
                    "requestBody": {
                        "required": False,
                        "description": "Optional: an empty body takes the seat under the name"
                        " it has. A game that is not public needs the invite link's secret.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "name": {"type": "string", "maxLength": WEB_MAX_NAME},
                                        "invite": {"type": "string", "maxLength": 64},
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": _json("Seat", "The seat token: keep it secret"),
                        "400": _ERROR,
                        "403": _FORBIDDEN,
                        "404": _ERROR,
                        "409": _ERROR,
                        "413": _TOO_LARGE,
                    },
                }
            },
            "/api/games/{game_id}/rematch": {
                "post": {
                    "summary": "The same settings and players again; everyone following the"
                    " game is offered it, and asking again gives the same rematch",
                    "parameters": [_game_id()],
                    "security": _BEARER,
                    "responses": {
                        "200": _json("Created", "The rematch someone had already started"),
                        "201": created,
                        "403": _FORBIDDEN,
                        "404": _ERROR,
                        "429": _TOO_MANY,
                    },
                }
            },
            "/api/games/{game_id}/invites": {
                "get": {
                    "summary": "The invite links of the free seats, for the game's players",
                    "parameters": [_game_id()],
                    "security": _BEARER,
                    "responses": {
                        "200": _json("Invites", "One link per seat, null if not free"),
                        "403": _FORBIDDEN,
                        "404": _ERROR,
                    },
                }
            },
            "/api/games/{game_id}/record": {
                "get": {
                    "summary": "Download the game as a sosgame-record/1 JSON record",
                    "parameters": [_game_id()],
                    "responses": {
                        "200": {"description": "The record"},
                        "404": _ERROR,
                        "429": _READS,
                    },
                }
            },
            "/api/games/{game_id}/replay": {
                "get": {
                    "summary": "The game ply by ply, every frame worked out by the engine",
                    "parameters": [_game_id()],
                    "responses": {"200": {"description": "Frames"}, "404": _ERROR, "429": _READS},
                }
            },
            "/api/games/{game_id}/moves": {
                "get": {
                    "summary": "Every action with the seat that made it and the points it scored",
                    "parameters": [_game_id()],
                    "responses": {"200": {"description": "Moves"}, "404": _ERROR, "429": _READS},
                }
            },
            "/api/games/{game_id}/analysis": {
                "get": {
                    "summary": "What each move cost and the best move, exact where the solver"
                    " finishes: the result once done, else the progress (starting the analysis"
                    " if none of this game is under way)",
                    "parameters": [_game_id()],
                    "responses": {
                        "200": {"description": "status queued, running, done or failed"},
                        "404": _ERROR,
                        "429": _refused(
                            "Too many requests from this address (rate_limited), another"
                            " analysis of this address under way (analysis_busy) or too many"
                            " waiting (analysis_queue_full)"
                        ),
                    },
                }
            },
            "/api/records": {
                "post": {
                    "summary": "Upload a sosgame-record/1 record to replay or continue it",
                    "requestBody": {
                        "content": {"application/json": {"schema": {"type": "object"}}}
                    },
                    "responses": {
                        "201": created,
                        "400": _ERROR,
                        "413": _TOO_LARGE,
                        "429": _TOO_MANY,
                    },
                }
            },
            **_player_paths(),
        },
        "components": {
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token, as returned when a game is created or a"
                    " seat taken",
                }
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "properties": {
                        "error": {
                            "type": "object",
                            "properties": {
                                "code": {"type": "string"},
                                "message": {"type": "string"},
                            },
                        }
                    },
                },
                "NewGame": {
                    "type": "object",
                    "required": ["rows", "cols", "seats"],
                    "properties": {
                        "rows": {
                            "type": "integer",
                            "minimum": BOARD_MIN_SIDE,
                            "maximum": BOARD_MAX_SIDE,
                        },
                        "cols": {
                            "type": "integer",
                            "minimum": BOARD_MIN_SIDE,
                            "maximum": BOARD_MAX_SIDE,
                        },
                        "mode": {"enum": ["general", "simple"]},
                        "kind": {"enum": ["local", "online"]},
                        "public": {
                            "type": "boolean",
                            "description": "online games: list the game and let anyone take"
                            " its free seats (default false: only with an invite link)",
                        },
                        "seats": {
                            "type": "array",
                            "minItems": MIN_PLAYERS,
                            "maxItems": MAX_PLAYERS,
                            "items": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string", "maxLength": WEB_MAX_NAME},
                                    "player": {"enum": [HUMAN, *COMPUTER_LEVELS]},
                                },
                            },
                        },
                        "clock": {
                            "type": ["object", "null"],
                            "properties": {
                                "initial": {"type": "integer", "description": "seconds"},
                                "increment": {"type": "integer", "description": "seconds"},
                            },
                        },
                    },
                },
                "Created": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "token": {"type": "string"},
                        "seats": {"type": "array", "items": {"type": "integer"}},
                        "links": {"type": "object"},
                    },
                },
                "Seat": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "token": {"type": "string"},
                        "seats": {"type": "array", "items": {"type": "integer"}},
                    },
                },
                "Invites": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "seats": {"type": "array", "items": {"type": ["string", "null"]}},
                    },
                },
                "Game": {"type": "object", "description": "See docs/protocol.md, 'state'"},
                "GameList": {
                    "type": "object",
                    "properties": {"games": {"type": "array", "items": {"type": "object"}}},
                },
                **_player_schemas(),
            },
        },
    }
