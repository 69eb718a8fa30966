"""Scenario "feed": 10,000 posts in one city group; visitors open, scroll, search and filter.

Posts are written straight into MongoDB in batches (the API would take close to a minute
at nx-27017's single-insert rate), built by the same domain functions the item service
uses. One post is created through the API first and the direct ones are checked against
its stored shape, so the two cannot drift apart unnoticed.
"""

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agora.core.clock import DAY_MS, now_ms
from agora.core.finder_fees import FINDER_FEE_PERCENT_DEFAULT
from agora.core.items import POST_EXPIRY_DAYS_DEFAULT, ItemDraft, build_draft
from agora.launch.embedded import mongo_address, redis_address
from agora.store.items import HOLD_COPY_FIELDS, new_item, root_route
from agora.store.mongo import new_id
from loadtest import profile
from loadtest.feed_words import ADJECTIVES, DISTRICTS, GROUP_TAGS, NOUNS
from loadtest.locust_run import LoadStep, StepResult, run_step
from loadtest.measure import descendants, listening_on, process
from loadtest.report import calls_table, cpu_lines, ms, say
from loadtest.stack import MONGO_DB, Stack

POSTS = 10_000
INSERT_BATCH = 1_000
POST_SPACING_MS = 60_000
OWNER_EMAIL = "bench-owner@bench.agora.local"
# Members read logged in (a quarter of the readers, see feed_locust.py), each with a key.
MEMBERS = 10
LOCUSTFILE = Path(__file__).with_name("feed_locust.py")

FIRST_PAGE = "feed: first page"
MEMBER_SUFFIX = " · member"  # as feed_locust.py names members' calls
TARGET_P99_MS = 50
TARGET_RPS = 200
TARGET_EDGE_CORES = 1.0

OFFERS = [(None, None), (None, None), ("25", "EUR"), ("40", "POINTS"), ("12.50", "USD")]


class SeedError(RuntimeError):
    pass


@dataclass(frozen=True)
class Step:
    name: str
    about: str
    users: int
    user_rps: float  # 0: each reader calls again as soon as the last reply arrives
    seconds: int
    posts_per_second: float = 0

    @property
    def user_classes(self) -> list[str]:
        readers = ["FeedReader", "MemberReader"]
        return [*readers, "FeedPoster"] if self.posts_per_second else readers


STEPS = [
    # A fresh stack starts with cold caches and no open connections; its first second says
    # how a cold start feels, not what the target is about, so it gets a step of its own.
    Step("warm-up", "the target's load on the fresh stack", 40, 5, 5),
    Step("target", "40 readers (10 logged in) x 5 req/s = 200 req/s offered", 40, 5, 20),
    Step("ceiling", "48 readers calling back to back", 48, 0, 15),
    # Every post changes first pages: the writer brings the warm ones up to date.
    Step("target + 1 post/s", "40 readers x 5 req/s, one poster at 1 post/s", 41, 5, 15, 1),
]


@dataclass(frozen=True)
class Seeded:
    group_id: str
    auth_key: str
    member_keys: list[str]
    seconds: float


def _post(rng: random.Random, user_id: str, group_id: str, created_at: int):
    """A random post of the feed's mix, with its root share route."""
    district = rng.choice(DISTRICTS)
    amount, currency = rng.choice(OFFERS)
    draft = build_draft(
        title=f"{rng.choice(ADJECTIVES).capitalize()} {rng.choice(NOUNS)} in {district}",
        description=f"Pick-up or a visit in {district}. Message me, weekday evenings suit best.",
        tags=rng.sample(GROUP_TAGS, rng.choice((1, 1, 2))),
        group_tags=GROUP_TAGS,
        offer_amount=amount,
        offer_currency=currency,
        offer_description="",
        need_user_to_view=rng.random() < 0.05,
        finder_fee_percent=FINDER_FEE_PERCENT_DEFAULT,
    )
    return post_documents(draft, user_id, group_id, created_at)


def post_documents(draft: ItemDraft, user_id: str, group_id: str, created_at: int):
    """A post and its root share route, shaped as ItemService.create stores them (open for
    the default expiry; its reward, if any, not held, as posts from before holds)."""
    root = root_route(new_id(), user_id, created_at)
    expires_at = created_at + POST_EXPIRY_DAYS_DEFAULT * DAY_MS
    fields = {**draft.fields(), "files": [], "expires_at": expires_at}
    return new_item(fields, root, group_id), root


def check_shape(stored: dict[str, Any], seeded: dict[str, Any], what: str) -> None:
    def kind(value: Any) -> str:
        # BSON hands back large integers as Int64, an int subclass.
        if isinstance(value, int) and not isinstance(value, bool):
            return "int"
        return type(value).__name__

    def shape(doc: dict[str, Any]) -> dict[str, str]:
        # None and str both occur for optional fields such as the offer's amount.
        return {k: kind(v) for k, v in doc.items() if v is not None}

    if set(stored) != set(seeded) or any(
        shape(seeded).get(k, t) != t for k, t in shape(stored).items()
    ):
        raise SeedError(
            f"seeded {what} differ from those the API stores:\n"
            f"  API:    {sorted(shape(stored).items())}\n  seeded: {sorted(shape(seeded).items())}"
        )


def store_posts(db, reference: dict[str, Any], made: list[tuple[dict, dict]]) -> None:
    """Inserts posts with their routes, once they match `reference`, a post the API made."""
    stored = db.items.find_one({"_id": reference["_id"]}, {f: 0 for f in HOLD_COPY_FIELDS})
    stored_route = db.routes.find_one({"_id": reference["route_id"]})
    if stored is None or stored_route is None:
        raise SeedError("the post created through the API is not in MongoDB")
    check_shape(stored, made[0][0], "posts")
    check_shape(stored_route, made[0][1], "share routes")
    for start in range(0, len(made), INSERT_BATCH):
        batch = made[start : start + INSERT_BATCH]
        db.routes.insert_many([route for _, route in batch], ordered=False)
        db.items.insert_many([item for item, _ in batch], ordered=False)


