# Patchwork game-state service: patchwork-service runs the web (gunicorn), BOT_WORKERS bot workers,
# TIMEKEEPERS timekeepers and, with no REDIS_URL, a private Redis with its data in /data (mount a
# volume there to keep it).
# Production: set REDIS_URL (and REDIS_CLUSTER=1 for a cluster).
# A full version tag, so a rebuild gets the same Python. To pin the exact image as well,
# append its digest: `docker buildx imagetools inspect python:3.11.14-slim-bookworm`
# prints it; then FROM python:3.11.14-slim-bookworm@sha256:<digest>.
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    PATCHWORK_DATA_DIR=/data

WORKDIR /app

# Dependencies first, in their own layer, exactly as locked (versions and hashes):
# they change far less often than the code. `./dev lock` rewrites the lock.
# The lock is complete, so pip resolves nothing (--no-deps) and `pip check`
# confirms it.
COPY requirements/runtime.txt ./requirements/
RUN pip install --require-hashes --no-deps -r requirements/runtime.txt && pip check

# setup.py copies the contract, openapi.yaml, into the package as it builds it.
COPY pyproject.toml setup.py MANIFEST.in README.md openapi.yaml ./
COPY service ./service
# The lock already holds every dependency and the build backend: nothing else is fetched.
RUN pip install --no-deps --no-build-isolation . \
    && useradd --system --uid 10001 --no-create-home patchwork \
    && mkdir /data \
    && chown 10001 /data

USER 10001
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# The parent of the web, the bot workers and the timekeepers (and the embedded Redis), which it
# restarts when they die.
CMD ["patchwork-service"]
