// Every number, text key and route the product spec fixes lives here, so a change to
// the spec is a change to one file. What the server shares comes from the generated module
// (written from agora/core/constants.py by `python -m agora constants`).
import * as server from './generated/serverConstants';

// --- Layout (spec section 9) ---
export const DESKTOP_MIN_WIDTH_PX = 993;
export const SIDE_PANEL_WIDTH_PX = 250;
export const MENU_TRANSITION_MS = 200;
export const SWIPE_MIN_DISTANCE_PX = 50;
/** Width of the strip at the left edge where a swipe can open a collapsed menu. */
export const SWIPE_EDGE_WIDTH_PX = 20;
/** Swipe speeds are in px per millisecond. */
export const SWIPE_MIN_HORIZONTAL_SPEED = 0.6;
export const SWIPE_MAX_VERTICAL_SPEED = 0.6;

// --- Widgets ---
export const TOAST_DURATION_MS = 4000;
export const LOADING_TEXT = 'Loading..';
/** The spec's 'Sorry! Error occured', spelled correctly. */
export const ERROR_POPUP_TITLE = 'Sorry! Error occurred';
export const ROUTER_ERROR_HEADING = 'Unexpected Application Error!';
export const LOGIN_TITLE = 'Login to continue';

// --- Landing ---
export const HERO_TITLE = 'Find customers in your city';
export const HERO_SUBTITLE = 'Post, share and chat instantly';
/** The spec's "starter coins, and 1 coin a day from 2024-01-01", as the server grants them (agora/core/constants.py). */
export const STARTER_COINS_TEXT = `New members get 🪙 ${server.STARTER_POINTS} in starter coins, plus ${server.DAILY_POINTS} coin for every day they open Agora (since ${new Date(
  `${server.DAILY_POINTS_SINCE}T00:00:00Z`,
).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}).`;

// --- Realtime ---
export const SOCKET_PATH = '/socket.io';
export const SOCKET_RETRY_MS = 5000;

// --- Lookups by id (spec sections 7 and 9) ---
export const LOOKUP_BATCH_MS = 200;
/** The spec leaves the cache's maximum key count open; this bounds local storage use. */
export const LOOKUP_CACHE_MAX_KEYS = 500;
export const URL_PREVIEW_CACHE_SIZE = 50;

// --- Error reporting: enough to see a pattern, not enough to flood the server ---
export const JSERROR_MAX_REPORTS = 5;
export const JSERROR_WINDOW_MS = 60_000;

// --- Browser storage ---
export const STORAGE_KEYS = {
  authKey: 'agora.auth_key',
  /** A key a link handed over while another account was signed in (this tab only). */
  pendingAuthKey: 'agora.pending_auth_key',
  groupId: 'agora.group_id',
  recentGroups: 'agora.recent_groups',
  /** The spec's local cache name, kept so that a cache of another shape is never read. */
  lookupCache: 'cache_v3',
  /** The spec's remembered push value: the user _id and the subscription sent for them. */
  pushToken: 'agora.push_token',
} as const;
export const AUTH_KEY_COOKIE = 'auth_key';
export const AUTH_KEY_QUERY_PARAM = 'auth_key';
/** The auth_key cookie outlives the browser session, like the stored key does. */
export const AUTH_KEY_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

// --- Login ---
/** Offered in this order; the first is the default. */
export const PHONE_COUNTRY_CODES = server.PHONE_COUNTRY_CODES;
export const OTP_DEFAULT_LENGTH = server.OTP_LENGTH;

// --- Money (spec section 9) ---
export const POINTS_CURRENCY = server.CURRENCY_POINTS;
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = server.CURRENCY_SYMBOLS;

// --- Routes ---
export const PATHS = {
  home: '/',
  landing: '/landing',
  profile: '/profile',
  editProfile: '/edit/profile',
  chats: '/chats',
  selectCity: '/select/city',
  groupFeed: '/:groupId',
  feed: '/feed/:groupId',
  group: '/group/:groupId',
  groupSettings: '/group/:groupId/settings',
  groupWhatsapp: '/group/:groupId/whatsapp',
  createGroup: '/create/group',
  createItem: '/create/item/:groupId',
  editItem: '/edit/item/:groupId/:itemId',
  route: '/r/:routeId',
  userProfile: '/u/:userId',
  groupReviews: '/group/:groupId/reviews',
  recharge: server.RECHARGE_PATH,
  afterPayment: server.AFTER_PAYMENT_PATH,
} as const;

