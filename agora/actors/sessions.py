"""Live chat state: logical per-session actors hosted in a fixed pool of sharded Ray actors.

A shard keeps, for each session it has seen lately, the session's permissions, its members'
types, the time and number of its last message and its newest messages. Messages of one
session are handled one batch at a time, so their `created_at` and `seq` strictly increase;
each is stored in MongoDB before it is acknowledged, and resends are recognised by
(src_id, local_id) within the session. A batch costs the same few writes however many members
the session has: unseen counts are derived from the session's message number when read.
"""

import asyncio
import contextlib
import logging
import os
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, assert_never

import ray

from agora.actors.ownership import Ownership, shard_name
from agora.actors.protocol import (
    Changed,
    ChangeOutcome,
    DeleteMessage,
    EditMessage,
    MessageChange,
    MessageView,
    Moved,
    Newest,
    NewestOf,
    NewestOutcome,
    NoSuchChat,
    NoSuchMessage,
    NotHeld,
    Page,
    PageOutcome,
    PinMessage,
    React,
    Reacted,
    ReactOutcome,
    ReadPage,
    Refused,
    SendBatch,
    SendOutcome,
    SendOutcomes,
    Stored,
    StoreMessage,
    Unavailable,
)
from agora.actors.wiring import ChatShardStores, StoreFactory
from agora.core.chat.access import NO_SUCH_CHAT, hidden_from, is_reader, posting_refusal
from agora.core.chat.constants import SESSION_BUFFER_MESSAGES
from agora.core.chat.counts import announced_seq, keeps_senders_marks, next_created_at
from agora.core.chat.views import message_view
from agora.core.clock import now_ms
from agora.core.mentions import (
    MENTION_EVERYONE,
    everyone_refusal,
    kept_mentions,
    mentions_everyone,
    mentions_of,
)
from agora.core.message_changes import (
    DELETED_CONTENT,
    deleted,
    deletion,
    edit_refusal,
    edited,
    pin_refusal,
    pinned_times,
    pins_after,
)
from agora.core.reactions import (
    REACTIONS_TICK_MS,
    reaction_refusal,
    reactions_of,
    takes_reactions,
)
from agora.core.shard_map import ShardMap
from agora.core.slow_mode import (
    is_slowed,
    slow_mode_refusal,
    slow_mode_seconds,
    slow_mode_wait_ms,
)
from agora.store.batched_writes import UNENCODABLE
from agora.store.chat_reads import chat_to_hold
from agora.store.messages import new_message, resend_key
from agora.tools import metrics
from agora.tools.background import BackgroundTasks
from agora.tools.garbage import start_collecting
from agora.tools.group_commit import GroupCommit, Pending

log = logging.getLogger("agora.actors.sessions")

# The pool's name: its shards' Ray names (`session-shard-0`, ...) and its shard map's.
SESSION_POOL = "session-shard"

SESSIONS_PER_SHARD = 20_000
CANNOT_STORE = "This message cannot be stored"
# Resends recognised in memory, per session; older ones are recognised by MongoDB's unique
# index (a slower path, rarely taken). 2,000 per session filled each shard with tens of
# thousands of remembered messages under load, and runs that followed such load answered
# slower (p99 at 1,400 msg/s: 197-273 ms against 134-167 ms with a shorter memory).
RECENT_LOCAL_IDS = 200
# The most members a new message's outcome names (`_members_told`): item chats and small
# groups; a bigger group's memberships are read by chat, once per push decision.
MEMBERS_TOLD = 100
# A session's announcements are recorded with its next batch's count, or by the shard's next
# record of every session's at once, this long after the first waiting: a shard that dies
# meanwhile announces those messages again on reload, and screens drop what they already have
# by id. Item chats rarely send twice within it, so each send cost a record of its own (a
# second update per message, 2/s of the shard's 13/s store commands at 300 people) where the
# sessions waiting now share one command.
RECORD_ANNOUNCED_SECONDS = 2.0
# The most chats whose batches' writes go together (`_write_chats`).
CHATS_PER_WRITE = 500
# The outcomes of a batch's sends as they are decided (None: not yet).
Outcomes = list[SendOutcome | None]


