"""Feed readers (and an optional poster) for the "feed" scenario of `make bench`.

Run by the harness as `python -m locust -f loadtest/feed_locust.py ...`; settings come
from the environment: FEED_GROUP_ID, FEED_USER_RPS (0 = no waiting between calls),
FEED_AUTH_KEY and FEED_POSTS_PER_SECOND for the poster (0 = back to back as well),
FEED_MEMBER_KEYS (comma-separated auth keys of the group's members who read logged in).
"""

import itertools
import os
import random
import time

import gevent
from locust import FastHttpUser, constant, task

from loadtest.feed_words import ADJECTIVES, DISTRICTS, GROUP_TAGS, NOUNS

GROUP_ID = os.environ.get("FEED_GROUP_ID", "")
USER_RPS = float(os.environ.get("FEED_USER_RPS", "0"))
AUTH_KEY = os.environ.get("FEED_AUTH_KEY", "")
POSTS_PER_SECOND = float(os.environ.get("FEED_POSTS_PER_SECOND", "1"))
MEMBER_KEYS = [key for key in os.environ.get("FEED_MEMBER_KEYS", "").split(",") if key]
# Calls of members are named apart: they also pay for authentication and membership.
MEMBER_SUFFIX = " · member"


def _pace(per_second: float):
    """Calls `per_second` times a second, keeping the phase of each user's first call.

    Locust's constant_throughput keeps the phase of each user's creation, and users spawned
    together then call in lockstep: 40 requests within a few milliseconds every 200 ms (seen
    in the edge's log), which no real crowd does and which measures the queue of each burst.
    Readers draw their phase with _random_phase instead.
    """
    if per_second <= 0:
        return constant(0)
    period = 1 / per_second

    def wait_time(user) -> float:
        now = time.monotonic()
        # Keeps the pace from the first call on, never catching up in a rush.
        user._due = max(getattr(user, "_due", now) + period, now)
        return user._due - now

    return wait_time


def _random_phase(per_second: float) -> None:
    """A paced user's first call comes at a random moment of its first period."""
    if per_second > 0:
        gevent.sleep(random.random() / per_second)


class FeedReader(FastHttpUser):
    """A visitor reading the city feed: opens it, scrolls on, searches, filters by tag."""

    weight = 3
    wait_time = _pace(USER_RPS)
    headers: dict[str, str] = {}
    suffix = ""

    def on_start(self) -> None:
        self.cursor: str | None = None
        _random_phase(USER_RPS)

    def _feed(self, name: str, **body) -> dict | None:
        with self.client.post(
            "/api/feed",
            json={"group_id": GROUP_ID, **body},
            headers=self.headers,
            name=name + self.suffix,
            catch_response=True,
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


class MemberReader(FeedReader):
    """A member of the group reading it logged in, one of FEED_MEMBER_KEYS each."""

    weight = 1
    suffix = MEMBER_SUFFIX
    _keys = itertools.cycle(MEMBER_KEYS or [""])

    def on_start(self) -> None:
        super().on_start()
        self.headers = {"Authorization": f"Bearer {next(MemberReader._keys)}"}


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