const enc = encodeURIComponent;
export const groupFeedPath = (groupId: string) => `/${enc(groupId)}`;
export const recentGroupPath = (groupId: string) => `/feed/${enc(groupId)}`;
export const groupPath = (groupId: string) => `/group/${enc(groupId)}`;
export const groupSettingsPath = (groupId: string) => `/group/${enc(groupId)}/settings`;
export const createItemPath = (groupId: string) => `/create/item/${enc(groupId)}`;
/** Choosing a city on the way to a new post: the post form of the city's group opens after. */
export const SELECT_CITY_NEXT_PARAM = 'next';
export const selectCityToPostPath = `${PATHS.selectCity}?${SELECT_CITY_NEXT_PARAM}=post`;
export const editItemPath = (groupId: string, itemId: string) => `/edit/item/${enc(groupId)}/${enc(itemId)}`;
export const routePath = (routeId: string) => `/r/${enc(routeId)}`;
export const userProfilePath = (userId: string) => `/u/${enc(userId)}`;
export const groupReviewsPath = (groupId: string) => `/group/${enc(groupId)}/reviews`;

// --- Select city (spec sections 2 and 9) ---
export const SELECT_CITY_TITLE = 'Please Select your City';
export const CITY_SEARCH_PLACEHOLDER = 'Search for your city';
export const CITY_SEARCH_DEBOUNCE_MS = 300;
export const CITY_MAP_CENTER: readonly [number, number] = [52.370216, 4.895168];
export const CITY_MAP_ZOOM = 6;
export const MAP_TILE_URL = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
export const MAP_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
export const LOCATION_DENIED_TEXT = 'Please allow access to your location.';
export const LOCATION_FAILED_TEXT = 'Unable to fetch your location.';

// --- Chat address picker (spec sections 2, 3, 8 and 9) ---
export const ADDRESS_MAP_CENTER: readonly [number, number] = [-1.286, 36.817];
export const ADDRESS_MAP_ZOOM = 14;
/** As long as the server keeps. */
export const ADDRESS_MAX_LENGTH = server.LOCATION_ADDRESS_MAX_LENGTH;
export const ADDRESS_NOT_FOUND_TEXT = 'Address not found';
export const addressFailedText = (status: number) => `Failed to load address: ${status}`;
export const ADDRESS_PICKER_TITLE = 'Share a location';
export const ADDRESS_SEARCH_PLACEHOLDER = 'Search for a city';
export const ADDRESS_PICKER_HINT = 'Search for a city, use your location or tap the map.';
export const OPEN_MAP_TEXT = 'Open map';
/** OpenStreetMap's page for a point, with a marker on it. */
export const openStreetMapUrl = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

// --- Feed (spec section 2) ---
export const FEED_SEARCH_DEBOUNCE_MS = 500;
/** Fraction of the page scrolled past which lists load their next page. */
export const LOAD_MORE_SCROLL_FRACTION = 0.95;
export const FEED_EMPTY_TEXT = 'No posts yet.';
export const CREATE_POST_TEXT = 'Create a new post';
export const SELECT_ANOTHER_CITY_TEXT = 'Select another city';
export const INVALID_GROUP_TEXT = 'Cannot view group, not authorized or invalid';
export const LOGIN_TO_VIEW_TEXT = 'Login to view content';
export const GROUP_POSTS_TITLE = 'posts';
/** The tag search box replaces the chips when there are none or more than this many. */
export const MAX_TAG_CHIPS = 10;
export const RECENT_GROUPS_MAX = server.RECENT_GROUPS;