def seed(stack: Stack) -> Seeded:
    started = time.monotonic()
    user, key = stack.login(OWNER_EMAIL, "Bench Owner")
    group = stack.call(
        "/api/group?action=create",
        {"title": "Benchville", "tags": GROUP_TAGS, "is_public": True},
        key,
    )["group"]
    group_id = group["_id"]
    member_keys = [_member(stack, group_id, n) for n in range(MEMBERS)]
    reference = stack.call(
        "/api/item?action=create",
        {"group_id": group_id, "title": "Spare tent in Oost", "tags": ["For sale"]},
        key,
    )["item"]
    rng = random.Random(27017)
    newest = now_ms() - POST_SPACING_MS
    made = [
        _post(rng, user["_id"], group_id, newest - (POSTS - 2 - i) * POST_SPACING_MS)
        for i in range(POSTS - 1)
    ]
    with stack.mongo() as client:
        db = client[MONGO_DB]
        store_posts(db, reference, made)
        db.sessions.update_one({"_id": group_id}, {"$set": {"data.num_posts": POSTS}})
        found = db.items.count_documents({"group_id": group_id})
    if found != POSTS:
        raise SeedError(f"expected {POSTS} posts in the group, found {found}")
    return Seeded(group_id, key, member_keys, time.monotonic() - started)


def _member(stack: Stack, group_id: str, number: int) -> str:
    """A user who logs in and joins the group; their auth key."""
    _, key = stack.login(f"bench-member-{number}@bench.agora.local", f"Member {number}")
    stack.call("/api/group?action=join", {"group_id": group_id}, key)
    return key


def _cached_pages(stack: Stack, group_id: str) -> set[str]:
    """Pages computed in MongoDB so far (store/feed_cache.py names them `feedp:{group}:...`;
    a head missed by a reader is computed through the same cache)."""
    with stack.redis() as redis:
        pattern = f"{stack.redis_prefix}feedp:{{{group_id}}}:*"
        return set(redis.scan_iter(match=pattern, count=1000))


def _target_lines(result: StepResult) -> list[str]:
    first = result.call(FIRST_PAGE)
    member = result.call(FIRST_PAGE + MEMBER_SUFFIX)
    edge = result.window.roles["edge"].cores
    if first is None:
        return ["  no first-page calls were made"]

    def verdict(p99_ms: float | None) -> str:
        return "within" if (p99_ms or 0) < TARGET_P99_MS else "OVER"

    lines = [
        f"  first page p99 {ms(first.p99_ms)} ms at {result.total.rps:.0f} req/s in all; target: "
        f"p99 under {TARGET_P99_MS} ms at {TARGET_RPS} req/s -> {verdict(first.p99_ms)}",
    ]
    if member is not None:
        lines.append(
            f"  first page of logged-in members p99 {ms(member.p99_ms)} ms"
            f" -> {verdict(member.p99_ms)}"
        )
    lines.append(
        f"  edge CPU {edge:.2f} cores; target: under {TARGET_EDGE_CORES:.0f} core"
        f" -> {'within' if edge < TARGET_EDGE_CORES else 'OVER'}"
    )
    return lines


def run(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    seeded = seed(stack)
    say(
        f"seeded {POSTS:,} posts in group {seeded.group_id} in {seeded.seconds:.1f} s "
        f"(login, group and 1 post through the API, the rest written in batches)"
    )
    mongo_port = mongo_address(stack.mongo_url)[1]
    redis_port = redis_address(stack.redis_url)[1]
    roles = {
        "edge": process(stack.edge_pid),
        "edge's Ray": descendants(stack.ray_pid),
        "nx-27017": listening_on(mongo_port),
        "redis": listening_on(redis_port),
    }
    for number, step in enumerate(STEPS, 1):
        out = work / f"feed-{number}"
        out.mkdir(parents=True, exist_ok=True)
        say()
        say(f"feed · {step.name}: {step.about}, {step.seconds} s")
        # The back-to-back step is the one where the edge's own costs show.
        profiled = profile_edge and step.user_rps == 0
        spy = (
            profile.start(stack.edge_pid, step.seconds, out / "edge.py-spy.txt")
            if profiled
            else None
        )
        before = _cached_pages(stack, seeded.group_id)
        env = {
            "FEED_GROUP_ID": seeded.group_id,
            "FEED_USER_RPS": str(step.user_rps),
            "FEED_AUTH_KEY": seeded.auth_key,
            "FEED_POSTS_PER_SECOND": str(step.posts_per_second),
            "FEED_MEMBER_KEYS": ",".join(seeded.member_keys),
        }
        load = LoadStep(LOCUSTFILE, step.user_classes, step.users, step.seconds, env)
        result = run_step(load, stack.base_url, out, roles)
        computed = len(_cached_pages(stack, seeded.group_id) - before)
        for line in calls_table(result):
            say(line)
        if step.name.startswith("target"):
            for line in _target_lines(result):
                say(line)
        for line in cpu_lines(result.window):
            say(line)
        reads = sum(c.requests for c in result.calls if c.name.startswith("feed:"))
        # Readers missing the same page together each query MongoDB; it is counted once here.
        say(f"  feed reads: {reads:,}; distinct pages computed in MongoDB (misses): {computed:,}")
        if spy is not None:
            spy.wait()
            say("  py-spy profile of the edge during this step:")
            for line in profile.summary(out / "edge.py-spy.txt"):
                say(line)
        elif profiled:
            say("  (no py-spy found: pip install py-spy to profile the edge)")
