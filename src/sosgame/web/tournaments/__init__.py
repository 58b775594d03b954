"""Tournaments on the server: their store, their views and the task that runs them."""
