"""The OpenAPI 3.1 document of the edge, built from the routes' own declarations."""

import json
from functools import cached_property
from typing import Any

from aiohttp import web
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from agora.http.routes import Auth, Reply, Route

OPENAPI_PATH = "/api/openapi.json"
SCHEMA_REF = "#/components/schemas/{model}"

# Every call may answer these: bad input, a bearer key that is not valid, refused, unknown,
# a body over the edge's limit, too many attempts, a backing service that is down.
COMMON_ERRORS = (400, 401, 403, 404, 413, 429, 503)
ERROR_DESCRIPTIONS = {
    400: "Invalid input",
    401: "A bearer key is needed, or the one sent is not valid (`need_user: true`)",
    402: "The balance is short",
    403: "Not allowed for this caller",
    404: "Not found",
    409: "Conflicts with the current state",
    413: "The request body is too large",
    429: "Too many attempts (`Retry-After` says when to retry)",
    502: "The payment provider refused",
    503: "A service behind the edge is unavailable; retry later",
}
ERRORS_SCHEMA = {
    "type": "object",
    "required": ["errors"],
    "properties": {
        "errors": {
            "description": "A message, a list of messages, or field -> message",
            "anyOf": [{"type": "string"}, {"type": "array"}, {"type": "object"}],
        },
        "need_user": {"type": "boolean"},
    },
}
SECURITY = {
    Auth.REQUIRED: [{"bearer": []}],
    Auth.OPTIONAL: [{"bearer": []}, {}],
    Auth.NONE: [],
}


class ApiDocument:
    """The document of one edge's routes, built when first asked for: pydantic's JSON schemas
    of every body and reply take about 25 ms of CPU, which an edge's start need not spend (a
    test's edge is started for a few calls, and hardly ever asked for this document)."""

    def __init__(self, routes: list[Route]) -> None:
        self._routes = routes

    @cached_property
    def document(self) -> dict[str, Any]:
        return build_document(self._routes)


OPENAPI_DOCUMENT = web.AppKey("openapi_document", ApiDocument)


def build_document(routes: list[Route]) -> dict[str, Any]:
    models = _models(routes)
    _, definitions = models_json_schema(
        [(model, "validation") for model in models], ref_template=SCHEMA_REF
    )
    schemas = {"Errors": ERRORS_SCHEMA, **definitions.get("$defs", {})}
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.openapi_path(), {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Agora",
            "version": "1",
            "description": "The edge's HTTP calls. Socket.IO events are described in docs/api.md.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


def _models(routes: list[Route]) -> list[type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    for route in routes:
        for model in (route.body, route.reply):
            if model is not None:
                known = found.setdefault(model.__name__, model)
                if known is not model:
                    raise ValueError(f"two models are named {model.__name__}")
    return list(found.values())


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": SCHEMA_REF.format(model=model.__name__)}


def _operation(route: Route) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": f"{route.method.lower()}{route.openapi_path()}",
        "summary": route.summary,
        "security": SECURITY[route.auth],
        "parameters": _parameters(route),
        "responses": _responses(route),
    }
    if route.body is not None:
        operation["requestBody"] = {
            "required": False,
            "content": {"application/json": {"schema": _ref(route.body)}},
        }
    elif route.body_media_type != "application/json":
        operation["requestBody"] = {
            "required": True,
            "content": {route.body_media_type: {"schema": {"type": "string", "format": "binary"}}},
        }
    return operation


def _parameters(route: Route) -> list[dict[str, Any]]:
    parameters = []
    for name, pattern in route.path_parameters():
        schema: dict[str, Any] = {"type": "string"}
        if pattern:
            schema["pattern"] = f"^{pattern}$"
        parameters.append({"name": name, "in": "path", "required": True, "schema": schema})
    if route.query is not None:
        query = route.query.model_json_schema()
        for name, schema in query["properties"].items():
            required = name in query.get("required", [])
            parameters.append({"name": name, "in": "query", "required": required, "schema": schema})
    return parameters


def _responses(route: Route) -> dict[str, Any]:
    if route.reply_media_type != "application/json":
        success: dict[str, Any] = {route.reply_media_type: {"schema": {}}}
    else:
        schema = _ref(route.reply) if route.reply is not None else {"type": "object"}
        success = {"application/json": {"schema": schema}}
    responses: dict[str, Any] = {"200": {"description": "Done", "content": success}}
    if route.redirects:
        responses = {"302": {"description": "Found: the Location header says where"}}
    for status in sorted({*COMMON_ERRORS, *route.errors}):
        responses[str(status)] = {
            "description": ERROR_DESCRIPTIONS[status],
            "content": {
                "application/json": {"schema": {"$ref": SCHEMA_REF.format(model="Errors")}}
            },
        }
    return responses


class OpenApiReply(Reply):
    openapi: str
    paths: dict[str, Any]


async def _serve(request: web.Request) -> web.Response:
    return web.json_response(request.app[OPENAPI_DOCUMENT].document)


ROUTE = Route(
    "GET", OPENAPI_PATH, _serve, "This OpenAPI document", auth=Auth.NONE, reply=OpenApiReply
)


def render(document: dict[str, Any]) -> str:
    """The text written to docs/openapi.json (stable, so a stale copy shows as a diff)."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
