"""Every HTTP call is declared once, beside its handler: method, path, who may call, the
request model, the query parameters and the reply. The router registers these declarations
and the OpenAPI document is built from the very same list, so the two cannot drift apart."""

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum

from aiohttp import web
from pydantic import BaseModel, ConfigDict

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# `{name:regex}` in an aiohttp path.
PATH_PARAMETER = re.compile(r"\{(\w+)(?::((?:[^{}]|\{[^{}]*\})+))?\}")


class Auth(Enum):
    """Whether a call needs `Authorization: Bearer <key>`."""

    REQUIRED = "required"  # without a key: 401
    OPTIONAL = "optional"  # without a key the caller is a visitor
    NONE = "none"  # the key is not read beyond the edge-wide check


class Query(BaseModel):
    """Base of documented query parameters (all text on the wire)."""

    model_config = ConfigDict(extra="ignore")


class Reply(BaseModel):
    """Base of documented replies: the fields named here are promised, others may follow."""

    model_config = ConfigDict(extra="allow")


class SuccessReply(Reply):
    success: bool


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    handler: Handler
    summary: str
    auth: Auth = Auth.OPTIONAL
    body: type[BaseModel] | None = None
    query: type[Query] | None = None
    reply: type[Reply] | None = None
    # Statuses this call answers beyond the ones every call may (see openapi.COMMON_ERRORS).
    errors: tuple[int, ...] = ()
    # A body that is not JSON (a file, or bytes whose signature is checked) is described so.
    body_media_type: str = "application/json"
    # A reply that is not JSON (a stored file).
    reply_media_type: str = "application/json"
    # A redirect (302) answers instead of a 200 reply.
    redirects: bool = False

    def route_def(self) -> web.RouteDef:
        if self.method == "GET":
            return web.get(self.path, self.handler)  # HEAD too, as browsers and probes use it
        return web.route(self.method, self.path, self.handler)

    def openapi_path(self) -> str:
        return PATH_PARAMETER.sub(lambda match: "{" + match.group(1) + "}", self.path)

    def path_parameters(self) -> list[tuple[str, str | None]]:
        """Each path parameter with the pattern aiohttp matches it against (None: any)."""
        return [(match.group(1), match.group(2)) for match in PATH_PARAMETER.finditer(self.path)]
