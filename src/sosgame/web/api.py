"""What each HTTP endpoint declares about itself, beside its code: a summary, the body it
reads, its answers and the refusals it may give. :mod:`sosgame.web.openapi` makes the
OpenAPI document from these declarations and the app's routes, so the document lists
exactly the routes served.

>>> @declare("Say hello", responses={200: Answer("A greeting")})
... async def hello(request): ...
>>> operation_of(hello).summary
'Say hello'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias, TypeVar

__all__ = [
    "ERROR",
    "JSON",
    "Answer",
    "Model",
    "Operation",
    "declare",
    "operation_of",
    "refused",
]

JSON: TypeAlias = dict[str, Any]
"""A JSON object (here, a piece of JSON Schema or of the OpenAPI document)."""

_ATTRIBUTE: Final = "__api_operation__"
_Endpoint = TypeVar("_Endpoint", bound=Callable[..., Any])


@dataclass(frozen=True)
class Model:
    """A named JSON Schema of a request body or an answer, listed under
    ``#/components/schemas``."""

    name: str
    schema: JSON
    limit: int | None = None
    """As a request body, the most bytes it may take (``None``: the app's limit)."""

    @property
    def fields(self) -> tuple[str, ...]:
        """The names of its properties, in order."""
        return tuple(self.schema.get("properties", {}))

    @property
    def required(self) -> tuple[str, ...]:
        """The properties it must have."""
        return tuple(self.schema.get("required", ()))


ERROR: Final = Model(
    "Error",
    {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "detail": {"type": "string"},
                },
                "required": ["code", "message"],
            }
        },
    },
)
"""Every refusal's body: ``{"error": {"code": ..., "message": ...}}``, with ``"detail"`` when
the refusal says more (see :mod:`sosgame.web.live.errors`)."""


@dataclass(frozen=True)
class Answer:
    """One answer of an endpoint: what it means and, if it is JSON of a known shape, its
    model. The description may name the server's limits as ``{limits.FIELD}`` (a field of
    :class:`~sosgame.web.config.ServerLimits`), filled in with the server's own values."""

    description: str
    model: Model | None = None


def refused(description: str) -> Answer:
    """A refusal: an :data:`ERROR` body, the codes named in ``description``."""
    return Answer(description, ERROR)


@dataclass(frozen=True)
class Operation:
    """An endpoint's declaration (one method of one path: the route gives both)."""

    summary: str
    responses: Mapping[int, Answer]
    body: Model | None = None
    """The JSON body it reads, if any; a refused body (400) and one too large (413) are
    answers of every endpoint with a body."""
    body_required: bool = True
    body_description: str | None = None
    query: Mapping[str, JSON] = field(default_factory=dict)
    """Its query parameters and their schemas."""
    path_types: Mapping[str, str] = field(default_factory=dict)
    """The JSON type of each path parameter that is not a string."""
    bearer: bool = False
    """Whether it takes a seat token in an ``Authorization: Bearer`` header."""


def declare(
    summary: str,
    *,
    responses: Mapping[int, Answer],
    body: Model | None = None,
    body_required: bool = True,
    body_description: str | None = None,
    query: Mapping[str, JSON] | None = None,
    path_types: Mapping[str, str] | None = None,
    bearer: bool = False,
) -> Callable[[_Endpoint], _Endpoint]:
    """Declare the endpoint below (a function or method) as an :class:`Operation`."""
    operation = Operation(
        summary,
        responses,
        body,
        body_required,
        body_description,
        query or {},
        path_types or {},
        bearer,
    )

    def mark(endpoint: _Endpoint) -> _Endpoint:
        setattr(endpoint, _ATTRIBUTE, operation)
        return endpoint

    return mark


def operation_of(endpoint: Callable[..., Any]) -> Operation | None:
    """The declaration of ``endpoint`` (a bound method's too), or ``None``."""
    found = getattr(endpoint, _ATTRIBUTE, None)
    return found if isinstance(found, Operation) else None
