"""The only code that talks to MongoDB and Redis."""
