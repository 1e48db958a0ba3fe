"""`rlark-bot serve`: the Slack bot. Arguments and tokens are checked here; `bot.process.root` builds and runs it."""

from __future__ import annotations

import argparse
import os

from bot.commands.common import Runtime, add_source_args
from bot.errors import UsageError
from bot.settings import Settings

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


def run(args: argparse.Namespace, rt: Runtime) -> int:
    """Check the arguments and the tokens, then hand over to the composition root (`bot.process.root`)."""
    from bot.obs.logs import configure_logging
    from bot.obs.metrics import Metrics
    from bot.process.root import serve
    from bot.workers.child import WorkerSpec

    settings = rt.settings
    socket_mode = _mode(args, settings)
    forget_secret_variables()
    metrics = Metrics()
    configure_logging(redactor=rt.redactor, on_redacted=metrics.count_redactions)
    source = rt.source(args, observe=lambda verb, resource, status: metrics.count_kube_request(
        verb=verb, resource=resource, status=status))
    if args.snapshot is not None and (problem := source.check()) is not None:
        raise UsageError(f"--snapshot: {problem}")  # a bundle that is not there will not appear (clusters may)
    spec = WorkerSpec(settings=settings, snapshot=args.snapshot, kubeconfig=getattr(args, "kubeconfig", None),
                      context=getattr(args, "context", None))
    return serve(settings=settings, redactor=rt.redactor, service=rt.service, source=source, spec=spec,
                 socket_mode=socket_mode, host=args.host or settings.host, port=args.port or settings.port,
                 grace=args.grace, metrics=metrics)
