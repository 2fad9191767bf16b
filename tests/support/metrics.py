"""Reading a service's /metrics: every sample by name and labels."""

from __future__ import annotations

import requests
from prometheus_client.parser import text_string_to_metric_families


def scrape(
    url: str, headers: dict[str, str] | None = None
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of `url`/metrics by (name, sorted labels)."""
    resp = requests.get(f"{url}/metrics", headers=headers, timeout=10)
    assert resp.status_code == 200, resp.text
    assert resp.headers["Content-Type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(resp.text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def open_streams(url: str) -> float:
    """The event streams the service at `url` counts as open."""
    return value(scrape(url), "patchwork_open_event_streams")
