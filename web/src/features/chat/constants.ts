// The chat's numbers, texts and message types.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';
import { MEMBER_TYPES } from '../../shared/constants';

export const URL_PREVIEW_CACHE_SIZE = 50;

// --- Chat (spec sections 2, 4, 5 and 9) ---
export const CHAT_WINDOW_WIDTH_PX = 450;
export const CHAT_WINDOW_MAX_HEIGHT_PX = 800;
/** Below this width the chat window fills the screen. */
export const CHAT_FULL_SCREEN_BELOW_PX = 768;
/** From this width the chat list makes room for the chat window beside it, rather than under it. */
export const CHAT_BESIDE_LIST_MIN_PX = 1024;
/** The gap the floating chat window keeps from the screen's right edge (Tailwind's right-4). */
export const CHAT_WINDOW_EDGE_GAP_PX = 16;
export const CHAT_POLL_FAST_MS = 8000;
export const CHAT_POLL_SLOW_MS = 60_000;
/** The spec leaves "recent" open: a conversation this fresh is polled fast. */
export const CHAT_RECENT_MESSAGE_MS = 2 * 60_000;
export const TYPING_THROTTLE_MS = server.TYPING_INTERVAL_SECONDS * 1000;
export const TYPING_IDLE_MS = 1000;
/** How long "is typing" stays up without a fresh typing signal. */
export const TYPING_SHOWN_MS = 4000;

/** The reaction bar of a message's menu, and the picker behind its "+" (the server takes no other). */
export const REACTION_QUICK = server.REACTION_QUICK;
export const REACTION_EMOJIS = server.REACTION_EMOJIS;
/** How long a reaction sent over the socket waits for its answer before it goes over HTTP. */
export const REACTION_ACK_MS = 5000;
export const REACTIONS_DIALOG_TITLE = 'Reactions';
export const REACTION_PICKER_TITLE = 'Choose a reaction';
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
export const PASTE_ONE_FILE_TEXT = 'Please copy & paste one file at a time.';
export const MAX_ATTACHMENTS_TEXT = `You can only send upto ${CHAT_MAX_ATTACHMENTS} attachments`;
export const NEED_LOGIN_TO_CHAT_TEXT = 'You need Login to chat.';
export const CANNOT_SEND_TEXT = 'You cannot send messages here.';
export const NO_MESSAGE_INFO_TEXT = 'Sorry No information available';
export const MAKE_PUBLIC_CONFIRM = 'Are you sure you want make this public ?';
export const NO_MESSAGES_TEXT = 'No messages yet. Say hello!';
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
/** Participants at or below this type may make an item chat public. */
export const CHAT_OWNER_MAX_TYPE = MEMBER_TYPES.admin;
export const NOTIFY_UNMUTED_FLAG = server.NOTIFICATION_UNMUTED;
export const NOTIFY_MUTED_FLAG = server.NOTIFICATION_MUTED;
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

// Editing, deleting and pinning messages (agora/core/message_changes.py).
export const MESSAGE_EDIT_WINDOW_MS = server.MESSAGE_EDIT_WINDOW_SECONDS * 1000;
export const PINS_MAX = server.PINS_MAX;
export const MESSAGE_DELETED_TEXT = server.MESSAGE_DELETED_TEXT;
export const MESSAGE_EDITED_TEXT = 'edited';
export const DELETE_MESSAGE_TITLE = 'Delete this message?';
export const DELETE_MESSAGE_TEXT = 'Everyone in the chat will see “This message was deleted” in its place.';

/** Searching a chat's history, and opening it at a message (a result, its first unread one). */
export const CHAT_SEARCH_MAX_LENGTH = server.CHAT_SEARCH_MAX_LENGTH;
export const CHAT_SEARCH_PLACEHOLDER = 'Search in this chat';
export const NO_SEARCH_RESULTS_TEXT = 'No messages found';
export const NEW_MESSAGES_TEXT = 'New messages';
export const JUMP_TO_PRESENT_TEXT = 'Jump to present';

// --- Mentions and slow mode (the server's agora/core/mentions.py, slow_mode.py) ---
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
