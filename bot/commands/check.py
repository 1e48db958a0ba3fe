"""`rlark-bot check`: run every scheduled check once and print the alerts."""

from __future__ import annotations

import argparse
import sys

from bot.checks import run_checks
from bot.commands.common import (
    EXIT_OK,
    CommandError,
    load_settings,
    load_snapshot,
    parse_now,
    resolve_now,
    write_out,
)
from bot.render import render_checks


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help="run every scheduled check once")
    p.add_argument("--snapshot", metavar="DIR", help="evidence bundle to check")
    p.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig for live mode")
    p.add_argument("--context", metavar="CTX", help="kubeconfig context of the cluster to check")
    p.add_argument("--now", metavar="RFC3339")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    now = parse_now(args.now)
    settings = load_settings()
    if args.snapshot:
        evidence = load_snapshot(args.snapshot)
    else:
        from bot.cluster.errors import CollectionError
        from bot.commands.live import collect_all  # the Kubernetes client loads only in live mode

        try:
            evidence = collect_all(kubeconfig=args.kubeconfig, context=args.context, settings=settings,
                                   progress=sys.stderr.isatty() and args.format != "json")
        except CollectionError as exc:
            raise CommandError(str(exc)) from exc
    alerts = run_checks(evidence, resolve_now(now, evidence), settings.thresholds)
    write_out(render_checks(alerts, args.format))
    return EXIT_OK
