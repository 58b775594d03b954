"""Alembic's entry point: runs the migrations on the connection the caller hands over."""

from __future__ import annotations

from alembic import context

from sosgame.web.storage.schema import METADATA

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through sosgame.web.storage.store.migrate")
context.configure(connection=connection, target_metadata=METADATA, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
