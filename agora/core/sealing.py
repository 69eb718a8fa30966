"""Secrets kept at rest (a WhatsApp channel's access token, app secret, verify token):
sealed with AES-256-GCM under a key derived from AGORA_SECRET_KEY by HKDF-SHA256.

Each purpose derives its own key, and each sealed value is bound to where it is kept (its
document and field, as associated data), so a value copied into another document or field
does not open. A database leak alone yields nothing usable; changing AGORA_SECRET_KEY makes
what was sealed under the old one unreadable (the channel must then be connected again).
"""

import base64
import binascii
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = "v1"
NONCE_BYTES = 12
KEY_SALT = b"agora secrets at rest"


class Unsealable(Exception):
    """A sealed value that does not open: another key, another place, or tampered with."""


def derived_key(secret_key: str, purpose: str) -> bytes:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=KEY_SALT, info=purpose.encode())
    return hkdf.derive(secret_key.encode())


class SecretBox:
    def __init__(self, secret_key: str, purpose: str) -> None:
        self._aead = AESGCM(derived_key(secret_key, purpose))

    def seal(self, plain: str, place: str) -> str:
        """`place` names where the value is kept (e.g. "<channel id>/access_token")."""
        nonce = os.urandom(NONCE_BYTES)
        sealed = nonce + self._aead.encrypt(nonce, plain.encode(), place.encode())
        return f"{VERSION}.{base64.urlsafe_b64encode(sealed).decode()}"

    def open(self, sealed: str, place: str) -> str:
        version, _, encoded = sealed.partition(".")
        if version != VERSION:
            raise Unsealable(f"unknown sealing version {version!r}")
        try:
            raw = base64.urlsafe_b64decode(encoded)
            plain = self._aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], place.encode())
        except (InvalidTag, ValueError, binascii.Error) as error:
            raise Unsealable("the sealed value does not open") from error
        return plain.decode()
