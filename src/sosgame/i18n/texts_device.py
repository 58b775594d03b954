"""The browser's texts of play on the player's device: the control that turns offline play
on, a game on the device and its place in "My games" (sent with the others by
``GET /api/i18n``).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("web.kind.device", "On this device, no connection needed"),
    text("web.device.turn_on", "Turn on offline play ({size} MB to download)"),
    text("web.device.downloading", "Downloading offline play: {percent}%"),
    text("web.device.starting", "Starting the game engine on this device…"),
    text("web.device.ready", "Offline play is ready"),
    text("web.device.not_installed", "Offline play is not installed on this server"),
    text("web.device.failed", "Offline play could not start: {message}"),
    text("web.device.levels", "Computer levels on this device: {levels}"),
    text("web.device.level.random", "random"),
    text("web.device.level.easy", "easy"),
    text("web.device.level.medium", "medium"),
    text("web.device.level.hard", "hard"),
    text(
        "web.device.compare",
        "Random, easy and medium play here exactly as on the server; hard searches less deeply"
        " here, a little weaker than the server's hard in general games and as strong in"
        " simple ones.",
    ),
    text("web.device.on_device", "Played on this device."),
    text("web.device.my_games", "On this device"),
    text("web.device.unfinished", "Not finished"),
    text("web.device.upload", "Upload for analysis"),
]