// --- Post form (spec sections 2, 5 and 9) ---
export const POST_TITLE_PLACEHOLDER = 'What do you need to get done today ?';
/** The spec's 'Descibe a bit more', spelled correctly. */
export const POST_DESCRIPTION_PLACEHOLDER = 'Describe a bit more';
export const OFFER_AMOUNT_PLACEHOLDER = '10';
export const OFFER_DESCRIPTION_PLACEHOLDER = 'describe reward, ex: 30% revenue share, leave blank if you wish';
/** The spec's CAD option carried GBP (a defect); here CAD is CAD. */
export const OFFER_CURRENCIES = server.OFFER_CURRENCIES;
/** The form shows points as 'pts' rather than the coin. */
export const POINTS_FORM_LABEL = 'pts';
/** Finder's fees (the rule: agora/core/finder_fees.py and docs/decisions.md). */
export const FINDER_FEE_PERCENT_DEFAULT = server.FINDER_FEE_PERCENT_DEFAULT;
export const FINDER_FEE_PERCENT_MAX = server.FINDER_FEE_PERCENT_MAX;
export const FINDER_FEE_MAX_SHARERS = server.FINDER_FEE_MAX_SHARERS;
/** The server's rule run on a sample reward: what each sharer of a chain of 1, 2 and 3 gets, first sharer first. */
export const FINDER_FEE_EXAMPLE = server.FINDER_FEE_EXAMPLE;
export const FINDER_FEE_LABEL = "Finder's fee for people who share it";
export const NEED_USER_TO_VIEW_LABEL = 'Only logged-in members can see this';
export const POST_FORM_INVALID_GROUP_TEXT = 'Cannot View group or invalid';
export const NOT_ITEM_OWNER_TEXT = 'Only the person who posted this can edit it.';
export const DELETE_ITEM_CONFIRM = 'Are you sure you want to delete this item ?';
/** A post's link once the post is gone. */
export const POST_REMOVED_TEXT = 'This post was removed';
export const LINK_COPIED_TEXT = 'Link Copied';
export const LINK_COPIED_MS = 1000;

// --- Uploads (spec sections 5 and 9) ---
export const MB = 1024 * 1024;
export const POST_MAX_FILES = server.POST_FILES_MAX;
export const POST_MAX_FILE_BYTES = server.POST_FILE_MAX_BYTES;
/** How an error names a file type: by the extension people know, not the mime type. */
export const MIME_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'video/mp4': 'mp4',
};
export const UPLOAD_ALLOWED_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** What a picture's file chooser offers: any image, so that phones offer their photos and camera; the upload's check names the types it takes. */
export const PICTURE_ACCEPT = 'image/*';
export const IMAGE_MAX_WIDTH_PX = 1200;
export const IMAGE_QUALITY = 0.8;
export const PNG_TO_JPEG_ABOVE_BYTES = 5 * MB;
export const INVALID_FILE_TYPE_TITLE = 'Invalid File Type';
export const invalidFileTypeText = (types: readonly string[]) => `Invalid file type, allowed: ${types.join(', ')}`;
export const FILE_TOO_LARGE_TITLE = 'File too large';
export const fileTooLargeText = (maxBytes: number) => `File too large, max is ${Math.round(maxBytes / 1024)}KB`;
export const MISMATCHING_MIME_TEXT = 'Mismatching mime types';

// --- Media (spec section 5) ---
export const MEDIA_EXTENSIONS = {
  image: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg'],
  audio: ['mp3', 'wav', 'ogg'],
  video: ['mp4'],
  pdf: ['pdf'],
} as const;

// --- Image viewer (spec section 9) ---
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 8;
export const ZOOM_WHEEL_STEP = 0.2;
export const ZOOM_DOUBLE_CLICK_STEP = 0.7;
export const CAROUSEL_SLIDE_MS = 300;
/** A swipe quicker than this needs only the short distance below to change slide. */
export const CAROUSEL_QUICK_SWIPE_MS = 250;
export const CAROUSEL_QUICK_SWIPE_MIN_PX = 20;
/** The spec leaves slow drags open: past this fraction of the width, the slide changes. */
export const CAROUSEL_DRAG_FRACTION = 1 / 3;

