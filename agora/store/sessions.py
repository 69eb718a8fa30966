"""Chat sessions (item chats and groups alike) and their members, as chat needs them."""

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pymongo import ReturnDocument, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase

from agora.core.chat.access import is_reader
from agora.core.chat.constants import RECEIPT_MARKS_KEPT, SESSION_KIND_ITEM_CHAT
from agora.core.chat.counts import SENT_SEQ, keeps_senders_marks
from agora.core.chat.furthest import FURTHEST_OF_EACH_KIND, MarkMoved, receipt_moved
from agora.core.chat.receipts import RECEIPT_TIMES, marks_with_senders
from agora.core.documents import ChatSession, Membership
from agora.core.mentions import EVERYONE_MENTION_SEQS, MENTION_SEQS, MENTION_SEQS_KEPT
from agora.store.batched_writes import BatchedWrites
from agora.store.groups import NEW_SESSION_COUNTERS, add_membership
from agora.store.local_copies import LocalCopies
from agora.store.marks_copies import FURTHEST, SENDERS, MarksCopies
from agora.store.mongo import Indexes, count_matching
from agora.store.reads_together import (
    BRANCHES_PER_UNION,
    IDS_PER_QUERY,
    Read,
    find_in,
    read_together,
)
from agora.store.session_copies import MEMBERSHIP_COPIED, SessionCopies, membership_id

# Per receipt status, the membership's mark: how far its member's screens got.
RECEIPT_SEQ_FIELDS = {"delivered": "delivered_seq", "read": "read_seq"}
MARK_FIELDS = {
    "user_id": 1,
    "read_seq": 1,
    "delivered_seq": 1,
    **{name: 1 for names in RECEIPT_TIMES.values() for name in names},
}
# What of the furthest marks decides a tick, and what moves carry forward (`core.chat.furthest`).
FURTHEST_FIELDS = {"user_id": 1, "read_seq": 1, "delivered_seq": 1}
# The name of a read that shares a command with the furthest marks' (`furthest_marks_and`).
OTHER = "other"
# The names of a person's memberships' and their chats' reads in one command.
MEMBERSHIPS, CHATS = "memberships", "chats"
# The name of a chat's read beside others (`furthest_marks_and`).
CHAT = "chat"
# The name of the read of the members a push decision's shards named (`push_reads`).
NAMED = "named"
# What deciding on pushes needs of each membership of a chat (`push_memberships`).
PUSH_FIELDS = {"session_id": 1, "user_id": 1, "session_user_type": 1, "notification_flag": 1}
# What unseen counts, list order and the read rule (`core.chat.access.may_read`) need of a
# chat (`SessionStore.counters`).
COUNTER_FIELDS = {
    "message_seq": 1,
    "updated_at": 1,
    "created_at": 1,
    SENT_SEQ: 1,
    EVERYONE_MENTION_SEQS: 1,
    "kind": 1,
    "is_public": 1,
    "is_read_allowed": 1,
    "data.item_id": 1,
}


# How long this process decides ticks from the furthest marks it read (and those it wrote
# since) before it reads them again: a copy behind the stored marks only announces a
# receipt that moves nothing, never misses one that moves a tick.
FURTHEST_MARKS_COPY_SECONDS = 30.0
FURTHEST_MARKS_REFRESH_SECONDS = 10.0

# A person's chats are read whole, counters included, up to this many (one `$in` of ids): a
# chat list of more than a page's chats then reads its page's no more (it read the counters
# of all, then the page's chats whole; nx-27017 answers 26-49 chats whole in half the time).
CHATS_READ_WHOLE = IDS_PER_QUERY

# A receipt racing others for the same membership tries again this often, then gives way
# (a later receipt moves the mark on).
RECEIPT_ATTEMPTS = 3

# What of a chat document moves with its messages, written by its shard and never announced:
# what an edge's copy holds of them may be behind, so `SessionStore.chat` leaves them out.
COUNTERS = ("message_seq", "announced_seq", SENT_SEQ, EVERYONE_MENTION_SEQS, "updated_at")


@dataclass(frozen=True)
class ReceiptMark:
    """A member's screens received (or read) a session's messages up to number `seq`."""

    session_id: str
    user_id: str
    status: str
    seq: int


@dataclass(frozen=True)
class _Write:
    filter: dict[str, Any]
    change: dict[str, Any]


