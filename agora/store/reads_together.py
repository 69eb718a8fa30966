"""Independent reads answered by one store command: each a `find` of its own (a filter, one
field to sort on, a limit, a projection), all of them as one aggregate of `$unionWith`
branches, each branch's documents named by its read.

Why: nx-27017 answers commands one after another at about a millisecond of CPU each, mostly
the command's own overhead, and that rate is every server's ceiling here. A chat's two kinds
of furthest marks took 0.83 ms each, one aggregate of both 0.63 ms; its newest page and both
kinds 1.30 ms, against 2.96 ms for three commands. nx-27017 runs `$unionWith` as one SQL
statement, each branch from its own indexes; MongoDB (4.4 on) from each branch's indexes too.

Spelled for both: each branch ends with a stage naming it (`$addFields`: nx-27017 has no
`$set` stage), which is taken off before the documents are handed back; MongoDB does not
promise the order of a union's documents, so each branch is put back in its sort's order
here. Neither `$lookup` (nx-27017 hands its joined array back as a JSON string) nor `$facet`
(slow there). nx-27017 fails a union with a collection it has not made yet (MongoDB reads it
as empty): every collection read here has its indexes made by each edge's start.
"""

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pymongo.asynchronous.collection import AsyncCollection

from agora.store.mongo import DOCUMENTS_PER_BATCH

# The field naming a document's branch; no stored document has it.
BRANCH = "_read_together"
FIND_IN_AT_ONCE = 8
# nx-27017 holds every other command while it answers one: 600 ids in one `$in` take it about
# 20 ms (the counters of a big group's pushed members' chats), 100 about 2.5 ms.
IDS_PER_QUERY = 100
# The most branches in one union. nx-27017 answers a union's branches in one SQL statement
# up to a point, and past it falls back to answering the pipeline in Python ("$unionWith with
# a sub-pipeline is not supported in the SQL tier", its log says), holding every other
# command meanwhile: on the ceiling's database, a union of ten users' memberships took 7.6 ms,
# twenty 16.5, forty 40, fifty 166 ms (fallen back). The ceiling's pushes to a big group's
# members asked fifty at a time, and every call's p99 went to a second. A read of keys in a
# union (`Read` of an `_id` `$in`) is one branch per key: nx-27017 answers an `_id` equality
# in a branch from the key and a `$in` there by reading every document (a person's chat among
# 1,300: 1.1 ms against 132 ms).
BRANCHES_PER_UNION = 20
FindDocuments = Callable[[], Awaitable[list[dict[str, Any]]]]


@dataclass(frozen=True)
class Read:
    """A `find`: the documents of `collection` matching `filter`, ordered by one field
    (`sort`: the field and 1 or -1; a number in every document matched, and among the
    projected fields), the first `limit` of them (0: all), with `projection`'s fields."""

    collection: AsyncCollection
    filter: Mapping[str, Any]
    projection: Mapping[str, Any] | None = None
    sort: tuple[str, int] | None = None
    limit: int = 0

    async def find(self) -> list[dict[str, Any]]:
        """The documents, read alone."""
        cursor = self.collection.find(dict(self.filter), self.projection)
        if self.sort is not None:
            cursor = cursor.sort(*self.sort)
        return await cursor.limit(self.limit).batch_size(DOCUMENTS_PER_BATCH).to_list()

    def _branches(self, name: str) -> list[list[dict[str, Any]]]:
        """The stages of each branch answering the read in a union: one per key for the keys
        of a `$in` on `_id` (up to `BRANCHES_PER_UNION`), each named after the read."""
        key = self.filter.get("_id") if len(self.filter) == 1 else None
        keys = key.get("$in") if isinstance(key, Mapping) else None
        if isinstance(keys, list) and 0 < len(keys) <= BRANCHES_PER_UNION and self.sort is None:
            return [replace(self, filter={"_id": key})._stages(name) for key in keys]
        return [self._stages(name)]

    def _stages(self, name: str) -> list[dict[str, Any]]:
        stages: list[dict[str, Any]] = [{"$match": dict(self.filter)}]
        if self.sort is not None:
            stages.append({"$sort": dict([self.sort])})
        if self.limit:
            stages.append({"$limit": self.limit})
        if self.projection is not None:
            stages.append({"$project": dict(self.projection)})
        return [*stages, {"$addFields": {BRANCH: name}}]

    def _in_order(self, documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.sort is None:
            return documents
        field, direction = self.sort
        return sorted(documents, key=lambda document: document[field], reverse=direction < 0)


async def read_together(reads: Mapping[str, Read]) -> dict[str, list[dict[str, Any]]]:
    """Each read's documents by its name, as its `find` would give them, in one command (and
    its `getMore`s past a thousand documents: nx-27017 gives 101 a batch unless told more).
    The reads are of one database."""
    first = next(iter(reads.values()))
    pipeline: list[dict[str, Any]] = []
    for name, read in reads.items():
        if read.collection.database.name != first.collection.database.name:
            raise ValueError(f"{name} reads another database")
        for stages in read._branches(name):
            if not pipeline:
                pipeline = stages
            else:
                pipeline.append({"$unionWith": {"coll": read.collection.name, "pipeline": stages}})
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in reads}
    cursor = await first.collection.aggregate(pipeline, batchSize=DOCUMENTS_PER_BATCH)
    async for document in cursor:
        found[document.pop(BRANCH)].append(document)
    return {name: reads[name]._in_order(documents) for name, documents in found.items()}


async def find_in(
    collection: AsyncCollection,
    field: str,
    values: Iterable[Any],
    projection: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The documents whose `field` is one of `values` (each value asked once).

    Spelled for nx-27017, and as correct on MongoDB: no values, no query (nx-27017 answers
    an empty `$in` by reading the whole collection: 107 ms among 14,000 users); `_id` by one
    `$in` per hundred, which it answers from the key; any other field by one equality per
    value, each answered from the field's index, where a `$in` reads every document (95 ms
    among 100,000 memberships), the equalities of up to twenty values in one command (a union
    of them: the red dots of a big group's pushed members took a command each); all a few
    commands at a time.
    """
    wanted = list(dict.fromkeys(values))
    if field == "_id":
        chunks = [wanted[at : at + IDS_PER_QUERY] for at in range(0, len(wanted), IDS_PER_QUERY)]
        reads = [Read(collection, {"_id": {"$in": ids}}, projection).find for ids in chunks]
    else:
        reads = [
            _equal_to_any(collection, field, wanted[at : at + BRANCHES_PER_UNION], projection)
            for at in range(0, len(wanted), BRANCHES_PER_UNION)
        ]
    # A few at a time: nx-27017 answers commands one after another in the order they came,
    # so 150 sent at once (the red dots of a big group's pushes) put every other request
    # behind all of them (deliveries' p99 280 ms at 500 people); in turns, others pass between.
    in_flight = asyncio.Semaphore(FIND_IN_AT_ONCE)

    async def matching(read: FindDocuments) -> list[dict[str, Any]]:
        async with in_flight:
            return await read()

    pages = await asyncio.gather(*map(matching, reads))
    return [document for page in pages for document in page]


def _equal_to_any(
    collection: AsyncCollection,
    field: str,
    values: list[Any],
    projection: dict[str, Any] | None,
) -> FindDocuments:
    """One command reading the documents whose `field` equals one of `values`."""
    equalities = {
        str(n): Read(collection, {field: value}, projection) for n, value in enumerate(values)
    }
    if len(equalities) == 1:
        return equalities["0"].find

    async def read() -> list[dict[str, Any]]:
        found = await read_together(equalities)
        return [document for documents in found.values() for document in documents]

    return read
