"""What follows a membership change in a chat or group: the member's sockets follow its room
or leave it (and the visits its posts' chats allowed), and the notices that say who joined."""

import logging

from agora.actors.client import SessionShards
from agora.actors.runtime import RayAway
from agora.core.chat.access import is_open, is_reader
from agora.core.chat.constants import LOCAL_ID_MAX_LENGTH, SESSION_KIND_GROUP
from agora.core.chat.moderation import member_notice
from agora.realtime.emitter import RealtimeEmitter
from agora.services.chat.shard_sends import ShardSends
from agora.store.sessions import SessionStore
from agora.store.users import UserStore

log = logging.getLogger("agora.chat")


class Memberships:
    def __init__(
        self,
        *,
        sessions: SessionStore,
        users: UserStore,
        emitter: RealtimeEmitter,
        shards: SessionShards,
        shard_sends: ShardSends,
    ) -> None:
        self.sessions = sessions
        self.users = users
        self.emitter = emitter
        self.shards = shards
        self.shard_sends = shard_sends

    async def member_joined(self, session_id: str, user_id: str, user_type: int) -> None:
        """Someone became a member of a group or chat: its shard takes their messages by
        their type, its history is not unseen for them, and their sockets join its room on
        every edge."""
        if is_reader(user_type):
            await self._start_following(session_id, user_id)
        try:
            await self._tell_shard(session_id, user_id)
        except RayAway:
            # The join is stored and answered. A shard Ray took the call for still hears it;
            # one that never did refuses the newcomer until it reads the chat's members again:
            # refusing too much, never letting in.
            log.warning("the shard of %s was not told in time that %s joined", session_id, user_id)

    async def moderated(
        self, session_id: str, user_id: str, old_type: int, new_type: int | None
    ) -> None:
        """An approved or unblocked member starts following the chat, a blocked or removed one
        stops (their sockets leave its room); the chat's shard takes the member's next message
        by their new type (told before the moderation answers)."""
        was, now = is_reader(old_type), is_reader(new_type)
        if now and not was:
            await self._start_following(session_id, user_id)
        elif was and not now:
            await self.emitter.unfollow(user_id, [session_id])
            await self._stopped_reading(session_id, user_id)
        await self._tell_shard(session_id, user_id)

    async def _start_following(self, session_id: str, user_id: str) -> None:
        await self.sessions.start_reading(session_id, user_id)
        await self.emitter.follow(user_id, [session_id])

    async def _tell_shard(self, session_id: str, user_id: str) -> None:
        """Edges started without Ray (scripts) have no shard to tell."""
        if self.shards.running():
            await self.shards.member_changed(session_id, user_id)

    async def _stopped_reading(self, session_id: str, user_id: str) -> None:
        """A member of a group that is not open stopped reading it (blocked): they no longer
        read its posts either, nor the open chats about them they visit but are not in."""
        group = await self.sessions.get(session_id)
        if group is None or group.get("kind") != SESSION_KIND_GROUP or is_open(group):
            return
        about_posts = await self.sessions.open_item_chats(group_id=session_id)
        member_of = await self.sessions.memberships_for_user(user_id, about_posts)
        followed = {c for c, m in member_of.items() if is_reader(m["session_user_type"])}
        await self.emitter.end_visits(user_id, [c for c in about_posts if c not in followed])

    async def announce_member(
        self, session_id: str, user_id: str, event: str, by_user_id: str | None = None
    ) -> None:
        """A 1010 notice that someone joined, asked to join or was approved; at most once per
        person, event and chat. Best effort: the membership already changed."""
        if not self.shards.running():
            return
        try:
            named = {
                u["_id"]: u.get("name", "")
                for u in await self.users.by_ids([user_id, *([by_user_id] if by_user_id else [])])
            }
            text = member_notice(event, named.get(user_id, ""), named.get(by_user_id or "", ""))
            source = by_user_id or user_id
            local_id = f"{event}:{session_id}:{user_id}"[:LOCAL_ID_MAX_LENGTH]
            data = {"member": {"event": event, "user_id": user_id}}
            await self.shard_sends.post_notice(session_id, source, local_id, text, data)
        except Exception:
            log.warning("could not post the %s notice in %s", event, session_id, exc_info=True)
