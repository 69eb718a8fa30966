"""Browser error reports (POST /jserror)."""

import json

from aiohttp import web
from pydantic import field_validator

from agora.http.replies import ok
from agora.http.requests import Body, client_ip, optional_caller, read_body
from agora.http.routes import Route, SuccessReply
from agora.services.client_errors import JSERROR_FIELD_MAX_CHARS, ClientErrorService

MAX_REPORT_BYTES = 32 * 1024


class ReportBody(Body):
    stacktrace_string: str
    description: str = ""
    # Browsers send whatever the error carried; it is kept as text.
    error_details: str | dict | list | None = None

    @field_validator("error_details", mode="after")
    @classmethod
    def as_text(cls, value: object) -> str:
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        return text[:JSERROR_FIELD_MAX_CHARS] if value is not None else ""


def routes(reports: ClientErrorService) -> list[Route]:
    async def report(request: web.Request) -> web.Response:
        body = await read_body(request, ReportBody, max_bytes=MAX_REPORT_BYTES)
        caller = optional_caller(request)
        await reports.record(
            stacktrace_string=body.stacktrace_string,
            description=body.description,
            error_details=str(body.error_details),
            user_id=caller.user["_id"] if caller else None,
            ip=client_ip(request),
            user_agent=request.headers.get("User-Agent", ""),
        )
        return ok({"success": True})

    return [
        Route(
            "POST",
            "/jserror",
            report,
            "A browser's error report",
            body=ReportBody,
            reply=SuccessReply,
        )
    ]
