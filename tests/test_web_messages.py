"""Client messages parsed once, each into its own frozen dataclass with exactly its type's
fields, and refused with the same codes and messages as the wire protocol has them."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from sosgame.web.live.protocol import (
    AbortMessage,
    AnswerMessage,
    ChatMessage,
    ClaimMessage,
    HelloMessage,
    HintMessage,
    MoveMessage,
    OfferMessage,
    PingMessage,
    ProtocolError,
    RedoMessage,
    ResignMessage,
    UndoMessage,
    WithdrawMessage,
    parse_client_message,
)

PARSED = [
    (
        {"type": "hello", "token": "t", "tokens": ["u"]},
        HelloMessage,
        {"token": "t", "tokens": ("u",)},
    ),
    ({"type": "hello", "token": None}, HelloMessage, {"token": None, "tokens": ()}),
    ({"type": "move", "move": "Sb3", "ply": 4}, MoveMessage, {"move": "Sb3", "ply": 4}),
    ({"type": "resign", "ply": 2}, ResignMessage, {"seat": None, "ply": 2}),
    ({"type": "resign", "seat": 1, "ply": 2}, ResignMessage, {"seat": 1, "ply": 2}),
    ({"type": "undo", "ply": 3}, UndoMessage, {"ply": 3}),
    ({"type": "redo"}, RedoMessage, {"ply": None}),
    ({"type": "hint"}, HintMessage, {}),
    ({"type": "offer", "offer": "draw", "ply": 1}, OfferMessage, {"offer": "draw", "ply": 1}),
    ({"type": "offer", "offer": "rematch"}, OfferMessage, {"offer": "rematch", "ply": None}),
    (
        {"type": "answer", "offer": "takeback", "accept": False},
        AnswerMessage,
        {"offer": "takeback", "accept": False, "ply": None},
    ),
    ({"type": "withdraw", "offer": "draw"}, WithdrawMessage, {"offer": "draw", "ply": None}),
    ({"type": "abort", "ply": 0}, AbortMessage, {"ply": 0}),
    ({"type": "claim", "claim": "win"}, ClaimMessage, {"claim": "win", "ply": None}),
    ({"type": "ping"}, PingMessage, {}),
    ({"type": "chat", "phrase": "thanks"}, ChatMessage, {"text": None, "phrase": "thanks"}),
    ({"type": "chat", "text": " hi\n "}, ChatMessage, {"text": "hi", "phrase": None}),
]


def parse(**fields: Any) -> Any:
    return parse_client_message(json.dumps({"v": 1, **fields}))


@pytest.mark.parametrize(("fields", "cls", "values"), PARSED)
def test_each_message_type_is_its_own_dataclass_with_exactly_its_fields(
    fields: dict[str, Any], cls: type, values: dict[str, Any]
) -> None:
    message = parse(**fields)
    assert type(message) is cls
    assert message.type == fields["type"]
    assert dataclasses.asdict(message) == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.type = "other"  # the type is the class's, not the value's
    for name in values:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(message, name, None)


def test_every_type_of_the_protocol_has_a_dataclass() -> None:
    kinds = {cls.type for _fields, cls, _values in PARSED}
    assert kinds == {
        "hello", "move", "resign", "undo", "redo", "hint", "offer", "answer", "withdraw",
        "abort", "claim", "ping", "chat",
    }  # fmt: skip


REFUSED = [
    # Unknown fields, named with the fields the type knows, in the protocol's order.
    (
        {"type": "resign", "ply": 0, "move": "Sa1"},
        "unknown_field",
        "unknown field 'move' in a 'resign' message (known: v, type, seat, ply)",
    ),
    (
        {"type": "answer", "offer": "draw", "accept": True, "claim": "win"},
        "unknown_field",
        "unknown field 'claim' in a 'answer' message (known: v, type, offer, accept, ply)",
    ),
    (
        {"type": "ping", "ply": 0},
        "unknown_field",
        "unknown field 'ply' in a 'ping' message (known: v, type)",
    ),
    # Missing fields, and a null that is no value.
    ({"type": "move", "move": "Sa1"}, "bad_message", "a 'move' message needs field 'ply'"),
    ({"type": "resign"}, "bad_message", "a 'resign' message needs field 'ply'"),
    ({"type": "offer", "offer": None}, "bad_message", "a 'offer' message needs field 'offer'"),
    ({"type": "answer", "offer": "draw"}, "bad_message", "a 'answer' message needs field 'accept'"),
    ({"type": "claim"}, "bad_message", "a 'claim' message needs field 'claim'"),
    # Bad values; of several, the first in the protocol's order of fields.
    (
        {"type": "hello", "tokens": None},
        "bad_field",
        "field 'tokens' must list at most 8 seat tokens (text)",
    ),
    (
        {"type": "move", "move": 3, "ply": -1},
        "bad_field",
        "field 'move' must be move text such as 'Sb3'",
    ),
    (
        {"type": "resign", "seat": 9, "ply": True},
        "bad_field",
        "field 'ply' must be a whole number from 0 to 10000",
    ),
    (
        {"type": "offer", "offer": "peace"},
        "bad_field",
        "field 'offer' must be one of draw, takeback, rematch",
    ),
    (
        {"type": "answer", "offer": "draw", "accept": 1},
        "bad_field",
        "field 'accept' must be true or false",
    ),
    ({"type": "claim", "claim": "loss"}, "bad_field", "field 'claim' must be one of win, draw"),
    (
        {"type": "chat", "text": "hi", "phrase": "thanks"},
        "bad_message",
        "a 'chat' message needs 'text' or 'phrase', not both",
    ),
    ({"type": "chat"}, "bad_message", "a 'chat' message needs 'text' or 'phrase', not both"),
    # Unknown types.
    ({"type": "Move"}, "unknown_type", None),
    ({"type": None}, "unknown_type", None),
]


@pytest.mark.parametrize(("fields", "code", "text"), REFUSED)
def test_a_bad_message_is_refused_with_the_protocols_code(
    fields: dict[str, Any], code: str, text: str | None
) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse(**fields)
    assert refused.value.code == code
    if text is not None:
        # What only this refusal knows; its code's text is the registry's.
        assert refused.value.detail == text
