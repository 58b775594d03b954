"""An Arena's pairing tick: which waiting players play each other now, and who moves first.

A pure function of the players waiting, the clock and the time, as lichess pairs its Arenas
(``modules/tournament/src/main/arena/PairingSystem.scala``, ``AntmaPairing.scala``,
``WaitingUsers.scala``, ``ColorHistory.scala``):

* nobody is paired in the last seconds (:func:`pairings_closed`), nor, once some have played,
  before at least two have waited long enough (:func:`wait_seconds`, longer for longer games)
  unless over 100 wait, or most players of a small tournament do;
* with an odd number waiting, the newest comer waits for the next tick, unless that leaves
  no pair at all;
* in the first 15 s, while nobody has played, everyone is paired with their neighbour in the
  standings;
* afterwards the players, sorted by rank, are paired by a minimum-weight matching among the
  maximum-cardinality matchings (:func:`min_weight_matching`: rustworkx's blossom algorithm,
  as lichess's ``WMMatching.minWeightMatching``: the weights turned into ``max + 1 - w`` for
  a maximum-weight matching of maximum cardinality); a pair's weight is
  ``|rank difference| * (300 + 1700 * (max rank - better rank) / max rank) + |rating
  difference|``, ranks counted from 0 for the leader, and no pair is made of two players who
  just played each other, or who have both moved first (or both second) three games in a row;
* over 100 waiting, the two best groups of up to 100 (by rank) are matched so, and up to six
  more groups are paired with their neighbours;
* the first move goes to the one who had it less (:class:`FirstMoves`), by lot when even.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sosgame.tournaments.requirements import require_tournaments
from sosgame.tournaments.settings import Clock

__all__ = [
    "GROUP_SIZE",
    "MAX_STRIKE",
    "RECENT_START_SECONDS",
    "ArenaPair",
    "FirstMoves",
    "WaitingPlayer",
    "min_weight_matching",
    "pair_arena",
    "pair_weight",
    "pairings_closed",
    "wait_seconds",
]

GROUP_SIZE: Final = 100
"""The most players one matching takes: its time grows as the cube of their number."""
MAX_STRIKE: Final = 3
"""Two players who both moved first (or both second) this many games in a row never meet."""
RECENT_START_SECONDS: Final = 15
"""The first seconds of an Arena, when neighbours in the standings are paired at once."""


@dataclass(frozen=True)
class FirstMoves:
    """Who moved first in a player's games: ``strike`` games in a row moving first (or, below
    zero, second), and ``balance``, the games moving first less those moving second."""

    strike: int = 0
    balance: int = 0

    @classmethod
    def of(cls, firsts: Iterable[bool]) -> FirstMoves:
        """The history of games played in this order, each ``True`` if the player moved first."""
        history = cls()
        for first in firsts:
            history = history.then(first)
        return history

    def then(self, first: bool) -> FirstMoves:
        """This history after one more game."""
        if first:
            return FirstMoves(max(self.strike + 1, 1), self.balance + 1)
        return FirstMoves(min(self.strike - 1, -1), self.balance - 1)

    def could_meet(self, other: FirstMoves) -> bool:
        """False if both would need the same turn, having had the other :data:`MAX_STRIKE`
        games in a row."""
        return (self.strike > -MAX_STRIKE or other.strike > -MAX_STRIKE) and (
            self.strike < MAX_STRIKE or other.strike < MAX_STRIKE
        )

    def goes_first_against(self, other: FirstMoves, coin: random.Random) -> bool:
        """Whether this player moves first against ``other``: the one who had it less."""
        mine, theirs = (self.strike, self.balance), (other.strike, other.balance)
        return mine < theirs or (mine == theirs and coin.random() < 0.5)


@dataclass(frozen=True)
class WaitingPlayer:
    """A player on the tournament's page, not in a game, not paused."""

    id: str
    rank: int
    """Place in the current standings, from 1."""
    rating: int
    first_moves: FirstMoves
    last_opponent: str | None
    """The opponent of the player's last game in this tournament."""
    waiting_since: int
    """When the player started waiting (ms)."""


@dataclass(frozen=True)
class ArenaPair:
    """A new game: ``first`` moves first."""

    first: str
    second: str


