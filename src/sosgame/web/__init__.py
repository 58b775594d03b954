"""SOS in the browser: a Starlette app with live play over WebSockets and a SQL store.

Run it with ``sosgame serve``; :func:`create_app` builds the ASGI app itself.
"""

from sosgame.web.app import create_app

__all__ = ["create_app"]