@dataclass
class SessionState:
    session: dict[str, Any]
    members: dict[str, int]
    last_created_at: int
    # The number of the session's latest message (1, 2, ...): unseen counts are differences.
    last_seq: int
    buffer: deque = field(default_factory=lambda: deque(maxlen=SESSION_BUFFER_MESSAGES))
    sent: OrderedDict = field(default_factory=OrderedDict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The latest announcement; each waits for the one before, so events keep message order.
    announced: asyncio.Future | None = None
    # How far the session's messages were announced when it was loaded, and the ids of the
    # remembered messages announced since (or known announced).
    announced_floor: int = 0
    told: set[str] = field(default_factory=set)
    # How far announcements went that MongoDB does not know of yet: recorded with the
    # session's next count, or with the shard's next record when no batch follows soon.
    unrecorded_announced: int = 0
    # Reactions changed since the session's viewers last heard (message's created_at ->
    # its reactions now), told together once a tick (`SessionShardLogic.react`).
    untold_reactions: dict[int, dict[str, str]] = field(default_factory=dict)
    telling_reactions: asyncio.TimerHandle | None = None
    # Each member's last message (created_at, local_id) as far as slow mode needs it: read
    # from the store on a member's first send under slow mode, then kept as they send.
    last_sends: dict[str, tuple[int, str]] = field(default_factory=dict)

    def remember(self, message: dict[str, Any]) -> None:
        """A message stored after every message the buffer holds (the buffer is the
        session's newest messages in order: pages and the chat list read it)."""
        self.buffer.append(message)
        self.recognise(message)

    def recognise(self, message: dict[str, Any]) -> None:
        """A message whose resend is answered from memory."""
        self.sent[(message["src_id"], message.get("local_id"))] = message
        while len(self.sent) > RECENT_LOCAL_IDS:
            _, forgotten = self.sent.popitem(last=False)
            self.told.discard(forgotten["_id"])


class SessionShardLogic:
    """The shard's behaviour, kept apart from Ray so that one object serves both."""

    def __init__(
        self,
        stores: ChatShardStores,
        owns: Callable[[str], bool],
        reactions_tick_seconds: float = REACTIONS_TICK_MS / 1000,
    ) -> None:
        # Whether this shard serves a session under the newest shard map it knows.
        self.owns = owns
        self.reactions_tick_seconds = reactions_tick_seconds
        self.shard_maps = stores.shard_maps
        self.sessions = stores.sessions
        self.messages = stores.messages
        self.emitter = stores.emitter
        self.kinds = stores.kinds
        self.states: OrderedDict[str, SessionState] = OrderedDict()
        self.loading: dict[str, asyncio.Future] = {}
        self._records = BackgroundTasks()
        # Sessions whose announcements wait for the shard's next record, and its clock.
        self._unrecorded: dict[str, SessionState] = {}
        self._recording: asyncio.TimerHandle | None = None
        # The store's writes of the chats' batches, gathered while the ones before are in
        # flight (`_write_chats`).
        self._writes = GroupCommit(self._write_chats, CHATS_PER_WRITE)

    async def _state(self, session_id: str) -> SessionState | None:
        state = self.states.get(session_id)
        if state is not None:
            self.states.move_to_end(session_id)
            return state
        # Batches arriving together share one load: two copies of a session's state would
        # hand out the same created_at twice.
        loading = self.loading.get(session_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(session_id))
            self.loading[session_id] = loading
            loading.add_done_callback(lambda _: self.loading.pop(session_id, None))
        return await asyncio.shield(loading)

    async def _load(self, session_id: str) -> SessionState | None:
        # A session's first send after the shard started waits for this (one command).
        held = await chat_to_hold(self.sessions, self.messages, session_id, SESSION_BUFFER_MESSAGES)
        if held is None:
            return None
        session, newest = held.chat, held.newest
        state = SessionState(
            session=session,
            members=held.member_types,
            last_created_at=newest[-1]["created_at"] if newest else 0,
            # The stored messages know their numbers even when a shard died before the
            # session's counter was written.
            last_seq=max([session.get("message_seq", 0), *(m.get("seq", 0) for m in newest)]),
            announced_floor=announced_seq(session),
        )
        for message in newest:
            state.remember(message)
        # Messages stored after the chat's count, by a shard that died before counting them
        # (their resends are acknowledged, not counted again): counted now, their senders'
        # marks with them, before anyone hears of them again.
        if uncounted := [m for m in newest if m.get("seq", 0) > session.get("message_seq", 0)]:
            await self._count(state, uncounted)
        # Messages after the recorded announcements were stored, maybe acknowledged, by a
        # shard that died before announcing them: announced now (clients drop what they have).
        state.told.update(m["_id"] for m in newest if m.get("seq", 0) <= state.announced_floor)
        self._announce_in_turn(
            state, [m for m in newest if m.get("seq", 0) > state.announced_floor]
        )
        self.states[session_id] = state
        while len(self.states) > SESSIONS_PER_SHARD:
            _, evicted = self.states.popitem(last=False)
            self._records.start(self._settle(evicted))
        return state

    async def forget(self, session_id: str) -> None:
        """The session is read again from MongoDB on next use (its permissions or members
        changed): what it announced is recorded first, so the reload announces nothing
        again (a member approved meanwhile would hear messages from before)."""
        state = self.states.pop(session_id, None)
        if state is not None:
            await self._settle(state)

    async def member_changed(self, session_id: str, user_id: str) -> None:
        """A member joined, left or changed type: a session this shard holds takes their next
        message by their type as stored now. Read under the session's lock, so that of two
        changes told at once the one read last, the newest, is kept; a load under way may
        have read the members before the change, so it is waited for."""
        if (loading := self.loading.get(session_id)) is not None:
            await asyncio.wait([loading])
        state = self.states.get(session_id)
        if state is None:
            return
        async with state.lock:
            membership = await self.sessions.membership(session_id, user_id)
            if membership is None:
                state.members.pop(user_id, None)
            else:
                state.members[user_id] = membership["session_user_type"]

    async def _settle(self, state: SessionState) -> None:
        """A dropped session's announcements finish and are recorded."""
        if state.announced is not None:
            await asyncio.wait([state.announced])
        await self._record(state)

    async def drop_lost(self) -> None:
        """Lets go of the sessions this shard no longer owns (the pool grew), once each one's
        batch under way has ended: their new shard reads them from MongoDB as they are."""
        await asyncio.gather(
            *(
                self._let_go(sid, state)
                for sid, state in list(self.states.items())
                if not self.owns(sid)
            )
        )

    async def _let_go(self, session_id: str, state: SessionState) -> None:
        async with state.lock:
            if self.states.get(session_id) is state:
                del self.states[session_id]
        await self._settle(state)

    async def send_batch(self, sends: list[StoreMessage]) -> list[SendOutcome]:
        """One outcome per send, in order. Each session's messages are handled on their
        own: whatever fails in one session, or for one message, leaves the others' outcomes."""
        outcomes: Outcomes = [None] * len(sends)
        by_session: dict[str, list[int]] = {}
        for index, send in enumerate(sends):
            by_session.setdefault(send.session_id, []).append(index)
        await asyncio.gather(
            *(self._send_isolated(sid, idx, sends, outcomes) for sid, idx in by_session.items())
        )
        return [outcome or Unavailable() for outcome in outcomes]

    async def _send_isolated(
        self,
        session_id: str,
        indexes: list[int],
        sends: list[StoreMessage],
        outcomes: Outcomes,
    ) -> None:
        try:
            await self._send_session(session_id, indexes, sends, outcomes)
        except Exception:
            log.exception("sending %d messages to %s failed", len(indexes), session_id)
            # Numbers may have been handed out: the session is read again from MongoDB.
            if (state := self.states.pop(session_id, None)) is not None:
                self._records.start(self._settle(state))

    async def _send_session(
        self,
        session_id: str,
        indexes: list[int],
        sends: list[StoreMessage],
        outcomes: Outcomes,
    ) -> None:
        if not self.owns(session_id):
            return _all(indexes, outcomes, Moved())
        state = await self._state(session_id)
        if state is None:
            return _all(indexes, outcomes, NoSuchChat())
        async with state.lock:
            # The pool may have grown while the session loaded or waited for its turn.
            if not self.owns(session_id):
                self._records.start(self._let_go(session_id, state))
                return _all(indexes, outcomes, Moved())
            fresh: list[tuple[int, dict[str, Any]]] = []
            resent: list[dict[str, Any]] = []
            # Copies of one message in this batch (a client resending over HTTP and the socket
            # at once) by its key: the first is handled, the others get its outcome. Numbered
            # apart, a copy took a number of its own and was announced ahead of messages
            # numbered before it.
            firsts: dict[tuple[str, str], int] = {}
            copies: list[tuple[int, int]] = []
            await self._know_last_sends(state, [sends[i] for i in indexes])
            for i in indexes:
                send = sends[i]
                key = (send.src_id, send.local_id)
                known = state.sent.get(key)
                if known is not None:
                    outcomes[i] = self._stored(known, stored_now=False)
                    resent.append(known)
                elif key in firsts:
                    copies.append((i, firsts[key]))
                elif refusal := posting_refusal(
                    self.kinds, state.session, state.members.get(send.src_id), send.type
                ):
                    outcomes[i] = NoSuchChat() if refusal == NO_SUCH_CHAT else Refused(refusal)
                elif refused := self._early_or_unmentionable(state, send):
                    outcomes[i] = refused
                else:
                    firsts[key] = i
                    state.last_created_at = next_created_at(now_ms(), state.last_created_at)
                    state.last_seq += 1
                    if self._slowed(state, send):
                        state.last_sends[send.src_id] = (state.last_created_at, send.local_id)
                    message = new_message(send, state.last_created_at, state.last_seq)
                    fresh.append((i, self._with_kept_mentions(state, message)))
            new: list[dict[str, Any]] = []
            if fresh:
                new, stored_before = await self._writes.add((state, fresh, outcomes))
                resent += stored_before
            for i, first in copies:
                outcomes[i] = _as_copy(outcomes[first])
            # A resend of a message whose announcement is not known to have happened (stored
            # by the shard before a restart, which died first) is announced now: clients drop
            # a message they already have by its id.
            unheard = list(
                {
                    m["_id"]: m
                    for m in resent
                    if m["_id"] not in state.told and m.get("seq", 0) > state.announced_floor
                }.values()
            )
            # The views the senders are answered with are the ones announced: each message is
            # made a view once.
            answered = (outcomes[i] for i in indexes)
            views = {o.message["id"]: o.message for o in answered if isinstance(o, Stored)}
            self._announce_in_turn(state, unheard + new, views)

    def _announce_in_turn(
        self,
        state: SessionState,
        messages: list[dict[str, Any]],
        views: dict[str, MessageView] | None = None,
    ) -> None:
        """The fan-out, off the ack path, after the session's earlier announcements; `views`
        are those of the messages already made (by id)."""
        if messages:
            state.told.update(m["_id"] for m in messages)
            made = views or {}
            announced = [
                (m.get("seq", 0), made.get(m["_id"]) or message_view(m, self.kinds))
                for m in messages
            ]
            state.announced = asyncio.ensure_future(
                self._announce_after(state.announced, state, announced)
            )

    async def _write_chats(self, batch: Pending) -> None:
        """The writes of every chat's batch waiting (`_write`) at once: their messages share
        an insert and their counts an update (`BatchedWrites`), and what comes while these
        are in flight waits for both and goes in the next. Each chat learns its own outcome."""
        written = await asyncio.gather(
            *(self._write(*op) for op, _ in batch), return_exceptions=True
        )
        for (_, future), outcome in zip(batch, written, strict=True):
            if future.done():
                continue
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    async def _write(
        self,
        state: SessionState,
        fresh: list[tuple[int, dict[str, Any]]],
        outcomes: Outcomes,
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A chat's new messages stored (`_store`, whose answer this is), then counted before
        the acknowledgement, so the sender's next read sees them, and their mentions kept."""
        new, stored_before = await self._store(state, fresh, outcomes)
        if new:
            await self._count(state, new)
            await self._record_mentions(state, new)
        return new, stored_before

    async def _store(
        self,
        state: SessionState,
        fresh: list[tuple[int, dict[str, Any]]],
        outcomes: Outcomes,
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Stores the batch's new messages and answers each: accepted, accepted as the message
        stored before (a resend only MongoDB recognised), or refused when it alone could not
        be stored. Returns the new messages and the ones stored before."""
        inserted = await self.messages.insert([m for _, m in fresh])
        new = [
            m
            for pos, (_, m) in enumerate(fresh)
            if pos not in inserted.resent and pos not in inserted.failed
        ]
        if len(new) < len(fresh):
            await self._close_gaps(state, fresh[0][1]["seq"], new)
        found = await self._stored_before([fresh[pos][1] for pos in inserted.resent])
        stored_before = []
        for pos, (i, message) in enumerate(fresh):
            if pos in inserted.failed:
                outcomes[i] = _not_stored(inserted.failed[pos])
                continue
            if pos in inserted.resent:
                stored = found.get(resend_key(message))
                if stored is None:
                    continue
                message = stored
                stored_before.append(message)
                # Older than the buffer's messages: appended, it would be the chat's newest.
                state.recognise(message)
            else:
                state.remember(message)
            stored_now = pos not in inserted.resent
            members = _members_told(state) if stored_now else None
            outcomes[i] = self._stored(message, stored_now=stored_now, members=members)
        return new, stored_before

    async def _close_gaps(
        self, state: SessionState, first_seq: int, new: list[dict[str, Any]]
    ) -> None:
        """Resends only MongoDB recognised, and messages that could not be stored, took
        numbers of their own: the batch's new messages are numbered again without them,
        before anyone is told of them, so every number counted as unseen is a message."""
        for seq, message in enumerate(new, start=first_seq):
            if message["seq"] != seq:
                message["seq"] = seq
                await self.messages.renumber(message["_id"], seq)
        state.last_seq = first_seq + len(new) - 1

    async def _count(self, state: SessionState, new: list[dict[str, Any]]) -> None:
        """The senders have read their own messages and the session counts them: in one
        write for a chat, in this order for a group (whose senders' marks are on their
        memberships), so a reader never finds a sender's own message unseen, even for a moment.

        Both are `$max` of absolute numbers, so a count that failed (logged; the messages
        are stored and acknowledged all the same) is made good by the session's next batch.
        The count also records how far the session's earlier batches were announced.
        """
        session_id = state.session["_id"]
        announced = self._take_unrecorded(state)
        try:
            senders = {m["src_id"]: m["seq"] for m in new}
            if not keeps_senders_marks(state.session):
                await asyncio.gather(
                    *(self.sessions.advance_reading(session_id, s, q) for s, q in senders.items())
                )
                senders = {}
            last = new[-1]
            await self.sessions.count_messages(
                session_id,
                last["seq"],
                last["created_at"],
                announced_seq=announced,
                senders=senders,
            )
        except Exception:
            log.exception("counting %d messages of %s failed", len(new), session_id)
            if announced:
                self._announced(state, announced)

    async def _know_last_sends(self, state: SessionState, sends: list[StoreMessage]) -> None:
        """Under slow mode, the last message of each slowed sender the shard has not seen send
        since it loaded the session, read from the store (only within the slow mode's window:
        an older one does not hold them back)."""
        session = state.session
        unknown = {
            s.src_id for s in sends if s.src_id not in state.last_sends and self._slowed(state, s)
        }
        if not unknown:
            return
        since = now_ms() - slow_mode_seconds(session) * 1000
        types = [kind.type for kind in self.kinds.sent_by_members()]
        found = await asyncio.gather(
            *(self.messages.latest_from(session["_id"], u, since, types) for u in unknown)
        )
        for user_id, message in zip(unknown, found, strict=True):
            if message is not None:
                state.last_sends[user_id] = (message["created_at"], message.get("local_id", ""))

    def _early_or_unmentionable(self, state: SessionState, send: StoreMessage) -> Refused | None:
        """A send the member may post but not now (slow mode), or not with these mentions."""
        user_type = state.members.get(send.src_id)
        if errors := everyone_refusal(mentions_of(send.data), user_type):
            return Refused(errors)
        last = state.last_sends.get(send.src_id)
        # A resend of the member's last message is that message, not another one.
        if last is None or last[1] == send.local_id or not self._slowed(state, send):
            return None
        if wait := slow_mode_wait_ms(state.session, last[0], now_ms()):
            return Refused(slow_mode_refusal(wait), retry_after_ms=wait)
        return None

    def _slowed(self, state: SessionState, send: StoreMessage) -> bool:
        """Whether slow mode holds the send back: a member's own message (a notice services
        post for them, their joining's, is not theirs), unless they moderate the chat."""
        by_member = not self.kinds.message(send.type).by_service
        return by_member and is_slowed(state.session, state.members.get(send.src_id))

    def _with_kept_mentions(self, state: SessionState, message: dict[str, Any]) -> dict[str, Any]:
        """The message names only the members who read the chat (`kept_mentions`)."""
        if mentions := mentions_of(message.get("data")):
            kept = kept_mentions(
                mentions, lambda u: is_reader(state.members.get(u)), message["src_id"]
            )
            data = {k: v for k, v in message["data"].items() if k != "mentions"}
            message["data"] = data | ({"mentions": kept} if kept else {})
        return message

    async def _record_mentions(self, state: SessionState, new: list[dict[str, Any]]) -> None:
        """Each mentioned member's membership, or the session for everyone, keeps the
        message's number: one write per message with mentions, none without. A write that
        failed (logged) loses a mention's count, never the message."""
        session_id = state.session["_id"]
        writes = []
        for message in new:
            mentions = mentions_of(message.get("data"))
            named = [m for m in mentions if m not in MENTION_EVERYONE]
            if named:
                writes.append(self.sessions.record_mentions(session_id, named, message["seq"]))
            if mentions_everyone(mentions):
                writes.append(self.sessions.record_everyone_mention(session_id, message["seq"]))
        try:
            await asyncio.gather(*writes)
        except Exception:
            log.exception("recording mentions of %d messages of %s failed", len(new), session_id)

    def _take_unrecorded(self, state: SessionState) -> int:
        """Takes how far announcements went unrecorded (0: nothing to record)."""
        announced, state.unrecorded_announced = state.unrecorded_announced, 0
        # A session forgotten and loaded again meanwhile waits as its new state.
        if self._unrecorded.get(state.session["_id"]) is state:
            del self._unrecorded[state.session["_id"]]
        return announced

    def _announced(self, state: SessionState, seq: int) -> None:
        """Announcements up to `seq` went out: recorded with the next count, or with the
        shard's next record."""
        state.unrecorded_announced = max(state.unrecorded_announced, seq)
        self._unrecorded[state.session["_id"]] = state
        if self._recording is None:
            self._recording = asyncio.get_running_loop().call_later(
                RECORD_ANNOUNCED_SECONDS, lambda: self._records.start(self._record_waiting())
            )

    async def _record_waiting(self) -> None:
        """Every waiting session's announcements at once: their updates share a command
        (`BatchedWrites`)."""
        self._recording = None
        await asyncio.gather(*map(self._record, list(self._unrecorded.values())))

    async def _record(self, state: SessionState) -> None:
        if seq := self._take_unrecorded(state):
            try:
                await self.sessions.announced(state.session["_id"], seq)
            except Exception:
                log.exception("recording announcements of %s failed", state.session["_id"])

    async def _announce_after(
        self,
        previous: asyncio.Future | None,
        state: SessionState,
        new: list[tuple[int, MessageView]],
    ) -> None:
        """`new`: each message's number and view, in order."""
        if previous is not None:
            await asyncio.wait([previous])
        session_id = state.session["_id"]
        try:
            await self._announce(state, [view for _, view in new])
            # To be recorded, so a shard that reloads the session announces only what came
            # after.
            self._announced(state, max(seq for seq, _ in new))
        except Exception:
            log.exception("announcing %d messages of %s failed", len(new), session_id)

    async def _stored_before(
        self, messages: list[dict[str, Any]]
    ) -> dict[tuple[str, str, str], dict[str, Any]]:
        """Messages a restarted shard did not remember are answered from MongoDB."""
        found = await self.messages.resent([resend_key(m) for m in messages])
        return {resend_key(m): m for m in found}

    async def _announce(self, state: SessionState, views: list[MessageView]) -> None:
        """One event per batch to the session's room, where every reader's sockets are:
        `message`, or `messages` (oldest first) for several, as a busy room's frame carries
        them; screens derive unseen badges from it, so nothing is sent per member."""
        if len(views) == 1:
            await self.emitter.to_session(state.session["_id"], "message", views[0])
        else:
            await self.emitter.to_session(state.session["_id"], "messages", views)

    def _stored(
        self, message: dict[str, Any], *, stored_now: bool, members: list[str] | None = None
    ) -> Stored:
        return Stored(message_view(message, self.kinds), stored_now, members, message.get("seq"))

    @contextlib.asynccontextmanager
    async def _held(self, session_id: str) -> AsyncIterator[SessionState | Moved | NoSuchChat]:
        """The session's state under its lock, while this shard serves it, for a change to its
        messages (memory and the store take changes in the same order); else the outcome
        saying why not."""
        state = await self._state(session_id) if self.owns(session_id) else Moved()
        if state is None:
            yield NoSuchChat()
            return
        if isinstance(state, Moved):
            yield state
            return
        async with state.lock:
            if self.owns(session_id):
                yield state
                return
            self._records.start(self._let_go(session_id, state))
            yield Moved()

    async def change_message(self, command: MessageChange) -> ChangeOutcome:
        """An edit, a deletion or a pin of a stored message, decided with the members this
        shard holds, stored, applied to its memory and announced to the chat's room as
        `message_update`, one change of the session at a time (after its sends under way)."""
        session_id = command.session_id
        async with self._held(session_id) as state:
            if not isinstance(state, SessionState):
                return state
            actor_type = state.members.get(command.user_id)
            # Before the message is looked for: a chat hidden from them tells nothing.
            if hidden_from(state.session, actor_type):
                return NoSuchChat()
            try:
                message = await self._message_at(state, command.created_at)
                if message is None:
                    return NoSuchMessage()
                outcome = await self._change(state, command, actor_type, message)
            except Exception:
                log.exception("changing a message of %s failed", session_id)
                return Unavailable()
            if isinstance(outcome, Changed):
                update: dict[str, Any] = {"session_id": session_id, "message": outcome.message}
                if outcome.pins is not None:
                    update["pins"] = outcome.pins
                await self.emitter.to_session(session_id, "message_update", update)
            return outcome

    async def _message_at(self, state: SessionState, created_at: int) -> dict[str, Any] | None:
        """The message from memory (the very document the buffer serves pages from), or
        from the store when it is older than the buffer."""
        for message in reversed(state.buffer):
            if message["created_at"] == created_at:
                return message
        return await self.messages.get(state.session["_id"], created_at)

    async def _change(
        self,
        state: SessionState,
        command: MessageChange,
        actor_type: int | None,
        message: dict[str, Any],
    ) -> ChangeOutcome:
        session = state.session
        at = now_ms()
        match command:
            case EditMessage(user_id=user_id, payload=payload):
                refusal = edit_refusal(self.kinds, session, actor_type, user_id, message, at)
                if refusal:
                    return Refused(refusal)
                await self._set(state, message, edited(payload, at), ())
                return Changed(message_view(message, self.kinds))
            case DeleteMessage(user_id=user_id):
                sender_type = state.members.get(message["src_id"])
                refusal, by = deletion(
                    self.kinds, session, actor_type, user_id, message, sender_type
                )
                if refusal:
                    return Refused(refusal)
                removed: list[str] = []
                if not message.get("deleted_at"):
                    removed = [f["url"] for f in message.get("payload1") or []]
                    await self._set(state, message, deleted(at, by), DELETED_CONTENT)
                unpinned = await self._unpinned(state, message["created_at"])
                return Changed(message_view(message, self.kinds), unpinned, removed)
            case PinMessage(user_id=user_id, pinned=pinned):
                if refusal := pin_refusal(self.kinds, session, actor_type, message):
                    return Refused(refusal)
                pins = pins_after(
                    session.get("pins") or [], message["created_at"], pinned, user_id, at
                )
                if isinstance(pins, str):
                    return Refused(pins)
                await self._pin(state, pins)
                return Changed(message_view(message, self.kinds), await self._pinned(state))
            case _:
                assert_never(command)

    async def _set(
        self,
        state: SessionState,
        message: dict[str, Any],
        fields: dict[str, Any],
        removed: tuple[str, ...],
    ) -> None:
        """Stored, then the message as memory holds it (the buffer's, the resends') changed
        in place: pages, the chat list's last message and resends read it so."""
        await self.messages.change(state.session["_id"], message["created_at"], fields, removed)
        message.update(fields)
        for name in removed:
            message.pop(name, None)

    async def _unpinned(self, state: SessionState, created_at: int) -> list[MessageView] | None:
        """A deleted message's pin goes with it: the chat's pins after, if it was pinned."""
        if created_at not in pinned_times(state.session):
            return None
        pins = pins_after(state.session.get("pins") or [], created_at, False, "", 0)
        assert not isinstance(pins, str)  # unpinning is never refused
        await self._pin(state, pins)
        return await self._pinned(state)

    async def _pin(self, state: SessionState, pins: list[dict[str, Any]]) -> None:
        await self.sessions.set_pins(state.session["_id"], pins)
        state.session["pins"] = pins

    async def _pinned(self, state: SessionState) -> list[MessageView]:
        """The chat's pinned messages as clients see them, the newest pin first."""
        times = pinned_times(state.session)
        held = {m["created_at"]: m for m in state.buffer if m["created_at"] in times}
        missing = [t for t in times if t not in held]
        found = await self.messages.at_times(state.session["_id"], missing)
        held.update((m["created_at"], m) for m in found)
        return [message_view(held[t], self.kinds) for t in times if t in held]

    def read_page(self, command: ReadPage) -> Page | NotHeld:
        """The page from memory when the buffer surely holds all of it: it holds the
        session's newest messages (all of them while they are fewer than it keeps), as every
        message of the session is stored through its shard."""
        state = self.states.get(command.session_id)
        if state is None or not state.buffer:
            return NotHeld()
        if command.after is None:
            return Page(list(state.buffer)[-command.limit :])
        if command.after < state.buffer[0]["created_at"]:
            return NotHeld()
        after = command.after
        return Page([m for m in state.buffer if m["created_at"] > after][: command.limit])

    def newest(self, command: NewestOf) -> Newest:
        """Each session's newest message, for the sessions held here with one: a session's
        messages are all stored through its shard, so the buffer's last is the newest."""
        states = ((s, self.states.get(s)) for s in command.session_ids)
        held = {s: state.buffer[-1] for s, state in states if state is not None and state.buffer}
        return Newest(held)

    async def react(self, command: React) -> ReactOutcome:
        """A member's reaction, in the store and the shard's memory together (one write of
        the reactor's own field), refused as a send would be. Its chat's viewers hear of it
        within a tick, with the session's other reactions of that tick (`_tell_reactions`)."""
        session_id = command.session_id
        async with self._held(session_id) as state:
            if not isinstance(state, SessionState):
                return state
            user_type = state.members.get(command.user_id)
            if refusal := reaction_refusal(self.kinds, state.session, user_type):
                return NoSuchChat() if refusal == NO_SUCH_CHAT else Refused(refusal)
            held = _held(state, command.created_at)
            if held is not None:
                if not takes_reactions(held):
                    return NoSuchMessage()
                if reactions_of(held).get(command.user_id, "") == command.emoji:
                    # Nothing changes (a second tap that arrived twice): nothing to write or tell.
                    return Reacted(reactions_of(held))
            try:
                reactions = await self.messages.set_reaction(
                    session_id, command.created_at, command.user_id, command.emoji
                )
            except Exception:
                log.exception("a reaction in %s could not be stored", session_id)
                return Unavailable()
            if reactions is None:
                return NoSuchMessage()
            if held is not None:
                held["data"] = {**(held.get("data") or {}), "reactions": reactions}
            self._tell_reactions(state, command.created_at, reactions)
            return Reacted(reactions)

    def _tell_reactions(
        self, state: SessionState, created_at: int, reactions: dict[str, str]
    ) -> None:
        """The session's viewers hear of its changed reactions once a tick, each message's as
        they are by then: one small event per tick to the tabs showing the chat, however
        many react, and none to the sockets of members on other screens (a page they load
        later shows the reactions)."""
        state.untold_reactions[created_at] = reactions
        if state.telling_reactions is None:
            state.telling_reactions = asyncio.get_running_loop().call_later(
                self.reactions_tick_seconds,
                lambda: self._records.start(self._announce_reactions(state)),
            )

    async def _announce_reactions(self, state: SessionState) -> None:
        state.telling_reactions = None
        untold, state.untold_reactions = state.untold_reactions, {}
        session_id = state.session["_id"]
        messages = [{"created_at": at, "reactions": r} for at, r in sorted(untold.items())]
        try:
            await self.emitter.to_viewers(
                session_id, "reactions", {"session_id": session_id, "messages": messages}
            )
        except Exception:
            log.exception("telling %d reactions of %s failed", len(messages), session_id)


def _held(state: SessionState, created_at: int) -> dict[str, Any] | None:
    """The message of the session's memory at `created_at` (a reaction is mostly to one of
    the newest: looked for from the end)."""
    for message in reversed(state.buffer):
        if message["created_at"] == created_at:
            return message
        if message["created_at"] < created_at:
            return None
    return None


def _all(indexes: list[int], outcomes: Outcomes, outcome: SendOutcome) -> None:
    for i in indexes:
        outcomes[i] = outcome


def _as_copy(outcome: SendOutcome | None) -> SendOutcome | None:
    """The first copy's outcome, as a resend: `MessageStored` is told once."""
    if isinstance(outcome, Stored):
        return Stored(outcome.message, stored_now=False, seq=outcome.seq)
    return outcome


def _members_told(state: SessionState) -> list[str] | None:
    """The members a new message's outcome carries: the edge's push decision then finds their
    memberships in its copies rather than querying the chat's (one query per chat and
    decision, where nx-27017 answers a `$in` on a field other than `_id` by a scan)."""
    return list(state.members) if len(state.members) <= MEMBERS_TOLD else None


def _not_stored(error: Exception) -> Refused | Unavailable:
    if isinstance(error, UNENCODABLE):
        return Refused(CANNOT_STORE)
    return Unavailable()


def _count(outcomes: list[SendOutcome]) -> None:
    counted = Counter(_counted_as(outcome) for outcome in outcomes)
    for outcome, count in counted.items():
        metrics.messages(outcome, count)


def _counted_as(outcome: SendOutcome) -> str:
    if isinstance(outcome, Stored):
        return "stored" if outcome.stored_now else "resent"
    return "refused"


@ray.remote(max_restarts=-1, max_task_retries=-1)
class SessionShard:
    """Ray host of SessionShardLogic. Restarts rebuild state from MongoDB on first use, and
    retried batches are safe because resends are recognised. Every call names the shard map
    the edge placed it by (see `ownership.py`)."""

    def __init__(self, stores: StoreFactory) -> None:
        # From the edge's composition root: the shard builds its stores as the edge does.
        self.stores = stores
        self.logic: SessionShardLogic | None = None
        self.collector: asyncio.Task | None = None
        self.name = ray.get_runtime_context().get_actor_name() or shard_name(SESSION_POOL, 0)
        self.ownership = Ownership(
            int(self.name.rsplit("-", 1)[1]), self._read_map, self._drop_lost, self._tell_peer
        )
        self.queued = 0

    def _logic(self) -> SessionShardLogic:
        if self.logic is None:
            self.logic = SessionShardLogic(
                self.stores.chat_shard_stores(),
                self.ownership.owns,
                self.stores.settings.reactions_tick_ms / 1000,
            )
            # Full collections would hold up acknowledgements for 100 ms or more.
            self.collector = start_collecting(self.stores.settings.gc_full_every_seconds)
        return self.logic

    async def _read_map(self) -> ShardMap:
        maps = self._logic().shard_maps
        return await maps.current(SESSION_POOL, self.stores.settings.session_shards)

    async def _drop_lost(self) -> None:
        await self._logic().drop_lost()

    @staticmethod
    async def _tell_peer(index: int, newer: ShardMap) -> None:
        peer = await asyncio.to_thread(_peer, shard_name(SESSION_POOL, index))
        if peer is not None:
            await peer.adopt.remote(newer)

    async def send_batch(self, batch: SendBatch, shard_map: ShardMap) -> SendOutcomes:
        sends = batch.sends
        if not await self.ownership.serving(shard_map):
            return SendOutcomes([Moved() for _ in sends])
        metrics.batch_received(len(sends))
        self._queue(len(sends))
        try:
            outcomes = await self._logic().send_batch(sends)
        finally:
            self._queue(-len(sends))
        _count(outcomes)
        return SendOutcomes(outcomes)

    def _queue(self, change: int) -> None:
        self.queued += change
        metrics.queue_depth(self.name, self.queued)

    async def adopt(self, newer: ShardMap) -> None:
        """A peer or the `shards` command tells of a grown pool."""
        await self.ownership.adopt(newer)

    async def forget(self, session_id: str, shard_map: ShardMap | None = None) -> bool:
        """False: the edge's map is old, and the session's shard is another (which the edge
        tells). Without a map (tests, tools) the session is forgotten here whatever the map."""
        current = shard_map is None or await self.ownership.serving(shard_map)
        await self._logic().forget(session_id)
        return current

    async def member_changed(self, session_id: str, user_id: str, shard_map: ShardMap) -> bool:
        """As `forget`, for one member's type."""
        current = await self.ownership.serving(shard_map)
        await self._logic().member_changed(session_id, user_id)
        return current

    async def change_message(self, command: MessageChange, shard_map: ShardMap) -> ChangeOutcome:
        if not await self.ownership.serving(shard_map):
            return Moved()
        return await self._logic().change_message(command)

    async def read_page(self, command: ReadPage, shard_map: ShardMap) -> PageOutcome:
        if not await self.ownership.serving(shard_map):
            return Moved()
        return self._logic().read_page(command)

    async def newest(self, command: NewestOf, shard_map: ShardMap) -> NewestOutcome:
        if not await self.ownership.serving(shard_map):
            return Moved()
        return self._logic().newest(command)

    async def react(self, command: React, shard_map: ShardMap) -> ReactOutcome:
        if not await self.ownership.serving(shard_map):
            return Moved()
        return await self._logic().react(command)

    async def pid(self) -> int:
        return os.getpid()

    async def node_id(self) -> str:
        """The Ray node this incarnation runs on (tests, and operators, see where it lives)."""
        return ray.get_runtime_context().get_node_id()


def _peer(name: str) -> Any:
    """Another shard of the deployment by its name; None when it never started."""
    try:
        return ray.get_actor(name, namespace=ray.get_runtime_context().namespace)
    except ValueError:
        return None
