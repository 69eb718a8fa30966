"""Meta's WhatsApp Cloud API (the Graph API), over aiohttp: the only module that speaks it.

Every call is made with the channel's own access token (a bearer token); replies come back as
plain dicts and failures as `GraphError`, parsed from Meta's error shape
(`{"error": {"message", "type", "code", "error_subcode", "error_data": {"details"}}}`), so
the rest of the code knows nothing of the wire.
"""

import logging
from typing import Any
from urllib.parse import quote

import aiohttp

log = logging.getLogger("agora.whatsapp_graph")

GRAPH_TIMEOUT_SECONDS = 20.0
UNREACHABLE_STATUS = 503
TEMPLATE_PAGE = 100
# A business account has at most a few hundred templates; the sync stops there.
TEMPLATE_PAGES_MAX = 20


class GraphError(Exception):
    """A call the Graph API refused, or could not be made (`status` 503, `code` 0)."""

    def __init__(self, status: int, code: int, title: str, message: str, details: str = "") -> None:
        super().__init__(f"{status} {code} {title}: {message}")
        self.status = status
        self.code = code
        self.title = title
        self.message = message
        self.details = details

    def view(self) -> dict[str, Any]:
        """What may be shown to the group's agents (Meta's words, never a token)."""
        return {"code": self.code, "title": self.title, "message": self.message}


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def graph_error(status: int, body: Any) -> GraphError:
    """Meta's error object, read defensively: a proxy's page or an empty body still makes one."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return GraphError(status, 0, "HTTP error", f"The Graph API answered {status}")
    data = error.get("error_data")
    details = _text(data.get("details")) if isinstance(data, dict) else ""
    title = _text(error.get("error_user_title")) or _text(error.get("type")) or "Error"
    message = _text(error.get("error_user_msg")) or _text(error.get("message"))
    return GraphError(status, _whole(error.get("code")), title, message, details)


class GraphApi:
    def __init__(self, base_url: str, timeout_seconds: float = GRAPH_TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = aiohttp.ClientTimeout(total=timeout_seconds)
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        # Made on first use, inside the running loop; one pool of connections for all calls.
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=self.timeout)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(
        self, method: str, path: str, access_token: str, payload: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """One JSON call under the API's base URL (`path` starts with '/')."""
        headers = {"Authorization": f"Bearer {access_token}"}
        try:
            async with self._client().request(
                method, f"{self.base_url}{path}", json=payload, headers=headers
            ) as response:
                body = await _json_or_none(response)
                if response.status >= 400:
                    raise graph_error(response.status, body)
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("the Graph API could not be reached: %r", error)
            raise GraphError(
                UNREACHABLE_STATUS, 0, "Unreachable", "The WhatsApp API could not be reached"
            ) from error
        if not isinstance(body, dict):
            raise GraphError(
                response.status, 0, "Bad reply", "The WhatsApp API's reply is not JSON"
            )
        return body

    async def phone_number(self, phone_number_id: str, access_token: str) -> dict[str, Any]:
        """The business number's record: `display_phone_number`, `verified_name`, `id` ..."""
        return await self.call("GET", f"/{phone_number_id}", access_token)

    async def media_url(self, media_id: str, access_token: str) -> dict[str, Any]:
        """Where a received media file can be downloaded (for a few minutes): `url`,
        `mime_type`, `sha256`, `file_size`, `id`."""
        return await self.call("GET", f"/{media_id}", access_token)

    async def send_message(
        self, phone_number_id: str, access_token: str, payload: dict[str, Any]
    ) -> str:
        """Sends one message (`payload` is Meta's `/messages` body); its wamid."""
        reply = await self.call("POST", f"/{phone_number_id}/messages", access_token, payload)
        messages = reply.get("messages")
        wamid = messages[0].get("id") if isinstance(messages, list) and messages else None
        if not isinstance(wamid, str) or not wamid:
            raise GraphError(502, 0, "Bad reply", "The WhatsApp API gave the message no id")
        return wamid

    async def templates(self, business_account_id: str, access_token: str) -> list[dict]:
        """The business account's message templates, every page (Meta pages by cursor)."""
        found: list[dict] = []
        after = ""
        for _ in range(TEMPLATE_PAGES_MAX):
            query = f"?limit={TEMPLATE_PAGE}" + (f"&after={quote(after)}" if after else "")
            reply = await self.call(
                "GET", f"/{business_account_id}/message_templates{query}", access_token
            )
            page = reply.get("data")
            found += [t for t in page if isinstance(t, dict)] if isinstance(page, list) else []
            paging = reply.get("paging") if isinstance(reply.get("paging"), dict) else {}
            cursors = paging.get("cursors") if isinstance(paging.get("cursors"), dict) else {}
            after = cursors.get("after") if paging.get("next") else None
            if not isinstance(after, str) or not after:
                break
        return found

    async def download(self, url: str, access_token: str, max_bytes: int) -> bytes:
        """The file behind a `media_url`; the same bearer token is required there."""
        headers = {"Authorization": f"Bearer {access_token}"}
        try:
            async with self._client().get(url, headers=headers) as response:
                if response.status >= 400:
                    raise graph_error(response.status, await _json_or_none(response))
                if (response.content_length or 0) > max_bytes:
                    raise _too_large(max_bytes)
                body = await response.content.read(max_bytes + 1)
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("a WhatsApp media file could not be downloaded: %r", error)
            raise GraphError(
                UNREACHABLE_STATUS, 0, "Unreachable", "The media file could not be downloaded"
            ) from error
        if len(body) > max_bytes:
            raise _too_large(max_bytes)
        return body


def _too_large(max_bytes: int) -> GraphError:
    return GraphError(413, 0, "Too large", f"The media file is larger than {max_bytes} bytes")


async def _json_or_none(response: aiohttp.ClientResponse) -> Any:
    try:
        return await response.json(content_type=None)
    except ValueError:
        return None
