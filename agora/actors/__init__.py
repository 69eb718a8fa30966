"""Ray actors holding live chat state, and the Ray runtime the edges join."""
