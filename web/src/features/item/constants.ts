// The post form's and post page's texts and limits.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

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
export const FINDER_FEE_LABEL = "Finder's fee for people who share it";
export const NEED_USER_TO_VIEW_LABEL = 'Only logged-in members can see this';
export const POST_FORM_INVALID_GROUP_TEXT = 'Cannot View group or invalid';
export const NOT_ITEM_OWNER_TEXT = 'Only the person who posted this can edit it.';
export const DELETE_ITEM_CONFIRM = 'Are you sure you want to delete this item ?';
/** A post's link once the post is gone. */
export const POST_REMOVED_TEXT = 'This post was removed';
export const LINK_COPIED_MS = 1000;

// --- Uploads (spec sections 5 and 9) ---
export const POST_MAX_FILES = server.POST_FILES_MAX;
export const POST_MAX_FILE_BYTES = server.POST_FILE_MAX_BYTES;
