"""Hostile clients against a real ``sosgame serve``, while an honest person plays (issue #44).

No one client, and no crowd of cheap identities, may make the server slow for others, silence
a player, or create state faster than a person could. Each test runs one attack of
``sos_attacks`` (or ``sos_attacks_play``) against the same servers, one after another, while
the probe (``sos_hostile.Probe``: a person's 26x26 game, a move every 0.2 s, in a process of
its own) times its answers; each checks the probe's p99 (under 250 ms) and max (under 500
ms) while its attack ran, and what the attack got. Every client is on loopback, each part
from addresses of its own (127.0.0.0/8), so that per-address limits see them apart.

The servers run once on SQLite and once as two processes on PostgreSQL + Redis, with a few
limits lowered so that the attacks show in seconds (``sos_hostile.LOWERED_LIMITS``).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("httpx")
pytest.importorskip("websockets")

import sos_attacks as attacks
import sos_attacks_play as play
from sos_hostile import LOWERED_LIMITS, Probe, Site, percentiles, probe_failures, probing, serving
from sos_services import new_postgres_database, new_redis_database

# Alone, after the rest of the suite (`make test` runs `-m hostile` on its own): any other
# test's servers, browsers or searches beside these would skew the probe's timings. Should
# they run under `pytest -n` anyway, they keep to one worker, one attack at a time.
pytestmark = [pytest.mark.hostile, pytest.mark.xdist_group("hostile")]

GAMES_PER_ADDRESS = int(LOWERED_LIMITS["SOSGAME_GAMES_PER_ADDRESS"])
NEW_GAMES_PER_ADDRESS = int(LOWERED_LIMITS["SOSGAME_NEW_GAMES_PER_ADDRESS"])
FIRST_MOVE_SECONDS = float(LOWERED_LIMITS["SOSGAME_FIRST_MOVE_SECONDS"])


@dataclass
class Arena:
    """The servers under attack and the probe beside them."""

    site: Site
    probe: Probe

    def attack(
        self, work: Coroutine[Any, Any, dict[str, Any]]
    ) -> tuple[dict[str, Any], list[float]]:
        """Run one attack: its figures, and the probe's answer times (ms) while it ran."""
        began = time.time()
        figures = asyncio.run(work)
        return figures, self.probe.times(began, time.time())


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.redis)]
)
def arena(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Arena]:
    """One ``sosgame serve`` on SQLite, or two on PostgreSQL + Redis, and the probe."""
    folder = tmp_path_factory.mktemp(f"hostile-{request.param}")
    if request.param == "sqlite":
        database = f"sqlite:///{folder / 'hostile.sqlite3'}"
        options, processes = ["--database", database], 1
    else:
        server = request.getfixturevalue("postgres_server")
        database = new_postgres_database(server, f"sosgame_hostile_{os.getpid()}")
        redis = new_redis_database(request.getfixturevalue("redis_server"))
        options, processes = ["--database", database, "--redis", redis], 2
    with (
        serving(folder, options, database, processes, LOWERED_LIMITS) as site,
        probing(site) as probe,
    ):
        yield Arena(site, probe)


def held(figures: dict[str, Any], times: list[float], **outcomes: bool) -> None:
    """Fail, naming everything that did not hold: the probe's targets and ``outcomes``."""
    failures = probe_failures(times) + [name for name, ok in outcomes.items() if not ok]
    print(json.dumps({**figures, "probe_ms": percentiles(times)}))
    assert not failures, f"{'; '.join(failures)}; figures: {json.dumps(figures)}"


async def _quiet() -> dict[str, Any]:
    await asyncio.sleep(2.0)  # the probe alone: the machine's own noise, for comparison
    return {}


def test_the_probe_alone_meets_its_targets(arena: Arena) -> None:
    figures, times = arena.attack(_quiet())
    held(figures, times)


# ---------------------------------------------------------------- bounded before parsed


def test_huge_request_headers_are_refused_with_431(arena: Arena) -> None:
    figures, times = arena.attack(attacks.huge_headers(arena.site, requests=3, mib=8))
    held(figures, times, every_request_answered_431=figures["answers"] == {"431": 3})


def test_many_large_json_bodies_at_once_are_all_answered_and_none_with_a_500(
    arena: Arena,
) -> None:
    figures, times = arena.attack(attacks.many_bodies(arena.site, bodies=200, kib=256))
    answers = figures["answers"]
    held(
        figures,
        times,
        every_body_answered_4xx=all(code[:1] == "4" for code in answers),
        all_200_answered=sum(answers.values()) == 200,
    )


def test_bodies_that_trickle_in_are_cut_off(arena: Arena) -> None:
    figures, times = arena.attack(attacks.slow_bodies(arena.site, connections=100))
    held(figures, times, every_slow_body_closed=figures["closed_by_the_server"] == 100)


def test_clients_hanging_up_mid_body_log_no_traceback(arena: Arena) -> None:
    figures, times = arena.attack(attacks.hang_ups(arena.site, count=200))
    held(figures, times, no_traceback_logged=figures["tracebacks"] == 0)


def test_a_second_host_or_origin_and_an_origin_of_another_scheme_are_refused(
    arena: Arena,
) -> None:
    figures, times = arena.attack(attacks.duplicate_headers(arena.site))
    held(
        figures,
        times,
        second_host_refused_400=figures["second_host"] == "400",
        second_origin_refused_403=figures["second_origin"] == "403",
        other_scheme_refused_403=figures["other_scheme"] == "403",
    )


def test_x_forwarded_for_picks_no_address_when_no_proxy_is_named(arena: Arena) -> None:
    figures, times = arena.attack(attacks.forwarded_for(arena.site, attempts=11))
    held(figures, times, eleventh_login_rate_limited=figures["answers"][-1] == "429 rate_limited")


