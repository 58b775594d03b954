"""What a tournament is, worked out from what is stored of it alone (a
:class:`~sosgame.web.tournaments.store.Snapshot`): its finished games as the pure core
counts them, its standings, the players waiting for an Arena's next tick, a Swiss's state,
and the JSON the API shows.

An Arena may run faster than the wall clock (``speed``, :class:`~sosgame.web.config.ServerLimits`'
``tournament_speed``, for tests and demonstrations): its times are the stored ones, stretched
from its start, so that its pairing rules see minutes where seconds passed.
"""

from __future__ import annotations

from typing import Any

from sosgame.tournaments.arena_pairing import FirstMoves, WaitingPlayer
from sosgame.tournaments.arena_scoring import ArenaGame, Entrant, arena_standings, berserk_plies
from sosgame.tournaments.settings import TournamentSettings
from sosgame.tournaments.swiss_standings import swiss_standings
from sosgame.tournaments.swiss_state import SwissEntrant, SwissGame, SwissState
from sosgame.web.tournaments.store import Snapshot, TournamentGameRow, TournamentRow

__all__ = [
    "arena_games",
    "counted",
    "ends_at",
    "forfeit_loser",
    "in_game",
    "my_state",
    "result_of",
    "scaled",
    "standings",
    "summary",
    "swiss_state",
    "tournament_json",
    "waiting_players",
    "winner",
]


def scaled(settings: TournamentSettings, real_ms: int, speed: float) -> int:
    """A stored time as the tournament's rules see it (stretched from its start)."""
    return settings.starts_at + round((real_ms - settings.starts_at) * speed)


def ends_at(settings: TournamentSettings, speed: float) -> int | None:
    """When an Arena ends by the wall clock (ms); ``None`` for a Swiss."""
    if settings.minutes is None:
        return None
    return settings.starts_at + round(settings.minutes * 60_000 / speed)


def forfeit_loser(game: TournamentGameRow) -> int | None:
    """The player who did not start an aborted game (the one whose move it was)."""
    if not game.aborted:
        return None
    # A first letter never completes an SOS: after none the first is to move, after one
    # the second.
    return game.first_id if game.plies == 0 else game.second_id


def counted(game: TournamentGameRow, until_ms: int | None = None) -> bool:
    """Whether a game counts: finished (by ``until_ms``), and if aborted, as a forfeit."""
    if not game.finished or (game.aborted and game.forfeit is None):
        return False
    return until_ms is None or game.updated_ms <= until_ms


def winner(game: TournamentGameRow) -> int | None:
    """The winner of a counted game; ``None`` for a draw."""
    if game.forfeit is not None:
        return game.second_id if game.forfeit == game.first_id else game.first_id
    if len(game.winners) == 1:
        return game.first_id if game.winners[0] == 0 else game.second_id
    return None


def in_game(snapshot: Snapshot) -> set[int]:
    """The players in a game of the tournament that goes on."""
    going = [game for game in snapshot.games if not game.finished]
    return {game.first_id for game in going} | {game.second_id for game in going}


def _until(snapshot: Snapshot, speed: float) -> int | None:
    return ends_at(snapshot.tournament.settings, speed)


def arena_games(snapshot: Snapshot, speed: float) -> list[ArenaGame]:
    """The Arena's games that count (finished by its end), as the core scores them."""
    cells = snapshot.tournament.settings.cells
    found = []
    for game in snapshot.games:
        if not counted(game, _until(snapshot, speed)):
            continue
        won = winner(game)
        found.append(
            ArenaGame(
                id=game.game_id,
                first=str(game.first_id),
                second=str(game.second_id),
                winner=None if won is None else str(won),
                plies=game.plies,
                cells=cells,
                berserk=frozenset(str(player) for player in game.berserk),
                finished_at=game.updated_ms,
            )
        )
    return found


def swiss_state(snapshot: Snapshot) -> SwissState:
    """A Swiss as the core pairs and ranks it."""
    tournament = snapshot.tournament
    return SwissState(
        rounds=tournament.settings.rounds or 0,
        entrants=tuple(
            SwissEntrant(str(one.player_id), one.name, one.rating, one.withdrawn)
            for one in snapshot.entrants
        ),
        games=tuple(
            SwissGame(
                round=game.round or 0,
                first=str(game.first_id),
                second=str(game.second_id),
                winner=None if not counted(game) or winner(game) is None else str(winner(game)),
                finished=counted(game),
                forfeit=game.forfeit is not None,
            )
            for game in snapshot.games
        ),
        byes=frozenset((str(player), number) for player, number in snapshot.byes),
        absent=frozenset(
            str(one.player_id) for one in snapshot.entrants if one.absent or one.paused
        ),
        round=tournament.round,
        first_moves_to_top=tournament.first_moves_to_top,
        name=tournament.settings.name,
    )


