"""WhatsApp business chats at the edge: the channel screen's calls and Meta's webhook."""
