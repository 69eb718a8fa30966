"""Agora: city classifieds feed with group chat, share routes and rewards."""
