"""A Swiss as a FIDE TRF-16 file, the format the pairing engines read, so that any round can
be paired again by the engine (``caissify-pairings-check``) or by bbpPairings and compared.

Each player is numbered by seed; each round is a game (opponent, ``w`` for the one who moved
first, result ``1``, ``=``, ``0``, ``+`` or ``-`` for a forfeit, blank while it goes on) or a
game not played: ``U`` the bye, ``H`` a first round missed (half a point), ``-`` absent. A
player absent or withdrawn from the next round gets ``-`` for it already, as lichess writes
(JaVaFo's extension), so that the engine leaves them out.
"""

from __future__ import annotations

from typing import Final

from sosgame.tournaments.requirements import require_tournaments
from sosgame.tournaments.swiss_state import Outcome, SwissState

__all__ = ["swiss_trf"]

_CODES: Final[dict[Outcome, str]] = {
    "win": "1",
    "draw": "=",
    "loss": "0",
    "forfeit_win": "+",
    "forfeit_loss": "-",
    "ongoing": "",
    "bye": "U",
    "late": "H",
    "absent": "-",
}


def swiss_trf(state: SwissState) -> str:
    """The TRF-16 text of ``state``.

    :raises MissingExtraError: without the ``tournaments`` extra (its engine writes the file).
    """
    require_tournaments("A Swiss's TRF file")
    from caissify_pairings.trf import write_trf

    players = []
    for entrant in state.entrants:
        seed = state.seeds[entrant.id]
        results: dict[int, dict[str, object]] = {}
        for number in range(1, state.round + 1):
            outcome = state.outcome(entrant.id, number)
            game = state.game_of(entrant.id, number)
            if game is None:
                results[number] = {"opponent": None, "result": _CODES[outcome]}
            else:
                results[number] = {
                    "opponent": state.seeds[game.opponent_of(entrant.id)],
                    "color": "w" if game.first == entrant.id else "b",
                    "result": _CODES[outcome],
                }
        away = entrant.withdrawn or entrant.id in state.absent
        if away and state.round < state.rounds:
            results[state.round + 1] = {"opponent": None, "result": "-"}
        players.append(
            {
                "starting_number": seed,
                "name": entrant.name,
                "rating": entrant.rating,
                "score": float(state.points(entrant.id)),
                "results": results,
            }
        )
    tournament = {
        "name": state.name,
        "system": "Individual: Swiss-System",
        "color_method": "white1" if state.first_moves_to_top else "black1",
    }
    text: str = write_trf(tournament, players, state.rounds)
    return text + "\n"
