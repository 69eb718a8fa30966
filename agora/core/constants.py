"""Constants from the product specification, in one place."""

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

# Wallets and the ledger (spec sections 1, 3 and 9; amounts chosen in docs/decisions.md).
MONEY_DECIMALS = 2
WALLET_FOR_USER = "user"
STARTER_POINTS = 100
DAILY_POINTS = 1
DAILY_POINTS_SINCE = "2024-01-01"
LEDGER_PAGE = 30
# The smallest offer: a smaller one is refused, never raised to it.
OFFER_MIN_AMOUNT = 0.5
OFFER_PROMPT_DEFAULT = 10
REQUEST_ID_MAX_LENGTH = 64
# Money moves left pending this long (an edge died mid-move) are driven to the end.
MOVE_RECOVERY_AFTER_MS = 60 * 1000
LEDGER_REF_WELCOME = "welcome"
LEDGER_REF_DAILY = "daily"
LEDGER_REF_OFFER = "offer"
LEDGER_REF_RECHARGE = "recharge"
LEDGER_REF_WITHDRAW = "withdraw"
LEDGER_REF_REVERSAL = "reversal"
# A WhatsApp template sent (AGORA_WHATSAPP_TEMPLATE_PRICE), and its refund if Meta refused it.
LEDGER_REF_WHATSAPP_TEMPLATE = "whatsapp_template"
# A post's reward held from its poster's wallet (issue 32): taken or changed by a create or an
# edit, and given back when the post is closed, deleted or expires.
LEDGER_REF_REWARD_HOLD = "reward_hold"
LEDGER_REF_REWARD_RELEASE = "reward_release"
# Money `make run`'s demo city gives its sample people for their posts' rewards.
LEDGER_REF_DEMO = "demo"
# What a post's reward is to the people who read it (item `reward_status`).
REWARD_HELD = "held"
REWARD_RELEASED = "released"
REWARD_NOT_HELD = "not_held"
REWARD_NONE = "none"
# Why a post stopped (item `closed_reason`); a deleted one is also hidden.
POST_CLOSED = "closed"
POST_EXPIRED = "expired"
POST_DELETED = "deleted"
POST_EXPIRY_DAYS_DEFAULT = 30
DAY_MS = 24 * 60 * 60 * 1000
# How often every edge looks for posts past their expiry (and holds a crash left open).
POST_EXPIRY_SWEEP_SECONDS = 60
# Reviews after a paid offer (issue 32).
REVIEW_RATING_MIN = 1
REVIEW_RATING_MAX = 5
REVIEW_TEXT_MAX = 500
REVIEW_REPORT_REASON_MAX = 300
REVIEW_EDIT_DAYS = 7
REVIEWS_PAGE = 20
# Finder's fees (issue 12; the rule is in docs/decisions.md).
FINDER_FEE_PERCENT_DEFAULT = 10
FINDER_FEE_PERCENT_MAX = 50
# Only the sharers nearest the asker are paid, so a long chain cannot thin the parts out.
FINDER_FEE_MAX_SHARERS = 5
FINDER_FEES_EARNED_PAGE = 50
# A currency's smallest amount in the ledger's cents; every offer currency has MONEY_DECIMALS.
CURRENCY_MINOR_UNIT_CENTS = {currency: 1 for currency in OFFER_CURRENCIES}

# Uploads (spec sections 5 and 9).
UPLOAD_MAX_BYTES = 15 * 1024 * 1024
POST_FILES_MAX = 2
POST_FILE_MAX_BYTES = 10 * 1024 * 1024
CHAT_ATTACHMENTS_MAX = 3

RECENT_GROUPS = 5
# How many of the newest groups are looked at to find the RECENT_GROUPS anyone may read.
RECENT_GROUPS_SCANNED = 50

# Groups, feed and posts.
FEED_PAGE_SIZE = 20
FEED_SEARCH_MAX_WORDS = 8
GROUP_TAGS_MAX = 30
TAG_MAX_LENGTH = 30
ITEM_TAGS_MAX = 5
ITEM_TITLE_MAX_LENGTH = 120
ITEM_DESCRIPTION_MAX_LENGTH = 5000
OFFER_DESCRIPTION_MAX_LENGTH = 300
OFFER_AMOUNT_MAX = 1_000_000_000
GROUP_TITLE_MAX_LENGTH = 80
GROUP_DESCRIPTION_MAX_LENGTH = 2000
CITY_SEARCH_RESULTS = 10
# Reverse geocoding names the nearest city of the local dataset only this close to the point:
# farther away, a city's name would mislead more than no address at all.
GEOCODE_RADIUS_KM = 50

# ---------------------------------------------------------------------------
# Upload capability: accepted types, server-side limits and the edge's paths.

