"""The second cluster docs/operations.md has people start beside the first: a command `make
cluster` accepts (it suggested a Ray client port among Ray's worker ports, which it refuses:
issue 41, item 12), on ports of its own."""

import os
import re

import pytest

from agora.launch.cluster import edge_places, worker_node_ports
from agora.settings import RAY_WORKER_PORTS, REPO_ROOT, Settings

OPERATIONS = REPO_ROOT / "docs" / "operations.md"


def second_cluster() -> dict[str, str]:
    """The settings of the documented command (its shell block ending in `make cluster`)."""
    command = re.search(r"```sh\n(.*?make cluster)\n```", OPERATIONS.read_text(), re.DOTALL)
    assert command, "docs/operations.md shows no `make cluster` command"
    return dict(re.findall(r"\b(AGORA_\w+)=(\S+)", command.group(1)))


def listening_ports(settings: Settings) -> set[int]:
    """The ports a `make cluster` with these settings serves on (Ray picks the rest)."""
    head = (
        settings.ray_port,
        settings.ray_dashboard_port,
        settings.ray_metrics_port,
        settings.ray_client_port,
        settings.ray_dashboard_agent_port,
    )
    workers = range(1, settings.cluster_ray_worker_nodes + 1)
    return {
        settings.port,
        settings.cluster_stats_port,
        *head,
        *(place.port for place in edge_places(settings)),
        *(port for n in workers for port in worker_node_ports(settings, n)),
    }


def test_the_documented_second_cluster_starts_beside_the_first(monkeypatch: pytest.MonkeyPatch):
    for name in os.environ:
        if name.startswith("AGORA_"):
            monkeypatch.delenv(name)
    first = Settings()
    for name, value in second_cluster().items():
        monkeypatch.setenv(name, value)
    second = Settings()  # refuses a head port among Ray's worker ports, as `make cluster` does

    assert not listening_ports(second) & listening_ports(first)
    assert not [port for port in listening_ports(second) if port in RAY_WORKER_PORTS]
    assert second.public_base_url.endswith(f":{second.port}")
    assert second.mongo_db != first.mongo_db
    assert second.redis_prefix != first.redis_prefix
    assert second.var_dir != first.var_dir
