"""The OpenAPI document served at ``/openapi.json``, made from the app's routes and each
endpoint's declaration (:mod:`sosgame.web.api`): every route the app serves is in it, the
request bodies' schemas are those the endpoints check bodies with, and the limits it states
are the server's own (:class:`~sosgame.web.config.ServerLimits`).

Starlette's :class:`~starlette.schemas.BaseSchemaGenerator` walks the routes; its
:class:`~starlette.schemas.SchemaGenerator` reads YAML from docstrings, which would be the
document written by hand once more, so the declarations are Python values instead.
"""

from __future__ import annotations

import re
from typing import Any, Final

from starlette.routing import BaseRoute
from starlette.schemas import BaseSchemaGenerator

from sosgame import __version__
from sosgame.web.api import JSON, Answer, Model, Operation, operation_of, refused
from sosgame.web.config import ServerLimits
from sosgame.web.guards.bodies import MAX_BODY_BYTES

__all__ = ["UndeclaredEndpointError", "openapi"]

_PARAMETER: Final = re.compile(r"\{(\w+)\}")
_BAD_BODY: Final = refused("A bad body: the error names the field and nothing was changed")


class UndeclaredEndpointError(TypeError):
    """A route whose endpoint declares nothing (see :func:`sosgame.web.api.declare`)."""


class _Generator(BaseSchemaGenerator):
    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.models: dict[str, JSON] = {}

    def get_schema(self, routes: list[BaseRoute]) -> dict[str, Any]:
        paths: dict[str, JSON] = {}
        for endpoint in self.get_endpoints(routes):
            method = endpoint.http_method
            operation = operation_of(endpoint.func)
            if operation is None:
                raise UndeclaredEndpointError(
                    f"{method.upper()} {endpoint.path} declares nothing for the API's document"
                )
            paths.setdefault(endpoint.path, {})[method] = self._operation(endpoint.path, operation)
        return {
            "openapi": "3.1.0",
            "info": {
                "title": "sosgame",
                "version": __version__,
                "description": "SOS games in the browser. Live play uses the WebSocket"
                " /ws/games/{game_id} described in docs/protocol.md.",
            },
            "paths": paths,
            "components": {
                "securitySchemes": {
                    "seatToken": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "A seat token, as returned when a game is created or a"
                        " seat taken",
                    }
                },
                "schemas": dict(sorted(self.models.items())),
            },
        }

    def _ref(self, model: Model) -> JSON:
        known = self.models.setdefault(model.name, model.schema)
        if known != model.schema:
            raise ValueError(f"two different models are named {model.name!r}")
        return {"$ref": f"#/components/schemas/{model.name}"}

    def _answer(self, answer: Answer) -> JSON:
        rendered: JSON = {"description": answer.description.format(limits=self.limits)}
        if answer.model is not None:
            rendered["content"] = {"application/json": {"schema": self._ref(answer.model)}}
        return rendered

    def _operation(self, path: str, operation: Operation) -> JSON:
        rendered: JSON = {"summary": operation.summary}
        parameters = [
            {
                "name": name,
                "in": "path",
                "required": True,
                "schema": {"type": operation.path_types.get(name, "string")},
            }
            for name in _PARAMETER.findall(path)
        ]
        parameters += [
            {"name": name, "in": "query", "schema": schema}
            for name, schema in operation.query.items()
        ]
        if parameters:
            rendered["parameters"] = parameters
        answers = dict(operation.responses)
        if operation.body is not None:
            body: JSON = {
                "required": operation.body_required,
                "content": {"application/json": {"schema": self._ref(operation.body)}},
            }
            if operation.body_description is not None:
                body["description"] = operation.body_description
            rendered["requestBody"] = body
            limit = operation.body.limit or MAX_BODY_BYTES
            answers.setdefault(400, _BAD_BODY)
            answers.setdefault(413, refused(f"The body is over {limit} bytes (too_large)"))
            answers.setdefault(
                408, refused("The body took over {limits.body_timeout:g} s to come (body_timeout)")
            )
        if operation.bearer:
            rendered["security"] = [{"seatToken": []}]
        rendered["responses"] = {
            str(status): self._answer(answer) for status, answer in sorted(answers.items())
        }
        return rendered


def openapi(routes: list[BaseRoute], limits: ServerLimits) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``routes`` on a server with ``limits`` (see
    docs/protocol.md for the WebSocket messages); :class:`UndeclaredEndpointError` if an
    endpoint declares nothing."""
    return _Generator(limits).get_schema(routes)
