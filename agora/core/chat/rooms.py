"""Where a chat's sockets are: the rooms its messages, its typing and its visitors' leaving
go to."""

from collections.abc import Iterable


def session_room(session_id: str) -> str:
    return f"s:{session_id}"


def visitor_room(session_id: str) -> str:
    """Where the sockets of a chat's visitors (who read it without following it: the chat is
    open to them) are marked, besides its room: all of them leave at once when it closes."""
    return f"v:{session_id}"


def viewer_room(session_id: str) -> str:
    """Where the sockets of the tabs showing a chat are (the `viewing` event), besides its
    room: typing goes there only, as no other screen shows it (a city group's typing reached
    every member's socket, most of them on other screens)."""
    return f"w:{session_id}"


def heard_rooms(session_ids: Iterable[str]) -> list[str]:
    """The rooms through which a socket hears these chats: a socket that may no longer read
    one leaves them all."""
    return [room for s in session_ids for room in (session_room(s), viewer_room(s))]


def visited_rooms(session_ids: Iterable[str]) -> list[str]:
    """The rooms a visitor's socket leaves when its visit of these chats ends: those it heard
    them through, and their visitors' rooms."""
    ids = list(session_ids)
    return [*heard_rooms(ids), *map(visitor_room, ids)]


def user_room(user_id: str) -> str:
    return f"user:{user_id}"
