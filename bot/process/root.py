"""The composition root of `serve`: the one place that builds every part and wires them together.

Settings -> Redactor -> Store -> Service -> worker pool -> chat sink -> deps -> bolt app (`register(app, deps)`)
-> HTTP server / Socket Mode -> scheduler. Everything below takes what it needs as arguments; nothing below
imports this module.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bot.conversations.alert_commands import StoreAlertOps
from bot.conversations.alert_delivery import SlackAlertSink
from bot.conversations.deps import AdminCache, Deps
from bot.conversations.from_alert import auto_diagnose, resume_auto_diagnoses
from bot.conversations.watching import WatchTicker
from bot.errors import SourceError, UsageError
from bot.obs.metrics import Metrics
from bot.process.lifecycle import BotProcess
from bot.redact import Redactor
from bot.scheduler.wiring import build as build_scheduler
from bot.scheduler.wiring import ticked_by
from bot.service import Service
from bot.settings import Settings
from bot.slack.app import SlackApp, create_app
from bot.slack.client import CountingWebClient, make_client
from bot.slack.http import HttpServer, wsgi_app
from bot.slack.sink import SlackSink
from bot.slack.socket import SocketMode
from bot.sources import EvidenceSource
from bot.store.base import Store, StoreUnavailable
from bot.store.factory import open_store
from bot.workers.api import Engine
from bot.workers.child import WorkerSpec
from bot.workers.local import LocalEngine
from bot.workers.pool import WorkerEngine
from handlers import register

DIAGNOSIS_WORKERS = 4
OnKube = Callable[[str, str, str], None]


def make_app(deps: Deps, *, client: CountingWebClient, socket_mode: bool) -> SlackApp:
    """The bolt app with every listener and middleware registered (bolt's shape: factory, then `register`)."""
    app = create_app(signing_secret=deps.settings.slack_signing_secret, identity=deps.identity, client=client,
                     socket_mode=socket_mode)
    register(app, deps)
    return app


def build(*, settings: Settings, redactor: Redactor, service: Service, source: EvidenceSource, store: Store,
          metrics: Metrics, pool: ThreadPoolExecutor, socket_mode: bool, host: str, port: int,
          grace: float = 25.0, engine: Engine | None = None, slack_timeout: float = 10.0) -> BotProcess:
    """`engine`: where diagnoses run (`serve` gives worker processes); by default in the pool's threads.
    `slack_timeout`: seconds a Slack Web API call may take before it counts as unanswered."""
    client = make_client(settings, on_call=lambda method, status: metrics.count_slack_call(method=method,
                                                                                           status=status),
                         timeout=slack_timeout)
    sink = SlackSink(client)
    deps = Deps(settings=settings, redactor=redactor, service=service, source=source, store=store, sink=sink,
                metrics=metrics, pool=pool, admins=AdminCache(sink.usergroup_members),
                engine=engine or LocalEngine(service=service, source=source, redactor=redactor))
    deps.alerts = StoreAlertOps(deps.store, deps.settings)
    app = make_app(deps, client=client, socket_mode=socket_mode)
    listen = "0.0.0.0" if socket_mode and host == settings.host else host
    try:
        server = HttpServer(wsgi_app(app=None if socket_mode else app, readiness=deps.readiness, metrics=metrics,
                                     signing_secret=settings.slack_signing_secret),
                            host=listen, port=port)
    except OSError as exc:
        raise SourceError(f"cannot listen on {listen}:{port}: {exc.strerror or exc}") from exc
    socket = None
    if socket_mode:
        assert settings.slack_app_token is not None
        socket = SocketMode(app, app_token=settings.slack_app_token.get_secret_value(), client=client)
    return BotProcess(deps=deps, server=server, socket=socket, grace_seconds=grace)


def open_bot_store(settings: Settings, metrics: Metrics) -> Store:
    try:
        return open_store(url=settings.redis_url, data_dir=settings.data_dir,
                          on_error=lambda op: metrics.count_store_error(op))
    except ValueError as exc:
        raise UsageError(f"bad setting REDIS_URL: {exc}") from exc
    except StoreUnavailable as exc:
        raise SourceError(f"cannot start the embedded store in {settings.data_dir}: {exc}") from exc


def start_workers(spec: WorkerSpec, *, metrics: Metrics) -> WorkerEngine:
    """The diagnosis worker processes (started in the background; the first diagnosis waits for one)."""
    return WorkerEngine(spec, workers=DIAGNOSIS_WORKERS, on_kube=lambda verb, resource, status:
                        metrics.count_kube_request(verb=verb, resource=resource, status=status))


def alert_sink(deps: Deps) -> SlackAlertSink:
    """Where the alert threads go: Slack through the chat sink, counted, and each new root handed to the
    automatic diagnosis (`RLARK_BOT_ALERTS__AUTO_DIAGNOSE`)."""
    return SlackAlertSink(deps.sink, deps.redactor, on_delivered=deps.metrics.alert_transition,
                          on_root=lambda channel, ts, metadata: auto_diagnose(deps, channel=channel, ts=ts,
                                                                               metadata=metadata))


def start_alerts(bot: BotProcess) -> None:
    """The scheduled checks and their alert threads: started now, stopped first on SIGTERM (locks released).
    Their reads run in the same worker pool as the diagnoses (`engine.tick`)."""
    deps = bot.deps
    sink = alert_sink(deps)
    scheduler = build_scheduler(settings=deps.settings, store=deps.store, sink=sink, source=deps.source,
                                runbook=deps.service.runbook, collect=ticked_by(deps.engine.tick),
                                on_lag=lambda group, seconds: deps.metrics.observe_scheduler_lag(seconds),
                                on_firing=deps.metrics.set_alerts_firing)
    watches = WatchTicker(deps)
    scheduler.every("watches", deps.settings.watch_interval_seconds, watches.run)
    if deps.settings.alerts.auto_diagnose:  # those a replica died running, taken up again
        scheduler.every("auto-diagnoses", deps.settings.checks.interval_seconds,
                        lambda now: resume_auto_diagnoses(deps, now))
    scheduler.start()
    bot.on_stop.append(lambda: scheduler.shutdown(wait=True))


def serve(*, settings: Settings, redactor: Redactor, service: Service, source: EvidenceSource, spec: WorkerSpec,
          socket_mode: bool, host: str, port: int, grace: float, metrics: Metrics) -> int:
    """Build everything, start the workers and the scheduled checks, serve until SIGTERM; the exit status."""
    store = open_bot_store(settings, metrics)
    pool = ThreadPoolExecutor(max_workers=DIAGNOSIS_WORKERS, thread_name_prefix="diagnose")
    engine = start_workers(spec, metrics=metrics)
    bot = build(settings=settings, redactor=redactor, service=service, source=source, store=store,
                metrics=metrics, pool=pool, socket_mode=socket_mode, engine=engine, host=host, port=port,
                grace=grace)
    engine.on_change = lambda problem: bot.deps.readiness.mark("workers", problem)
    start_alerts(bot)
    bot.install_signals()
    return bot.run()
