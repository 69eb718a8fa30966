"""Feed readers (and an optional poster) for the "feed" scenario of `make bench`.

Run by the harness as `python -m locust -f loadtest/feed_locust.py ...`; settings come
from the environment: FEED_GROUP_ID, FEED_USER_RPS (0 = no waiting between calls),
FEED_AUTH_KEY and FEED_POSTS_PER_SECOND for the poster (0 = back to back as well).
"""

import os
import random

from locust import FastHttpUser, constant, constant_throughput, task

from loadtest.feed_words import ADJECTIVES, DISTRICTS, GROUP_TAGS, NOUNS

GROUP_ID = os.environ.get("FEED_GROUP_ID", "")
USER_RPS = float(os.environ.get("FEED_USER_RPS", "0"))
AUTH_KEY = os.environ.get("FEED_AUTH_KEY", "")
POSTS_PER_SECOND = float(os.environ.get("FEED_POSTS_PER_SECOND", "1"))


def _pace(per_second: float):
    return constant_throughput(per_second) if per_second > 0 else constant(0)


class FeedReader(FastHttpUser):
    """A visitor reading the city feed: opens it, scrolls on, searches, filters by tag."""

    wait_time = _pace(USER_RPS)

    def on_start(self) -> None:
        self.cursor: str | None = None

    def _feed(self, name: str, **body) -> dict | None:
        with self.client.post(
            "/api/feed", json={"group_id": GROUP_ID, **body}, name=name, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
                return None
            page = response.json()
            # Every query asked here matches posts; an empty page would flatter the timings.
            if not page.get("items"):
                response.failure("empty page")
            return page

    @task(5)
    def first_page(self) -> None:
        page = self._feed("feed: first page")
        if self.cursor is None and page:
            self.cursor = page["next_cursor"]

    @task(3)
    def next_page(self) -> None:
        # The reader keeps scrolling where they were; a refresh (first page) does not reset it.
        if self.cursor is None:
            self.first_page()
            return
        page = self._feed("feed: next page", cursor=self.cursor)
        self.cursor = page["next_cursor"] if page else None

    @task(2)
    def search(self) -> None:
        self._feed("feed: search", search_text=random.choice(NOUNS))

    @task(1)
    def tag_filter(self) -> None:
        self._feed("feed: tag filter", tags=[random.choice(GROUP_TAGS)])


class FeedPoster(FastHttpUser):
    """Someone posting while others read: every post bumps the group's feed cache version."""

    fixed_count = 1
    wait_time = _pace(POSTS_PER_SECOND)

    @task
    def post(self) -> None:
        title = f"{random.choice(ADJECTIVES)} {random.choice(NOUNS)} in {random.choice(DISTRICTS)}"
        with self.client.post(
            "/api/item?action=create",
            json={"group_id": GROUP_ID, "title": title.capitalize(), "tags": ["For sale"]},
            headers={"Authorization": f"Bearer {AUTH_KEY}"},
            name="item: create",
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
