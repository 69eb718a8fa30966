"""Operators' figures as Ray metrics (`ray.util.metrics`), read where docs/operations.md says.

Each Ray node's metrics agent exports what its processes (the edges, which are Ray drivers,
and the shards) record, in Prometheus text, named `ray_agora_...`. Figures are recorded
once per batch or frame, never per recipient, so measuring costs the hot paths little. A
process not connected to Ray (a script, a test without Ray) records nothing.
"""

import functools
import time

import ray
from ray.util import metrics

# Sends per shard batch: powers of two up to the edge's largest batch.
BATCH_BOUNDARIES = [1, 2, 4, 8, 16, 32, 64, 128, 256]
# Milliseconds: the acknowledgement target is 250 ms at the 99th percentile.
LATENCY_BOUNDARIES_MS = [2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500]
SOCKET_BOUNDARIES = [1, 10, 100, 1000, 10000]


@functools.cache
def _messages() -> metrics.Counter:
    return metrics.Counter(
        "agora_messages",
        "Messages a session shard answered: stored (new), resent (known before) or refused",
        tag_keys=("outcome",),
    )


@functools.cache
def _batch_sizes() -> metrics.Histogram:
    return metrics.Histogram(
        "agora_send_batch_size",
        "Sends per batch a session shard received from an edge",
        boundaries=BATCH_BOUNDARIES,
    )


@functools.cache
def _ack_latency() -> metrics.Histogram:
    return metrics.Histogram(
        "agora_ack_latency_ms",
        "From a batch's first send reaching the edge's batcher to its shard's answer, ms",
        boundaries=LATENCY_BOUNDARIES_MS,
    )


@functools.cache
def _queue_depth() -> metrics.Gauge:
    return metrics.Gauge(
        "agora_shard_queue_depth",
        "Sends a session shard has received and not yet answered",
        tag_keys=("shard",),
    )


@functools.cache
def _frames() -> metrics.Counter:
    return metrics.Counter(
        "agora_fanout_frames", "Socket.IO frames an edge wrote to a room's sockets"
    )


@functools.cache
def _frame_sockets() -> metrics.Histogram:
    return metrics.Histogram(
        "agora_fanout_frame_sockets",
        "Sockets one fan-out frame was written to (sum: deliveries)",
        boundaries=SOCKET_BOUNDARIES,
    )


@functools.cache
def _pushes() -> metrics.Counter:
    return metrics.Counter(
        "agora_push_sends",
        "Web pushes handed to push services, by outcome (delivered, gone, failed)",
        tag_keys=("outcome",),
    )


@functools.cache
def _store_commands() -> metrics.Counter:
    return metrics.Counter(
        "agora_store_commands",
        "Commands a process started on MongoDB, counted while the command census is on",
    )


def _recording() -> bool:
    return ray.is_initialized()


def messages(outcome: str, count: int) -> None:
    if count and _recording():
        _messages().inc(count, tags={"outcome": outcome})


def batch_received(size: int) -> None:
    if _recording():
        _batch_sizes().observe(size)


def acknowledged(first_queued: float) -> None:
    """A batch was answered; `first_queued` is its first send's `time.monotonic()`."""
    if _recording():
        _ack_latency().observe((time.monotonic() - first_queued) * 1000)


def queue_depth(shard: str, depth: int) -> None:
    if _recording():
        _queue_depth().set(depth, tags={"shard": shard})


def frame_written(sockets: int) -> None:
    if sockets and _recording():
        _frames().inc()
        _frame_sockets().observe(sockets)


def push_sent(outcome: str) -> None:
    if _recording():
        _pushes().inc(tags={"outcome": outcome})


def store_command() -> None:
    if _recording():
        _store_commands().inc()
