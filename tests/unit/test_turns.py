"""Turns: work keeps the order its turns were taken in, whatever its awaits on the way."""

import asyncio

from agora.tools.background import Turns


async def test_work_runs_in_the_order_its_turns_were_taken_though_it_gets_there_late():
    turns, done = Turns(), []

    async def work(name: str, delay_before_entering: float) -> None:
        turn = turns.take([("number", "customer")])
        await asyncio.sleep(delay_before_entering)  # a store write on the way, slower first
        async with turn:
            done.append(name)

    await asyncio.gather(work("first", 0.05), work("second", 0.0), work("third", 0.01))
    assert done == ["first", "second", "third"]


async def test_other_keys_do_not_wait_and_keys_are_forgotten_after():
    turns, done = Turns(), []
    slow = turns.take(["a"])
    other = turns.take(["b"])
    async with other:
        done.append("b")
    assert done == ["b"]
    async with slow:
        done.append("a")
    assert turns._last == {}


async def test_a_turn_cancelled_while_waiting_lets_the_next_go():
    turns = Turns()
    first = turns.take(["k"])
    second = turns.take(["k"])
    third = turns.take(["k"])

    async def enter(turn) -> None:
        async with turn:
            pass

    waiting_second = asyncio.create_task(enter(second))
    await asyncio.sleep(0)
    waiting_second.cancel()
    async with first:
        pass
    await asyncio.wait_for(enter(third), 1)
    assert waiting_second.cancelled()


async def test_a_turn_cancelled_while_waiting_keeps_the_next_waiting_for_the_one_before():
    turns, inside = Turns(), []
    first, second, third = (turns.take(["k"]) for _ in range(3))

    async def enter(name: str, turn) -> None:
        async with turn:
            inside.append(name)
            await asyncio.sleep(0.05)
            inside.remove(name)

    await first.__aenter__()
    waiting_second = asyncio.create_task(enter("second", second))
    waiting_third = asyncio.create_task(enter("third", third))
    await asyncio.sleep(0)
    waiting_second.cancel()
    await asyncio.sleep(0.01)
    assert inside == []  # the first still holds the key
    await first.__aexit__(None, None, None)
    await asyncio.wait_for(waiting_third, 1)
    assert waiting_second.cancelled()


async def test_a_failing_turn_still_ends():
    turns = Turns()
    first, second = turns.take(["k"]), turns.take(["k"])
    try:
        async with first:
            raise RuntimeError("the shard was away")
    except RuntimeError:
        pass
    await asyncio.wait_for(second.__aenter__(), 1)
    await second.__aexit__(None, None, None)
