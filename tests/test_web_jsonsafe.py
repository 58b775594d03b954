"""Parsing JSON from strangers, and the server limits read from the environment."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sosgame.web import jsonsafe
from sosgame.web.config import ServerLimits

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=20,
)


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(item) for item in value.values()), default=0)
    return 0


@given(values)
def test_json_within_the_depth_limit_parses_as_the_standard_parser_does(value: object) -> None:
    text = json.dumps(value)
    if depth(value) <= 4:
        assert jsonsafe.loads(text, max_depth=4) == json.loads(text)
    else:
        with pytest.raises(jsonsafe.JsonError, match="nested at most 4 deep"):
            jsonsafe.loads(text, max_depth=4)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"a": "[[[[[[[[[[" * 10 + '\\"{{{{'})
    assert jsonsafe.loads(text, max_depth=1) == json.loads(text)


@pytest.mark.parametrize("data", [b"\xff\xfe", "{not json", "[" * 100_000])
def test_bad_json_is_a_json_error(data: str | bytes) -> None:
    with pytest.raises(jsonsafe.JsonError):
        jsonsafe.loads(data)


def test_server_limits_come_from_the_environment() -> None:
    limits = ServerLimits.from_environment(
        {"SOSGAME_MAX_CONNECTIONS_PER_GAME": "5", "SOSGAME_IDLE_SECONDS": "0.5"}
    )
    assert limits.max_connections_per_game == 5
    assert limits.idle_seconds == 0.5
    assert limits.max_connections_per_address == ServerLimits().max_connections_per_address
    with pytest.raises(ValueError, match="SOSGAME_COMPUTER_WORKERS must be a number"):
        ServerLimits.from_environment({"SOSGAME_COMPUTER_WORKERS": "many"})
    with pytest.raises(ValueError, match="must be above 0"):
        ServerLimits.from_environment({"SOSGAME_COMPUTER_WORKERS": "0"})
