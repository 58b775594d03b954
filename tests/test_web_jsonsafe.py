"""Parsing JSON from strangers, and the server limits read from the environment."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sosgame.web.config import ServerLimits
from sosgame.web.guards import jsonsafe

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


def reference_depth(text: str) -> int:
    """The nesting depth by a plain scan, one character at a time."""
    deepest = level = 0
    inside = escaped = False
    for char in text:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


@given(st.text(alphabet='[]{}"\\a\n'))
def test_the_depth_is_what_a_plain_scan_finds(text: str) -> None:
    assert jsonsafe.depth(text) == reference_depth(text)


@given(st.text(alphabet='"\\[{a'), st.integers(min_value=0, max_value=50))
def test_an_unclosed_string_runs_to_the_end_of_the_text(tail: str, brackets: int) -> None:
    # An unclosed string is read once to the end: the scan never starts again from a quote
    # inside it (which made ``"\"\"\"...`` take quadratic time), so nothing after counts.
    body = tail.replace("\\", "\\\\").replace('"', '\\"')
    text = '"' + body + '\\"' * 10 + "[" * brackets
    assert jsonsafe.depth(text) == 0
    assert jsonsafe.depth(text + "\\") == 0


def test_a_body_of_escaped_quotes_is_refused_as_unterminated() -> None:
    with pytest.raises(jsonsafe.JsonError, match="Unterminated string"):
        jsonsafe.loads('"' + '\\"' * 4096 + "[" * 40)


@pytest.mark.parametrize(
    "text",
    [
        "1" * 4301,
        "-" + "9" * 5000,
        '{"ply": ' + "1" * 101 + "}",
        "[0." + "0" * 200 + "1]",
        "1e" + "0" * 200,
    ],
    ids=["4301 digits", "-5000 digits", "in an object", "a long fraction", "a long exponent"],
)
def test_numbers_longer_than_the_limit_are_refused(text: str) -> None:
    with pytest.raises(jsonsafe.JsonError, match="at most 100 characters"):
        jsonsafe.loads(text)


def test_numbers_up_to_the_limit_and_long_digit_strings_parse() -> None:
    assert jsonsafe.loads("1" * 100) == int("1" * 100)
    assert jsonsafe.loads(json.dumps(["1" * 5000, -0.5, 1e300])) == ["1" * 5000, -0.5, 1e300]


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "1e999", "-1E400"])
def test_nan_infinity_and_numbers_beyond_a_float_are_refused(text: str) -> None:
    with pytest.raises(jsonsafe.JsonError, match=r"not a number JSON allows|too large"):
        jsonsafe.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        '"\\ud800"',
        '{"invite": "ab\\uDBFFcd"}',
        '{"\\udc00": 1}',
        '["ok", ["\\ude00\\ud83d"]]',
        '"\\ud83d\\ud83d\\ude00"',
        '"\ud800"',
    ],
)
def test_lone_surrogates_are_refused(text: str) -> None:
    with pytest.raises(jsonsafe.JsonError, match="lone surrogates"):
        jsonsafe.loads(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [('"\\ud83d\\ude00"', "\U0001f600"), ('"\\\\ud800"', "\\ud800"), ('"\\u00e9"', "\u00e9")],
)
def test_surrogate_pairs_and_escaped_backslashes_are_kept(text: str, value: str) -> None:
    assert jsonsafe.loads(text) == value


@given(st.text())
def test_any_string_parses_to_itself(value: str) -> None:
    # st.text() never yields lone surrogates: every string it makes is valid Unicode.
    assert jsonsafe.loads(json.dumps(value)) == value
    assert jsonsafe.loads(json.dumps(value, ensure_ascii=False).encode("utf-8")) == value


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
