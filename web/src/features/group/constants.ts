// The group screens' texts and choices.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

export const GROUP_POSTS_TITLE = 'posts';

// --- Group screen ---
export const PUBLIC_GROUP_TAG = 'Public';
export const PRIVATE_GROUP_TAG = 'Private';
export const NON_MEMBERS_CAN_READ_TEXT = 'Non members can read';
export const PUBLIC_GROUP_LABEL = 'Public group';
/** Worded like the spec's other confirmations, ' ?' included. */
export const MAKE_GROUP_PUBLIC_CONFIRM = 'Are you sure you want make this group public ?';
export const ALLOW_NON_MEMBERS_READ_CONFIRM = 'Are you sure you want to allow non members to read ?';
/** The spec sets no limit for a group's image; it gets a post image's. */
export const GROUP_IMAGE_MAX_BYTES = server.POST_FILE_MAX_BYTES;
export const GROUP_SETTINGS_TITLE = 'Group settings';
export const ADMINS_ONLY_SETTINGS_TEXT = "Only the group's admins can change its settings.";
/** A group's `write_permission`: the highest membership type that may post and write in its chat. */
export const WRITE_PERMISSION_CHOICES: ReadonlyArray<readonly [type: number, label: string]> = [
  [server.USER_TYPE_MEMBER, 'Every member'],
  [server.USER_TYPE_MODERATOR, 'Admins and moderators'],
  [server.USER_TYPE_ADMIN, 'Admins only'],
];

export const MANAGE_SUBSCRIPTION_TEXT = 'Manage subscription';
export const SUBSCRIBED_TEXT = 'Subscribed';
/** data.subscription_status of a group whose subscription is active. */
export const SUBSCRIPTION_ACTIVE = server.SUBSCRIPTION_ACTIVE;