def _receipt_write(found: dict[str, Any] | None, mark: ReceiptMark, at: int) -> _Write | None:
    """The compare-and-set moving the membership `found` (as read) to `mark`, appending the
    receipt to the latest kept in the store; None when it is not behind it."""
    field = RECEIPT_SEQ_FIELDS[mark.status]
    if (
        found is None
        or not is_reader(found["session_user_type"])
        or found.get(field, 0) >= mark.seq
    ):
        return None
    seqs, ats = RECEIPT_TIMES[mark.status]
    kept = {
        seqs: {"$each": [mark.seq], "$slice": -RECEIPT_MARKS_KEPT},
        ats: {"$each": [at], "$slice": -RECEIPT_MARKS_KEPT},
    }
    change: dict[str, Any] = {"$set": {field: mark.seq}, "$push": kept}
    if mark.status == "read":
        change["$max"] = {"delivered_seq": mark.seq}
    unchanged = {field: found[field]} if field in found else {field: {"$exists": False}}
    # A member blocked or made to wait for approval since `found` was read is not marked.
    unchanged["session_user_type"] = found["session_user_type"]
    return _Write({"_id": found["_id"], **unchanged}, change)


def _written(found: dict[str, Any], write: _Write) -> dict[str, Any]:
    """The membership `found` as `write` left it, but for the receipts it kept (read without
    them: `MEMBERSHIP_COPIED`)."""
    after = {**found, **write.change["$set"]}
    for field, seq in write.change.get("$max", {}).items():
        after[field] = max(after.get(field, 0), seq)
    return after


def _moves_by_chat(marks: Iterable[ReceiptMark]) -> dict[str, list[MarkMoved]]:
    """The marks these receipts moved (each written), by chat."""
    moves: dict[str, list[MarkMoved]] = {}
    for mark in marks:
        moves.setdefault(mark.session_id, []).extend(
            receipt_moved(mark.user_id, mark.status, mark.seq)
        )
    return moves


def _turns(marks: list[ReceiptMark]) -> list[dict[tuple[str, str], int]]:
    """The marks' indexes in turns, by membership: each membership's first mark in the first
    turn, its second in the second, and so on."""
    turns: list[dict[tuple[str, str], int]] = []
    for index, mark in enumerate(marks):
        key = (mark.session_id, mark.user_id)
        turn = next((turn for turn in turns if key not in turn), None)
        if turn is None:
            turns.append(turn := {})
        turn[key] = index
    return turns


