"""WhatsApp's constants: its message types and conversation kind, and Meta's limits (the
spec's numbers the web app shares are written out by `python -m agora constants`)."""

# Message types (issue 15; the split between 1018 and 1019 is in docs/decisions.md).
MESSAGE_TYPE_WA_TEXT = 1018  # an agent's free-form text reply
# An agent's image, document, audio, video, location, contacts or interactive reply.
MESSAGE_TYPE_WA_RICH = 1019
MESSAGE_TYPE_WA_INBOUND = 1020  # the customer's message, of any kind
# An approved template: the only reply allowed outside the 24-hour window.
MESSAGE_TYPE_WA_TEMPLATE = 1021
# A delivery-status update: announced in realtime, never stored as a message.
MESSAGE_TYPE_WA_STATUS = 1022

# A one-to-one chat between a group's agents and one WhatsApp customer.
SESSION_KIND_BUSINESS = "business"
# WhatsApp: free-form replies are allowed for 24 hours after the customer's last message.
WHATSAPP_WINDOW_MS = 24 * 3600 * 1000
# Meta's ids are digits (about 15-17); tokens and secrets are bounded well above real ones.
WHATSAPP_ID_MAX_LENGTH = 32
WHATSAPP_SECRET_MAX_LENGTH = 1024
# A customer's media file kept as an upload (Meta allows documents up to 100 MB).
WHATSAPP_MEDIA_MAX_BYTES = 25 * 1024 * 1024
# Meta's limits on what an agent sends (the web's composer keeps to them too).
WHATSAPP_REPLY_BUTTONS_MAX = 3
WHATSAPP_BUTTON_TITLE_MAX = 20
WHATSAPP_LIST_ROWS_MAX = 10
WHATSAPP_CONTACTS_MAX = 5
# The upload types Meta sends as each media kind.
WHATSAPP_MEDIA_TYPES = {
    "image": ("image/jpeg", "image/png"),
    "video": ("video/mp4", "video/3gpp"),
    "audio": ("audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"),
    "document": (
        "application/pdf",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/msword",
        "text/plain",
    ),
}
# A WhatsApp template sent (AGORA_WHATSAPP_TEMPLATE_PRICE), and its refund if Meta refused it.
LEDGER_REF_WHATSAPP_TEMPLATE = "whatsapp_template"
