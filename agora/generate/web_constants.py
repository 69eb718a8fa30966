"""The spec's constants the web app shares with the server, written out as TypeScript, and
what the server's rules compute that the web app shows as it is (DERIVED).

`python -m agora constants > web/src/shared/generated/serverConstants.ts` writes the module
the web app's `shared/constants.ts` takes these values from; tests/unit/test_web_constants.py
fails while the written module differs from what this renders, so the two sides cannot drift.
"""

import json
from types import ModuleType
from typing import Any

from agora.core import (
    accounts,
    chat_search,
    finder_fees,
    groups,
    items,
    mentions,
    message_changes,
    money,
    payments,
    reactions,
    reviews,
    rewards,
    slow_mode,
    uploads,
)
from agora.core.chat import constants as chat
from agora.core.whatsapp import constants as whatsapp

# Only what the web app uses, each from the feature that owns it: the rest of the spec's
# constants are the server's business.
SHARED: dict[str, ModuleType] = {
    "USER_TYPE_ADMIN": chat,
    "USER_TYPE_MODERATOR": chat,
    "USER_TYPE_MEMBER": chat,
    "USER_TYPE_BLOCKED_REVERSIBLE": chat,
    "USER_TYPE_AWAITING_APPROVAL": chat,
    "NOTIFICATION_UNMUTED": chat,
    "NOTIFICATION_MUTED": chat,
    "MESSAGE_TYPE_CHAT": chat,
    "MESSAGE_TYPE_SYSTEM": chat,
    "MESSAGE_TYPE_BANNER": chat,
    "SEND_REPLY_OK": chat,
    "SEND_REPLY_REFUSED": chat,
    "MODERATION_ACTIONS": chat,
    "TYPING_INTERVAL_SECONDS": chat,
    "CHAT_ATTACHMENTS_MAX": chat,
    "CHAT_ATTACHMENT_TYPES": chat,
    "LOCATION_ADDRESS_MAX_LENGTH": chat,
    "OTP_LENGTH": accounts,
    "PHONE_COUNTRY_CODES": accounts,
    "CURRENCY_POINTS": money,
    "CURRENCY_SYMBOLS": money,
    "OFFER_CURRENCIES": money,
    "OFFER_MIN_AMOUNT": money,
    "OFFER_PROMPT_DEFAULT": money,
    "STARTER_POINTS": money,
    "DAILY_POINTS": money,
    "DAILY_POINTS_SINCE": money,
    "CARD_CURRENCIES": payments,
    "RECHARGE_DEFAULT_AMOUNT": payments,
    "RECHARGE_DEFAULT_CURRENCY": payments,
    "RECHARGE_MIN_AMOUNT": money,
    "ITEM_CHAT_PREFIX": chat,
    "RECHARGE_MAX_AMOUNT": payments,
    "RECHARGE_PATH": payments,
    "AFTER_PAYMENT_PATH": payments,
    "SUBSCRIPTION_ACTIVE": payments,
    "UPLOAD_MAX_BYTES": uploads,
    "POST_FILES_MAX": items,
    "POST_FILE_MAX_BYTES": items,
    "RECENT_GROUPS": groups,
    "FINDER_FEE_PERCENT_DEFAULT": finder_fees,
    "FINDER_FEE_PERCENT_MAX": finder_fees,
    "FINDER_FEE_MAX_SHARERS": finder_fees,
    "REWARD_HELD": rewards,
    "REWARD_RELEASED": rewards,
    "REWARD_NOT_HELD": rewards,
    "REWARD_NONE": rewards,
    "POST_CLOSED": items,
    "POST_EXPIRED": items,
    "POST_DELETED": items,
    "LEDGER_REF_REWARD_HOLD": rewards,
    "LEDGER_REF_REWARD_RELEASE": rewards,
    "REVIEW_RATING_MIN": reviews,
    "REVIEW_RATING_MAX": reviews,
    "REVIEW_TEXT_MAX": reviews,
    "REVIEW_REPORT_REASON_MAX": reviews,
    "REVIEW_EDIT_DAYS": reviews,
    # WhatsApp's, from its own module.
    "MESSAGE_TYPE_WA_TEXT": whatsapp,
    "MESSAGE_TYPE_WA_RICH": whatsapp,
    "MESSAGE_TYPE_WA_INBOUND": whatsapp,
    "MESSAGE_TYPE_WA_TEMPLATE": whatsapp,
    "MESSAGE_TYPE_WA_STATUS": whatsapp,
    "SESSION_KIND_BUSINESS": whatsapp,
    "WHATSAPP_REPLY_BUTTONS_MAX": whatsapp,
    "WHATSAPP_BUTTON_TITLE_MAX": whatsapp,
    "WHATSAPP_LIST_ROWS_MAX": whatsapp,
    "WHATSAPP_CONTACTS_MAX": whatsapp,
    "WHATSAPP_MEDIA_TYPES": whatsapp,
    # Reactions': the bar and the picker.
    "REACTION_QUICK": reactions,
    "REACTION_EMOJIS": reactions,
    # Edits, deletions and pins of messages.
    "MESSAGE_EDIT_WINDOW_SECONDS": message_changes,
    "PINS_MAX": message_changes,
    "MESSAGE_DELETED_TEXT": message_changes,
    # Searching a chat's history.
    "CHAT_SEARCH_MAX_LENGTH": chat_search,
    "CHAT_SEARCH_MAX_WORDS": chat_search,
    # Mentions' and slow mode's.
    "MENTIONS_MAX": mentions,
    "MENTION_ALL": mentions,
    "MENTION_HERE": mentions,
    "MENTION_SEQS_KEPT": mentions,
    "SLOW_MODE_CHOICES": slow_mode,
}

# Computed by the server's own functions, so the web app's texts cannot tell another story.
DERIVED = {
    # The landing page and the offer dialog explain finder's fees with it.
    "FINDER_FEE_EXAMPLE": finder_fees.worked_example,
    # Amounts as the server's texts write them: the web's formatter is tested against them.
    "MONEY_FORMAT_EXAMPLES": money.format_examples,
}

HEADER = """\
// Generated from agora/core by `python -m agora constants` (agora/generate/web_constants.py):
// do not edit. Each feature names the values it uses in its own constants.ts, taken from here.
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
    values = [(name, getattr(owner, name)) for name, owner in SHARED.items()]
    values += [(name, compute()) for name, compute in DERIVED.items()]
    lines = [f"export const {name} = {typescript_value(value)};" for name, value in values]
    return HEADER + "\n" + "\n".join(lines) + "\n"
