"""Reactions on the messages of item and group chats: one emoji per person per message, as
WhatsApp has them, kept where a WhatsApp customer's reactions already are (`data.reactions`,
user id -> emoji), so one view shows both.

The emoji offered are a fixed set (the web app's picker shows these, generated from here:
`agora/generate/web_constants.py`); the server takes no other, so a reaction is never arbitrary text
shown to a whole group.
"""

from typing import Any

from agora.core.chat.access import is_reader, posting_refusal
from agora.core.chat.constants import MESSAGE_TYPE_CHAT, MESSAGE_TYPE_SYSTEM
from agora.core.errors import InvalidInput
from agora.core.message_kinds import ChatKinds

# The reaction bar of a message's menu.
REACTION_QUICK = ("👍", "❤️", "😂", "😮", "😢", "🙏")
# The picker behind the bar's "+": the quick ones first, then faces, hands, hearts, things.
REACTION_EMOJIS = (
    *REACTION_QUICK,
    *("😀", "😃", "😄", "😁", "😅", "🤣", "😊", "😇", "🙂", "😉", "😍", "🥰", "😘", "😋"),
    *("😎", "🤩", "🥳", "🤔", "🤨", "😐", "😑", "🙄", "😏", "😬", "😴", "😷", "🤒", "🤯"),
    *("😱", "😭", "😤", "😡", "🤬", "🥺", "😳", "🤗", "🤫", "🤭", "🫡", "🙃", "😶", "💀"),
    *("👎", "👏", "🙌", "👋", "👌", "✌️", "🤞", "🤝", "💪", "🫶", "👀", "✍️", "🙈", "🤷"),
    *("🧡", "💛", "💚", "💙", "💜", "🖤", "🤍", "💔", "💯", "🔥", "✨", "⭐", "🎉", "🎊"),
    *("✅", "❌", "❓", "❗", "⚠️", "💡", "📌", "🏠", "🚗", "🚲", "☕", "🍕", "🎁", "💰"),
)
# How long a session's reactions gather before its viewers hear of them, at most.
REACTIONS_TICK_MS = 250

EMOJI_NOT_OFFERED = "Choose one of the offered reactions"
MEMBERS_REACT = "Join this chat to react to its messages"
NO_SUCH_MESSAGE = "No such message"
# The answer to a reaction the store or the shard did not take in time: the client tries again.
REACTION_UNAVAILABLE = "Could not react now, please try again"
# Where reactions are kept on a message's document (`data.reactions.<user id>`).
REACTIONS_FIELD = "data.reactions"

_OFFERED = frozenset(REACTION_EMOJIS)


def check_emoji(emoji: str) -> str:
    """The reaction asked for: one of the offered emoji, or '' to take one's reaction away."""
    if emoji and emoji not in _OFFERED:
        raise InvalidInput({"emoji": EMOJI_NOT_OFFERED})
    return emoji


def reaction_refusal(
    kinds: ChatKinds, session: dict[str, Any], user_type: int | None
) -> str | None:
    """Why this person may not react in the session, or None: as a chat message would be
    refused to them (hidden chat, closed chat, blocked, waiting, a former member, a plug-in's
    conversation such as a WhatsApp business chat, whose customer would never see it), and
    besides only members react: a public chat's passers-by read it without a name in it."""
    refusal = posting_refusal(kinds, session, user_type, MESSAGE_TYPE_CHAT)
    if refusal is not None:
        return refusal
    return None if is_reader(user_type) else MEMBERS_REACT


def takes_reactions(message: dict[str, Any]) -> bool:
    """Notices (a member joined, an offer) are the chat's, not someone's to answer."""
    return message.get("type") != MESSAGE_TYPE_SYSTEM


def reactions_of(message: dict[str, Any]) -> dict[str, str]:
    return dict((message.get("data") or {}).get("reactions") or {})
