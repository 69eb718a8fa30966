"""Which Ray node a shard starts on: the nodes take the shards in turn, by the shard's index.

Ray's `SPREAD` left every shard of a fresh `make cluster` on one node (issue 41): it is Ray's
best effort, each raylet keeping its own turn. So each shard names the node it should start on
(soft node affinity): the `slot`-th of the nodes that can host a shard, the head first, the
others by id, so that every edge names the same. Soft, because a shard whose node died must
start again elsewhere at once: Ray then places it by its default strategy on a node that
lives. Ray does not move a running actor, so a node that joins later gets only the shards
created or restarted after it joined.

Each shard asks for a thousandth of a CPU. Ray placed an actor that asks for nothing on
whichever node its lease request reached, whatever node it named (5 of 8 where asked, 8 of 8
with a CPU share, docs/decisions.md "Shards placed by node"); a thousandth leaves room for
thousands of shards on a node, and a node with no CPU (a head started with `--num-cpus=0`)
takes none.
"""

from typing import Any

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

SHARD_CPUS = 0.001
# A resource only the head node has (Ray's own name).
HEAD_NODE_RESOURCE = "node:__internal_head__"


def shard_nodes(nodes: list[dict[str, Any]]) -> list[str]:
    """The ids of the nodes (as `ray.nodes()` lists them) that can host a shard, in the order
    they take shards: the head first (its loss ends the cluster anyway, so a shard there adds
    no loss of its own), then the others by id."""
    able = [n for n in nodes if n["Alive"] and n["Resources"].get("CPU", 0) >= SHARD_CPUS]
    able.sort(key=lambda n: (HEAD_NODE_RESOURCE not in n["Resources"], n["NodeID"]))
    return [n["NodeID"] for n in able]


def node_for(slot: int) -> NodeAffinitySchedulingStrategy | str:
    """The scheduling strategy of a shard in the slot-th place. Asks Ray's GCS (blocking)."""
    nodes = shard_nodes(ray.nodes())
    if not nodes:
        return "DEFAULT"
    return NodeAffinitySchedulingStrategy(nodes[slot % len(nodes)], soft=True)