# ---------------------------------------------------------------- chat per person


def test_a_spectator_chat_burst_closes_no_honest_spectator(arena: Arena) -> None:
    game = arena.probe.game()
    figures, times = arena.attack(play.spectator_burst(arena.site, game, sockets=199))
    held(
        figures,
        times,
        honest_spectator_still_connected=figures["honest_closed"] is None,
        honest_spectator_heard_itself=figures["honest_heard_itself"],
    )


def test_sockets_of_one_seat_share_its_chat_rate_and_leave_the_opponent_its_share(
    arena: Arena,
) -> None:
    figures, times = arena.attack(play.seat_chat_flood(arena.site, sockets=100, each=5))
    held(
        figures,
        times,
        one_seat_within_one_rate=figures["past_the_rate"] <= figures["allowed"],
        opponent_can_still_chat=figures["opponent_said"] == "said",
    )


def test_free_text_chat_stops_on_a_socket_opened_before_logout(arena: Arena) -> None:
    figures, times = arena.attack(play.chat_after_logout(arena.site))
    held(
        figures,
        times,
        said_while_logged_in=figures["before"] == "said",
        logged_out=figures["logout"] == "200",
        refused_after_logout=figures["after"] not in ("said", "no answer"),
    )


def test_a_takeback_after_both_seats_moved_does_not_reopen_abort(arena: Arena) -> None:
    figures, times = arena.attack(play.takeback_abort(arena.site))
    held(
        figures,
        times,
        abort_closed=figures["can_abort_after_the_takeback"] is False,
        abort_refused=figures["abort"].startswith("refused"),
    )


# ---------------------------------------------------------------- caps count what is made


def test_pool_pairing_makes_no_more_games_than_the_address_cap_and_unopened_ones_abort(
    arena: Arena,
) -> None:
    figures, times = arena.attack(play.pool_minting(arena.site, pairs=4, seconds=4.0))
    games = figures.pop("games")
    ended = asyncio.run(play.unopened_games_end(arena.site, games, FIRST_MOVE_SECONDS + 10))
    figures["unopened"] = ended
    held(
        figures,
        times,
        # Unopened games are aborted as the attack goes on, and stop counting as unfinished:
        # what bounds the games one address makes is the cap of games made in a while.
        within_the_address_cap=figures["made"] <= NEW_GAMES_PER_ADDRESS,
        unopened_games_aborted=ended["in_the_store"] == {"finished aborted": len(games)},
    )


def test_two_accounts_of_one_address_are_not_paired_in_a_rated_pool(arena: Arena) -> None:
    figures, times = arena.attack(play.rated_pool_same_address(arena.site))
    held(
        figures,
        times,
        twins_not_paired_together=not figures["twins_paired_together"],
        stranger_paired_with_a_twin=figures["stranger_paired_with_a_twin"],
    )


def test_uploads_in_a_loop_are_rate_limited_like_replays(arena: Arena) -> None:
    figures, times = arena.attack(attacks.uploads(arena.site, seconds=3.0))
    refusals = [code for code in figures["answers"] if code != "201"]
    held(
        figures,
        times,
        within_the_read_rate=figures["accepted"] <= figures["allowed"],
        refused_with_429=all(code.startswith("429") for code in refusals),
    )


def test_cold_loads_of_stored_games_are_rate_limited_like_replays(arena: Arena) -> None:
    stored = asyncio.run(attacks.stored_games(arena.site, 100))
    figures, times = arena.attack(attacks.cold_loads(arena.site, stored))
    refusals = [code for code in figures["answers"] if code != "200"]
    held(
        figures,
        times,
        within_the_read_rate=figures["loaded"] <= figures["allowed"],
        refused_with_429=all(code.startswith("429") for code in refusals),
    )


# ---------------------------------------------------------------- heavy work in its own lane


def test_wrong_logins_from_many_addresses_keep_an_honest_claim_and_replay_quick(
    arena: Arena,
) -> None:
    figures, times = arena.attack(attacks.logins(arena.site, addresses=20, each=10))
    claimed, replay = figures["honest_claim"], figures["honest_replay"]
    held(
        figures,
        times,
        wrong_logins_answered_4xx=all(code[:1] == "4" for code in figures["answers"]),
        honest_claim_answered_in_time=claimed["answer"] in ("201", "429 rate_limited")
        and claimed["seconds"] < attacks.LOGIN_ANSWER_SECONDS,
        honest_replay_answered_in_time=replay["answer"] == "200"
        and replay["seconds"] < attacks.REPLAY_ANSWER_SECONDS,
    )


# ---------------------------------------------------------------- ratings and names


def test_fresh_accounts_throwing_games_put_nobody_on_the_leaderboard(arena: Arena) -> None:
    figures, times = arena.attack(play.rating_farm(arena.site, farmers=8, games_each=3))
    held(figures, times, farmed_account_not_on_the_leaderboard=not figures["on_the_leaderboard"])


def test_a_puzzle_solution_shown_to_a_guest_is_unrated_for_an_account_of_its_address(
    arena: Arena,
) -> None:
    figures, times = arena.attack(play.puzzle_replay(arena.site))
    held(figures, times, solved=figures["solved"] is True, unrated=figures["rated"] is None)


def test_names_that_look_alike_within_one_script_are_refused(arena: Arena) -> None:
    figures, times = arena.attack(play.confusable_names(arena.site))
    answers = figures["answers"]
    held(
        figures,
        times,
        originals_claimed=[answers[name] for name in ("Alice", "Paypal", "Ian", "bob")]
        == ["201"] * 4,
        look_alikes_refused=[answers[name] for name in ("AIice", "PaypaI", "lan", "b0b")]
        == ["409 name_confusable"] * 4,
    )
