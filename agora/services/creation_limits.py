"""How many posts or groups one person may create in a while: what spamming a city costs."""

from dataclasses import dataclass

from agora.store.rate_limits import RateLimiter


@dataclass(frozen=True, kw_only=True)
class CreationLimit:
    limits: RateLimiter
    kind: str
    per_user: int
    window_seconds: int
    refusal: str

    async def count(self, user_id: str) -> None:
        """Counts one creation; raises RateLimited once the person made `per_user` of them in
        the window (the refusal tells when to try again through Retry-After)."""
        await self.limits.hit(
            f"{self.kind}-by:{user_id}", self.per_user, self.window_seconds, self.refusal
        )
