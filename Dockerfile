# Patchwork game-state service. Needs a Redis: set REDIS_URL (and REDIS_CLUSTER=1 for a cluster).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /app

# Dependencies first, in their own layer: they change far less often than the code.
COPY pyproject.toml README.md ./
RUN mkdir -p service \
    && touch service/__init__.py \
    && pip install . \
    && pip uninstall --yes patchwork-service

COPY openapi.yaml ./
COPY service ./service
RUN rm -f service/openapi.yaml \
    && cp openapi.yaml service/openapi.yaml \
    && pip install --no-deps . \
    && useradd --system --uid 10001 --no-create-home patchwork

USER 10001
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

CMD ["gunicorn", "--config", "python:service.gunicorn_conf", "service.wsgi:app"]
