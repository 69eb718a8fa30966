"""Realtime transport: Socket.IO rooms over Redis channels, and the emitter services use."""
