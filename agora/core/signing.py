"""Tamper-evident tokens: HMAC-signed values and one-way hashes of secrets."""

import hashlib
import hmac


def digest(secret: str, value: str) -> str:
    return hmac.new(secret.encode(), value.encode(), hashlib.sha256).hexdigest()


def sign(secret: str, value: str) -> str:
    return f"{value}.{digest(secret, value)[:32]}"


def unsign(secret: str, token: str) -> str | None:
    value, dot, mac = token.rpartition(".")
    # compare_digest refuses non-ASCII text, and a signature of ours is ASCII anyway.
    if not dot or not value or not mac.isascii():
        return None
    return value if hmac.compare_digest(mac, digest(secret, value)[:32]) else None


def hash_secret(secret: str) -> str:
    """Auth keys are stored only as this hash, so a database leak yields no usable key."""
    return hashlib.sha256(secret.encode()).hexdigest()
