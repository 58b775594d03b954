"""``sosgame serve``: the browser app on a local web server."""

from __future__ import annotations

import argparse
from typing import Any

from sosgame.cli.language import subcommand, t
from sosgame.errors import SosError
from sosgame.extras import require
from sosgame.web.defaults import DEFAULT_DATABASE

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subcommand(commands, "serve")
    parser.add_argument("--host", default="127.0.0.1", help=t("cli.serve.host"))
    parser.add_argument("--port", type=int, default=8000, help=t("cli.serve.port"))
    parser.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        metavar="URL",
        help=t("cli.serve.database", default=DEFAULT_DATABASE),
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    if not 0 <= arguments.port <= 65535:
        raise SosError(t("cli.serve.bad_port", port=arguments.port))
    require("web", "sosgame serve")
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from sosgame.web import create_app
    from sosgame.web.protocol import MAX_MESSAGE_BYTES

    try:
        make_url(arguments.database)
    except ArgumentError:
        raise SosError(t("cli.serve.bad_url", url=repr(arguments.database))) from None
    try:
        app = create_app(arguments.database)
    except Exception as error:
        raise SosError(
            t("cli.serve.bad_database", url=repr(arguments.database), error=error)
        ) from None
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
