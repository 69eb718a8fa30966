"""An agent's WhatsApp sends: checked, rendered (templates) and built into Meta's payloads."""

import pytest

from agora.core.errors import InvalidInput
from agora.core.whatsapp.constants import (
    MESSAGE_TYPE_WA_RICH,
    MESSAGE_TYPE_WA_TEMPLATE,
    MESSAGE_TYPE_WA_TEXT,
    WHATSAPP_WINDOW_MS,
)
from agora.core.whatsapp.outbound import (
    WINDOW_CLOSED,
    check_agent_send,
    check_media_type,
    window_ends_at,
    window_refusal,
)
from agora.integrations.whatsapp.graph import graph_payload
from agora.integrations.whatsapp.templates import render_template, template_view

ORDER_UPDATE = {
    "name": "order_update",
    "language": "en_US",
    "status": "APPROVED",
    "category": "UTILITY",
    "components": [
        {"type": "HEADER", "format": "TEXT", "text": "Your order"},
        {"type": "BODY", "text": "Hello {{1}}, your order {{2}} is on its way."},
        {"type": "FOOTER", "text": "Agora shop"},
        {
            "type": "BUTTONS",
            "buttons": [
                {"type": "URL", "text": "Track it", "url": "https://example.com/track/{{1}}"},
                {"type": "QUICK_REPLY", "text": "Thanks"},
            ],
        },
    ],
}


def message(data, payload="", payload1=()):
    return {"payload": payload, "payload1": list(payload1), "data": data}


def test_window_is_24_hours_after_the_last_inbound_message():
    session = {"data": {"whatsapp": {"last_inbound_at": 1_000}}}
    assert window_ends_at(session) == 1_000 + WHATSAPP_WINDOW_MS
    assert window_refusal(session, MESSAGE_TYPE_WA_TEXT, 1_000 + WHATSAPP_WINDOW_MS - 1) is None
    assert (
        window_refusal(session, MESSAGE_TYPE_WA_RICH, 1_000 + WHATSAPP_WINDOW_MS) == WINDOW_CLOSED
    )
    assert window_refusal(session, MESSAGE_TYPE_WA_TEMPLATE, 10**13) is None
    assert window_refusal({"data": {"whatsapp": {}}}, MESSAGE_TYPE_WA_TEXT, 0) == WINDOW_CLOSED
    assert window_ends_at({"data": {"whatsapp": {"window_ends_at": 5}}}) == 5


def test_text_with_a_reply_context():
    data = check_agent_send(
        MESSAGE_TYPE_WA_TEXT, "hi https://a.example", [], {"context": {"reply_to": 7}}
    )
    assert data == {"wa": {"kind": "text"}, "context": {"reply_to": 7}}
    body = graph_payload(
        "4915", message(data, "hi https://a.example"), base_url="", reply_to_wamid="wamid.X"
    )
    assert body == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": "4915",
        "type": "text",
        "text": {"preview_url": True, "body": "hi https://a.example"},
        "context": {"message_id": "wamid.X"},
    }


def buttons(id_titles: list[tuple[str, str]]) -> dict:
    """An interactive button message's data with these buttons."""
    buttons = [{"id": button_id, "title": title} for button_id, title in id_titles]
    return {
        "wa_kind": "interactive",
        "interactive": {"type": "button", "body": "b", "buttons": buttons},
    }


@pytest.mark.parametrize(
    ("message_type", "text", "files", "data", "field"),
    [
        (MESSAGE_TYPE_WA_TEXT, "", [], None, "payload"),
        (MESSAGE_TYPE_WA_TEXT, "hi", ["/uploads/a.jpg"], None, "payload1"),
        (MESSAGE_TYPE_WA_TEXT, "hi", [], {"template": {}}, "data"),
        (MESSAGE_TYPE_WA_TEXT, "hi", [], {"context": {"reply_to": True}}, "context"),
        (MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "sticker"}, "wa_kind"),
        (MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "image"}, "payload1"),
        (MESSAGE_TYPE_WA_RICH, "cap", ["/u/a.ogg"], {"wa_kind": "audio"}, "payload"),
        (
            MESSAGE_TYPE_WA_RICH,
            "",
            [],
            {"wa_kind": "location", "location": {"latitude": 91, "longitude": 0}},
            "location",
        ),
        (MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "contacts", "contacts": []}, "contacts"),
        (
            MESSAGE_TYPE_WA_RICH,
            "",
            [],
            {"wa_kind": "contacts", "contacts": [{"name": {"formatted_name": "A"}}]},
            "contacts",
        ),
        (
            MESSAGE_TYPE_WA_RICH,
            "",
            [],
            buttons([(str(i), str(i)) for i in range(4)]),
            "interactive",
        ),
        (MESSAGE_TYPE_WA_RICH, "", [], buttons([("1", "x" * 21)]), "interactive"),
        (
            MESSAGE_TYPE_WA_RICH,
            "",
            [],
            {
                "wa_kind": "interactive",
                "interactive": {
                    "type": "list",
                    "body": "b",
                    "button": "Pick",
                    "sections": [{"rows": [{"id": str(i), "title": "t"} for i in range(11)]}],
                },
            },
            "interactive",
        ),
        (MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "location", "contacts": [1]}, "contacts"),
        (
            MESSAGE_TYPE_WA_TEMPLATE,
            "text",
            [],
            {"template": {"name": "a", "language": "en"}},
            "payload",
        ),
        (
            MESSAGE_TYPE_WA_TEMPLATE,
            "",
            [],
            {"template": {"name": "a", "language": "en", "parameters": {"body": [3]}}},
            "template",
        ),
        (MESSAGE_TYPE_WA_TEMPLATE, "", [], {"template": "x"}, "template"),
    ],
)
def test_sends_that_cannot_go_out_are_refused(message_type, text, files, data, field):
    with pytest.raises(InvalidInput) as refused:
        check_agent_send(message_type, text, files, data)
    assert field in refused.value.errors