// --- Group screen ---
export const PUBLIC_GROUP_TAG = 'Public';
export const PRIVATE_GROUP_TAG = 'Private';
export const NON_MEMBERS_CAN_READ_TEXT = 'Non members can read';
export const ADMIN_MEMBER_TYPE = server.USER_TYPE_ADMIN;
export const PUBLIC_GROUP_LABEL = 'Public group';
/** Worded like the spec's other confirmations, ' ?' included. */
export const MAKE_GROUP_PUBLIC_CONFIRM = 'Are you sure you want make this group public ?';
export const ALLOW_NON_MEMBERS_READ_CONFIRM = 'Are you sure you want to allow non members to read ?';
/** The spec sets no limit for a group's image; it gets a post image's. */
export const GROUP_IMAGE_MAX_BYTES = POST_MAX_FILE_BYTES;
/** Nor for a person's picture: a post image's limit too. */
export const PROFILE_IMAGE_MAX_BYTES = POST_MAX_FILE_BYTES;
export const NEW_GROUP_TEXT = 'New group';
export const GROUP_SETTINGS_TITLE = 'Group settings';
export const ADMINS_ONLY_SETTINGS_TEXT = "Only the group's admins can change its settings.";
/** A group's `write_permission`: the highest membership type that may post and write in its chat. */
export const WRITE_PERMISSION_CHOICES: ReadonlyArray<readonly [type: number, label: string]> = [
  [server.USER_TYPE_MEMBER, 'Every member'],
  [server.USER_TYPE_MODERATOR, 'Admins and moderators'],
  [server.USER_TYPE_ADMIN, 'Admins only'],
];

// --- Wallets, offers and payments (spec sections 2, 4, 8 and 9) ---
/** The smallest offer: a smaller amount is refused (here and by the server), never raised. */
export const OFFER_MIN_AMOUNT = server.OFFER_MIN_AMOUNT;
export const OFFER_TOO_SMALL_TEXT = `The smallest offer is ${OFFER_MIN_AMOUNT}`;
export const GIVE_ANOTHER_OFFER_TEXT = 'Give another offer';
export const OFFER_PROMPT_DEFAULT_AMOUNT = server.OFFER_PROMPT_DEFAULT;
export const ENTER_OFFER_AMOUNT_TEXT = 'Enter offer amount';
export const OFFER_CONFIRM_TEXT = 'Confirm Again to proceed with offer.';
export const OFFER_GIVEN_TEXT = 'Offer Successfully given';
export const GIVE_OFFER_TEXT = 'Give offer';
export const NEED_RECHARGE_TEXT = 'Need Recharge';
/** The title over the server's need_recharge message: points are not recharged (bought), so not 'Need Recharge'. */
export const NOT_ENOUGH_POINTS_TEXT = 'Not enough points';

// --- Reviews after a paid offer (issue 32) ---
export const REVIEW_RATING_MIN = server.REVIEW_RATING_MIN;
export const REVIEW_RATING_MAX = server.REVIEW_RATING_MAX;
export const REVIEW_TEXT_MAX = server.REVIEW_TEXT_MAX;
export const REVIEW_EDIT_DAYS = server.REVIEW_EDIT_DAYS;
export const REVIEW_REPORT_REASON_MAX = server.REVIEW_REPORT_REASON_MAX;
/** The server's own words for the same refusals (docs: issue 32's contract). */
export const REVIEW_RATING_ERROR = `Choose ${server.REVIEW_RATING_MIN} to ${server.REVIEW_RATING_MAX} stars`;
export const REVIEW_TEXT_ERROR = `At most ${server.REVIEW_TEXT_MAX} characters`;
export const RECHARGE_DEFAULT_AMOUNT = server.RECHARGE_DEFAULT_AMOUNT;
export const RECHARGE_DEFAULT_CURRENCY = server.RECHARGE_DEFAULT_CURRENCY;
/** The bounds of one recharge; the server refuses anything outside them. */
export const RECHARGE_MIN_AMOUNT = server.RECHARGE_MIN_AMOUNT;
export const RECHARGE_MAX_AMOUNT = server.RECHARGE_MAX_AMOUNT;
/** What a card can top up (the server's CARD_CURRENCIES); points are earned, never bought. */
export const CARD_CURRENCIES: readonly string[] = server.CARD_CURRENCIES;
export const RECHARGE_TEXT = 'Recharge';
export const CANNOT_WITHDRAW_POINTS_TEXT = 'You cannot withdraw points';
/** Kept as the spec spells it ('Reacharging'): the page title is part of the contract. */
/** `amount` as currency.ts's formatAmount writes it. */
export const rechargeTitle = (amount: string, currency: string) => `Reacharging ${amount} ${currency}`;
export const PAYMENT_SUCCESS_TEXT = 'Payment successful';
/** The webhook that credits the wallet may land after the provider sends the browser back. */
export const RECHARGE_STATUS_POLL_MS = 1500;
export const RECHARGE_STATUS_TIMEOUT_MS = 30_000;
export const LEDGER_TITLE = 'Transaction History';
export const LEDGER_COLUMNS = ['Title', 'Date', 'Transaction', 'Balance'] as const;
export const LEDGER_EOF_TEXT = 'EOF';
export const WITHDRAW_TEXT = 'Withdraw';
export const WITHDRAW_DONE_TEXT = 'Withdrawal successful';
/** The server's answer to withdrawing from an empty wallet, shown instead of the button. */
export const NOTHING_TO_WITHDRAW_TEXT = 'Nothing to withdraw';
export const MANAGE_SUBSCRIPTION_TEXT = 'Manage subscription';
export const SUBSCRIBED_TEXT = 'Subscribed';
/** data.subscription_status of a group whose subscription is active. */
export const SUBSCRIPTION_ACTIVE = server.SUBSCRIPTION_ACTIVE;

