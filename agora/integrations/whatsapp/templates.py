"""Message templates in Meta's shape: a template as the Graph API lists it, kept to what we
can fill, and filled with an agent's parameters into what the chat shows and stores."""

import re
from typing import Any
from urllib.parse import urlsplit

from agora.core.errors import InvalidInput

PLACEHOLDER = re.compile(r"\{\{\s*(\d+)\s*\}\}")
SUPPORTED_BUTTONS = ("QUICK_REPLY", "URL", "PHONE_NUMBER")


def template_view(template: dict[str, Any]) -> dict[str, Any] | None:
    """A template as Meta lists it, kept to what we send and render; None when it is not
    approved, or has parts we cannot fill (media headers, buttons other than quick replies,
    links and calls, named parameters)."""
    if template.get("status") != "APPROVED":
        return None
    components = []
    for component in template.get("components") or []:
        kept = _component(component)
        if kept is None:
            return None
        components.append(kept)
    if not any(c["type"] == "BODY" for c in components):
        return None
    return {
        "name": str(template.get("name", "")),
        "language": str(template.get("language", "")),
        "category": str(template.get("category", "")),
        "components": components,
    }


def _component(component: dict[str, Any]) -> dict[str, Any] | None:
    kind = component.get("type")
    text = component.get("text")
    if kind == "HEADER":
        if component.get("format", "TEXT") != "TEXT" or not _positional(text):
            return None
        return {"type": kind, "format": "TEXT", "text": text}
    if kind in ("BODY", "FOOTER"):
        return {"type": kind, "text": text} if _positional(text) else None
    if kind == "BUTTONS":
        buttons = [_template_button(b) for b in component.get("buttons") or []]
        return None if None in buttons else {"type": kind, "buttons": buttons}
    return None


def _positional(text: Any) -> bool:
    """Text whose only placeholders are {{1}}, {{2}} ... (named ones we cannot fill)."""
    return isinstance(text, str) and "{{" not in PLACEHOLDER.sub("", text)


def _template_button(button: dict[str, Any]) -> dict[str, Any] | None:
    kind = button.get("type")
    if kind not in SUPPORTED_BUTTONS or not isinstance(button.get("text"), str):
        return None
    kept = {"type": kind, "text": button["text"]}
    if kind == "URL":
        url = button.get("url")
        if not _positional(url) or not is_web_url(PLACEHOLDER.sub("x", url)):
            return None
        kept["url"] = url
    if kind == "PHONE_NUMBER":
        kept["phone_number"] = str(button.get("phone_number", ""))
    return kept


def is_web_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _placeholders(text: str) -> int:
    return max((int(n) for n in PLACEHOLDER.findall(text)), default=0)


def _fill(text: str, values: list[str]) -> str:
    return PLACEHOLDER.sub(lambda m: values[int(m.group(1)) - 1], text)


def render_template(template: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
    """The template filled with the agent's parameters (`sent` as `check_agent_send` kept
    it): header, body, footer and buttons as the chat shows them, with the parameters the
    payload carries. `parameters.buttons` fill the URL buttons with a {{1}}, in order."""
    parameters = sent["parameters"]
    parts = {c["type"]: c for c in template["components"]}
    rendered: dict[str, Any] = {
        "name": template["name"],
        "language": template["language"],
        "parameters": parameters,
    }
    for kind, part in (("HEADER", "header"), ("BODY", "body")):
        if kind in parts:
            text = parts[kind]["text"]
            _count(part, parameters[part], _placeholders(text))
            rendered[part] = _fill(text, parameters[part])
        else:
            _count(part, parameters[part], 0)
    if "FOOTER" in parts:
        rendered["footer"] = parts["FOOTER"]["text"]
    buttons = parts.get("BUTTONS", {}).get("buttons", [])
    dynamic = [b for b in buttons if b["type"] == "URL" and _placeholders(b["url"])]
    _count("buttons", parameters["buttons"], len(dynamic))
    values = iter(parameters["buttons"])
    rendered["buttons"] = [_rendered_button(b, values) for b in buttons]
    return rendered


def _count(part: str, values: list[str], needed: int) -> None:
    if len(values) != needed:
        raise InvalidInput({"template": f"The {part} takes {needed} parameters"})


def _rendered_button(button: dict[str, Any], values: Any) -> dict[str, Any]:
    rendered = {"type": button["type"], "text": button["text"]}
    if button["type"] == "URL":
        suffix = next(values) if _placeholders(button["url"]) else None
        url = _fill(button["url"], [suffix]) if suffix is not None else button["url"]
        if not is_web_url(url):
            raise InvalidInput({"template": "The button's parameter does not make a link"})
        rendered["url"] = url
        if suffix is not None:
            rendered["suffix"] = suffix
    if button["type"] == "PHONE_NUMBER":
        rendered["phone_number"] = button.get("phone_number", "")
    return rendered
