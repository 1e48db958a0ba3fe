"""`rlark-bot snapshot TARGET --output DIR`: write a redacted evidence bundle, from live clusters or another bundle.

`--snapshot SRC` re-writes an existing dump through the redactor (to sanitize it before attaching it to a
ticket). Either way, diagnosing the written bundle gives the same findings as diagnosing the source.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.commands.common import Runtime, add_source_args, parse_target
from bot.errors import EXIT_OK, UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("snapshot", help="write a redacted evidence bundle for a target")
    p.add_argument("target", metavar="TARGET", help="JOB, job/NAME, pod/NAME or runner/NAME")
    p.add_argument("--output", "-o", metavar="DIR", required=True, help="directory to create (must not exist)")
    add_source_args(p)
    p.set_defaults(run=run, bounded=True)  # bounded work: see bot.launch


def run(args: argparse.Namespace, rt: Runtime) -> int:
    target = parse_target(args.target, args.namespace)
    if not args.output.strip():
        raise UsageError("--output must name a directory to create (it is empty)")
    out = Path(args.output)
    done = rt.service.snapshot(target, source=rt.source(args), out=out,
                               progress=rt.progress(enabled=args.snapshot is None))
    rt.say(f"rlark-bot: wrote {out} ({done.report.files} files, {done.report.redacted} redactions)")
    for problem in done.problems:
        rt.say(f"rlark-bot: incomplete: {problem}")
    return EXIT_OK
