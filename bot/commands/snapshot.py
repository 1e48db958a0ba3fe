"""`rlark-bot snapshot TARGET --output DIR`: write a redacted evidence bundle, from live clusters or another bundle.

`--snapshot SRC` re-writes an existing dump through the redactor (to sanitize it before attaching it to a
ticket). Either way, diagnosing the written bundle gives the same findings as diagnosing the source.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.bundle import BundleError
from bot.bundle.writer import Scope, listed_in_bundle, write_bundle
from bot.commands.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    add_source_args,
    load_settings,
    load_snapshot,
    say,
)
from bot.models import Evidence, Target


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("snapshot", help="write a redacted evidence bundle for a target")
    p.add_argument("target", metavar="TARGET", help="JOB, job/NAME, pod/NAME or runner/NAME")
    p.add_argument("--output", "-o", metavar="DIR", required=True, help="directory to create (must not exist)")
    add_source_args(p)
    p.set_defaults(run=run)


def _from_bundle(src: str, target: Target) -> tuple[Evidence, set[Scope]]:
    evidence = load_snapshot(src)
    present = {
        "Job": [j.name for j in evidence.jobs],
        "Pod": [p.name for p in evidence.pods if not target.namespace or p.namespace == target.namespace],
        "EphemeralRunner": [r.name for r in evidence.ephemeral_runners
                            if not target.namespace or r.namespace == target.namespace],
    }[target.kind.value]
    if target.name not in present:
        raise CommandError(f"{target} not found in snapshot {src}", EXIT_NOT_FOUND)
    return evidence, listed_in_bundle(Path(src))


def _from_live(args: argparse.Namespace, target: Target) -> tuple[Evidence, set[Scope]]:
    from bot.cluster.collector import collect  # the Kubernetes client loads only in live mode
    from bot.cluster.errors import CollectionError, TargetNotFound
    from bot.cluster.progress import for_terminal

    try:
        collected = collect(target, kubeconfig=args.kubeconfig, context=args.context,
                            namespace=args.namespace or None, settings=load_settings(),
                            progress=for_terminal(enabled=True))
    except TargetNotFound as exc:
        raise CommandError(f"{target} not found in {exc.where}", EXIT_NOT_FOUND) from exc
    except CollectionError as exc:
        raise CommandError(str(exc)) from exc
    return collected.to_evidence(), collected.listed


def run(args: argparse.Namespace) -> int:
    try:
        target = Target.parse(args.target, args.namespace)
    except ValueError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc
    out = Path(args.output)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CommandError(f"--output {out}: already exists and is not empty", EXIT_USAGE)
    evidence, listed = _from_bundle(args.snapshot, target) if args.snapshot else _from_live(args, target)
    try:
        report = write_bundle(evidence, out, listed=listed)
    except (BundleError, OSError) as exc:
        raise CommandError(f"cannot write {out}: {exc}") from exc
    say(f"rlark-bot: wrote {out} ({report.files} files, {report.redacted} redactions)")
    for problem in evidence.problems:
        say(f"rlark-bot: incomplete: {problem}")
    return EXIT_OK