/** Query params that make /profile show a hint banner, with the banner text. */
export const PROFILE_HINTS: ReadonlyArray<readonly [param: string, text: string]> = [
  ['can_withdraw', 'You can withdraw your money now'],
  ['retry_withdraw', 'Please retry withdraw option again'],
];

// --- Chat (spec sections 2, 4, 5 and 9) ---
export const CHAT_WINDOW_WIDTH_PX = 450;
export const CHAT_WINDOW_MAX_HEIGHT_PX = 800;
/** Below this width the chat window fills the screen. */
export const CHAT_FULL_SCREEN_BELOW_PX = 768;
/** From this width the chat list makes room for the chat window beside it, rather than under it. */
export const CHAT_BESIDE_LIST_MIN_PX = 1024;
/** The gap the floating chat window keeps from the screen's right edge (Tailwind's right-4). */
export const CHAT_WINDOW_EDGE_GAP_PX = 16;
export const LONG_PRESS_MS = 900;
/** A touch that moves further than this is a drag, not a long press. */
export const TOUCH_DRAG_THRESHOLD_PX = 5;
export const CHAT_POLL_FAST_MS = 8000;
export const CHAT_POLL_SLOW_MS = 60_000;
/** The spec leaves "recent" open: a conversation this fresh is polled fast. */
export const CHAT_RECENT_MESSAGE_MS = 2 * 60_000;
export const TYPING_THROTTLE_MS = server.TYPING_INTERVAL_SECONDS * 1000;
export const TYPING_IDLE_MS = 1000;
/** How long "is typing" stays up without a fresh typing signal. */
export const TYPING_SHOWN_MS = 4000;
/** Messages of a chat received within this window are acknowledged in one `delivered` receipt. */
export const DELIVERED_RECEIPT_MS = 500;
/**
 * Each screen waits a random part of this longer before its receipt: a message to a big group
 * reaches every present member at once, and their receipts, all sent one window later, came
 * to the server as one burst (350 at once in a city group of 500) that every other request
 * then queued behind.
 */
export const DELIVERED_RECEIPT_SPREAD_MS = 1000;
/** Shown in a chat whose post was deleted (its history stays readable). */
export const POST_DELETED_TEXT = 'This post was deleted';
export const CHAT_MAX_ATTACHMENTS = server.CHAT_ATTACHMENTS_MAX;
export const CHAT_MAX_FILE_BYTES = server.UPLOAD_MAX_BYTES;
export const CHAT_ATTACHMENT_TYPES = server.CHAT_ATTACHMENT_TYPES;
export const PASTE_ONE_FILE_TEXT = 'Please copy & paste one file at a time.';
export const MAX_ATTACHMENTS_TEXT = `You can only send upto ${CHAT_MAX_ATTACHMENTS} attachments`;
export const NEED_LOGIN_TO_CHAT_TEXT = 'You need Login to chat.';
export const CANNOT_SEND_TEXT = 'You cannot send messages here.';
export const NO_MESSAGE_INFO_TEXT = 'Sorry No information available';
export const MAKE_PUBLIC_CONFIRM = 'Are you sure you want make this public ?';
export const MESSAGE_PLACEHOLDER = 'Type a message';
export const NO_MESSAGES_TEXT = 'No messages yet. Say hello!';
/** An item chat's id is this, the post's id, '_' and the asker's id (the server's `item_chat_id`). */
export const ITEM_CHAT_PREFIX = server.ITEM_CHAT_PREFIX;
export const NO_ITEM_CHATS_TEXT = 'No chats about this post yet.';
export const CHATS_TITLE = 'Your Chats';
export const CHATS_LOGIN_TEXT = 'Log in to see your chats and the people you talk with.';
export const NO_CHATS_TEXT = 'No chats yet.';
export const CHAT_ROW_NO_MESSAGES_TEXT = 'No messages yet';
export const SEND_FAILED_TEXT = 'Not sent. Tap to retry.';

