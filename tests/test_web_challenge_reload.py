"""A challenge outlives its challenger's page for a while, as on lichess: a page reloaded (its
lobby connection closed, another opened, through any process) takes its challenges back and
is paired when one is accepted; a challenger gone for good has them withdrawn after
``LEFT_GRACE_MS``; another page of theirs still open takes them at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sosgame.web.matchmaking import lobby as lobby_module
from test_web_live_lobby import CASUAL_SEEK, _code, add_players, connected, last
from test_web_pools import FakeClock, lobbies, run


def test_a_reloaded_page_takes_its_challenge_back_and_plays_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8)
            ann = connected(one, "P7", account=7)
            bao = connected(two, "P8", account=8)
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            await one.gone(ann.client)  # the page reloads
            clock.advance(1)
            await two.sweep()
            assert [c["id"] for c in (await last(bao, "challenges"))["challenges"]] == [made]
            # Nobody can accept it while its challenger is away: they would hold no seat.
            assert await _code(two.join_seek(bao.client, made, challenge=True)) == "no_challenge"
            again = connected(two, "P7", account=7)  # the new page, through the other process
            await two.greet(again.client)
            shown = (await last(again, "challenges"))["challenges"]
            assert [(c["id"], c["mine"]) for c in shown] == [(made, True)]
            await two.join_seek(bao.client, made, challenge=True)
            await two.sweep()
            (paired,) = await again.received("paired")
            room = await two.hub.room(paired["game"])
            assert room is not None and room.controlled(paired["token"]) == {paired["seat"]}
            # The challenger's old page was told nothing more.
            assert await ann.received("paired") == []

    run(scenario)


def test_a_challenger_who_does_not_come_back_has_it_withdrawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_module, "LEFT_GRACE_MS", 50)

    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8)
            ann = connected(one, "P7", account=7)
            bao = connected(two, "P8", account=8)
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            await one.gone(ann.client)
            await asyncio.sleep(0.3)
            clock.advance(1)
            await two.sweep()
            assert (await last(bao, "challenges"))["challenges"] == []
            again = connected(one, "P7", account=7)
            await one.greet(again.client)
            assert await _code(two.join_seek(bao.client, made, challenge=True)) == "no_challenge"

    run(scenario)


def test_another_open_page_of_the_challenger_takes_it_at_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8)
            lobby_page = connected(one, "P7", account=7)
            other_page = connected(one, "P7", account=7)
            bao = connected(two, "P8", account=8)
            await one.challenge(lobby_page.client, CASUAL_SEEK, 8)
            made = (await last(lobby_page, "challenge_sent"))["challenge"]
            await one.sweep()
            # Every page of the challenger's shows it as theirs.
            shown = (await last(other_page, "challenges"))["challenges"]
            assert [(c["id"], c["mine"]) for c in shown] == [(made, True)]
            await one.gone(lobby_page.client)  # left the lobby for another page
            await two.join_seek(bao.client, made, challenge=True)
            await one.sweep()
            (paired,) = await other_page.received("paired")
            assert paired["game"]

    run(scenario)
