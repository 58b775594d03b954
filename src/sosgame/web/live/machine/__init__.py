"""The live game as one pure machine: a frozen :class:`~.state.LiveState`, and
:func:`~.apply.apply`, which takes a state, a command and the time and returns the
:class:`~.commands.Outcome` (the new state, what to store, whom to tell, what to wait for).
:class:`sosgame.web.live.room.Room` is the shell that does the I/O."""