def standings(snapshot: Snapshot, speed: float) -> list[dict[str, Any]]:
    """The standings' lines as ``GET /api/tournaments/{id}`` shows them."""
    tournament = snapshot.tournament
    if tournament.settings.kind == "swiss":
        return [line.as_json() for line in swiss_standings(swiss_state(snapshot))]
    entrants = [Entrant(str(one.player_id), one.name, one.rating) for one in snapshot.entrants]
    over = tournament.status == "finished"
    lines = arena_standings(entrants, arena_games(snapshot, speed), over=over)
    return [line.as_json() for line in lines]


def waiting_players(snapshot: Snapshot, now_ms: int, speed: float) -> list[WaitingPlayer]:
    """The Arena's players waiting for a game: in it, not paused, not in a game; their
    times as its rules see them."""
    settings = snapshot.tournament.settings
    games = arena_games(snapshot, speed)
    entrants = [Entrant(str(one.player_id), one.name, one.rating) for one in snapshot.entrants]
    ranks = {line.id: line.rank for line in arena_standings(entrants, games, over=False)}
    busy = in_game(snapshot)
    found = []
    for one in snapshot.entrants:
        if one.withdrawn or one.paused or one.player_id in busy:
            continue
        mine = [game for game in snapshot.games if one.player_id in (game.first_id, game.second_id)]
        ended = [game.updated_ms for game in mine if game.finished]
        since = max([one.waiting_since_ms or one.joined_ms, *ended])
        last = mine[-1] if mine else None
        opponent = None
        if last is not None:
            opponent = last.second_id if last.first_id == one.player_id else last.first_id
        found.append(
            WaitingPlayer(
                id=str(one.player_id),
                rank=ranks[str(one.player_id)],
                rating=one.rating,
                first_moves=FirstMoves.of(game.first_id == one.player_id for game in mine),
                last_opponent=None if opponent is None else str(opponent),
                waiting_since=min(scaled(settings, since, speed), scaled(settings, now_ms, speed)),
            )
        )
    return found


def summary(tournament: TournamentRow, entrants: int, speed: float) -> dict[str, Any]:
    """A tournament as the lists show it."""
    settings = tournament.settings
    clock = settings.clock
    shown_clock = (
        None if clock is None else {"initial": clock.initial, "increment": clock.increment}
    )
    return {
        "id": tournament.id,
        "kind": settings.kind,
        "name": settings.name,
        "status": tournament.status,
        "rows": settings.rows,
        "cols": settings.cols,
        "mode": settings.mode,
        "clock": shown_clock,
        "days": settings.days,
        "rated": settings.rated,
        "starts_at": settings.starts_at,
        "ends_at": ends_at(settings, speed),
        "minutes": settings.minutes,
        "rounds": settings.rounds,
        "round": tournament.round,
        "bots": settings.bots,
        "open": settings.open,
        "players": entrants,
    }


def tournament_json(snapshot: Snapshot, speed: float) -> dict[str, Any]:
    """``GET /api/tournaments/{id}``: the summary, the standings and the games."""
    names = {one.player_id: one.name for one in snapshot.entrants}
    settings = snapshot.tournament.settings
    return {
        **summary(snapshot.tournament, len(snapshot.entrants), speed),
        # The moves a game must last for a berserk win's extra point (an Arena's).
        "berserk_plies": berserk_plies(settings.cells) if settings.kind == "arena" else None,
        "standings": standings(snapshot, speed),
        "bot_players": sorted(one.name for one in snapshot.entrants if one.bot),
        "games": [
            {
                "id": game.game_id,
                "round": game.round,
                "first": names.get(game.first_id),
                "second": names.get(game.second_id),
                "status": game.status,
                "berserk": sorted(names.get(player, "") for player in game.berserk),
            }
            for game in snapshot.games
        ],
    }


def my_state(snapshot: Snapshot, player_id: int) -> dict[str, bool]:
    """Where one player stands in a tournament: in it (paused or withdrawn there), its creator."""
    mine = next((one for one in snapshot.entrants if one.player_id == player_id), None)
    return {
        "joined": mine is not None,
        "paused": mine is not None and mine.paused,
        "withdrawn": mine is not None and mine.withdrawn,
        "creator": snapshot.tournament.creator_id == player_id,
    }


def result_of(snapshot: Snapshot, player_id: int, speed: float) -> dict[str, Any]:
    """A tournament as its player's page lists it: what it is, and the player's rank and
    score in its standings (``None`` for one who is no longer in them)."""
    settings = snapshot.tournament.settings
    name = next((one.name for one in snapshot.entrants if one.player_id == player_id), None)
    line = next((line for line in standings(snapshot, speed) if line["name"] == name), {})
    return {
        "id": snapshot.tournament.id,
        "name": settings.name,
        "kind": settings.kind,
        "status": snapshot.tournament.status,
        "rank": line.get("rank"),
        "score": line.get("score"),
        "players": len(snapshot.entrants),
        "starts_at": settings.starts_at,
    }
