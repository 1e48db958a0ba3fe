"""`rlark-bot diagnose TARGET`: walk Job -> Task -> Pod -> dependencies and say what is wrong."""

from __future__ import annotations

import argparse
import sys

from bot.commands.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    add_source_args,
    load_settings,
    load_snapshot,
    parse_now,
    resolve_now,
    write_out,
)
from bot.diagnose import diagnose
from bot.models import Evidence, Target
from bot.render import FORMATS, render_diagnosis
from bot.runbook import RunbookError, load_runbook
from bot.settings import Settings
from bot.signals.names import SIGNALS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("diagnose", help="diagnose a RLark job, a pod or an EphemeralRunner")
    p.add_argument("target", metavar="TARGET", help="JOB, job/NAME, pod/NAME or runner/NAME")
    add_source_args(p)
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--lang", choices=("zh", "en"), default="en")
    p.add_argument("--now", metavar="RFC3339", help="evaluate ages against this time (default: capturedAt)")
    p.set_defaults(run=run)


def parse_target(text: str, namespace: str) -> Target:
    try:
        return Target.parse(text, namespace)
    except ValueError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc


def gather(args: argparse.Namespace, target: Target, settings: Settings) -> Evidence:
    if args.snapshot:
        return load_snapshot(args.snapshot)
    from bot.cluster.errors import CollectionError, TargetNotFound
    from bot.commands.live import collect_live  # the Kubernetes client loads only in live mode

    progress = sys.stderr.isatty() and getattr(args, "format", "text") != "json"
    try:
        return collect_live(target, kubeconfig=args.kubeconfig, context=args.context,
                            namespace=args.namespace or None, settings=settings, progress=progress)
    except TargetNotFound as exc:
        raise CommandError(f"{target} not found: looked in {exc.where}", EXIT_NOT_FOUND) from exc
    except CollectionError as exc:
        raise CommandError(str(exc)) from exc


def run(args: argparse.Namespace) -> int:
    target = parse_target(args.target, args.namespace)
    now = parse_now(args.now)
    settings = load_settings()
    try:
        runbook = load_runbook(known_signals=SIGNALS)
    except RunbookError as exc:
        raise CommandError(f"runbook: {exc}") from exc
    evidence = gather(args, target, settings)
    diag = diagnose(evidence, runbook, resolve_now(now, evidence), target=target, thresholds=settings.thresholds)
    if not diag.found:
        raise CommandError(f"{target} not found: {diag.where}", EXIT_NOT_FOUND)
    write_out(render_diagnosis(diag, args.format, args.lang))
    return EXIT_OK
