"""Joining a Ray cluster, or starting a local one with its dashboard (the embedded default)."""

import logging

import ray

from agora.settings import Settings

log = logging.getLogger("agora.ray")


def start_ray(settings: Settings) -> None:
    if ray.is_initialized():
        return
    if settings.ray_address:
        ray.init(address=settings.ray_address, log_to_driver=False)
        log.info("joined the Ray cluster at %s", settings.ray_address)
        return
    ray.init(
        # "local": a cluster of this edge's own, never one another program started here.
        address="local",
        include_dashboard=settings.ray_dashboard,
        dashboard_host="127.0.0.1",
        dashboard_port=settings.ray_dashboard_port,
        # Without the dashboard (tests, benches) Ray picks the port: several may run at once.
        _metrics_export_port=settings.ray_metrics_port if settings.ray_dashboard else None,
        log_to_driver=False,
        configure_logging=False,
    )
    if settings.ray_dashboard:
        log.info(
            "local Ray started; dashboard at http://127.0.0.1:%d, metrics at "
            "http://127.0.0.1:%d/metrics",
            settings.ray_dashboard_port,
            settings.ray_metrics_port,
        )


def stop_ray() -> None:
    if ray.is_initialized():
        ray.shutdown()
