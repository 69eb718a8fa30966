"""The in-process publisher: every subscriber hears the event, in order, whatever the others do."""

import asyncio
import logging

from agora.services.events import Events, MemberJoined, PostAdded


async def test_subscribers_hear_their_event_in_order_and_a_failing_one_stops_nobody(caplog):
    events = Events()
    heard: list[str] = []

    async def first(event: PostAdded) -> None:
        heard.append(f"first {event.item_id}")

    async def failing(event: PostAdded) -> None:
        raise RuntimeError("subscriber broke")

    async def last(event: PostAdded) -> None:
        heard.append(f"last {event.item_id}")

    async def other(event: MemberJoined) -> None:
        heard.append("member")

    for handler in (first, failing, last):
        events.subscribe(PostAdded, handler)
    events.subscribe(MemberJoined, other)
    with caplog.at_level(logging.ERROR, logger="agora.events"):
        await events.publish(PostAdded(group_id="g", item_id="i1"))
    assert heard == ["first i1", "last i1"]
    assert "a subscriber of PostAdded failed" in caplog.text


async def test_a_cancelled_publisher_does_not_cut_its_subscribers_short():
    events = Events()
    done = asyncio.Event()
    started = asyncio.Event()

    async def slow(event: PostAdded) -> None:
        started.set()
        await asyncio.sleep(0.05)
        done.set()

    events.subscribe(PostAdded, slow)
    publisher = asyncio.create_task(events.publish(PostAdded(group_id="g", item_id="i")))
    await started.wait()
    publisher.cancel()
    await asyncio.wait_for(done.wait(), timeout=5)
    assert done.is_set()


async def test_plain_subscribers_run_at_once_in_order_among_coroutine_ones(caplog):
    events = Events()
    heard: list[str] = []
    other_work = asyncio.Event()

    def queued(event: PostAdded) -> None:
        heard.append("plain")

    def broken(event: PostAdded) -> None:
        raise RuntimeError("plain subscriber broke")

    async def waiting(event: PostAdded) -> None:
        await asyncio.sleep(0)
        heard.append("coroutine")

    for handler in (queued, broken, queued):
        events.subscribe(PostAdded, handler)
    asyncio.get_running_loop().call_soon(other_work.set)
    with caplog.at_level(logging.ERROR, logger="agora.events"):
        await events.publish(PostAdded(group_id="g", item_id="i"))
    # Only plain subscribers: the publisher never gave the loop a pass.
    assert heard == ["plain", "plain"] and not other_work.is_set()
    assert "a subscriber of PostAdded failed" in caplog.text

    events.subscribe(PostAdded, waiting)
    events.subscribe(PostAdded, queued)
    heard.clear()
    await events.publish(PostAdded(group_id="g", item_id="i"))
    assert heard == ["plain", "plain", "coroutine", "plain"]
