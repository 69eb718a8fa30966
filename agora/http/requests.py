"""Request parsing: JSON bodies into typed models, the caller's identity and address."""

import json
from typing import Annotated, Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from agora.core.errors import InvalidInput, NeedLogin, PayloadTooLarge
from agora.services.accounts import Session

SESSION = web.RequestKey("session", Session)
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

_MESSAGES = {
    "extra_forbidden": "Unknown field",
    "missing": "This field is required",
    "string_type": "Must be text",
    "int_type": "Must be a whole number",
    "bool_type": "Must be true or false",
    "list_type": "Must be a list",
    "string_too_long": "Too long",
}


def field_errors(error: ValidationError) -> dict[str, str]:
    errors: dict[str, str] = {}
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "body"
        message = item["ctx"]["error"] if item["type"] == "value_error" else item["msg"]
        errors.setdefault(field, _MESSAGES.get(item["type"], str(message)))
    return errors


async def read_body(
    request: web.Request, model: type[Model], max_bytes: int | None = None
) -> Model:
    """The body as `model`; `max_bytes` tightens the edge-wide body limit for one call."""
    if max_bytes is not None and (request.content_length or 0) > max_bytes:
        raise PayloadTooLarge("The request body is too large")
    raw = await request.read()
    if max_bytes is not None and len(raw) > max_bytes:
        raise PayloadTooLarge("The request body is too large")
    data: Any = {}
    if raw.strip():
        if request.content_type != "application/json":
            raise InvalidInput("Send the body as JSON with Content-Type: application/json")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidInput("The request body is not valid JSON") from exc
    if not isinstance(data, dict):
        raise InvalidInput("The request body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(field_errors(exc)) from exc


def client_ip(request: web.Request) -> str:
    """The caller's address; X-Forwarded-For is believed only for configured proxy hops."""
    hops = request.app[TRUSTED_PROXY_HOPS]
    if hops:
        forwarded = [part.strip() for part in request.headers.get("X-Forwarded-For", "").split(",")]
        if len(forwarded) >= hops and forwarded[-hops]:
            return forwarded[-hops]
    return request.remote or "unknown"


def bearer_key(request: web.Request) -> str | None:
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return key.strip() or None if scheme.lower() == "bearer" else None


def optional_session(request: web.Request) -> Session | None:
    return request.get(SESSION)


def require_session(request: web.Request) -> Session:
    session = optional_session(request)
    if session is None:
        raise NeedLogin()
    return session
