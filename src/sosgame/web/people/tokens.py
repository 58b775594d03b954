"""Secrets: seat tokens (kept only as SHA-256) and invites to free seats."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from sosgame.web.storage.rows import SeatRow

__all__ = ["hash_token", "invite_matches", "new_invite", "new_token", "seats_opened"]


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh secret seat token."""
    return secrets.token_urlsafe(24)


def new_invite() -> str:
    """A fresh secret for a free seat's invite link."""
    return secrets.token_urlsafe(12)


def seats_opened(seats: Iterable[SeatRow], tokens: Iterable[str]) -> frozenset[int]:
    """The seats any of ``tokens`` may act for (compared in constant time)."""
    digests = [hash_token(token) for token in tokens if token]
    return frozenset(
        row.seat
        for row in seats
        if row.token_hash is not None
        and any(hmac.compare_digest(row.token_hash, digest) for digest in digests)
    )


def invite_matches(row: SeatRow, invite: str | None) -> bool:
    """Whether ``invite`` is the secret of this seat's invite link."""
    if not invite or row.invite is None:
        return False
    # Bytes, not text: compare_digest refuses text that is not ASCII.
    return hmac.compare_digest(row.invite.encode("utf-8"), invite.encode("utf-8"))
