"""Realtime: the Socket.IO transport (`transport`: rooms over Redis channels, the edge's
engine.io transports and packets) and the emitter services publish through."""
