// Every number, text key and route the product spec fixes lives here, so a change to
// the spec is a change to one file.

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
const STARTER_COINS_DAILY_FROM = '2024-01-01';
export const STARTER_COINS_TEXT = `New members get starter coins, and 1 coin a day from ${STARTER_COINS_DAILY_FROM}.`;

// --- Realtime ---
export const SOCKET_PATH = '/socket.io';
export const SOCKET_RETRY_MS = 5000;

// --- Error reporting: enough to see a pattern, not enough to flood the server ---
export const JSERROR_MAX_REPORTS = 5;
export const JSERROR_WINDOW_MS = 60_000;

// --- Browser storage ---
export const STORAGE_KEYS = {
  authKey: 'agora.auth_key',
  groupId: 'agora.group_id',
} as const;
export const AUTH_KEY_COOKIE = 'auth_key';
export const AUTH_KEY_QUERY_PARAM = 'auth_key';
/** The auth_key cookie outlives the browser session, like the stored key does. */
export const AUTH_KEY_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

// --- Login ---
/** Offered in this order; the first is the default. */
export const PHONE_COUNTRY_CODES = ['31', '1', '91', '44', '33', '49', '34', '39', '86'] as const;
export const OTP_DEFAULT_LENGTH = 6;

// --- Money (spec section 9) ---
export const POINTS_CURRENCY = 'POINTS';
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = {
  KES: 'KSh',
  USD: '$',
  INR: '₹',
  EUR: '€',
  GBP: '£',
  NGN: '₦',
  RWF: 'Rwf',
  [POINTS_CURRENCY]: '🪙',
  ZAR: 'R',
};

// --- Routes ---
export const PATHS = {
  home: '/',
  landing: '/landing',
  profile: '/profile',
  editProfile: '/edit/profile',
  chats: '/chats',
  selectCity: '/select/city',
} as const;

export const groupFeedPath = (groupId: string) => `/${encodeURIComponent(groupId)}`;

/** Query params that make /profile show a hint banner, with the banner text. */
export const PROFILE_HINTS: ReadonlyArray<readonly [param: string, text: string]> = [
  ['can_withdraw', 'You can withdraw your money now'],
  ['retry_withdraw', 'Please retry withdraw option again'],
];
