"""Chat (spec: sessions): item chats, sending, reading, the chat list, lookups by id, settings,
moderation and live signals, one module each.

`ChatService` is the one object the composition root builds and the edge calls: it is made
of the parts below, which share the collaborators and the read rule of `ChatBase`.
"""

from agora.services.chat.chat_list import ChatList
from agora.services.chat.live import LiveSignals
from agora.services.chat.lookups import Lookups
from agora.services.chat.moderation import Moderation
from agora.services.chat.reading import Reading
from agora.services.chat.sending import Sending, SendInput


class ChatService(Sending, Reading, ChatList, Moderation, Lookups, LiveSignals):
    """The chat parts together, over one set of collaborators (see `ChatBase`)."""


__all__ = ["ChatService", "SendInput"]