export const MESSAGE_TYPES = {
  chat: server.MESSAGE_TYPE_CHAT,
  notice: server.MESSAGE_TYPE_SYSTEM,
  banner: server.MESSAGE_TYPE_BANNER,
} as const;
export const SEND_OK_TYPE = server.SEND_REPLY_OK;
export const SEND_FAILED_TYPE = server.SEND_REPLY_REFUSED;

export const MEMBER_TYPES = {
  admin: ADMIN_MEMBER_TYPE,
  moderator: server.USER_TYPE_MODERATOR,
  member: server.USER_TYPE_MEMBER,
  // Blocked, and the block can be undone (unblock); 40 and above stay blocked.
  blockedReversible: server.USER_TYPE_BLOCKED_REVERSIBLE,
  awaitingApproval: server.USER_TYPE_AWAITING_APPROVAL,
} as const;
/** Participants at or below this type may make an item chat public. */
export const CHAT_OWNER_MAX_TYPE = ADMIN_MEMBER_TYPE;
export const NOTIFY_UNMUTED_FLAG = server.NOTIFICATION_UNMUTED;
export const NOTIFY_MUTED_FLAG = server.NOTIFICATION_MUTED;
export const MODERATION_ACTIONS = server.MODERATION_ACTIONS;
/** An action the server adds fails the type check here until it has a label. */
export const MODERATION_LABELS: Readonly<Record<(typeof MODERATION_ACTIONS)[number], string>> = {
  approve: 'Approve',
  reject: 'Reject',
  block: 'Block',
  unblock: 'Unblock',
  make_moderator: 'Make moderator',
} as const;

/** Worded like the spec's other confirmations, ' ?' included. */
export const makeModeratorConfirm = (name: string) => `Are you sure you want to make ${name} a moderator ?`;
export const blockMemberConfirm = (name: string) => `Are you sure you want to block ${name} ?`;

/** The picker's 100 common emoji. */
export const COMMON_EMOJI = [
  '😀', '😃', '😄', '😁', '😆', '😅', '😂', '🤣', '😊', '😇',
  '🙂', '🙃', '😉', '😌', '😍', '🥰', '😘', '😗', '😙', '😚',
  '😋', '😛', '😝', '😜', '🤪', '🤨', '🧐', '🤓', '😎', '🤩',
  '🥳', '😏', '😒', '😞', '😔', '😟', '😕', '🙁', '😣', '😖',
  '😫', '😩', '🥺', '😢', '😭', '😤', '😠', '😡', '🤯', '😳',
  '🥵', '🥶', '😱', '😨', '😰', '😥', '😓', '🤗', '🤔', '🤭',
  '🤫', '🤥', '😶', '😐', '😑', '😬', '🙄', '😯', '😴', '🤤',
  '👍', '👎', '👌', '✌️', '🤞', '🤝', '👏', '🙌', '🙏', '💪',
  '👋', '👀', '❤️', '🧡', '💛', '💚', '💙', '💜', '💔', '💯',
  '🔥', '✨', '🎉', '🎁', '⭐', '✅', '❌', '💰', '📦', '🚀',
] as const;

// --- Web push and installing the app ---
export const PUSH_OS_TYPE = 'WEB_PUSH';
export const SERVICE_WORKER_URL = '/sw.js';
export const TURN_ON_NOTIFICATIONS = 'Turn on notifications';
export const NOTIFICATIONS_ON_TEXT = 'Notifications are on for new messages and offers.';
export const NOTIFICATIONS_DENIED_TEXT =
  "Notifications are blocked for this site. Allow them in your browser's site settings (the icon beside the address), then come back. A private window keeps them blocked: open Agora in a normal window.";
