"""Group commit: what goes together in one command."""

import asyncio

from agora.tools.group_commit import GroupCommit, succeed_all


def recording():
    sent: list[list[str]] = []

    async def send(batch):
        sent.append([operation for operation, _ in batch])
        succeed_all(batch)

    return send, sent


async def test_operations_of_one_pass_share_a_command_and_later_ones_take_the_next():
    send, sent = recording()
    commits = GroupCommit(send, 10)
    first = commits.enqueue(["a", "b"])
    await asyncio.wait(first)
    await asyncio.wait(commits.enqueue(["c"]))
    assert sent == [["a", "b"], ["c"]]


async def test_a_lingering_batch_takes_what_arrives_while_it_waits():
    send, sent = recording()
    commits = GroupCommit(send, 10, linger=0.2)
    first = commits.enqueue(["a"])
    for _ in range(5):  # later passes of the loop, well within the linger
        await asyncio.sleep(0)
    second = commits.enqueue(["b"])
    await asyncio.wait([*first, *second])
    assert sent == [["a", "b"]]


async def test_a_full_batch_does_not_linger():
    send, sent = recording()
    commits = GroupCommit(send, 2, linger=3600)
    await asyncio.wait_for(asyncio.wait(commits.enqueue(["a", "b"])), timeout=30)
    assert sent == [["a", "b"]]


async def test_an_operation_waited_for_at_once_takes_a_lingering_batch_along():
    send, sent = recording()
    commits = GroupCommit(send, 10, linger=3600)
    behind = commits.enqueue(["a"])
    await asyncio.wait_for(commits.add("b", at_once=True), timeout=30)
    assert sent == [["b", "a"]] and all(future.done() for future in behind)
    # The batch after it lingers again, until another is waited for at once.
    commits.enqueue(["c"])
    for _ in range(5):
        await asyncio.sleep(0)
    assert sent == [["b", "a"]]
    await asyncio.wait_for(commits.add("d", at_once=True), timeout=30)
    assert sent == [["b", "a"], ["d", "c"]]


async def test_an_operation_waited_for_goes_in_the_next_batch_ahead_of_a_queue_nobody_waits_for():
    sent: list[list[str]] = []
    in_flight = asyncio.Event()
    release = asyncio.Event()

    async def send(batch):
        sent.append([operation for operation, _ in batch])
        in_flight.set()
        await release.wait()
        succeed_all(batch)

    commits = GroupCommit(send, 10)
    behind = commits.enqueue([f"r{n}" for n in range(35)])
    await asyncio.wait_for(in_flight.wait(), timeout=30)
    waited = asyncio.ensure_future(commits.add("page", at_once=True))
    release.set()
    await asyncio.wait_for(waited, timeout=30)
    # The first batch was in flight already; the page's operation went in the second, with
    # the room left, and the 25 that waited nobody's way took the batches after it.
    assert sent[1] == ["page", *(f"r{n}" for n in range(10, 19))]
    await asyncio.wait_for(asyncio.wait(behind), timeout=30)
    assert [op for batch in sent for op in batch if op != "page"] == [f"r{n}" for n in range(35)]
