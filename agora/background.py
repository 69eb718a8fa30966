"""Work started to run on its own, kept referenced until it ends.

asyncio holds only weak references to tasks: one nobody keeps may be collected before it
finishes. Edges, shard clients and services that start work off their callers' path hold it
here, and wait for it on a clean stop.
"""

import asyncio
from collections.abc import Awaitable


class BackgroundTasks:
    def __init__(self) -> None:
        self._running: set[asyncio.Future] = set()

    def start(self, work: Awaitable) -> None:
        task = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def settled(self) -> None:
        """Until every task has ended, those the running ones start meanwhile included."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)