export const NOTIFICATIONS_UNSUPPORTED_TEXT =
  'This browser cannot show notifications from Agora. Installing the app, or another browser, may.';
export const NOTIFICATIONS_HINT = 'Hear about new messages and offers even when Agora is closed.';
export const NOTIFICATIONS_UNAVAILABLE_TEXT =
  'This browser window cannot receive notifications: private windows, and some browsers, have no way to. Open Agora in a normal window of Chrome, Edge, Firefox or Safari, or install the app, and turn them on there.';
export const NOTIFICATIONS_UNREACHABLE_TEXT = 'Agora could not be reached to turn on notifications. Check your connection, then press again.';
export const INSTALL_APP = 'Install app';
export const OFFLINE_NOTICE = 'You are offline. Showing what this device remembers; new messages arrive when you are back online.';

// --- WhatsApp business chats (issue 15) ---
export const WA_MESSAGE_TYPES = {
  text: server.MESSAGE_TYPE_WA_TEXT,
  rich: server.MESSAGE_TYPE_WA_RICH,
  inbound: server.MESSAGE_TYPE_WA_INBOUND,
  template: server.MESSAGE_TYPE_WA_TEMPLATE,
  status: server.MESSAGE_TYPE_WA_STATUS,
} as const;
export const BUSINESS_SESSION_KIND = server.SESSION_KIND_BUSINESS;
/** Meta's limits on what an agent sends (the server checks them too). */
export const WA_MAX_BUTTONS = server.WHATSAPP_REPLY_BUTTONS_MAX;
export const WA_BUTTON_TITLE_MAX = server.WHATSAPP_BUTTON_TITLE_MAX;
export const WA_MAX_LIST_ROWS = server.WHATSAPP_LIST_ROWS_MAX;
export const WA_MAX_CONTACTS = server.WHATSAPP_CONTACTS_MAX;
/** What each media kind accepts from the upload flow. */
export const WA_MEDIA_TYPES = server.WHATSAPP_MEDIA_TYPES;
/** The countdown is in minutes: it need not redraw more often than this. */
export const WA_COUNTDOWN_TICK_MS = 15_000;
export const WA_WINDOW_CLOSED_TEXT = 'Window closed: send a template';
export const waWindowOpenText = (remaining: string) => `Free-form replies allowed for ${remaining}`;
export const WA_TEMPLATE_ONLY_TEXT = 'More than 24 hours since the customer wrote: only a template can start the conversation again.';
export const WA_FORWARDED_TEXT = 'Forwarded';
export const WA_FORWARDED_MANY_TEXT = 'Forwarded many times';
export const WA_NO_TEMPLATES_TEXT = 'No approved templates yet. A group admin can sync them in the group’s WhatsApp settings.';
export const WA_NO_CHANNEL_TEXT = 'No WhatsApp Business number is connected to this group yet.';
export const waGroupPath = (groupId: string) => `/group/${enc(groupId)}/whatsapp`;

// --- Mentions and slow mode (issue 44; the server's agora/core/mentions.py, slow_mode.py) ---
export const MENTIONS_MAX = server.MENTIONS_MAX;
export const MENTION_ALL = server.MENTION_ALL;
export const MENTION_HERE = server.MENTION_HERE;
/** A chat's mention count stops at this many (the server keeps no more per member). */
export const MENTION_COUNT_MAX = server.MENTION_SEQS_KEPT;
/** The picker's wait after a keystroke before asking the server for names. */
export const MENTION_SEARCH_DEBOUNCE_MS = 200;
export const MENTION_PICKER_MAX = 8;
export const MENTION_EVERYONE_TEXT: Record<string, string> = {
  [server.MENTION_ALL]: 'Every member of the chat',
  [server.MENTION_HERE]: 'Members with notifications on',
};
export const JUMP_TO_MENTION_LABEL = 'Go to your oldest unread mention';
export const SLOW_MODE_CHOICES = server.SLOW_MODE_CHOICES;
export const SLOW_MODE_LABEL = 'Slow mode';
