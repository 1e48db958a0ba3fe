"""`rlark-bot check`: run every scheduled check once and print the alerts."""

from __future__ import annotations

import argparse

from bot.commands.common import Runtime, interactive, parse_now
from bot.errors import EXIT_OK


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help="run every scheduled check once")
    p.add_argument("--snapshot", metavar="DIR", help="evidence bundle to check")
    p.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig for live mode")
    p.add_argument("--context", metavar="CTX", help="kubeconfig context of the cluster to check")
    p.add_argument("--now", metavar="RFC3339")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run, bounded=True)  # bounded work: see bot.launch


def run(args: argparse.Namespace, rt: Runtime) -> int:
    now = parse_now(args.now)
    checked = rt.service.check(source=rt.source(args), now=now, progress=rt.progress(enabled=interactive(args)))
    rt.out(rt.service.render_checks(checked, fmt=args.format))
    return EXIT_OK
