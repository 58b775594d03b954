"""Tournaments: Arena (as many games as fit in the time) and Swiss (a set number of rounds).

Pure functions of stored values, so that whichever server process runs a tick or a round,
and however often, the outcome is the same:

* :mod:`.settings`: what a creator chooses (``POST /api/tournaments``), checked field by field;
* :mod:`.arena_pairing`: one pairing tick of an Arena (rustworkx's matching);
* :mod:`.arena_scoring`: an Arena's sheets (streaks, fire, berserk) and standings;
* :mod:`.swiss_state`, :mod:`.swiss_pairing`, :mod:`.swiss_standings`, :mod:`.trf`: a Swiss's
  stored state, its rounds (the FIDE Dutch engine of caissify-pairings), its standings
  (Sonneborn-Berger) and its TRF-16 file.

Pairing needs the ``tournaments`` extra (in ``web`` too); the rest needs only Python.
docs/tournaments.md explains the rules and why they are so.
"""
