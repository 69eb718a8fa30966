"""The spec's constants the web app shares with the server, written out as TypeScript, and
what the server's rules compute that the web app shows as it is (DERIVED).

`python -m agora constants > web/src/shared/generated/serverConstants.ts` writes the module
the web app's `shared/constants.ts` takes these values from; tests/unit/test_web_constants.py
fails while the written module differs from what this renders, so the two sides cannot drift.
"""

import json
from typing import Any

from agora.core import constants, finder_fees, mentions, money, slow_mode
from agora.core.whatsapp import constants as whatsapp_constants

# Only what the web app uses: the rest of the spec's constants are the server's business.
SHARED = (
    "USER_TYPE_ADMIN",
    "USER_TYPE_MODERATOR",
    "USER_TYPE_MEMBER",
    "USER_TYPE_BLOCKED_REVERSIBLE",
    "USER_TYPE_AWAITING_APPROVAL",
    "NOTIFICATION_UNMUTED",
    "NOTIFICATION_MUTED",
    "MESSAGE_TYPE_CHAT",
    "MESSAGE_TYPE_SYSTEM",
    "MESSAGE_TYPE_BANNER",
    "SEND_REPLY_OK",
    "SEND_REPLY_REFUSED",
    "MODERATION_ACTIONS",
    "TYPING_INTERVAL_SECONDS",
    "CHAT_ATTACHMENTS_MAX",
    "CHAT_ATTACHMENT_TYPES",
    "LOCATION_ADDRESS_MAX_LENGTH",
    "OTP_LENGTH",
    "PHONE_COUNTRY_CODES",
    "CURRENCY_POINTS",
    "CURRENCY_SYMBOLS",
    "OFFER_CURRENCIES",
    "OFFER_MIN_AMOUNT",
    "OFFER_PROMPT_DEFAULT",
    "STARTER_POINTS",
    "DAILY_POINTS",
    "DAILY_POINTS_SINCE",
    "CARD_CURRENCIES",
    "RECHARGE_DEFAULT_AMOUNT",
    "RECHARGE_DEFAULT_CURRENCY",
    "RECHARGE_MIN_AMOUNT",
    "ITEM_CHAT_PREFIX",
    "RECHARGE_MAX_AMOUNT",
    "RECHARGE_PATH",
    "AFTER_PAYMENT_PATH",
    "SUBSCRIPTION_ACTIVE",
    "UPLOAD_MAX_BYTES",
    "POST_FILES_MAX",
    "POST_FILE_MAX_BYTES",
    "RECENT_GROUPS",
    "FINDER_FEE_PERCENT_DEFAULT",
    "FINDER_FEE_PERCENT_MAX",
    "FINDER_FEE_MAX_SHARERS",
    "REWARD_HELD",
    "REWARD_RELEASED",
    "REWARD_NOT_HELD",
    "REWARD_NONE",
    "POST_CLOSED",
    "POST_EXPIRED",
    "POST_DELETED",
    "LEDGER_REF_REWARD_HOLD",
    "LEDGER_REF_REWARD_RELEASE",
    "REVIEW_RATING_MIN",
    "REVIEW_RATING_MAX",
    "REVIEW_TEXT_MAX",
    "REVIEW_REPORT_REASON_MAX",
    "REVIEW_EDIT_DAYS",
)

# WhatsApp's, from its own module (`core/whatsapp/constants.py`).
WHATSAPP_SHARED = (
    "MESSAGE_TYPE_WA_TEXT",
    "MESSAGE_TYPE_WA_RICH",
    "MESSAGE_TYPE_WA_INBOUND",
    "MESSAGE_TYPE_WA_TEMPLATE",
    "MESSAGE_TYPE_WA_STATUS",
    "SESSION_KIND_BUSINESS",
    "WHATSAPP_REPLY_BUTTONS_MAX",
    "WHATSAPP_BUTTON_TITLE_MAX",
    "WHATSAPP_LIST_ROWS_MAX",
    "WHATSAPP_CONTACTS_MAX",
    "WHATSAPP_MEDIA_TYPES",
)

# Mentions' and slow mode's, from their own modules (`core/mentions.py`, `core/slow_mode.py`).
CHAT_TOOLS_SHARED = (
    (mentions, "MENTIONS_MAX"),
    (mentions, "MENTION_ALL"),
    (mentions, "MENTION_HERE"),
    (mentions, "MENTION_SEQS_KEPT"),
    (slow_mode, "SLOW_MODE_CHOICES"),
)

# Computed by the server's own functions, so the web app's texts cannot tell another story.
DERIVED = {
    # The landing page and the offer dialog explain finder's fees with it.
    "FINDER_FEE_EXAMPLE": finder_fees.worked_example,
    # Amounts as the server's texts write them: the web's formatter is tested against them.
    "MONEY_FORMAT_EXAMPLES": money.format_examples,
}

HEADER = """\
// Generated from agora/core by `python -m agora constants` (agora/web_constants.py): do not edit.
// The web app reads these through shared/constants.ts.
"""


def typescript_value(value: Any) -> str:
    """The value as a TypeScript literal: tuples become readonly arrays, dicts objects."""
    if isinstance(value, tuple):
        return f"[{', '.join(typescript_value(v) for v in value)}] as const"
    if isinstance(value, dict):
        fields = ", ".join(f"{json.dumps(k)}: {typescript_value(v)}" for k, v in value.items())
        return f"{{ {fields} }} as const"
    return json.dumps(value, ensure_ascii=False)


def render() -> str:
    values = [(name, getattr(constants, name)) for name in SHARED]
    values += [(name, getattr(whatsapp_constants, name)) for name in WHATSAPP_SHARED]
    values += [(name, getattr(module, name)) for module, name in CHAT_TOOLS_SHARED]
    values += [(name, compute()) for name, compute in DERIVED.items()]
    lines = [f"export const {name} = {typescript_value(value)};" for name, value in values]
    return HEADER + "\n" + "\n".join(lines) + "\n"
