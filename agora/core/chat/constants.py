"""The chat's constants: membership types, notification flags, message types, and the
limits and page sizes of chats (the spec's numbers the web app shares are written out by
`python -m agora constants`)."""

# Membership types (spec section 4).
USER_TYPE_ADMIN = 10
USER_TYPE_MODERATOR = 15
USER_TYPE_MEMBER = 20
# Blocked by a moderator, and the block can be undone (unblock); 40 and above stay blocked.
USER_TYPE_BLOCKED_REVERSIBLE = 29
USER_TYPE_AWAITING_APPROVAL = 30
USER_TYPE_BLOCKED = 40
# Notification flag (spec section 4): 20 or below is unmuted, above 20 muted.
NOTIFICATION_UNMUTED = 20
NOTIFICATION_MUTED = 30
# Message types (spec section 4).
MESSAGE_TYPE_CHAT = 1003
MESSAGE_TYPE_SYSTEM = 1010
MESSAGE_TYPE_BANNER = 1100
SEND_REPLY_OK = 13
SEND_REPLY_REFUSED = -1
ITEM_CHAT_PREFIX = "r_"
CHAT_ATTACHMENTS_MAX = 3
SESSION_KIND_GROUP = "group"
SESSION_KIND_ITEM_CHAT = "item_chat"
MESSAGE_TEXT_MAX_LENGTH = 4000
# A street address with a landmark or two fits; a pasted essay does not.
LOCATION_ADDRESS_MAX_LENGTH = 300
LOCAL_ID_MAX_LENGTH = 64
# A sent message's `created_at` is the sender's clock, kept beside the server's time: a
# window from 2001-09-09 to 2286-11-20 (ms) takes any real clock, even a wrong one, and keeps
# numbers MongoDB cannot store (beyond 8 bytes) or that mean nothing out of the message.
CLIENT_CREATED_AT_MIN = 1_000_000_000_000
CLIENT_CREATED_AT_MAX = 9_999_999_999_999
# Message types a client may name (`_type`); which of them it may send is the chat rules'.
MESSAGE_TYPE_MAX = 9_999
MESSAGES_PAGE = 30
CHATS_PAGE = 20
MEMBERS_PAGE = 30
SESSION_BUFFER_MESSAGES = 200
# Receipt times each membership keeps per status (the message info view's "at").
RECEIPT_MARKS_KEPT = 20
TYPING_INTERVAL_SECONDS = 10
CHAT_ATTACHMENT_TYPES = (
    "image/jpeg",
    "image/png",
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "video/mp4",
)
MODERATION_ACTIONS = ("approve", "reject", "block", "unblock", "make_moderator")
