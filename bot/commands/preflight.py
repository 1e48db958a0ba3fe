"""`rlark-bot preflight FILE|job/NAME`: check a Job before it is submitted (CONTRACT §8)."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import TYPE_CHECKING

from bot.commands.common import Runtime, parse_now
from bot.errors import EXIT_OK, SourceError, UsageError
from bot.models.evidence import JOB_NAME, echo

if TYPE_CHECKING:
    from bot.preflight.inventory import Inventory

EXIT_NOT_READY = 4


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("preflight", help="check a Job YAML (or a live Job) before submitting it",
                       description="Check an RLark Job against the organisation's rules and, unless --offline, the "
                                   "inventory (RLark Nodes, heartbeats, Jobs, Domains, StorageClasses). Exit 0 "
                                   "ready, 4 not ready, 2 bad input, 3 job/NAME not found.")
    p.add_argument("target", metavar="FILE|job/NAME", help="a Job YAML file, - for stdin, or job/NAME")
    p.add_argument("--snapshot", metavar="DIR", help="read the inventory from an evidence bundle")
    p.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig for live mode")
    p.add_argument("--context", metavar="CTX", help="kubeconfig context of the RLark control plane")
    p.add_argument("--offline", action="store_true", help="offline rules only; live rules are listed as not checked")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--lang", choices=("zh", "en"), default="en")
    p.add_argument("--now", metavar="RFC3339", help="the time heartbeats are judged at (default: the bundle's "
                                                     "capturedAt, else now)")
    p.set_defaults(run=run, bounded=True)


def run(args: argparse.Namespace, rt: Runtime) -> int:
    # Imported here, as every command's own machinery: start-up loads only the command that runs.
    from bot.preflight.document import parse, read_input
    from bot.preflight.render import render
    from bot.preflight.run import preflight
    from bot.preflight.source import live_job

    now = parse_now(args.now)
    target: str = args.target
    resubmit = target.startswith("job/")
    inventory: Inventory | None = None
    why = "--offline：未读取清单" if args.lang == "zh" else "--offline: the inventory was not read"
    if resubmit:
        name = target[len("job/"):]
        if not JOB_NAME.fullmatch(name):
            raise UsageError(f"invalid job name {echo(name)}: 1-63 lowercase letters, digits or hyphens")
        inventory = _inventory(args, rt, now=now)
        doc = live_job(name, inventory, where=args.snapshot or "the control plane")
    else:
        text, origin = read_input(target)
        doc = parse(text, origin)
        if not args.offline:
            try:
                inventory = _inventory(args, rt, now=now)
            except SourceError as exc:
                if args.snapshot is not None:
                    raise
                why = f"未读取清单：{exc}" if args.lang == "zh" else f"inventory not read: {exc}"
    report = preflight(doc, inventory=None if args.offline else inventory, thresholds=rt.settings.thresholds,
                       scan=rt.redactor.scan, lang=args.lang, resubmit=resubmit, offline_why=why)
    rt.out(render(report, fmt=args.format, redactor=rt.redactor))
    return EXIT_OK if report.ready else EXIT_NOT_READY


def _inventory(args: argparse.Namespace, rt: Runtime, *, now: datetime | None) -> Inventory:
    from bot.preflight.source import open_inventory

    return open_inventory(snapshot=args.snapshot, kubeconfig=args.kubeconfig, context=args.context,
                          settings=rt.settings, now=now)
