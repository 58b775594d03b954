"""Alembic migrations for the web app's database."""
