"""Reactions over HTTP: a member's emoji on a message (the socket's `react` takes the same
body, `agora/http/realtime.py`)."""

from aiohttp import web
from pydantic import Field

from agora.core.reactions import REACTION_EMOJIS
from agora.http.replies import ok
from agora.http.requests import Body, Timestamp, read_body, require_caller
from agora.http.routes import Auth, Reply, Route
from agora.services.chat.reacting import Reacting, ReactTo

# The longest offered emoji, in characters (a few code points each): longer is no reaction.
EMOJI_MAX_LENGTH = max(map(len, REACTION_EMOJIS))


class ReactBody(Body):
    """A message of a chat by its `created_at`, and one of the offered emoji ('' takes one's
    reaction away)."""

    session_id: str = Field(max_length=200)
    created_at: Timestamp
    emoji: str = Field(max_length=EMOJI_MAX_LENGTH)

    def command(self) -> ReactTo:
        return ReactTo(self.session_id, self.created_at, self.emoji)


class ReactReply(Reply):
    """The message's reactions now: user id -> emoji."""

    ok: bool
    reactions: dict[str, str]


def routes(reacting: Reacting) -> list[Route]:
    async def react(request: web.Request) -> web.Response:
        body = await read_body(request, ReactBody)
        return ok(await reacting.react(require_caller(request), body.command()))

    return [
        Route(
            "POST",
            "/session/message/react",
            react,
            "Reacts to a message with an emoji, or takes one's reaction away",
            auth=Auth.REQUIRED,
            body=ReactBody,
            reply=ReactReply,
        )
    ]
