"""The OpenAPI description of the HTTP endpoints, served at ``/openapi.json``."""

from __future__ import annotations

from typing import Any

from sosgame import __version__
from sosgame.web.protocol import COMPUTER_LEVELS, MAX_NAME, MAX_SIDE, MIN_SIDE

__all__ = ["openapi"]

_ERROR = {
    "description": "A bad request: the error names the problem and nothing was changed",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _json(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _game_id() -> dict[str, Any]:
    return {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}


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
            "/api/health": {"get": {"summary": "Is the server up", "responses": {"200": {}}}},
            "/api/i18n": {
                "get": {
                    "summary": "Every interface text in every language",
                    "responses": {"200": {"description": "languages and catalog"}},
                }
            },
            "/api/games": {
                "get": {
                    "summary": "Games open for players, being played, or finished",
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
                    "responses": {"201": created, "400": _ERROR, "413": _ERROR},
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
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "name": {"type": "string", "maxLength": MAX_NAME}
                                    },
                                }
                            }
                        }
                    },
                    "responses": {
                        "200": _json("Seat", "The seat token: keep it secret"),
                        "400": _ERROR,
                        "404": _ERROR,
                        "409": _ERROR,
                    },
                }
            },
            "/api/games/{game_id}/rematch": {
                "post": {
                    "summary": "The same settings again (needs 'Authorization: Bearer TOKEN')",
                    "parameters": [_game_id()],
                    "responses": {"201": created, "403": _ERROR, "404": _ERROR},
                }
            },
            "/api/games/{game_id}/record": {
                "get": {
                    "summary": "Download the game as a sosgame-record/1 JSON record",
                    "parameters": [_game_id()],
                    "responses": {"200": {"description": "The record"}, "404": _ERROR},
                }
            },
            "/api/games/{game_id}/replay": {
                "get": {
                    "summary": "The game ply by ply, every frame worked out by the engine",
                    "parameters": [_game_id()],
                    "responses": {"200": {"description": "Frames"}, "404": _ERROR},
                }
            },
            "/api/records": {
                "post": {
                    "summary": "Upload a sosgame-record/1 record to replay or continue it",
                    "requestBody": {
                        "content": {"application/json": {"schema": {"type": "object"}}}
                    },
                    "responses": {"201": created, "400": _ERROR, "413": _ERROR},
                }
            },
        },
        "components": {
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
                        "rows": {"type": "integer", "minimum": MIN_SIDE, "maximum": MAX_SIDE},
                        "cols": {"type": "integer", "minimum": MIN_SIDE, "maximum": MAX_SIDE},
                        "mode": {"enum": ["general", "simple"]},
                        "kind": {"enum": ["local", "online"]},
                        "seats": {
                            "type": "array",
                            "minItems": 2,
                            "maxItems": 8,
                            "items": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string", "maxLength": MAX_NAME},
                                    "player": {"enum": ["human", *COMPUTER_LEVELS]},
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
                "Game": {"type": "object", "description": "See docs/protocol.md, 'state'"},
                "GameList": {
                    "type": "object",
                    "properties": {"games": {"type": "array", "items": {"type": "object"}}},
                },
            }
        },
    }
