"""Request parsing: JSON bodies into typed models, the caller's identity and address."""

import zlib
from typing import Annotated, Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from agora.core import json_text
from agora.core.errors import InvalidInput, NeedLogin, PayloadTooLarge
from agora.core.numbers import WHOLE_NUMBER_MAX
from agora.services.accounts import Caller

CALLER = web.RequestKey("caller", Caller)
TRUSTED_PROXY_HOPS = web.AppKey("trusted_proxy_hops", int)

Model = TypeVar("Model", bound=BaseModel)


class Body(BaseModel):
    """Base of request bodies: unknown fields and wrong types are refused, not ignored."""

    model_config = ConfigDict(extra="forbid", strict=True, str_max_length=20_000)


def _amount_text(value: Any) -> Any:
    """Forms send amounts as numbers or numeric text; both become text, parsed exactly later."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | None):
        raise ValueError("Enter the amount as a number")
    return value if value is None or isinstance(value, str) else str(value)


AmountText = Annotated[
    str | None, BeforeValidator(_amount_text, json_schema_input_type=int | float | str | None)
]
# A time in milliseconds (or any count) a client sends in a body: bounded like query numbers.
Timestamp = Annotated[int, Field(ge=0, le=WHOLE_NUMBER_MAX)]

_MESSAGES = {
    "extra_forbidden": "Unknown field",
    "missing": "This field is required",
    "string_type": "Must be text",
    # A lone surrogate ("\ud800" in JSON) reads as a string but is no text.
    "string_unicode": "Must be text",
    "int_type": "Must be a whole number",
    "bool_type": "Must be true or false",
    "list_type": "Must be a list",
    "string_too_long": "Too long",
    "less_than_equal": f"Must be a whole number from 0 to {WHOLE_NUMBER_MAX}",
    "greater_than_equal": f"Must be a whole number from 0 to {WHOLE_NUMBER_MAX}",
}


def field_errors(error: ValidationError) -> dict[str, str]:
    errors: dict[str, str] = {}
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "body"
        message = item["ctx"]["error"] if item["type"] == "value_error" else item["msg"]
        errors.setdefault(field, _MESSAGES.get(item["type"], str(message)))
    return errors


# Formats the edge inflates itself (the server's own decoding would close the connection on a
# body that is not what its header says); wbits select the gzip or zlib wrapper.
CONTENT_ENCODINGS = {"gzip": 31, "x-gzip": 31, "deflate": 15}


def _inflate(raw: bytes, encoding: str, max_bytes: int) -> bytes:
    wbits = CONTENT_ENCODINGS.get(encoding)
    if wbits is None:
        raise InvalidInput("Send the body uncompressed or compressed with gzip")
    inflater = zlib.decompressobj(wbits)
    try:
        body = inflater.decompress(raw, max_bytes + 1)
    except zlib.error as exc:
        raise InvalidInput(f"The request body is not valid {encoding}") from exc
    if len(body) > max_bytes:
        raise PayloadTooLarge("The request body is too large")
    if not inflater.eof:
        raise InvalidInput(f"The request body is not valid {encoding}")
    return body


def content_encoding(request: web.Request) -> str:
    return request.headers.get("Content-Encoding", "").strip().lower() or "identity"


async def read_bytes(request: web.Request, max_bytes: int | None = None) -> bytes:
    """The body, inflated if it says it is compressed; at most `max_bytes` (or the edge-wide
    limit) either way."""
    limit = min(max_bytes or request.client_max_size, request.client_max_size)
    if (request.content_length or 0) > limit:
        raise PayloadTooLarge("The request body is too large")
    raw = await request.read()
    encoding = content_encoding(request)
    body = raw if encoding == "identity" or not raw else _inflate(raw, encoding, limit)
    if len(body) > limit:
        raise PayloadTooLarge("The request body is too large")
    return body


def parse_json(raw: bytes | str) -> Any:
    try:
        return json_text.loads_outside(raw)
    except json_text.Unreadable as error:
        raise InvalidInput(f"The request body {error}") from error


async def read_body(
    request: web.Request, model: type[Model], max_bytes: int | None = None
) -> Model:
    """The body as `model`; `max_bytes` tightens the edge-wide body limit for one call."""
    return validated(model, await read_object(request, max_bytes))


async def read_object(request: web.Request, max_bytes: int | None = None) -> dict[str, Any]:
    """The body's JSON object, not yet validated (for a body whose model depends on it)."""
    raw = await read_bytes(request, max_bytes)
    data: Any = {}
    if raw.strip():
        if request.content_type != "application/json":
            raise InvalidInput("Send the body as JSON with Content-Type: application/json")
        data = parse_json(raw)
    if not isinstance(data, dict):
        raise InvalidInput("The request body must be a JSON object")
    return data


def validated(model: type[Model], data: dict[str, Any]) -> Model:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(field_errors(exc)) from exc


def _forwarded_chain(request: web.Request) -> list[str]:
    """Every X-Forwarded-For value in the order written: all of the header's lines, each split
    on commas (a proxy may append a line of its own or a value to the last line)."""
    lines = request.headers.getall("X-Forwarded-For", ())
    return [value.strip() for line in lines for value in line.split(",")]


def client_ip(request: web.Request) -> str:
    """The caller's address. Behind `hops` trusted proxies, each appending the address it was
    reached from, it is the hops-th value from the end: the one the outermost of them wrote.
    What comes before it the client wrote, and is never believed. A chain shorter than that
    came past fewer proxies, all of them trusted: its first value is what the first saw."""
    hops = request.app[TRUSTED_PROXY_HOPS]
    chain = _forwarded_chain(request) if hops else []
    if chain and (address := chain[-min(hops, len(chain))]):
        return address
    return request.remote or "unknown"


def bearer_key(request: web.Request) -> str | None:
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return key.strip() or None if scheme.lower() == "bearer" else None


def optional_caller(request: web.Request) -> Caller | None:
    return request.get(CALLER)


def require_caller(request: web.Request) -> Caller:
    caller = optional_caller(request)
    if caller is None:
        raise NeedLogin()
    return caller
