// Generated from agora/core/constants.py by `python -m agora constants`: do not edit.
// The web app reads these through shared/constants.ts.

export const USER_TYPE_ADMIN = 10;
export const USER_TYPE_MODERATOR = 15;
export const USER_TYPE_MEMBER = 20;
export const USER_TYPE_BLOCKED_REVERSIBLE = 29;
export const USER_TYPE_AWAITING_APPROVAL = 30;
export const NOTIFICATION_UNMUTED = 20;
export const NOTIFICATION_MUTED = 30;
export const MESSAGE_TYPE_CHAT = 1003;
export const MESSAGE_TYPE_SYSTEM = 1010;
export const MESSAGE_TYPE_BANNER = 1100;
export const SEND_REPLY_OK = 13;
export const SEND_REPLY_REFUSED = -1;
export const MODERATION_ACTIONS = ["approve", "reject", "block", "unblock", "make_moderator"] as const;
export const TYPING_INTERVAL_SECONDS = 10;
export const CHAT_ATTACHMENTS_MAX = 3;
export const CHAT_ATTACHMENT_TYPES = ["image/jpeg", "image/png", "application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "video/mp4"] as const;
export const LOCATION_ADDRESS_MAX_LENGTH = 300;
export const OTP_LENGTH = 6;
export const PHONE_COUNTRY_CODES = ["31", "1", "91", "44", "33", "49", "34", "39", "86"] as const;
export const CURRENCY_POINTS = "POINTS";
export const CURRENCY_SYMBOLS = { "KES": "KSh", "USD": "$", "INR": "₹", "EUR": "€", "GBP": "£", "NGN": "₦", "RWF": "Rwf", "POINTS": "🪙", "ZAR": "R" } as const;
export const OFFER_CURRENCIES = ["POINTS", "USD", "EUR", "INR", "GBP", "CAD"] as const;
export const OFFER_MIN_AMOUNT = 0.5;
export const OFFER_PROMPT_DEFAULT = 10;
export const DAILY_POINTS_SINCE = "2024-01-01";
export const CARD_CURRENCIES = ["USD", "EUR", "INR", "GBP", "CAD"] as const;
export const RECHARGE_DEFAULT_AMOUNT = 10;
export const RECHARGE_DEFAULT_CURRENCY = "USD";
export const RECHARGE_PATH = "/recharge";
export const AFTER_PAYMENT_PATH = "/afterpayment/stripe";
export const SUBSCRIPTION_ACTIVE = 1;
export const UPLOAD_MAX_BYTES = 15728640;
export const POST_FILES_MAX = 2;
export const POST_FILE_MAX_BYTES = 10485760;
export const RECENT_GROUPS = 5;