def test_media_go_by_link_to_our_upload():
    data = check_agent_send(
        MESSAGE_TYPE_WA_RICH, "the bill", ["/uploads/x.pdf"], {"wa_kind": "document"}
    )
    file = {"url": "/uploads/x.pdf", "mime_type": "application/pdf", "title": "bill.pdf"}
    body = graph_payload("1", message(data, "the bill", [file]), base_url="https://agora.example/")
    assert body["type"] == "document"
    assert body["document"] == {
        "link": "https://agora.example/uploads/x.pdf",
        "caption": "the bill",
        "filename": "bill.pdf",
    }
    check_media_type("document", "application/pdf")
    with pytest.raises(InvalidInput):
        check_media_type("image", "application/pdf")


def test_location_contacts_and_interactive_payloads():
    place = {
        "wa_kind": "location",
        "location": {"latitude": 52.5, "longitude": 13.4, "name": "Shop"},
    }
    data = check_agent_send(MESSAGE_TYPE_WA_RICH, "", [], place)
    assert graph_payload("1", message(data), base_url="")["location"] == {
        "latitude": 52.5,
        "longitude": 13.4,
        "name": "Shop",
    }
    card = {"name": {"formatted_name": "Ann Lee"}, "phones": [{"phone": "+49 1", "type": "CELL"}]}
    data = check_agent_send(
        MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "contacts", "contacts": [card]}
    )
    assert graph_payload("1", message(data), base_url="")["contacts"] == [
        {"name": {"formatted_name": "Ann Lee", "first_name": "Ann Lee"}, "phones": card["phones"]}
    ]
    buttons = {"type": "button", "body": "Which?", "buttons": [{"id": "a", "title": "A"}]}
    data = check_agent_send(
        MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "interactive", "interactive": buttons}
    )
    assert graph_payload("1", message(data), base_url="")["interactive"] == {
        "type": "button",
        "body": {"text": "Which?"},
        "action": {"buttons": [{"type": "reply", "reply": {"id": "a", "title": "A"}}]},
    }
    listed = {
        "type": "list",
        "body": "Pick",
        "button": "Menu",
        "sections": [{"title": "S", "rows": [{"id": "r", "title": "R", "description": "d"}]}],
    }
    data = check_agent_send(
        MESSAGE_TYPE_WA_RICH, "", [], {"wa_kind": "interactive", "interactive": listed}
    )
    assert graph_payload("1", message(data), base_url="")["interactive"] == {
        "type": "list",
        "body": {"text": "Pick"},
        "action": {"button": "Menu", "sections": listed["sections"]},
    }


def test_templates_kept_are_approved_and_fillable():
    assert template_view(ORDER_UPDATE)["components"][3]["buttons"][0]["url"].endswith("{{1}}")
    assert template_view({**ORDER_UPDATE, "status": "PENDING"}) is None
    media_header = {"type": "HEADER", "format": "IMAGE"}
    assert template_view({**ORDER_UPDATE, "components": [media_header]}) is None
    named = {"type": "BODY", "text": "Hi {{name}}"}
    assert template_view({**ORDER_UPDATE, "components": [named]}) is None
    ftp = {"type": "BUTTONS", "buttons": [{"type": "URL", "text": "x", "url": "ftp://a/{{1}}"}]}
    assert template_view({**ORDER_UPDATE, "components": [named | {"text": "b"}, ftp]}) is None


def test_a_template_is_rendered_and_sent_with_its_parameters():
    sent = {
        "template": {
            "name": "order_update",
            "language": "en_US",
            "parameters": {"body": ["Ann", "#42"], "buttons": ["42"]},
        }
    }
    data = check_agent_send(MESSAGE_TYPE_WA_TEMPLATE, "", [], sent)
    rendered = render_template(template_view(ORDER_UPDATE), data["template"])
    assert rendered["header"] == "Your order"
    assert rendered["body"] == "Hello Ann, your order #42 is on its way."
    assert rendered["footer"] == "Agora shop"
    assert rendered["buttons"] == [
        {"type": "URL", "text": "Track it", "url": "https://example.com/track/42", "suffix": "42"},
        {"type": "QUICK_REPLY", "text": "Thanks"},
    ]
    body = graph_payload("1", message({**data, "template": rendered}), base_url="")
    assert body["template"] == {
        "name": "order_update",
        "language": {"code": "en_US"},
        "components": [
            {
                "type": "body",
                "parameters": [{"type": "text", "text": "Ann"}, {"type": "text", "text": "#42"}],
            },
            {
                "type": "button",
                "sub_type": "url",
                "index": "0",
                "parameters": [{"type": "text", "text": "42"}],
            },
        ],
    }


def test_a_template_needs_exactly_its_parameters():
    view = template_view(ORDER_UPDATE)
    for parameters in (
        {"body": ["Ann"], "buttons": ["1"]},
        {"body": ["A", "B"]},
        {"header": ["x"], "body": ["A", "B"], "buttons": ["1"]},
    ):
        sent = check_agent_send(
            MESSAGE_TYPE_WA_TEMPLATE,
            "",
            [],
            {"template": {"name": "order_update", "language": "en_US", "parameters": parameters}},
        )
        with pytest.raises(InvalidInput):
            render_template(view, sent["template"])
