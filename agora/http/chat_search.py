"""Searching a chat over HTTP (`/session/search`)."""

from typing import Any

from aiohttp import web
from pydantic import Field

from agora.core.chat_search import CHAT_SEARCH_MAX_LENGTH
from agora.http.replies import ok
from agora.http.requests import Body, Timestamp, read_body, require_caller
from agora.http.routes import Auth, Reply, Route
from agora.services.chat.search import ChatSearch


class SearchBody(Body):
    session_id: str = Field(max_length=200)
    q: str = Field(max_length=CHAT_SEARCH_MAX_LENGTH)
    # The previous page's `next_less_than_timestamp`.
    less_than_timestamp: Timestamp | None = None


class SearchReply(Reply):
    """Messages holding every word searched for, newest first; `words` are those words as
    they were matched (lowercased), for marking them in the results."""

    inbox_messages: list[dict[str, Any]]
    refs: dict[str, Any]
    words: list[str]
    has_more: bool
    next_less_than_timestamp: int | None = None


def routes(search: ChatSearch) -> list[Route]:
    async def search_chat(request: web.Request) -> web.Response:
        body = await read_body(request, SearchBody)
        caller = require_caller(request)
        return ok(await search.search(caller, body.session_id, body.q, body.less_than_timestamp))

    return [
        Route(
            "POST",
            "/session/search",
            search_chat,
            "Searches a chat's messages (its readers)",
            auth=Auth.REQUIRED,
            body=SearchBody,
            reply=SearchReply,
        ),
    ]