def wait_seconds(clock: Clock, cells: int) -> int:
    """How long players wait before a tick pairs them, growing with the expected game."""
    estimate = clock.estimate_seconds(cells)
    if estimate < 30:
        return 8
    if estimate < 60:
        return 10
    return min(max(estimate // 10 + 6, 15), 50)


def pairings_closed(clock: Clock, now: int, ends_at: int) -> bool:
    """True in an Arena's last seconds (half the initial time, 30 s to 2 min): a game begun
    then could not end in time."""
    return (ends_at - now) // 1000 < max(30, min(clock.initial // 2, 120))


def _waited_enough(waiting: Sequence[WaitingPlayer], clock: Clock, cells: int, now: int) -> bool:
    if len(waiting) > GROUP_SIZE:
        return True
    since = now - wait_seconds(clock, cells) * 1000
    return sum(player.waiting_since < since for player in waiting) > 1


def pair_weight(a: WaitingPlayer, b: WaitingPlayer, max_rank: int) -> int:
    """The cost of pairing ``a`` with ``b`` in a group whose worst rank (from 0) is
    ``max_rank``: rank matters more near the top (a factor of 2000 for the leader, 300 for
    the last)."""
    better = min(a.rank, b.rank) - 1
    factor = 300 + 1700 * (max_rank - better) // max_rank if max_rank else 2000
    return abs(a.rank - b.rank) * factor + abs(a.rating - b.rating)


def _just_played(a: WaitingPlayer, b: WaitingPlayer) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def _ordered(a: WaitingPlayer, b: WaitingPlayer, coin: random.Random) -> ArenaPair:
    if a.first_moves.goes_first_against(b.first_moves, coin):
        return ArenaPair(a.id, b.id)
    return ArenaPair(b.id, a.id)


def _neighbours(players: Sequence[WaitingPlayer], coin: random.Random) -> list[ArenaPair]:
    return [_ordered(a, b, coin) for a, b in zip(players[::2], players[1::2], strict=False)]


def _by_lot(players: Sequence[WaitingPlayer], coin: random.Random) -> list[ArenaPair]:
    pairs = []
    for a, b in zip(players[::2], players[1::2], strict=False):
        pairs.append(ArenaPair(a.id, b.id) if coin.random() < 0.5 else ArenaPair(b.id, a.id))
    return pairs


def min_weight_matching(edges: Sequence[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """The minimum-weight matching among the maximum-cardinality ones of a graph given by
    its weighted edges (node numbers, weights), each pair as ``(smaller, larger)``.

    Like networkx's :func:`~networkx.min_weight_matching` (and lila's ``WMMatching``), each
    weight ``w`` becomes ``max + 1 - w`` for a maximum-weight matching of maximum
    cardinality: all maximum-cardinality matchings have as many edges, so the heaviest of
    them under the new weights is the lightest under the old. The matching is rustworkx's,
    a compiled port of networkx's blossom algorithm: the same matchings (the tests check
    them against networkx's), 30 times sooner for 100 players.
    """
    import rustworkx

    if not edges:
        return set()
    top = 1 + max(weight for _, _, weight in edges)
    graph: Any = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(1 + max(max(i, j) for i, j, _ in edges)))
    graph.add_edges_from([(i, j, top - weight) for i, j, weight in edges])
    matched = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return {(min(i, j), max(i, j)) for i, j in matched}


def _best(players: Sequence[WaitingPlayer], coin: random.Random, *, duel: bool) -> list[ArenaPair]:
    if len(players) < 2:
        return []
    max_rank = max(player.rank for player in players) - 1
    edges = []
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            if duel:
                edges.append((i, j, 1))
            elif not _just_played(a, b) and a.first_moves.could_meet(b.first_moves):
                edges.append((i, j, pair_weight(a, b, max_rank)))
    return [_ordered(players[i], players[j], coin) for i, j in sorted(min_weight_matching(edges))]


def _prepare(
    players: Sequence[WaitingPlayer], coin: random.Random, *, initial: bool, duel: bool
) -> list[ArenaPair]:
    idles = sorted(players, key=lambda player: (player.rank, player.id))
    if len(idles) < 2:
        return []
    if initial:
        return _by_lot(idles, coin)
    if len(idles) <= GROUP_SIZE:
        return _best(idles, coin, duel=duel)
    group = min(len(idles) // 4 * 2, GROUP_SIZE)
    return (
        _best(idles[:group], coin, duel=duel)
        + _best(idles[group : 2 * group], coin, duel=duel)
        + _neighbours(idles[2 * group : 8 * group], coin)
    )


def pair_arena(
    waiting: Sequence[WaitingPlayer],
    *,
    clock: Clock,
    cells: int,
    now: int,
    starts_at: int,
    ends_at: int,
    active: int | None = None,
    coin: random.Random | None = None,
) -> list[ArenaPair]:
    """The games one tick starts among ``waiting``, best ranked first.

    ``active`` is the number of players in a small tournament (12 or fewer) who have not
    withdrawn nor paused: when two thirds of them wait, they wait no longer, and when only two
    are active, they play each other again and again. ``coin``
    draws the lots (first moves between equal histories, and the first pairings).

    :raises MissingExtraError: without the ``tournaments`` extra.
    """
    require_tournaments("An Arena's pairing")
    coin = coin or random.Random()
    if len(waiting) < 2 or now < starts_at or pairings_closed(clock, now, ends_at):
        return []
    someone_played = any(player.last_opponent for player in waiting)
    # Neighbours meet only while nobody has played: a short game may end within the first
    # seconds, and its players must not meet again at once.
    initial = now - starts_at < RECENT_START_SECONDS * 1000 and not someone_played
    # In a small tournament most of whose players wait, nobody waits longer (lila's
    # makePairings).
    most_wait = active is not None and active <= len(waiting) * 1.5
    if (
        not initial
        and someone_played
        and not most_wait
        and not _waited_enough(waiting, clock, cells, now)
    ):
        return []
    duel = active == 2
    everyone = list(waiting)
    if len(everyone) % 2:
        newest = max(everyone, key=lambda player: (player.waiting_since, player.id))
        pairs = _prepare(
            [player for player in everyone if player is not newest],
            coin,
            initial=initial,
            duel=duel,
        )
        if pairs:
            return pairs
    return _prepare(everyone, coin, initial=initial, duel=duel)
