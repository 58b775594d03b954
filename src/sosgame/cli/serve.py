"""``sosgame serve``: the browser app on a local web server."""

from __future__ import annotations

import argparse
from typing import Any

from sosgame.errors import SosError

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``serve`` subcommand."""
    from sosgame.web.store import DEFAULT_DATABASE

    parser = commands.add_parser(
        "serve",
        help="play in the browser: start the web server",
        description="Serve SOS in the browser: local games, games against the computer and"
        " online games, stored in a database.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on")
    parser.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        metavar="URL",
        help=f"a SQLAlchemy database URL (default {DEFAULT_DATABASE}, created on first run)",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    if not 0 <= arguments.port <= 65535:
        raise SosError(f"--port must be from 0 to 65535, not {arguments.port}")
    try:
        import uvicorn

        from sosgame.web import create_app
        from sosgame.web.protocol import MAX_MESSAGE_BYTES
    except ImportError as error:
        raise SosError(
            f"the web app needs the 'web' extra (pip install 'sosgame[web]'): {error}"
        ) from None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        make_url(arguments.database)
    except ArgumentError:
        raise SosError(f"--database {arguments.database!r} is not a database URL") from None
    try:
        app = create_app(arguments.database)
    except Exception as error:
        raise SosError(f"--database {arguments.database!r}: {error}") from None
    uvicorn.run(
        app,
        host=arguments.host,
        port=arguments.port,
        ws_max_size=MAX_MESSAGE_BYTES,
        # Compressing small JSON messages costs more CPU than it saves on the wire.
        ws_per_message_deflate=False,
        log_level="info",
    )
    return 0
