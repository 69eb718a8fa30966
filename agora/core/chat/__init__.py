"""Chat rules: who reads and sends where, moderation, message shape and ordering, one module
per concern."""
