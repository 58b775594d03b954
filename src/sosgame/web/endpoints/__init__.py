"""The web app's endpoints, as module-level functions grouped by resource: :mod:`.site` (the
page, texts, settings, the API's description, health), :mod:`.games` (the lobby, new games and
uploads, seats, invites, rematches), :mod:`.records` (a game's record, replay, move list and
analysis), :mod:`.play` (a game's WebSocket) and :mod:`.errors` (how errors are answered).
The named players' endpoints are :class:`sosgame.web.accounts.Accounts`'s.

Each endpoint reads the server's parts from ``request.app.state`` (see :mod:`.common`);
:func:`sosgame.web.app.create_app` puts them there and lists the routes.
"""
