"""Joining a Ray cluster, or starting a local one with its dashboard (the embedded default),
and keeping an edge's link to it while the edge serves."""

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import ray
from ray._private.worker import global_worker

from agora.core.errors import BrieflyUnavailable
from agora.settings import Settings

log = logging.getLogger("agora.ray")

# What a Ray call answers (`RayLink.answer`).
Answer = TypeVar("Answer")

# How often the link asks Ray's GCS whether this edge's node is alive, and how long it waits.
PROBE_EVERY_SECONDS = 1.0
PROBE_TIMEOUT_SECONDS = 2.0
# Unanswered this long, the cluster is taken as lost: Ray is shut down in this process and
# joined anew (a driver alone exits after `gcs_rpc_server_reconnect_timeout_s`, 60 s).
LOST_AFTER_SECONDS = 5.0
RECONNECT_EVERY_SECONDS = 2.0
# A shard's process that has not started within this long is taken as lost with Ray.
SHARD_START_SECONDS = 60
# Ray gives a new node a fixed 30 s to register; a busy machine can miss it, another start
# can make it.
LOCAL_START_ATTEMPTS = 3
LOCAL_START_MISSED = "timed out during startup"


def start_ray(settings: Settings) -> None:
    if ray.is_initialized():
        return
    if settings.ray_address:
        ray.init(address=settings.ray_address, log_to_driver=False)
        log.info("joined the Ray cluster at %s", settings.ray_address)
        return
    for attempt in range(1, LOCAL_START_ATTEMPTS + 1):
        try:
            ray.init(
                # "local": a cluster of this edge's own, never one another program started here.
                address="local",
                include_dashboard=settings.ray_dashboard,
                dashboard_host="127.0.0.1",
                dashboard_port=settings.ray_dashboard_port,
                # Without the dashboard (tests, benches) Ray picks the port: several may run.
                _metrics_export_port=settings.ray_metrics_port if settings.ray_dashboard else None,
                log_to_driver=False,
                configure_logging=False,
            )
            break
        except Exception as missed:  # Ray raises a bare Exception for a missed start
            ray.shutdown()
            if LOCAL_START_MISSED not in str(missed) or attempt == LOCAL_START_ATTEMPTS:
                raise
            log.warning("the local Ray missed Ray's start deadline; starting it again")
    if settings.ray_dashboard:
        log.info(
            "local Ray started; dashboard at http://127.0.0.1:%d, metrics at "
            "http://127.0.0.1:%d/metrics",
            settings.ray_dashboard_port,
            settings.ray_metrics_port,
        )


def stop_ray() -> None:
    if ray.is_initialized():
        ray.shutdown()


class RayAway(BrieflyUnavailable):
    """Ray cannot be reached (its head is gone) or did not answer in time: a 503 with
    Retry-After, and the client tries again."""


class RayLink:
    """An edge's connection to Ray, watched while the edge serves.

    When the head goes, Ray leaves the edge's calls waiting (it retries a call to a lost
    actor until the actor is back) and its driver exits after 60 s without a GCS. The link
    notices within a probe or two: calls that need Ray are refused at once (`RayAway`) while
    it is away. A head that comes back is a new cluster, which a driver cannot rejoin: after
    LOST_AFTER_SECONDS the link shuts Ray down in this process and joins anew until a head
    answers, and `generation` tells shard clients to drop the old cluster's handles. An
    edge that never connected (tests that share their own Ray) is never away.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # Calls to the shards wait at most this long for an answer.
        self.answer_seconds = settings.send_answer_seconds
        self.away = False
        self.generation = 0
        self.watching = False
        self._node_id = ""

    @property
    def shard_start_seconds(self) -> float:
        """How long a send waits for its shard's process to start. An edge that watches its
        link starts its shards before it serves, and again before it serves after joining a
        new head, so a send of its waits no longer than for an answer. An edge sharing a
        test's Ray starts each shard on first use, which takes seconds on a busy machine and
        is no outage."""
        return self.answer_seconds if self.watching else SHARD_START_SECONDS

    def connect(self) -> None:
        """Joins (or starts) Ray; blocks, so the edge runs it in a thread."""
        start_ray(self.settings)
        self._node_id = ray.get_runtime_context().get_node_id()

    def disconnect(self) -> None:
        stop_ray()

    def require(self) -> None:
        if self.away:
            raise RayAway()

    async def answer(self, call: Awaitable[Answer]) -> Answer:
        """A Ray call's result, or RayAway when the call is not answered in time (Ray retries
        a call to a shard being restarted, or to a cluster that is gone; the client will
        try again)."""
        try:
            return await asyncio.wait_for(call, self.answer_seconds)
        except TimeoutError:
            raise RayAway() from None

    async def watch(self, stop: asyncio.Event, ready: Callable[[], Awaitable[None]]) -> None:
        """Watches the link until `stop`; `ready()` starts the shards after joining anew."""
        self.watching = True
        unanswered_since: float | None = None
        while not stop.is_set():
            if await self._answers():
                if self.away:
                    log.info("Ray answers again")
                self.away = False
                unanswered_since = None
            elif unanswered_since is None:
                log.warning("Ray does not answer: calls that need it answer 503 meanwhile")
                self.away = True
                unanswered_since = time.monotonic()
            elif time.monotonic() - unanswered_since >= LOST_AFTER_SECONDS:
                await self._join_anew(stop, ready)
                unanswered_since = None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PROBE_EVERY_SECONDS)

    async def _answers(self) -> bool:
        """Whether the GCS answers, and knows this edge's node (its raylet) alive. The GCS
        client is the driver's own (Ray has no public call with a timeout for this)."""
        try:
            alive = await asyncio.wait_for(
                global_worker.gcs_client.async_check_alive(
                    [ray.NodeID.from_hex(self._node_id)], timeout=PROBE_TIMEOUT_SECONDS
                ),
                PROBE_TIMEOUT_SECONDS + 1,
            )
        except Exception:
            return False
        return all(alive)

    async def _join_anew(self, stop: asyncio.Event, ready: Callable[[], Awaitable[None]]) -> None:
        log.warning("the Ray cluster is lost: joining anew once a head answers")
        await asyncio.to_thread(self.disconnect)
        while not stop.is_set():
            try:
                await asyncio.to_thread(self.connect)
            except Exception as error:
                log.warning("no Ray head answers yet (%s)", error)
                await asyncio.to_thread(self.disconnect)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), RECONNECT_EVERY_SECONDS)
                continue
            self.generation += 1
            await start_shards(ready)
            self.away = False
            log.info("joined the Ray cluster anew")
            return


async def start_shards(ready: Callable[[], Awaitable[None]]) -> None:
    """Starts the shards (`ready`) before the edge serves sends; one that does not start is
    logged, and the sends for it are refused until it does."""
    try:
        await ready()
    except Exception:
        log.warning("the shards did not all start", exc_info=True)
