"""A local SMTP server (aiosmtpd) that keeps what it receives, standing in for the mail relay."""

import re
import threading
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from tests.services import free_port

_CODE = re.compile(r"\b(\d{6})\b")


class SmtpSink:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._lock = threading.Lock()
        self._controller = Controller(self, hostname="127.0.0.1", port=free_port())

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self._controller.port}"

    async def handle_DATA(self, server, session, envelope) -> str:
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        with self._lock:
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if m["To"] == address]

    def last_code(self, address: str) -> str:
        received = self.to(address)
        assert received, f"no mail reached {address}"
        match = _CODE.search(received[-1].get_content())
        assert match, "the mail carries no 6-digit code"
        return match.group(1)

    def __enter__(self) -> "SmtpSink":
        self._controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self._controller.stop()
