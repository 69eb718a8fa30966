"""Previews (title, description, image) of links people send in chats."""

from agora.core.errors import AgoraError, InvalidInput
from agora.integrations.web_pages import PageFetcher, Refused
from agora.services.accounts import Caller
from agora.services.uploads import KeptImage
from agora.store.link_previews import LinkPreviewCache
from agora.store.rate_limits import RateLimiter

URL_MAX_LENGTH = 2048
PREVIEWS_PER_USER = 120
PREVIEW_WINDOW_SECONDS = 600
EMPTY = {"image": "", "title": "", "description": ""}


class LinkPreviewService:
    def __init__(
        self,
        *,
        fetcher: PageFetcher,
        cache: LinkPreviewCache,
        limits: RateLimiter,
        kept_image: KeptImage,
    ) -> None:
        self.fetcher = fetcher
        self.cache = cache
        self.limits = limits
        self.kept_image = kept_image

    async def preview(self, caller: Caller, url: str) -> dict[str, str]:
        url = url.strip()
        if not url or len(url) > URL_MAX_LENGTH:
            raise InvalidInput({"url": "Give a link of at most 2048 characters"})
        cached = await self.cache.get(url)
        if cached is not None:
            return cached
        await self.limits.hit(
            f"preview:{caller.user['_id']}", PREVIEWS_PER_USER, PREVIEW_WINDOW_SECONDS
        )
        try:
            preview = await self.fetcher.preview(url)
        except Refused as refusal:
            await self.cache.put(url, EMPTY, found=False)
            raise InvalidInput({"url": str(refusal)}) from refusal
        preview["image"] = await self._kept_image(caller, preview["image"])
        await self.cache.put(url, preview, found=True)
        return preview

    async def _kept_image(self, caller: Caller, image: str) -> str:
        """The page's picture as an upload of the first person to preview it; none if it
        cannot be kept, or not now (the person's upload limit): readers never load it from
        the page's host, and a preview never fails for its picture."""
        if not image:
            return ""
        try:
            return await self.kept_image(caller.user["_id"], image)
        except AgoraError:
            return ""
