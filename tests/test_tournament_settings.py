"""A tournament's settings as POST /api/tournaments gives them: each wrong field named."""

from __future__ import annotations

import pytest

from sosgame.tournaments.settings import (
    Clock,
    TournamentSettingsError,
    parse_settings,
)

ARENA = {
    "kind": "arena",
    "name": "Hourly  5x5 Arena",
    "rows": 5,
    "cols": 5,
    "mode": "simple",
    "clock": {"initial": 60, "increment": 1},
    "rated": True,
    "starts_at": 1_800_000_000_000,
    "minutes": 60,
    "bots": False,
}
SWISS = {
    "kind": "swiss",
    "name": "Daily Swiss",
    "rows": 7,
    "cols": 7,
    "mode": "general",
    "days": 2,
    "rated": True,
    "starts_at": 1_800_000_000_000,
    "rounds": 7,
    "bots": True,
}


def test_an_arena_and_a_swiss_as_the_protocol_names_them() -> None:
    arena = parse_settings(ARENA)
    assert (arena.kind, arena.name, arena.clock, arena.days, arena.minutes, arena.rounds) == (
        "arena",
        "Hourly 5x5 Arena",
        Clock(60, 1),
        None,
        60,
        None,
    )
    assert arena.ends_at == ARENA["starts_at"] + 3_600_000  # type: ignore[operator]
    assert arena.open and arena.cells == 25
    swiss = parse_settings(SWISS)
    assert (swiss.clock, swiss.days, swiss.rounds, swiss.ends_at, swiss.bots) == (
        None,
        2,
        7,
        None,
        True,
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "knockout"}, "kind"),
        ({"name": "x"}, "name"),
        ({"name": 7}, "name"),
        ({"rows": 0}, "rows"),
        ({"cols": 27}, "cols"),
        ({"rows": 2, "cols": 2}, "cols"),
        ({"mode": "misere"}, "mode"),
        ({"clock": {"initial": 0}}, "clock.initial"),
        ({"clock": {"initial": 60, "increment": 999}}, "clock.increment"),
        ({"clock": {"initial": 60, "delay": 2}}, "clock"),
        ({"clock": None}, "clock"),
        ({"days": 2}, "clock"),
        ({"rated": "yes"}, "rated"),
        ({"starts_at": -1}, "starts_at"),
        ({"minutes": 1}, "minutes"),
        ({"rounds": 5}, "rounds"),
        ({"bots": 1}, "bots"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_each_wrong_arena_field_is_named(change: dict[str, object], field: str) -> None:
    with pytest.raises(TournamentSettingsError) as raised:
        parse_settings({**ARENA, **change})
    assert raised.value.field == field
    assert repr(field) in str(raised.value)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rounds": 2}, "rounds"),
        ({"rounds": None}, "rounds"),
        ({"minutes": 60}, "minutes"),
        ({"days": 4}, "days"),
        ({"days": True}, "days"),
    ],
)
def test_each_wrong_swiss_field_is_named(change: dict[str, object], field: str) -> None:
    with pytest.raises(TournamentSettingsError) as raised:
        parse_settings({**SWISS, **change})
    assert raised.value.field == field


def test_an_arena_is_played_on_the_clock() -> None:
    body = {**ARENA, "clock": None, "days": 1}
    with pytest.raises(TournamentSettingsError) as raised:
        parse_settings(body)
    assert raised.value.field == "days"


def test_each_error_reads_in_the_players_language() -> None:
    from sosgame.i18n import error_text, translator

    with pytest.raises(TournamentSettingsError) as raised:
        parse_settings({**ARENA, "minutes": 1})
    assert error_text(translator("en"), raised.value) == str(raised.value)
    assert error_text(translator("vi"), raised.value) == (
        "trường 'minutes' phải là số nguyên từ 5 đến 720"
    )
    assert error_text(translator("hi"), raised.value) == (
        "फ़ील्ड 'minutes' 5 से 720 तक की पूर्ण संख्या होनी चाहिए"
    )
