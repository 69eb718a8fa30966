"""Meta's WhatsApp Cloud API: its client, and its wire formats (the `/messages` request
bodies, the webhook payloads, the templates as Meta lists them), read into and built from
what the core keeps. The rules of business chats stay in `agora/core/whatsapp/`."""
