"""Personal API tokens and bot accounts, in the store's database.

A token is 32 random bytes shown once; the store keeps only its SHA-256 (a token is not a
password: nobody guesses 256 random bits, so a slow hash would only slow every request).
Each grants the scopes it was made with, on every server process, until it is revoked.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, select

from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.schema import api_tokens, games, player_seats, players, tournament_games

__all__ = [
    "SCOPES",
    "TOKENS_PER_PLAYER",
    "ApiTokens",
    "GameSeat",
    "TokenInfo",
    "new_api_token",
]

SCOPES: Final = ("bot:play", "board:play", "challenge:write", "challenge:read")
"""The scopes a token may grant."""
TOKENS_PER_PLAYER: Final = 20
"""Tokens one player may hold at once."""


def new_api_token() -> str:
    """A fresh personal API token (32 random bytes)."""
    return "sos_" + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class TokenInfo:
    """A token as listed (never the token itself), and whose it is."""

    id: str
    player_id: int
    description: str
    scopes: tuple[str, ...]
    created_ms: int

    def to_json(self) -> dict[str, Any]:
        """The token as ``GET /api/tokens`` lists it."""
        return {
            "id": self.id,
            "description": self.description,
            "scopes": list(self.scopes),
            "created": self.created_ms,
        }


@dataclass(frozen=True)
class GameSeat:
    """A game an account sits in, with its seat, status and settings."""

    game_id: str
    seat: int
    status: str
    rows: int
    cols: int
    mode: str
    rated: bool
    tournament: str | None = None
    """The id of the game's tournament, if it has one."""


def _info(row: Any) -> TokenInfo:
    return TokenInfo(
        row.id, row.player_id, row.description, tuple(row.scopes.split()), row.created_ms
    )


class ApiTokens:
    """The API tokens and the bot flags of the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def create(
        self, player_id: int, description: str, scopes: tuple[str, ...], now_ms: int
    ) -> tuple[TokenInfo, str] | None:
        """A new token of the player, with its secret (``None`` past
        :data:`TOKENS_PER_PLAYER`)."""
        token = new_api_token()
        info = TokenInfo(secrets.token_hex(8), player_id, description, scopes, now_ms)
        with self._engine.begin() as db:
            held = db.execute(
                select(api_tokens.c.id).where(api_tokens.c.player_id == player_id)
            ).all()
            if len(held) >= TOKENS_PER_PLAYER:
                return None
            db.execute(
                api_tokens.insert().values(
                    id=info.id,
                    player_id=player_id,
                    token_hash=hash_token(token),
                    description=description,
                    scopes=" ".join(scopes),
                    created_ms=now_ms,
                )
            )
        return info, token

    def listed(self, player_id: int) -> list[TokenInfo]:
        """The player's tokens, oldest first."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(api_tokens)
                .where(api_tokens.c.player_id == player_id)
                .order_by(api_tokens.c.created_ms, api_tokens.c.id)
            ).all()
        return [_info(row) for row in rows]

    def revoke(self, player_id: int, token_id: str) -> bool:
        """Delete one of the player's tokens; whether there was one."""
        with self._engine.begin() as db:
            done = db.execute(
                api_tokens.delete().where(
                    api_tokens.c.id == token_id, api_tokens.c.player_id == player_id
                )
            )
        return bool(done.rowcount)

    def resolve(self, token: str) -> TokenInfo | None:
        """The token this secret is, if it was made and not revoked (looked up by its
        hash, so the comparison takes the same time whatever the secret)."""
        with self._engine.begin() as db:
            row = db.execute(
                select(api_tokens).where(api_tokens.c.token_hash == hash_token(token))
            ).first()
        return None if row is None else _info(row)

    def make_bot(self, player_id: int) -> bool:
        """Make the account a bot's, for good; ``False`` if it has a rated game (finished,
        or one it sits in now)."""
        with self._engine.begin() as db:
            row = db.execute(select(players.c.games).where(players.c.id == player_id)).first()
            if row is None or row.games:
                return False
            rated_now = db.execute(
                select(games.c.id)
                .join(player_seats, player_seats.c.game_id == games.c.id)
                .where(player_seats.c.player_id == player_id, games.c.rated.is_(True))
                .limit(1)
            ).first()
            if rated_now is not None:
                return False
            db.execute(players.update().where(players.c.id == player_id).values(bot=True))
        return True

    def seats(self, player_id: int, game_id: str | None = None) -> list[GameSeat]:
        """The account's seats in games not finished (or in ``game_id``, finished or not)."""
        query = (
            select(
                games.c.id,
                player_seats.c.seat,
                games.c.status,
                games.c.rows,
                games.c.cols,
                games.c.mode,
                games.c.rated,
                tournament_games.c.tournament_id,
            )
            .join(player_seats, player_seats.c.game_id == games.c.id)
            .outerjoin(tournament_games, tournament_games.c.game_id == games.c.id)
            .where(player_seats.c.player_id == player_id)
        )
        if game_id is None:
            query = query.where(games.c.status != "finished")
        else:
            query = query.where(games.c.id == game_id)
        with self._engine.begin() as db:
            rows = db.execute(query.order_by(games.c.created_ms, games.c.id)).all()
        return [
            GameSeat(
                row.id,
                row.seat,
                row.status,
                row.rows,
                row.cols,
                row.mode,
                bool(row.rated),
                row.tournament_id,
            )
            for row in rows
        ]
