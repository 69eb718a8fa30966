"""The edge: parses, authenticates, calls a service, renders. Only the entry point imports it."""
