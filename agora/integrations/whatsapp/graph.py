"""The Graph API's `/messages` request bodies, built from a stored 1018/1019/1021 message
(its `data` says everything the body needs: `core.whatsapp.outbound`)."""

from typing import Any

from agora.core.whatsapp.outbound import MEDIA_TYPES
from agora.integrations.whatsapp.templates import is_web_url


def graph_payload(
    to: str, message: dict[str, Any], *, base_url: str, reply_to_wamid: str | None = None
) -> dict[str, Any]:
    """Meta's `/messages` body for a stored 1018/1019/1021 message. Media go by link to
    our upload (`base_url` makes it absolute): Meta fetches it once, nothing is uploaded
    twice (docs/decisions.md)."""
    data = message.get("data") or {}
    kind = data["wa"]["kind"]
    body: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": to,
        "type": kind,
        kind: _content(kind, message, data, base_url),
    }
    if reply_to_wamid:
        body["context"] = {"message_id": reply_to_wamid}
    return body


def _content(kind: str, message: dict[str, Any], data: dict[str, Any], base_url: str) -> Any:
    text = message.get("payload", "")
    if kind == "text":
        return {"preview_url": "http://" in text or "https://" in text, "body": text}
    if kind in MEDIA_TYPES:
        return _media_content(kind, message, text, base_url)
    if kind == "location":
        return data["location"]
    if kind == "contacts":
        return [_graph_contact(card) for card in data["contacts"]]
    if kind == "interactive":
        return _graph_interactive(data["interactive"])
    return _graph_template(data["template"])


def _media_content(kind: str, message: dict[str, Any], caption: str, base_url: str) -> dict:
    file = message["payload1"][0]
    url = file["url"]
    content: dict[str, Any] = {"link": url if is_web_url(url) else base_url.rstrip("/") + url}
    if caption and kind != "audio":
        content["caption"] = caption
    if kind == "document" and file.get("title"):
        content["filename"] = file["title"]
    return content


def _graph_contact(card: dict[str, Any]) -> dict[str, Any]:
    # Meta wants a part of the name besides the formatted one.
    name = card["name"]["formatted_name"]
    return {**card, "name": {"formatted_name": name, "first_name": name}}


def _graph_interactive(interactive: dict[str, Any]) -> dict[str, Any]:
    body = {"text": interactive["body"]}
    if interactive["type"] == "button":
        buttons = [{"type": "reply", "reply": b} for b in interactive["buttons"]]
        return {"type": "button", "body": body, "action": {"buttons": buttons}}
    action = {"button": interactive["button"], "sections": interactive["sections"]}
    return {"type": "list", "body": body, "action": action}


def _graph_template(template: dict[str, Any]) -> dict[str, Any]:
    parameters = template["parameters"]
    components: list[dict[str, Any]] = [
        {"type": part, "parameters": [{"type": "text", "text": v} for v in parameters[part]]}
        for part in ("header", "body")
        if parameters[part]
    ]
    for index, button in enumerate(template.get("buttons", [])):
        if "suffix" in button:
            components.append(
                {
                    "type": "button",
                    "sub_type": "url",
                    "index": str(index),
                    "parameters": [{"type": "text", "text": button["suffix"]}],
                }
            )
    sent = {"name": template["name"], "language": {"code": template["language"]}}
    return {**sent, "components": components} if components else sent
