"""Settings a start refuses before anything is started, with what to change."""

import pytest
from pydantic import ValidationError

from agora.settings import Settings


def test_a_port_for_the_ray_head_among_rays_worker_ports_is_refused_naming_it():
    with pytest.raises(ValidationError) as refused:
        Settings(ray_client_port=10093, ray_metrics_port=19999)
    message = str(refused.value)
    assert "AGORA_RAY_CLIENT_PORT=10093" in message
    assert "AGORA_RAY_METRICS_PORT=19999" in message
    assert "10002-19999" in message


def test_the_defaults_and_the_ports_next_to_rays_worker_ports_are_taken():
    assert Settings().ray_client_port == 10001
    assert Settings(ray_port=20000, ray_client_port=10001).ray_port == 20000


def test_a_cluster_started_elsewhere_leaves_the_head_ports_unchecked():
    assert Settings(ray_address="10.0.0.5:6379", ray_client_port=10093).ray_client_port == 10093
