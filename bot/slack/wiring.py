"""Everything `serve` needs, put together: client, sink, deps, bolt app, HTTP server, Socket Mode, scheduler."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot.errors import SourceError
from bot.obs.metrics import Metrics
from bot.redact import Redactor
from bot.service import Service
from bot.settings import Settings
from bot.slack.alert_ops import StoreAlertOps
from bot.slack.app import create_app
from bot.slack.client import make_client
from bot.slack.deps import AdminCache, Deps
from bot.slack.engine import Engine, LocalEngine
from bot.slack.http import HttpServer, wsgi_app
from bot.slack.runtime import BotProcess
from bot.slack.sink import SlackSink
from bot.slack.socket import SocketMode
from bot.sources import EvidenceSource
from bot.store.base import Store


def build(*, settings: Settings, redactor: Redactor, service: Service, source: EvidenceSource, store: Store,
          metrics: Metrics, pool: ThreadPoolExecutor, socket_mode: bool, host: str, port: int,
          grace: float = 25.0, engine: Engine | None = None) -> BotProcess:
    """`engine`: where diagnoses run (`serve` gives worker processes); by default in the pool's threads."""
    client = make_client(settings, on_call=lambda method, status: metrics.count_slack_call(method=method,
                                                                                           status=status))
    sink = SlackSink(client)
    deps = Deps(settings=settings, redactor=redactor, service=service, source=source, store=store, sink=sink,
                metrics=metrics, pool=pool, admins=AdminCache(sink.usergroup_members),
                engine=engine or LocalEngine(service=service, source=source, redactor=redactor))
    app = create_app(deps, client=client, socket_mode=socket_mode)
    listen = "0.0.0.0" if socket_mode and host == settings.host else host
    try:
        server = HttpServer(wsgi_app(app=None if socket_mode else app, readiness=deps.readiness, metrics=metrics),
                            host=listen, port=port)
    except OSError as exc:
        raise SourceError(f"cannot listen on {listen}:{port}: {exc.strerror or exc}") from exc
    socket = None
    if socket_mode:
        assert settings.slack_app_token is not None
        socket = SocketMode(app, app_token=settings.slack_app_token.get_secret_value(), client=client)
    deps.alerts = StoreAlertOps(deps.store, deps.settings)
    return BotProcess(deps=deps, server=server, socket=socket, grace_seconds=grace)
