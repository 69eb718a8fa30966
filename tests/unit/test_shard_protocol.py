"""What crosses between an edge and the shards is the protocol's typed commands and outcomes
(agora/actors/protocol.py), never a dict carrying control flags: the shards' remote methods
say so in their annotations, the edge's typed faces of them (which mypy checks the callers
against in `make lint`) match them, and the messages cross Ray's pickler as they are."""

import inspect
import types
import typing

import msgspec
import pytest
from bson import ObjectId
from bson.int64 import Int64
from ray import cloudpickle

from agora.actors import protocol
from agora.actors.client import SessionShardCalls
from agora.actors.protocol import (
    Connected,
    EdgePresence,
    Moved,
    Newest,
    NoSuchChat,
    Notify,
    Page,
    Refused,
    SendBatch,
    SendOutcomes,
    Stored,
    StoreMessage,
    SubscriptionsChanged,
    Unavailable,
    UserEvents,
    Viewing,
)
from agora.actors.sessions import SessionShard
from agora.actors.user_client import UserShardCalls
from agora.actors.users import UserShard
from agora.core.push import Notification
from agora.core.shard_map import ShardMap

# Plain values a call may carry besides the protocol's messages: ids, counts, the shard map
# the edge placed the call by, and a shard's yes or no.
PLAIN = (str, int, bool, type(None), ShardMap)
SHARDS = [
    (SessionShard.__ray_actor_class__, SessionShardCalls),
    (UserShard.__ray_actor_class__, UserShardCalls),
]


def _remote_methods(actor: type) -> dict[str, typing.Callable]:
    return {
        name: member
        for name, member in vars(actor).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


def _signature(method: typing.Callable) -> inspect.Signature:
    """As written: without the keyword Ray's tracing adds to an actor's methods."""
    signature = inspect.signature(method)
    kept = [p for name, p in signature.parameters.items() if name != "_ray_trace_ctx"]
    return signature.replace(parameters=kept)


def _untyped(annotation: typing.Any) -> list[str]:
    """The parts of an annotation that are neither plain values nor the protocol's messages."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, list, tuple):
        return [part for arg in typing.get_args(annotation) for part in _untyped(arg)]
    if isinstance(annotation, type) and (
        annotation in PLAIN
        or (issubclass(annotation, msgspec.Struct) and annotation.__module__ == protocol.__name__)
    ):
        return []
    return [repr(annotation)]


@pytest.mark.parametrize(("actor", "calls"), SHARDS)
def test_a_shards_remote_methods_take_and_answer_only_typed_messages(actor, calls):
    for name, method in _remote_methods(actor).items():
        hints = typing.get_type_hints(method)
        parameters = [p for p in _signature(method).parameters if p != "self"]
        assert set(parameters) | {"return"} <= set(hints), f"{name} is not annotated in full"
        untyped = [part for hint in hints.values() for part in _untyped(hint)]
        assert not untyped, f"{actor.__name__}.{name} carries {untyped}"


@pytest.mark.parametrize(("actor", "calls"), SHARDS)
def test_the_edges_typed_face_of_a_shard_is_the_shards_own(actor, calls):
    remote = _remote_methods(actor)
    faces = _remote_methods(calls)
    assert faces, calls
    for name, face in faces.items():
        assert name in remote, f"{actor.__name__} has no {name}"
        assert _signature(face) == _signature(remote[name]), name
        assert typing.get_type_hints(face) == typing.get_type_hints(remote[name]), name


def test_the_untyped_is_told_apart():
    assert _untyped(SendBatch) == _untyped(list[str] | None) == []
    assert _untyped(list[dict[str, typing.Any]]) == ["dict[str, typing.Any]"]
    assert _untyped(typing.Any) == ["typing.Any"]


def _crossed(message):
    return cloudpickle.loads(cloudpickle.dumps(message))


def test_commands_and_outcomes_cross_rays_pickler_as_they_are():
    send = StoreMessage("s1", "u1", "l1", 1003, "hi", [{"url": "/uploads/a.jpg"}], None, {})
    assert _crossed(SendBatch([send])) == SendBatch([send])
    view = {"id": "m1", "payload": "hi", "data": {"location": {"latitude": -1.28}}}
    outcomes = SendOutcomes(
        [Stored(view, True), Moved(), NoSuchChat(), Unavailable(), Refused({"payload": "x"})]
    )
    assert _crossed(outcomes) == outcomes
    notification = Notification("s1", "A chat", "Ann", "hi", created_at=5)
    events = UserEvents(
        [
            EdgePresence("e1", [("sid", "u1", None)]),
            Connected("e1", "sid", "u1"),
            Viewing("e1", "sid", "u1", "s1"),
            SubscriptionsChanged("u1"),
            Notify(["u1"], "m1", True, notification),
        ]
    )
    assert _crossed(events) == events


def test_a_stored_documents_own_types_cross_too():
    """The store's 64-bit integers read back as the integers they are, and any other type
    MessagePack has none for crosses pickled."""
    object_id = ObjectId()
    crossed = _crossed(Page([{"seq": Int64(7), "ref": object_id}]))
    assert crossed.messages == [{"seq": 7, "ref": object_id}]
    assert _crossed(Newest({"s1": {"seq": Int64(1)}})) == Newest({"s1": {"seq": 1}})
