"""Browser error reports: truncated, rate-limited, kept for the team to read."""

from agora.settings import Settings
from agora.store.client_errors import ClientErrorStore
from agora.store.rate_limits import RateLimiter

# The longest field of a client's error report kept.
JSERROR_FIELD_MAX_CHARS = 8000


REPORTS_PER_IP = 30


class ClientErrorService:
    def __init__(self, settings: Settings, reports: ClientErrorStore, limits: RateLimiter):
        self.settings = settings
        self.reports = reports
        self.limits = limits

    async def record(
        self,
        *,
        stacktrace_string: str,
        description: str,
        error_details: str,
        user_id: str | None,
        ip: str,
        user_agent: str,
    ) -> None:
        await self.limits.hit(f"jserror-ip:{ip}", REPORTS_PER_IP, self.settings.rate_window_seconds)
        cap = JSERROR_FIELD_MAX_CHARS
        await self.reports.add(
            stacktrace_string=stacktrace_string[:cap],
            description=description[:cap],
            error_details=error_details[:cap],
            user_id=user_id,
            ip=ip,
            user_agent=user_agent[:512],
        )
