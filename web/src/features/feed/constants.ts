// The feed's texts and timings.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.

// --- Feed (spec section 2) ---
export const FEED_SEARCH_DEBOUNCE_MS = 500;
export const FEED_EMPTY_TEXT = 'No posts yet.';
export const CREATE_POST_TEXT = 'Create a new post';
/** The tag search box replaces the chips when there are none or more than this many. */
export const MAX_TAG_CHIPS = 10;
