"""The order in which Ray nodes take shards (`actors/placement.py`): the head first, the
others by id, and only nodes that live and have a CPU to share."""

from agora.actors.placement import HEAD_NODE_RESOURCE, shard_nodes


def node(node_id: str, *, alive: bool = True, cpus: float = 2, head: bool = False) -> dict:
    resources = {"CPU": cpus, f"node:{node_id}": 1.0} if cpus else {f"node:{node_id}": 1.0}
    if head:
        resources[HEAD_NODE_RESOURCE] = 1.0
    return {"NodeID": node_id, "Alive": alive, "Resources": resources}


def test_the_head_first_then_the_others_by_id():
    nodes = [node("c1"), node("f0", head=True), node("a9")]
    assert shard_nodes(nodes) == ["f0", "a9", "c1"]


def test_dead_nodes_and_nodes_without_a_cpu_take_no_shard():
    nodes = [node("b2", alive=False), node("f0", head=True, cpus=0), node("a9"), node("c1")]
    assert shard_nodes(nodes) == ["a9", "c1"]
