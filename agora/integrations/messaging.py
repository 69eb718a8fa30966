"""Delivery of one-time codes by e-mail (SMTP) or SMS, with console senders for development."""

import logging
from email.message import EmailMessage
from typing import Protocol
from urllib.parse import unquote, urlsplit

import aiosmtplib

log = logging.getLogger("agora.messaging")


class CodeSender(Protocol):
    async def send_code(self, to: str, code: str, minutes_valid: int) -> None: ...


def _code_text(code: str, minutes_valid: int) -> str:
    return (
        f"Your Agora code is {code}\n\n"
        f"It expires in {minutes_valid} minutes. If you did not ask for it, ignore this message."
    )


class ConsoleSender:
    """Development: the code goes to the server log, where the developer reads it."""

    def __init__(self, channel: str) -> None:
        self.channel = channel

    async def send_code(self, to: str, code: str, minutes_valid: int) -> None:
        log.warning("%s code for %s: %s (valid %d min)", self.channel, to, code, minutes_valid)


class SmtpSender:
    """Sends through the server named by an smtp:// or smtps:// URL (user:pass@host:port)."""

    def __init__(self, url: str, sender: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("AGORA_SMTP_URL must look like smtp://user:pass@host:port")
        self.sender = sender
        self.options = {
            "hostname": parts.hostname,
            "port": parts.port or (465 if parts.scheme == "smtps" else 25),
            "username": unquote(parts.username) if parts.username else None,
            "password": unquote(parts.password) if parts.password else None,
            "use_tls": parts.scheme == "smtps",
            # Plain smtp:// upgrades with STARTTLS when the server offers it.
            "start_tls": None if parts.scheme == "smtp" else False,
            "timeout": 10,
        }

    async def send_code(self, to: str, code: str, minutes_valid: int) -> None:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = f"{code} is your Agora code"
        message.set_content(_code_text(code, minutes_valid))
        await aiosmtplib.send(message, **self.options)


def email_sender(smtp_url: str, sender: str) -> CodeSender:
    return SmtpSender(smtp_url, sender) if smtp_url else ConsoleSender("E-mail")


def sms_sender() -> CodeSender:
    # No SMS provider is configured in this deployment; the sender is pluggable.
    return ConsoleSender("SMS")
