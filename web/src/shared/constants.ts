// The numbers, texts and routes more than one part of the web app uses (layout, storage,
// routes, uploads, maps, member types...). What only one feature uses lives in that feature's
// constants.ts (features/whatsapp/constants.ts, features/chat/constants.ts...). What the server
// shares comes from the generated module (written from agora/core by `python -m agora constants`).
import * as server from './generated/serverConstants';

// --- Layout (spec section 9) ---
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

// --- Realtime ---
export const SOCKET_PATH = '/socket.io';
export const SOCKET_RETRY_MS = 5000;

// --- Lookups by id (spec sections 7 and 9) ---
export const LOOKUP_BATCH_MS = 200;
/** The spec leaves the cache's maximum key count open; this bounds local storage use. */
export const LOOKUP_CACHE_MAX_KEYS = 500;

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
/** A group's WhatsApp Business settings (the whatsapp feature's page). */
export const groupWhatsappPath = (groupId: string) => `/group/${enc(groupId)}/whatsapp`;

// --- Select city (spec sections 2 and 9) ---
export const CITY_SEARCH_DEBOUNCE_MS = 300;
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
/** Fraction of the page scrolled past which lists load their next page. */
export const LOAD_MORE_SCROLL_FRACTION = 0.95;
export const INVALID_GROUP_TEXT = 'Cannot view group, not authorized or invalid';
export const LOGIN_TO_VIEW_TEXT = 'Login to view content';
export const RECENT_GROUPS_MAX = server.RECENT_GROUPS;

// --- Post form (spec sections 2, 5 and 9) ---
export const FINDER_FEE_MAX_SHARERS = server.FINDER_FEE_MAX_SHARERS;
/** The server's rule run on a sample reward: what each sharer of a chain of 1, 2 and 3 gets, first sharer first. */
export const FINDER_FEE_EXAMPLE = server.FINDER_FEE_EXAMPLE;
export const LINK_COPIED_TEXT = 'Link Copied';

// --- Uploads (spec sections 5 and 9) ---
export const MB = 1024 * 1024;
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
export const NEW_GROUP_TEXT = 'New group';

// --- Wallets, offers and payments (spec sections 2, 4, 8 and 9) ---
export const NEED_RECHARGE_TEXT = 'Need Recharge';

// --- Chat, its members and its uploads (spec sections 2, 4, 5 and 9) ---
export const LONG_PRESS_MS = 900;
/** A touch that moves further than this is a drag, not a long press. */
export const TOUCH_DRAG_THRESHOLD_PX = 5;
export const CHAT_MAX_FILE_BYTES = server.UPLOAD_MAX_BYTES;
export const CHAT_ATTACHMENT_TYPES = server.CHAT_ATTACHMENT_TYPES;
export const MESSAGE_PLACEHOLDER = 'Type a message';
/** An item chat's id is this, the post's id, '_' and the asker's id (the server's `item_chat_id`). */
export const ITEM_CHAT_PREFIX = server.ITEM_CHAT_PREFIX;
export const MEMBER_TYPES = {
  admin: server.USER_TYPE_ADMIN,
  moderator: server.USER_TYPE_MODERATOR,
  member: server.USER_TYPE_MEMBER,
  // Blocked, and the block can be undone (unblock); 40 and above stay blocked.
  blockedReversible: server.USER_TYPE_BLOCKED_REVERSIBLE,
  awaitingApproval: server.USER_TYPE_AWAITING_APPROVAL,
} as const;
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
