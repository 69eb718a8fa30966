"""WhatsApp's pure rules: reading Meta's webhook bodies whatever they hold, connect checks."""

from hypothesis import given, settings
from hypothesis import strategies as st

from agora.core.uploads import kept_file_type
from agora.core.whatsapp.channel import check_connect
from agora.integrations.whatsapp.webhooks import parse_webhook
from tests.whatsapp_signing import contact, interactive_reply, reaction, status, text, webhook

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=30,
)
message_like = st.fixed_dictionaries(
    {},
    optional={
        "from": st.one_of(st.just("15550001"), json_values),
        "id": st.one_of(st.just("wamid.A1"), json_values),
        "timestamp": st.one_of(st.just("1700000000"), json_values),
        "type": st.sampled_from(["text", "image", "location", "contacts", "interactive", "x"]),
        "text": json_values,
        "image": json_values,
        "location": json_values,
        "contacts": json_values,
        "interactive": json_values,
        "context": json_values,
        "referral": json_values,
    },
)


@settings(max_examples=100, derandomize=True, database=None)
@given(body=json_values, messages=st.lists(message_like, max_size=4))
def test_any_body_is_read_without_an_error(body, messages):
    parse_webhook(body)
    for change in parse_webhook(webhook("123", messages=messages)):
        for message in change.messages:
            assert message.wa_id.isdigit() and message.wamid


def test_a_delivery_reads_into_profiles_messages_reactions_and_statuses():
    body = webhook(
        "123",
        contacts=[contact("15550001", "Kerry\x00 Fisher")],
        messages=[
            text("15550001", "hi\x07 there\nfriend", wamid="wamid.A", timestamp="1700000000"),
            interactive_reply("15550001", "button_reply", "b1", "Yes"),
            reaction("15550001", "wamid.A", "👍"),
        ],
        statuses=[status("wamid.B", "read", "15550001"), {"id": "no status"}],
    )
    [change] = parse_webhook(body)
    assert change.phone_number_id == "123"
    assert change.profiles == {"15550001": "Kerry Fisher"}
    first, tap, liked = change.messages
    assert (first.text, first.data["wa"]) == (
        "hi there\nfriend",
        {"wamid": "wamid.A", "kind": "text", "sent_at": 1_700_000_000_000},
    )
    assert tap.data["interactive"] == {"type": "button_reply", "id": "b1", "title": "Yes"}
    assert (liked.reaction.message_wamid, liked.reaction.emoji) == ("wamid.A", "👍")
    assert [s["id"] for s in change.statuses] == ["wamid.B"]
    assert parse_webhook({**body, "object": "page"}) == []


def test_kept_files_are_stored_under_their_type_or_as_plain_files():
    assert kept_file_type("audio/ogg; codecs=opus").extension == "ogg"
    assert kept_file_type("IMAGE/JPEG").mime_type == "image/jpeg"
    assert kept_file_type("application/x-msdownload").mime_type == "application/octet-stream"
    assert kept_file_type("text/html").mime_type == "application/octet-stream"


def test_connect_fields_are_required_first_and_secrets_optional_after():
    _, errors = check_connect({}, connected=False)
    assert set(errors) == {
        "phone_number_id",
        "business_account_id",
        "access_token",
        "app_secret",
        "verify_token",
    }
    kept, errors = check_connect(
        {"phone_number_id": " 123 ", "business_account_id": "456", "app_secret": ""},
        connected=True,
    )
    assert (kept, errors) == ({"phone_number_id": "123", "business_account_id": "456"}, {})
