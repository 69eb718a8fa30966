"""WhatsApp business chats: the pure rules (channels, webhook parsing, outbound checks)."""
