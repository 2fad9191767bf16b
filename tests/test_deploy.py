"""deploy/compose.yaml and deploy/nginx.conf agree with each other and with the README's advice.

Compose cannot run here; this checks what a typo would break: the services
there are, what they point at, the healthchecks, the proxy settings.
(tests/system/test_nginx.py runs nginx.conf itself in front of real instances.)
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_runs_redis_two_web_instances_a_worker_and_nginx():
    services = _compose()["services"]
    assert set(services) == {"redis", "web1", "web2", "worker", "nginx"}
    redis_command = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in redis_command and "--maxmemory-policy noeviction" in redis_command
    assert any(volume.endswith(":/data") for volume in services["redis"]["volumes"])
    for name in ("web1", "web2", "worker"):
        env = services[name]["environment"]
        assert env["REDIS_URL"].startswith("redis://redis:"), name
        assert env["TRUSTED_PROXIES"] == "1", name
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["worker"]["command"] == ["patchwork-worker"]
    for name in ("redis", "web1", "web2", "nginx"):
        assert services[name]["healthcheck"]["test"], name
    assert "/readyz" in " ".join(services["web1"]["healthcheck"]["test"])
    nginx = services["nginx"]
    assert {"web1", "web2"} <= set(nginx["depends_on"])
    mounts = dict(volume.split(":")[:2] for volume in nginx["volumes"])
    assert mounts["./nginx.conf"] == "/etc/nginx/nginx.conf"


def test_nginx_conf_proxies_to_the_compose_instances_as_the_readme_says():
    conf = (DEPLOY / "nginx.conf").read_text()
    services = _compose()["services"]
    upstreams = re.findall(r"^\s*server (\S+):(\d+)\b", conf, re.MULTILINE)
    assert upstreams == [(name, services[name]["environment"]["PORT"]) for name in ("web1", "web2")]
    assert re.search(r"^\s*gzip off;", conf, re.MULTILINE)
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in conf
    keepalive_timeout = int(re.search(r"keepalive_timeout (\d+)s;", conf).group(1))
    assert keepalive_timeout < 5  # below the service's KEEPALIVE_SECONDS
    events = conf[conf.index("location ~ ^/games/[^/]+/events$") :]
    events = events[: events.index("}")]
    assert "proxy_buffering off;" in events
    assert "proxy_read_timeout 1h;" in events
    metrics = conf[conf.index("location = /metrics") :]
    assert "proxy_pass" not in metrics[: metrics.index("}")]