class SessionStore:
    def __init__(self, db: AsyncDatabase, copies: SessionCopies, marks: MarksCopies) -> None:
        self.sessions = db["sessions"]
        self.members = db["session_users"]
        # Message counts and read marks of all sessions a shard serves share commands.
        self._counts = BatchedWrites(self.sessions)
        self._read_marks = BatchedWrites(self.members)
        self._furthest: LocalCopies[list[dict[str, Any]]] = LocalCopies(
            "furthest marks",
            fresh_for=FURTHEST_MARKS_COPY_SECONDS,
            refresh_after=FURTHEST_MARKS_REFRESH_SECONDS,
        )
        # The edge's copies of memberships (and groups), which every membership write here
        # drops on every edge (`store/session_copies.py`): receipts and typing are checked
        # on them. A shard never hears the announcements, so it is never served a copy.
        self._copies = copies
        # Each chat's furthest marks, read once per change of a mark: every write here that
        # moves one (receipts, readers' marks, a member removed) gives the chat a new version.
        self._marks = marks

    async def ensure_indexes(self, indexes: Indexes) -> None:
        # The group store creates the membership indexes chat lists rely on.
        await indexes.ensure(self.sessions, [("data.item_id", 1), ("updated_at", -1)])
        # The open chats about a group's posts, whose visitors leave when the group closes.
        await indexes.ensure(
            self.sessions, [("data.group_id", 1), ("is_read_allowed", 1), ("is_public", 1)]
        )
        for mark in RECEIPT_SEQ_FIELDS.values():
            await indexes.ensure(self.members, [("session_id", 1), (mark, -1)])
        await indexes.once("session_users.receipt_times_as_numbers", self._receipt_times_as_numbers)

    async def _receipt_times_as_numbers(self) -> None:
        """Memberships stored before their receipts' numbers and times were lists of numbers
        (`RECEIPT_TIMES`) kept them as lists of {seq, at} (`<status>_marks`): rewritten in
        the new shape, so the info view still tells when those receipts came. A membership
        that took a receipt in the new shape meanwhile (another edge) keeps its old list."""
        writes = []
        for status, (seqs, ats) in RECEIPT_TIMES.items():
            old = f"{status}_marks"
            async for found in self.members.find({old: {"$exists": True}}, {old: 1}):
                kept = found[old][-RECEIPT_MARKS_KEPT:]
                writes.append(
                    UpdateOne(
                        {"_id": found["_id"], seqs: {"$exists": False}},
                        {
                            "$set": {seqs: [r["seq"] for r in kept], ats: [r["at"] for r in kept]},
                            "$unset": {old: ""},
                        },
                    )
                )
        if writes:
            await self.members.bulk_write(writes, ordered=False)

    async def get(self, session_id: str) -> ChatSession | None:
        return await self.sessions.find_one({"_id": session_id})

    async def chat(self, session_id: str) -> ChatSession | None:
        """The chat without its counters (`COUNTERS`), from this edge's copy: every write of
        its other fields, through any store, drops it on every edge (`store/session_copies.py`).
        Every chat call reads it (`ChatAccess.readable`): 12 reads a second at 300 people."""
        chat = await self._copies.get(session_id, lambda: self.get(session_id))
        return None if chat is None else without_counters(chat)

    def holds_chat(self, session_id: str) -> bool:
        """Whether this edge has a copy of the chat (`chat` then reads nothing)."""
        return self._copies.held(session_id) is not None

    async def chats(self, session_ids: list[str]) -> list[ChatSession]:
        """`chat` for many chats, those without a copy read in one query."""
        found = await self._copies.get_many(session_ids, self._read_chats)
        return [without_counters(chat) for chat in found.values() if chat is not None]

    async def _read_chats(self, session_ids: list[str]) -> dict[str, ChatSession]:
        return {chat["_id"]: chat for chat in await self.by_ids(session_ids)}

    async def with_counters(self, chat: ChatSession) -> ChatSession:
        """The chat (as `chat` has it) with its counters as stored now, for what shows them:
        members' unseen counts, the chat's own view."""
        found = await self.sessions.find_one({"_id": chat["_id"]}, dict.fromkeys(COUNTERS, 1))
        return {**chat, **(found or {})}

    def changed_by_shard(self, session_id: str) -> None:
        """The chat's shard changed its document (its pins) and announced it: this edge's copy
        goes as the shard answers, whenever the announcement comes."""
        self._copies.announced_elsewhere(session_id)

    async def by_ids(self, session_ids: list[str]) -> list[ChatSession]:
        return await find_in(self.sessions, "_id", session_ids)

    async def create_once(
        self, session: dict[str, Any], members: dict[str, int]
    ) -> tuple[dict[str, Any], bool]:
        """Creates the session with its members unless it exists; says whether it created it.

        The members are stored first: whoever finds the session stored (a concurrent call,
        the shard loading it for its first message) finds them too. Adding a member is an
        upsert, so calls at once add each once; a session that exists gets none back."""
        if (existing := await self.get(session["_id"])) is not None:
            return existing, False
        await asyncio.gather(*(self.add_member(session["_id"], u, t) for u, t in members.items()))
        fields = {**{k: v for k, v in session.items() if k != "_id"}, **NEW_SESSION_COUNTERS}
        result = await self.sessions.update_one(
            {"_id": session["_id"]}, {"$setOnInsert": fields}, upsert=True
        )
        created = result.upserted_id is not None
        if created:
            # An edge may have found no chat under its id before (a dummy item chat's).
            await self._copies.announce(session["_id"])
        return await self.get(session["_id"]) or session, created

    async def add_member(self, session_id: str, user_id: str, user_type: int) -> None:
        if (await add_membership(self.members, session_id, user_id, user_type)).upserted_id:
            await self._copies.announce(membership_id(session_id, user_id))

    async def item_chats(self, item_id: str) -> list[ChatSession]:
        query = {"kind": SESSION_KIND_ITEM_CHAT, "data.item_id": item_id}
        return await self.sessions.find(query).sort("updated_at", -1).to_list()

    async def open_item_chats(
        self, *, group_id: str | None = None, item_id: str | None = None
    ) -> list[str]:
        """Ids of the chats about a post, or about any post of a group, that non-members may
        read (`core.chat.access.is_open`)."""
        about = {"data.item_id": item_id} if item_id else {"data.group_id": group_id}
        is_open = [{"is_read_allowed": True}, {"is_public": True}]
        query = {**about, "kind": SESSION_KIND_ITEM_CHAT, "$or": is_open}
        return [chat["_id"] for chat in await self.sessions.find(query, {"_id": 1}).to_list()]

    async def member_types(self, session_id: str) -> dict[str, int]:
        return member_types_of(await self.member_types_read(session_id).find())

    def member_types_read(self, session_id: str) -> Read:
        """The read of `member_types` (`member_types_of` makes them of what it finds), for
        sharing a command with other reads (`store/chat_reads.py`)."""
        return Read(
            self.members, {"session_id": session_id}, {"user_id": 1, "session_user_type": 1}
        )

    def chat_read(self, session_id: str) -> Read:
        """The read of `get`, for sharing a command with other reads."""
        return Read(self.sessions, {"_id": session_id})

    async def push_memberships(self, session_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        """What deciding on pushes needs of each member of these sessions, by session: type
        and notification flag."""
        by_session: dict[str, list[dict[str, Any]]] = {sid: [] for sid in session_ids}
        for membership in await find_in(self.members, "session_id", session_ids, PUSH_FIELDS):
            by_session.setdefault(membership["session_id"], []).append(membership)
        return by_session

    async def push_reads(
        self, session_ids: list[str], unnamed: list[str], named: list[tuple[str, str]]
    ) -> tuple[
        dict[str, list[dict[str, Any]]],
        dict[tuple[str, str], dict[str, Any]],
        list[ChatSession],
    ]:
        """What deciding on a batch of pushes reads: `push_memberships` of the chats `unnamed`,
        `memberships_lately` of the (session, user) pairs `named` and `chats` of `session_ids`,
        in one command when what no copy of this edge holds fits in one union (they took up
        to three: the memberships by chat, those of the members named, the chats)."""
        by_id = {membership_id(*pair): pair for pair in named}
        copies = {key: self._copies.held(key) for key in [*by_id, *session_ids]}
        held = {key: copy for key, copy in copies.items() if copy is not None}
        members_missing = [key for key in by_id if key not in held]
        chats_missing = [sid for sid in session_ids if sid not in held]
        reads = {
            f"{MEMBERSHIPS}{n}": Read(self.members, {"session_id": sid}, PUSH_FIELDS)
            for n, sid in enumerate(unnamed)
        }
        if members_missing:
            ids = {"_id": {"$in": members_missing}}
            reads[NAMED] = Read(self.members, ids, MEMBERSHIP_COPIED)
        if chats_missing:
            reads[CHATS] = Read(self.sessions, {"_id": {"$in": chats_missing}})
        branches = len(unnamed) + len(members_missing) + len(chats_missing)
        if len(reads) < 2 or branches > BRANCHES_PER_UNION:
            by_chat = await self.push_memberships(unnamed) if unnamed else {}
            return by_chat, await self.memberships_lately(named), await self.chats(session_ids)
        since = self._copies.since()
        found = await read_together(reads)
        read = {key: None for key in [*members_missing, *chats_missing]} | {
            document["_id"]: document for document in [*found.get(NAMED, []), *found.get(CHATS, [])]
        }
        kept = held | {
            key: value for key, value in self._copies.kept(read, since).items() if value is not None
        }
        return (
            {sid: found[f"{MEMBERSHIPS}{n}"] for n, sid in enumerate(unnamed)},
            {pair: kept[key] for key, pair in by_id.items() if key in kept},
            [without_counters(kept[sid]) for sid in session_ids if sid in kept],
        )

    async def members_page(
        self, session_id: str, after_id: str | None, limit: int
    ) -> list[dict[str, Any]]:
        query: dict[str, Any] = {"session_id": session_id}
        if after_id:
            query["_id"] = {"$gt": after_id}
        return await self.members.find(query).sort("_id", 1).limit(limit).to_list()

    async def count_members(self, session_id: str) -> int:
        return await count_matching(self.members, {"session_id": session_id})

    async def membership(self, session_id: str, user_id: str) -> Membership | None:
        return await self.members.find_one({"_id": membership_id(session_id, user_id)})

    async def update(self, session_id: str, fields: dict[str, Any]) -> dict[str, Any] | None:
        """Sets the session's fields, announced to every edge (edges keep copies of chats);
        the session after."""
        updated = await self.sessions.find_one_and_update(
            {"_id": session_id}, {"$set": fields}, return_document=ReturnDocument.AFTER
        )
        await self._copies.announce(session_id)
        return updated

    async def set_pins(self, session_id: str, pins: list[dict[str, Any]]) -> None:
        """The chat's pinned messages, as its shard decided them, announced to every edge."""
        await self.sessions.update_one({"_id": session_id}, {"$set": {"pins": pins}})
        await self._copies.announce(session_id)

    async def set_member(
        self, session_id: str, user_id: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Sets the membership's fields (its type, its notification flag), announced to every
        edge; the membership after."""
        key = membership_id(session_id, user_id)
        updated = await self.members.find_one_and_update(
            {"_id": key}, {"$set": fields}, return_document=ReturnDocument.AFTER
        )
        await self._copies.announce(key)
        return updated

    async def remove_member(self, session_id: str, user_id: str) -> bool:
        """Whether this call removed the membership (a concurrent one may have); announced to
        every edge either way."""
        key = membership_id(session_id, user_id)
        removed = await self.members.delete_one({"_id": key})
        await self._copies.announce(key)
        await self._marks.moved([session_id])
        return removed.deleted_count == 1

    async def count_messages(
        self,
        session_id: str,
        last_seq: int,
        at: int,
        *,
        announced_seq: int = 0,
        senders: dict[str, int] | None = None,
    ) -> None:
        """The session's messages up to number `last_seq` are stored, the latest at `at`;
        with `announced_seq`, its messages up to that number were handed to the fan-out;
        `senders` (user id: number of their latest message) have read up to their own.

        One write per stored batch, whatever the number of members: unseen counts are the
        difference between this number and how far each member read, taken when read. The
        senders' numbers are marks (`ticks_marks`): writing them moves the chat's marks.
        """
        counts = {"message_seq": last_seq, "updated_at": at}
        if announced_seq:
            counts["announced_seq"] = announced_seq
        for user_id, seq in (senders or {}).items():
            counts[f"{SENT_SEQ}.{user_id}"] = seq
        await self._counts.update({"_id": session_id}, {"$max": counts})
        moves = [
            MarkMoved(user_id, SENT_SEQ, seq, found=False)
            for user_id, seq in (senders or {}).items()
        ]
        await self._marks.marks_moved({session_id: moves})

    async def record_mentions(self, session_id: str, user_ids: list[str], seq: int) -> None:
        """Message number `seq` mentioned these members: each membership keeps the newest
        `MENTION_SEQS_KEPT` such numbers, in one write for them all."""
        await self.members.update_many(
            {"_id": {"$in": [membership_id(session_id, u) for u in user_ids]}},
            {"$push": {MENTION_SEQS: {"$each": [seq], "$slice": -MENTION_SEQS_KEPT}}},
        )

    async def record_everyone_mention(self, session_id: str, seq: int) -> None:
        """Message number `seq` mentioned every member of the session."""
        await self.sessions.update_one(
            {"_id": session_id},
            {"$push": {EVERYONE_MENTION_SEQS: {"$each": [seq], "$slice": -MENTION_SEQS_KEPT}}},
        )

    async def announced(self, session_id: str, seq: int) -> None:
        """The session's messages up to number `seq` were handed to the fan-out."""
        await self._counts.update({"_id": session_id}, {"$max": {"announced_seq": seq}})

    async def advance_reading(self, session_id: str, user_id: str, seq: int) -> None:
        """The member has read the session's messages up to number `seq` (never back)."""
        await self._read_marks.update(
            {"_id": membership_id(session_id, user_id)}, {"$max": {"read_seq": seq}}
        )
        # Whether it found the membership is not told (one removed meanwhile is not).
        await self._marks.marks_moved(
            {session_id: [MarkMoved(user_id, "read_seq", seq, found=False)]}
        )

    async def mark_seen(self, seen: dict[str, int]) -> None:
        """Memberships (by id) whose unseen messages up to the number given no longer count
        for the red dot on Chats (their user opened Chats). In the read marks' commands, which
        concurrent lists share: in the receipts' command, a list waited for the one in flight
        (its reads and announcements too) and then its own, 80-160 ms at 500 people."""
        await asyncio.gather(
            *(
                self._read_marks.update({"_id": m}, {"$max": {"seen_seq": seq}})
                for m, seq in seen.items()
            )
        )

    async def record_receipts(
        self,
        marks: list[ReceiptMark],
        found: dict[tuple[str, str], dict[str, Any]],
        at: int,
    ) -> list[bool]:
        """Each mark's member's screens received (or showed) the session's messages up to
        its `seq`: the membership's mark moves there (never back; reading implies receiving),
        and the time is kept with it, the latest few per status. One write for many marks,
        given their memberships as read (`found`, as `memberships` or `memberships_lately`
        give them): a message to a big group brings every present member's receipt at once,
        and a read and a write each held nx-27017's queue for everyone. Says, per mark,
        whether it was ahead of the member's mark as found (it is now at least there).

        Compare-and-set of the mark, the receipt's number and time appended to those kept
        (`RECEIPT_TIMES`) in the same write. When one misses (a membership changed since it was
        read), those written are read again, all in one read, and written again. A membership
        marked more than once (a screen's `delivered` and `read` of the same message) takes
        its marks in turns, one write per turn for all, each mark decided on the membership
        as the turn before wrote it: each second mark read its membership again and was
        written alone."""
        ahead = [False] * len(marks)
        found = dict(found)
        for turn in _turns(marks):
            await self._record_turn(marks, turn, found, at, ahead)
        return ahead

    async def _record_turn(
        self,
        marks: list[ReceiptMark],
        unwritten: dict[tuple[str, str], int],
        found: dict[tuple[str, str], dict[str, Any]],
        at: int,
        ahead: list[bool],
    ) -> None:
        """One mark per membership (`unwritten`: the index of each one's mark) in one write,
        decided on `found`, which it leaves as the write left each membership."""
        for _ in range(RECEIPT_ATTEMPTS):
            writes = [
                (key, index, write)
                for key, index in unwritten.items()
                if (write := _receipt_write(found.get(key), marks[index], at)) is not None
            ]
            if not writes:
                return
            for _, index, _ in writes:
                ahead[index] = True
            result = await self.members.bulk_write(
                [UpdateOne(w.filter, w.change) for _, _, w in writes], ordered=False
            )
            # Which statements matched is not told, only how many: a compare-and-set that
            # matched moved its mark (it sets a number past the one it matched). One removed
            # meanwhile reads as a miss: those written are read again, find their marks and
            # stop.
            if result.matched_count == len(writes):
                for key, _, write in writes:
                    after = _written(found[key], write)
                    self._copies.replace(after["_id"], found[key], after)
                    found[key] = after
                await self._marks.marks_moved(
                    _moves_by_chat(marks[index] for _, index, _ in writes)
                )
                return
            # Which missed is not told: the chats' copies go, and those written find their
            # mark there and stop.
            if result.modified_count:
                await self._marks.moved(session_id for (session_id, _), _, _ in writes)
            unwritten = {key: index for key, index, _ in writes}
            read_again = await self.memberships(list(unwritten))
            for key in unwritten:
                if key in read_again:
                    found[key] = read_again[key]
                else:
                    found.pop(key, None)

    def as_marked_here(
        self, found: dict[tuple[str, str], dict[str, Any]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """`found` (memberships as read, by pair), each replaced by this edge's copy of it where
        the copy's marks are at least as far: receipts this edge wrote since it was read moved
        them. Marks only move forward, and any other change drops the copy, so such a copy is
        the membership as it is now, as far as this edge can tell."""
        marked = {}
        for pair, membership in found.items():
            copy = self._copies.held(membership["_id"])
            as_far = copy is not None and all(
                copy.get(mark, 0) >= membership.get(mark, 0) for mark in RECEIPT_SEQ_FIELDS.values()
            )
            marked[pair] = copy if as_far else membership
        return marked

    async def memberships(
        self, pairs: list[tuple[str, str]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """The memberships of these (session, user) pairs that exist, by pair, as stored."""
        return await self._memberships(pairs, fresh=True)

    async def memberships_lately(
        self, pairs: list[tuple[str, str]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """`memberships`, from this edge's copies where it has them: a message to a big group
        brings every present member's receipt, each of which reads the membership. A copy's
        type is the stored one (every change to it is announced); its marks may be behind
        the stored ones (another edge or a shard moved them), which makes a receipt's
        compare-and-set miss and read the membership again."""
        return await self._memberships(pairs, fresh=False)

    async def _memberships(
        self, pairs: list[tuple[str, str]], *, fresh: bool
    ) -> dict[tuple[str, str], dict[str, Any]]:
        by_id = {membership_id(*pair): pair for pair in pairs}
        found = await self._copies.get_many(by_id, self._read_memberships, fresh=fresh)
        return {by_id[key]: membership for key, membership in found.items()}

    async def _read_memberships(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        found = await find_in(self.members, "_id", ids, MEMBERSHIP_COPIED)
        return {m["_id"]: m for m in found}

    async def furthest_marks(self, session_id: str) -> list[dict[str, Any]]:
        """The marks that decide every message's tick: the two furthest of each kind (the
        furthest may be the sender's own, which does not count for their messages). From this
        process's copy while no mark of the chat moved; a list of the caller's own."""
        loads = {FURTHEST: lambda: self._furthest_marks_stored(session_id)}
        return list((await self._marks.get(session_id, loads))[FURTHEST])

    async def ticks_marks(self, chat: ChatSession) -> list[dict[str, Any]]:
        """The marks that decide the ticks of the chat's messages: its furthest marks with,
        for a chat that keeps them, its senders' own (`marks_with_senders`: a member who sent
        message n has read everything up to it). Both from this process's copy while no mark
        of the chat moved (a sender's number is a mark: `count_messages` moves them): what
        shows messages other than the newest page's (older pages, searches) reads no counter
        of the chat while its marks stand (the newest page takes its senders from itself,
        `core.chat.receipts.marks_on_newest_page`)."""
        session_id = chat["_id"]
        loads = {FURTHEST: lambda: self._furthest_marks_stored(session_id)}
        if keeps_senders_marks(chat):
            loads[SENDERS] = lambda: self._senders_stored(session_id)
        parts = await self._marks.get(session_id, loads)
        senders = {SENT_SEQ: parts.get(SENDERS) or {}}
        return marks_with_senders(senders, list(parts[FURTHEST]))

    async def _senders_stored(self, session_id: str) -> dict[str, int]:
        found = await self.sessions.find_one({"_id": session_id}, {SENT_SEQ: 1})
        return (found or {}).get(SENT_SEQ) or {}

    async def furthest_marks_and(
        self, session_id: str, other: Read, *, with_chat: bool = False
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """`furthest_marks`, and what `other` finds: in one command with the marks when this
        process's copy must read them (and kept as the copy keeps any read of them), alone
        when the copy gives them. A chat opened that its shard does not hold read its newest
        page and each kind of mark in three commands. `with_chat`: the chat is read in the
        same command, and is this edge's copy of it from then on (`chat` reads it no more),
        for a call that reads it next with no copy of it here."""
        since = self._copies.since()
        reads = {OTHER: other, **({CHAT: self.chat_read(session_id)} if with_chat else {})}
        # What the other reads found with the marks: the copy calls the load only when it must.
        alongside: list[dict[str, list[dict[str, Any]]]] = []

        async def furthest_and_others() -> list[dict[str, Any]]:
            found = await read_together({**reads, **self._furthest_reads(session_id)})
            alongside.append({name: found.pop(name) for name in reads})
            return _each_once(found.values())

        parts = await self._marks.get(session_id, {FURTHEST: furthest_and_others})
        if alongside:
            found = alongside[0]
        else:
            found = await read_together(reads) if with_chat else {OTHER: await other.find()}
        if with_chat:
            self._copies.kept({session_id: next(iter(found[CHAT]), None)}, since)
        return list(parts[FURTHEST]), found[OTHER]

    async def _furthest_marks_stored(self, session_id: str) -> list[dict[str, Any]]:
        return await _each_kind_once(self._furthest_reads(session_id))

    def _furthest_reads(self, session_id: str) -> dict[str, Read]:
        """The reads of the chat's two furthest marks of each kind, by kind."""
        return {
            field: Read(
                self.members,
                {"session_id": session_id, field: {"$gt": 0}},
                FURTHEST_FIELDS,
                sort=(field, -1),
                limit=FURTHEST_OF_EACH_KIND,
            )
            for field in RECEIPT_SEQ_FIELDS.values()
        }

    async def furthest_marks_lately(self, session_id: str) -> list[dict[str, Any]]:
        """`furthest_marks` as this process read them lately: behind the stored marks by
        what other processes wrote since, never ahead of them (marks only move forward).
        For deciding whether a receipt may move a tick, where behind errs on the side of
        announcing: a message to a group of 500 brought 350 receipts, each of which read
        the furthest marks again. The list is this process's copy: the caller appends the
        marks it wrote, so that the receipts after them see them."""
        return await self._furthest.get(session_id, lambda: self.furthest_marks(session_id))

    async def marks_covering(self, chat: ChatSession, seq: int) -> list[dict[str, Any]]:
        """Every membership whose screens received or read message number `seq`, with the
        chat's senders' own marks for a chat that keeps them (`ticks_marks`).

        One read per mark rather than an `$or` of both (the two in one command): nx-27017
        answers an `$or` by reading every membership of every chat (1.5 s among 100,000,
        holding up every other command meanwhile), and each mark alone from its index."""
        session_id = chat["_id"]
        reads = {
            field: Read(self.members, {"session_id": session_id, field: {"$gte": seq}}, MARK_FIELDS)
            for field in RECEIPT_SEQ_FIELDS.values()
        }
        covering = _each_kind_once(reads)
        if not keeps_senders_marks(chat):
            return await covering
        loads = {SENDERS: lambda: self._senders_stored(session_id)}
        marks, parts = await asyncio.gather(covering, self._marks.get(session_id, loads))
        return marks_with_senders({SENT_SEQ: parts[SENDERS]}, marks)

    async def start_reading(self, session_id: str, user_id: str) -> None:
        """A new reader starts at the session's latest message: its history is not unseen."""
        session = await self.sessions.find_one({"_id": session_id}, {"message_seq": 1})
        if session is not None:
            await self.advance_reading(session_id, user_id, session.get("message_seq", 0))

    async def memberships_of_user(self, user_id: str) -> list[Membership]:
        """All of the user's memberships (a person has at most a few thousand), as stored now
        (but for their receipts' times, `MEMBERSHIP_COPIED`); which chats they are of, and the
        memberships themselves, are this edge's to know from then on (`_keep_memberships_of`)."""
        since = self._copies.since()
        found = await self._memberships_of_user_read(user_id).find()
        self._keep_memberships_of(user_id, found, since)
        return found

    def _memberships_of_user_read(self, user_id: str) -> Read:
        return Read(self.members, {"user_id": user_id}, MEMBERSHIP_COPIED)

    def _keep_memberships_of(self, user_id: str, memberships: list[Membership], since: int) -> None:
        """All of the user's memberships, read after `since`: the edge's copies of them, and of
        which chats they are of (`SessionCopies.chats_of`), as any read is kept. A socket's
        connection read them to join its rooms, then each chat call of the person's first
        minute read its membership again (30 a second while 300 people connected)."""
        self._copies.keep_chats_of(user_id, [m["session_id"] for m in memberships], since)
        self._copies.kept({m["_id"]: m for m in memberships}, since)

    async def followed(self, user_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(session counters, membership) for each of the user's memberships."""
        followed, _ = await self._followed_with(user_id, up_to=0)
        return followed

    async def followed_whole(
        self, user_id: str, up_to: int
    ) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], bool]:
        """`followed`, and whether each session was read whole: so it is when the user has
        at most `up_to` chats (the chat list's one page then needs no second read). The
        chats read whole are this edge's copies from then on (`chat`): the chats opened
        from the list then read nothing (a chat open's read of its chat was 3.0 of the
        edge's 7.5 a second at 300 people)."""
        return await self._followed_with(user_id, up_to=up_to)

    async def _followed_with(
        self, user_id: str, *, up_to: int
    ) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], bool]:
        """(session, membership) for each of the user's memberships, each session whole when
        there are at most `up_to` (and whether they are), else its counters (`counters`).

        The memberships are read as stored now (their marks move unannounced), in the same
        command as the chats when this edge knows which chats they are of
        (`SessionCopies.chats_of`, kept by the memberships' announcements): a chat list took
        a command for the memberships, then one for their chats. The chats of memberships it
        did not know of (written behind the stores' back, or while it heard nothing) are read
        after them."""
        since = self._copies.since()
        known = self._copies.chats_of(user_id)
        if not known or len(known) > BRANCHES_PER_UNION:
            memberships, found, known = await self.memberships_of_user(user_id), [], ()
            whole = len(memberships) <= up_to
        else:
            whole = len(known) <= up_to
            projection = None if whole else COUNTER_FIELDS
            both = await read_together(
                {
                    MEMBERSHIPS: self._memberships_of_user_read(user_id),
                    CHATS: Read(self.sessions, {"_id": {"$in": list(known)}}, projection),
                }
            )
            memberships, found = both[MEMBERSHIPS], both[CHATS]
            self._keep_memberships_of(user_id, memberships, since)
        unknown = [m["session_id"] for m in memberships if m["session_id"] not in known]
        if unknown:
            found += await find_in(self.sessions, "_id", unknown, None if whole else COUNTER_FIELDS)
        if whole:
            # Kept as this edge's copies: as stored now, counters included.
            chats = {m["session_id"]: None for m in memberships} | {c["_id"]: c for c in found}
            found = [c for c in self._copies.kept(chats, since).values() if c is not None]
        return _paired(memberships, found).get(user_id, []), whole

    async def followed_by(
        self, user_ids: list[str]
    ) -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
        """`followed` for many users at once (a push to each member of a big group)."""
        memberships = await find_in(self.members, "user_id", user_ids)
        return _paired(memberships, await self.counters([m["session_id"] for m in memberships]))

    async def counters(self, session_ids: list[str]) -> list[dict[str, Any]]:
        """Just what unseen counts, list order and the read rule need of each session."""
        return await find_in(self.sessions, "_id", session_ids, COUNTER_FIELDS)

    async def memberships_for_user(
        self, user_id: str, session_ids: list[str]
    ) -> dict[str, dict[str, Any]]:
        """The user's memberships of these sessions, by session id."""
        ids = [membership_id(s, user_id) for s in set(session_ids)]
        found = await find_in(self.members, "_id", ids)
        return {m["session_id"]: m for m in found}


async def _each_kind_once(reads: dict[str, Read]) -> list[dict[str, Any]]:
    """The memberships the reads of each kind of mark find, each once; the kinds' reads in
    one command (each kind's own took 0.83 ms of nx-27017's time, both together 0.63)."""
    return _each_once((await read_together(reads)).values())


def _each_once(found: Iterable[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The memberships found for each kind of mark, each once."""
    return list({mark["_id"]: mark for marks in found for mark in marks}.values())


def member_types_of(memberships: list[dict[str, Any]]) -> dict[str, int]:
    """Each member's type by user id, of their memberships."""
    return {m["user_id"]: m["session_user_type"] for m in memberships}


def without_counters(chat: ChatSession) -> ChatSession:
    return {name: value for name, value in chat.items() if name not in COUNTERS}


def _paired(
    memberships: list[dict[str, Any]], sessions: list[dict[str, Any]]
) -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    """Each user's (session, membership) pairs, by user id; a session gone drops its pair."""
    by_id = {s["_id"]: s for s in sessions}
    found: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for m in memberships:
        if m["session_id"] in by_id:
            found.setdefault(m["user_id"], []).append((by_id[m["session_id"]], m))
    return found
