// The reviews' limits and texts.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

// --- Reviews after a paid offer (issue 32) ---
export const REVIEW_RATING_MIN = server.REVIEW_RATING_MIN;
export const REVIEW_RATING_MAX = server.REVIEW_RATING_MAX;
export const REVIEW_TEXT_MAX = server.REVIEW_TEXT_MAX;
export const REVIEW_EDIT_DAYS = server.REVIEW_EDIT_DAYS;
export const REVIEW_REPORT_REASON_MAX = server.REVIEW_REPORT_REASON_MAX;
/** The server's own words for the same refusals (docs: issue 32's contract). */
export const REVIEW_RATING_ERROR = `Choose ${server.REVIEW_RATING_MIN} to ${server.REVIEW_RATING_MAX} stars`;
export const REVIEW_TEXT_ERROR = `At most ${server.REVIEW_TEXT_MAX} characters`;
