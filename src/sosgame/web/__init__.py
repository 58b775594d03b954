"""SOS in the browser: a Starlette app with live play over WebSockets and a SQL store.

Run it with ``sosgame serve``; :func:`create_app` builds the ASGI app itself. The ``web`` extra
(``pip install 'sosgame[web]'``) brings what it needs; importing this package needs nothing, so
the command line can describe ``serve`` on any install.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from sosgame.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
