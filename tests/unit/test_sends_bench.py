"""The `sends` bench's pure parts: who holds a socket in each case, which of `agora run`'s
children are the edge and the Ray head, and the stored messages and batches Ray's metrics count."""

from collections import Counter

import pytest

from loadtest.chat_seed import Person
from loadtest.sends import AWAY, CASES, ONLINE, ItemChat, stored_in_metrics, summed_in_metrics
from loadtest.stack import supervised_pids


def chats(count: int) -> list[ItemChat]:
    return [
        ItemChat(
            Person(f"owner{n}", f"owner-key{n}"), Person(f"asker{n}", f"asker-key{n}"), f"r{n}"
        )
        for n in range(count)
    ]


def test_away_askers_hold_no_socket_and_the_owners_send():
    made = chats(3)
    members = AWAY.members(made)
    assert [m.auth_key for m in members] == ["owner-key0", "owner-key1", "owner-key2"]
    assert all(m.joins == (m.sends_to,) for m in members)
    assert [m.sends_to for m in members] == ["r0", "r1", "r2"]


def test_online_both_members_of_each_chat_hold_a_socket_in_it_and_send():
    members = ONLINE.members(chats(2))
    assert [(m.auth_key, m.sends_to) for m in members] == [
        ("owner-key0", "r0"),
        ("asker-key0", "r0"),
        ("owner-key1", "r1"),
        ("asker-key1", "r1"),
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_deliveries_expected_per_message_are_the_sockets_joined_to_its_chat(case):
    joined = Counter(chat for m in case.members(chats(4)) for chat in m.joins)
    assert set(joined.values()) == {case.listeners}


def test_the_edge_and_the_ray_head_are_told_apart_among_the_supervisors_children():
    children = [
        (11, "/venv/bin/python /venv/bin/ray start --head --block --port=20001"),
        (12, "/venv/bin/python -m agora serve"),
    ]
    assert supervised_pids(children) == (12, 11)


@pytest.mark.parametrize(
    "children",
    [
        [(12, "/venv/bin/python -m agora serve")],
        [
            (11, "/venv/bin/ray start --head"),
            (12, "python -m agora serve"),
            (13, "python -m agora serve"),
        ],
    ],
    ids=["no Ray head", "two edges"],
)
def test_a_supervisor_not_running_one_edge_and_one_head_is_refused(children):
    with pytest.raises(RuntimeError):
        supervised_pids(children)


def test_stored_messages_and_batches_are_summed_over_the_workers_samples_of_ray_metrics():
    text = "\n".join(
        [
            "# HELP ray_agora_messages_total Messages a session shard answered",
            "# TYPE ray_agora_messages_total counter",
            'ray_agora_messages_total{Component="core_worker",WorkerId="a",outcome="stored"} 941.0',
            'ray_agora_messages_total{Component="core_worker",WorkerId="b",outcome="stored"} 739.0',
            'ray_agora_messages_total{Component="core_worker",WorkerId="a",outcome="resent"} 5.0',
            'ray_agora_send_batch_size_count{Component="core_worker",outcome="stored"} 80.0',
        ]
    )
    assert stored_in_metrics(text) == 1680
    assert stored_in_metrics("") == 0
    # The batches edges handed the shards (the cluster bench's messages per batch).
    assert summed_in_metrics(text, "ray_agora_send_batch_size_count") == 80
