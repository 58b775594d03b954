"""A Swiss round's pairing, by the FIDE Dutch system of the caissify-pairings engine.

The engine is stateless: each round it is handed every player's history, worked out here
from the stored :class:`~sosgame.tournaments.swiss_state.SwissState` as FIDE's C.04.A and the
engine's reference, bbpPairings, read it from a TRF file: the points before the round, the
colours (here, who moved first) of the games played, each round's float (down when the
player met a lower score or got points without playing, up when they met a higher one), the
byes that count against another, and the pairs who have met. Only the players present are
paired: not withdrawn, not absent; an odd one out gets the bye (1 point, once per player).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from sosgame.tournaments.requirements import require_tournaments
from sosgame.tournaments.swiss_state import PLAYED, POINTS, SwissGame, SwissState

__all__ = [
    "SwissPairingError",
    "SwissRound",
    "absent_after",
    "engine_players",
    "pair_swiss",
    "play_round",
]


class SwissPairingError(ValueError):
    """A round that cannot be paired now (the last round was paired, or games are going on)."""


@dataclass(frozen=True)
class SwissRound:
    """A round's games (``first`` moves first in each) and the player given the bye."""

    number: int
    games: tuple[SwissGame, ...]
    bye: str | None


def _float(state: SwissState, player: str, number: int) -> str:
    outcome = state.outcome(player, number)
    if outcome in PLAYED:
        game = state.game_of(player, number)
        assert game is not None
        mine = state.points(player, number - 1)
        theirs = state.points(game.opponent_of(player), number - 1)
        return "down" if mine > theirs else "up" if mine < theirs else "none"
    # Points without a game float the player down (FIDE C.04.3 A.4.b).
    return "down" if POINTS[outcome] > 0 else "none"


def _colours(state: SwissState, player: str) -> list[str]:
    """Who moved first in each game played (a forfeit is not played): white moves first."""
    colours = []
    for number in range(1, state.round + 1):
        game = state.game_of(player, number)
        if game is not None and game.outcome_for(player) in PLAYED:
            colours.append("white" if game.first == player else "black")
    return colours


def engine_players(state: SwissState, present: list[str]) -> list[dict[str, Any]]:
    """The engine's view of the ``present`` players before the next round, each numbered by
    their seed."""
    players = []
    for player in present:
        entrant = state.entrant(player)
        outcomes = state.outcomes(player)
        players.append(
            {
                "id": state.seeds[player],
                "name": entrant.name,
                "score": float(state.points(player)),
                "rating": entrant.rating,
                "starting_number": state.seeds[player],
                "color_hist": _colours(state, player),
                "float_history": [
                    _float(state, player, number) for number in range(1, state.round + 1)
                ],
                # A bye is due to nobody who already scored a win without playing.
                "bye_count": sum(o in ("bye", "forfeit_win") for o in outcomes),
                "forfeit_win_count": outcomes.count("forfeit_win"),
            }
        )
    return players


def pair_swiss(state: SwissState) -> SwissRound:
    """The next round's games and bye.

    :raises SwissPairingError: after the last round, or while a game of this round goes on.
    :raises MissingExtraError: without the ``tournaments`` extra.
    """
    require_tournaments("A Swiss round's pairing")
    if state.round >= state.rounds:
        raise SwissPairingError(f"all {state.rounds} rounds have been paired")
    if any(not game.finished for game in state.games):
        raise SwissPairingError(f"round {state.round} has games still going on")
    from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

    present = [e.id for e in state.entrants if not e.withdrawn and e.id not in state.absent]
    number = state.round + 1
    if len(present) < 2:
        return SwissRound(number, (), None)
    by_seed = {state.seeds[player]: player for player in present}
    previous = {tuple(sorted((state.seeds[a], state.seeds[b]))) for a, b in state.met()}
    with warnings.catch_warnings():
        # Every float is passed; the engine warns only when all are empty (as they are for
        # players who have had no game yet, after a round of byes and absences).
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        rows = generate_pairings(
            system="dutch",
            players=engine_players(state, present),
            previous_pairings=previous,
            round_number=number,
            total_rounds=state.rounds,
            initial_color="white" if state.first_moves_to_top else "black",
            bye_value=1.0,
            max_byes_per_player=1,
        )
    games = []
    bye = None
    for row in rows:
        if row.get("bye") or row.get("black_id") is None:
            bye = by_seed[row["white_id"]]
        else:
            games.append(SwissGame(number, by_seed[row["white_id"]], by_seed[row["black_id"]]))
    return SwissRound(number, tuple(games), bye)


def play_round(state: SwissState, paired: SwissRound) -> SwissState:
    """The state once ``paired`` is made: its games begin, its bye is given.

    Whoever was absent stays so until they come back (the caller's ``absent``).
    """
    byes = state.byes | ({(paired.bye, paired.number)} if paired.bye else set())
    return SwissState(
        rounds=state.rounds,
        entrants=state.entrants,
        games=state.games + paired.games,
        byes=frozenset(byes),
        absent=state.absent,
        round=paired.number,
        first_moves_to_top=state.first_moves_to_top,
        name=state.name,
    )


def absent_after(state: SwissState) -> frozenset[str]:
    """The players absent from the next round: those already so, and those who lost this
    round's game without starting it (lichess: they are absent until they come back)."""
    lost = {
        game.opponent_of(game.winner)
        for game in state.games
        if game.round == state.round and game.forfeit and game.winner is not None
    }
    return state.absent | frozenset(lost)