# Mime type -> (stored file extension, name listed in 'Invalid file type, allowed: {types}').
UPLOAD_TYPES = {
    "image/jpeg": ("jpg", "jpeg"),
    "image/png": ("png", "png"),
    "image/webp": ("webp", "webp"),
    "application/pdf": ("pdf", "pdf"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ("docx", "docx"),
    "video/mp4": ("mp4", "mp4"),
}
# Files kept from elsewhere (a WhatsApp customer's media) are served like uploads, but never
# accepted by an upload link. Anything else is kept as a plain file (offered as a download).
KEPT_FILE_TYPES = {
    "audio/ogg": ("ogg", "ogg"),
    "audio/mpeg": ("mp3", "mp3"),
    "audio/aac": ("aac", "aac"),
    "audio/mp4": ("m4a", "m4a"),
    "audio/amr": ("amr", "amr"),
    "video/3gpp": ("3gp", "3gp"),
    "text/plain": ("txt", "txt"),
    "application/msword": ("doc", "doc"),
    "application/vnd.ms-excel": ("xls", "xls"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ("xlsx", "xlsx"),
    "application/vnd.ms-powerpoint": ("ppt", "ppt"),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": ("pptx", "pptx"),
    "application/octet-stream": ("bin", "file"),
}
UPLOADS_PATH = "/uploads/"
UPLOAD_PUT_PATH = "/uploads/put/"
UPLOAD_URL_TTL_SECONDS = 15 * 60
UPLOAD_URLS_PER_USER = 120
UPLOAD_TITLE_MAX_LENGTH = 120
UPLOAD_READ_CHUNK_BYTES = 64 * 1024
# A file being received stays in memory up to this, then spills to a temporary file.
UPLOAD_SPOOL_BYTES = 1024 * 1024
# Decoded pixels, checked before decoding: a few KB of PNG can declare gigabytes of pixels.
UPLOAD_MAX_PIXELS = 40_000_000
# Quality of the lossy re-encodings (JPEG, WebP, thumbnails).
UPLOAD_IMAGE_QUALITY = 85
UPLOAD_THUMBNAIL_PX = 400
# Uploads checked at once per edge: decoding an image may hold several copies of its pixels.
UPLOAD_CHECK_JOBS = 2
UPLOAD_PENDING = "pending"
UPLOAD_RECEIVING = "receiving"
UPLOAD_STORED = "stored"

# Chat.
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

# Card payments (Stripe): recharge, withdrawal, group subscription (spec sections 2, 7, 9).
RECHARGE_DEFAULT_AMOUNT = 10
RECHARGE_DEFAULT_CURRENCY = "USD"
CARD_CURRENCIES = ("USD", "EUR", "INR", "GBP", "CAD")
# Card providers refuse tiny charges (Stripe: about 0.50 of most currencies); the upper bound
# keeps one mistyped amount from becoming a large charge.
RECHARGE_MIN_AMOUNT = 1
RECHARGE_MAX_AMOUNT = 10_000
AFTER_PAYMENT_PATH = "/afterpayment/stripe"
RECHARGE_PATH = "/recharge"
PROFILE_PATH = "/profile"
PROFILE_CAN_WITHDRAW_PATH = "/profile?can_withdraw=1"
PROFILE_RETRY_WITHDRAW_PATH = "/profile?retry_withdraw=1"
CARD_PAYMENTS_UNAVAILABLE = "Card payments are not available"
SUBSCRIPTION_ACTIVE = 1
SUBSCRIPTION_INACTIVE = 0

# Web push (decisions: "Web push").
# Where a pushed notification sends its reader, and how long an undelivered one is kept.
PUSH_TTL_SECONDS = 24 * 3600
# A person gets at most one push per chat in this window; later messages are counted into
# one "N new messages" push at its end.
PUSH_COALESCE_SECONDS = 30.0
PUSH_PREVIEW_CHARS = 120
# RFC 8291 leaves 3,993 bytes of plaintext in a 4,096-byte aes128gcm record.
PUSH_PAYLOAD_MAX_BYTES = 3993
PUSH_TOKEN_MAX_CHARS = 2048
PUSH_ENDPOINT_MAX_CHARS = 1024
PUSH_TOPIC_CHARS = 32
# Browsers an account is pushed to: a new one replaces the one registered longest ago.
PUSH_SUBSCRIPTIONS_PER_ACCOUNT = 5
# Sending: 429 and 5xx are retried this many times, waiting twice as long each time from the
# first wait (or the push service's Retry-After, capped).
PUSH_RETRIES = 3
PUSH_FIRST_RETRY_SECONDS = 0.5
PUSH_MAX_RETRY_SECONDS = 30.0
PUSH_SEND_TIMEOUT_SECONDS = 10.0
