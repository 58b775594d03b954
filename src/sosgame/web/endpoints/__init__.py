"""The web app's endpoints, as module-level functions grouped by resource: :mod:`.site` (the
page, texts, settings, the API's description, health), :mod:`.games` (the lobby, new games and
uploads, seats, invites, rematches), :mod:`.mine` (a player's own games), :mod:`.records` (a
game's record, replay, move list and analysis), :mod:`.puzzles`, :mod:`.lobby` (pools, seeks
and the lobby's WebSocket), :mod:`.play` (a game's WebSocket) and :mod:`.errors` (how errors
are answered). The named players' endpoints are :class:`sosgame.web.people.accounts.Accounts`'s.

Each module lists its own routes in ``ROUTES``, beside the functions they call; every
endpoint reads the server's parts from ``request.app.state`` (see :mod:`.common`), which
:func:`sosgame.web.app.create_app` fills before it joins the modules' routes.
"""
