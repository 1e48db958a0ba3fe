"""`rlark-bot serve`: the Slack bot. The composition root: Settings -> Redactor -> Store -> service -> app -> run."""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from bot.commands.common import Runtime, add_source_args
from bot.errors import SourceError, UsageError
from bot.settings import Settings

if TYPE_CHECKING:  # serve's own modules are imported when it runs: other commands do not pay for them
    from bot.obs.metrics import Metrics
    from bot.slack.runtime import BotProcess
    from bot.slack.workers import WorkerEngine
    from bot.store.base import Store

DIAGNOSIS_WORKERS = 4
SLACK_SECRET_VARIABLES = ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the Slack bot (Socket Mode, or HTTP with --http)")
    p.add_argument("--http", action="store_true", help="receive Slack's requests at POST /slack/events")
    p.add_argument("--port", type=_port, default=None, help="listen port (default $PORT, else 3000)")
    p.add_argument("--host", default=None, help="listen address in HTTP mode (default $HOST, else 0.0.0.0)")
    add_source_args(p)
    p.add_argument("--grace", type=_grace, default=25.0, help="seconds in-flight diagnoses get on SIGTERM")
    p.set_defaults(run=run)


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port (1-65535)")
    return int(text)


def _grace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds (0-3600)")
    return value


def _mode(args: argparse.Namespace, settings: Settings) -> bool:
    """True for Socket Mode. Checks that the tokens the chosen mode needs are set (one line if not)."""
    if settings.slack_bot_token is None:
        raise UsageError("serve needs SLACK_BOT_TOKEN (the bot token, xoxb-...)")
    socket_mode = settings.slack_app_token is not None and not args.http
    if not socket_mode and settings.slack_signing_secret is None:
        raise UsageError("serve --http needs SLACK_SIGNING_SECRET (or set SLACK_APP_TOKEN for Socket Mode)")
    if not socket_mode and not args.http:
        raise UsageError("serve needs SLACK_APP_TOKEN for Socket Mode, or --http with SLACK_SIGNING_SECRET")
    return socket_mode


def forget_secret_variables() -> None:
    """The Slack secrets were read into Settings once; the process environment stops holding them. Nothing
    picks them up on its own from there: not slack-bolt (which would take SLACK_BOT_TOKEN next to the client
    and `authorize` the app is given, and warn that it goes unused), not the diagnosis worker processes."""
    for name in SLACK_SECRET_VARIABLES:
        os.environ.pop(name, None)


def open_bot_store(settings: Settings, metrics: Metrics) -> Store:
    from bot.store.base import StoreUnavailable
    from bot.store.factory import open_store

    try:
        return open_store(url=settings.redis_url, data_dir=settings.data_dir,
                          on_error=lambda op: metrics.count_store_error(op))
    except ValueError as exc:
        raise UsageError(f"bad setting REDIS_URL: {exc}") from exc
    except StoreUnavailable as exc:
        raise SourceError(f"cannot start the embedded store in {settings.data_dir}: {exc}") from exc


def run(args: argparse.Namespace, rt: Runtime) -> int:
    from bot.obs.logs import configure_logging
    from bot.obs.metrics import Metrics
    from bot.slack.wiring import build

    settings = rt.settings
    socket_mode = _mode(args, settings)
    forget_secret_variables()
    metrics = Metrics()
    configure_logging(redactor=rt.redactor, on_redacted=metrics.count_redactions)
    store = open_bot_store(settings, metrics)
    pool = ThreadPoolExecutor(max_workers=DIAGNOSIS_WORKERS, thread_name_prefix="diagnose")
    source = rt.source(args, observe=lambda verb, resource, status: metrics.count_kube_request(
        verb=verb, resource=resource, status=status))
    if args.snapshot is not None and (problem := source.check()) is not None:
        raise UsageError(f"--snapshot: {problem}")  # a bundle that is not there will not appear (clusters may)
    engine = start_workers(args, settings=settings, metrics=metrics)
    bot = build(settings=settings, redactor=rt.redactor, service=rt.service, source=source, store=store,
                metrics=metrics, pool=pool, socket_mode=socket_mode, engine=engine,
                host=args.host or settings.host, port=args.port or settings.port, grace=args.grace)
    engine.on_change = lambda problem: bot.deps.readiness.mark("workers", problem)
    start_alerts(bot)
    bot.install_signals()
    return bot.run()


def start_workers(args: argparse.Namespace, *, settings: Settings, metrics: Metrics) -> WorkerEngine:
    """The diagnosis worker processes (started in the background; the first diagnosis waits for one)."""
    from bot.slack.worker import WorkerSpec
    from bot.slack.workers import WorkerEngine

    spec = WorkerSpec(settings=settings, snapshot=args.snapshot, kubeconfig=getattr(args, "kubeconfig", None),
                      context=getattr(args, "context", None))
    return WorkerEngine(spec, workers=DIAGNOSIS_WORKERS, on_kube=lambda verb, resource, status:
                        metrics.count_kube_request(verb=verb, resource=resource, status=status))


def start_alerts(bot: BotProcess) -> None:
    """The scheduled checks and their alert threads: started now, stopped first on SIGTERM (locks released)."""
    from bot.scheduler.wiring import build as build_scheduler
    from bot.scheduler.wiring import ticked_by
    from bot.slack.alert_sink import SlackAlertSink

    deps = bot.deps
    sink = SlackAlertSink(deps.sink, deps.redactor, on_delivered=deps.metrics.alert_transition)
    scheduler = build_scheduler(settings=deps.settings, store=deps.store, sink=sink, source=deps.source,
                                runbook=deps.service.runbook, collect=ticked_by(deps.engine.tick),
                                on_lag=lambda group, seconds: deps.metrics.observe_scheduler_lag(seconds))
    scheduler.start()
    bot.on_stop.append(lambda: scheduler.shutdown(wait=True))
