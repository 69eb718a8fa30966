"""Constants from the product specification, in one place."""

# Membership types (spec section 4).
USER_TYPE_ADMIN = 10
USER_TYPE_MODERATOR = 15
USER_TYPE_MEMBER = 20
USER_TYPE_UNBLOCKABLE = 29
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

ITEM_HIDDEN_SORT_ORDER = -1
ITEM_CHAT_PREFIX = "r_"

# Login and one-time codes.
OTP_LENGTH = 6
REQUIRE_IDENTIFIER = "email_id_or_phone_number"
NAME_MAX_LENGTH = 80
EMAIL_MAX_LENGTH = 254
IMAGE_URL_MAX_LENGTH = 2048
PHONE_COUNTRY_CODES = ("31", "1", "91", "44", "33", "49", "34", "39", "86")
PUSH_OS_TYPE_WEB = "WEB_PUSH"

# Client error reports.
JSERROR_FIELD_MAX_CHARS = 8000

# Currencies (spec section 9).
CURRENCY_POINTS = "POINTS"
CURRENCY_SYMBOLS = {
    "KES": "KSh",
    "USD": "$",
    "INR": "₹",
    "EUR": "€",
    "GBP": "£",
    "NGN": "₦",
    "RWF": "Rwf",
    "POINTS": "🪙",
    "ZAR": "R",
}
OFFER_CURRENCIES = ("POINTS", "USD", "EUR", "INR", "GBP", "CAD")

# Uploads (spec sections 5 and 9).
UPLOAD_MAX_BYTES = 15 * 1024 * 1024
POST_FILES_MAX = 2
POST_FILE_MAX_BYTES = 10 * 1024 * 1024
CHAT_ATTACHMENTS_MAX = 3

RECENT_GROUPS = 5
