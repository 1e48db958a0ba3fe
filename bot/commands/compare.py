"""`rlark-bot compare A B`: what changed between two runs, and how each went (CONTRACT §9)."""

from __future__ import annotations

import argparse

from bot.commands.common import Runtime, add_source_args, parse_now
from bot.errors import EXIT_OK

# `bot.compare.FORMATS` (a test holds them equal): the comparison itself is loaded only when it runs.
FORMATS = ("text", "markdown", "json")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="compare two runs of a job: spec changes, outcomes, verdict")
    p.add_argument("a", metavar="A", help="the earlier run: job/NAME")
    p.add_argument("b", metavar="B", help="the later run: job/NAME, or a Job YAML file for a planned run ('-': stdin)")
    add_source_args(p)
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--lang", choices=("zh", "en"), default="en")
    p.add_argument("--now", metavar="RFC3339", help="evaluate ages against this time (default: capturedAt)")
    p.set_defaults(run=run, bounded=True)  # bounded work: see bot.launch


def run(args: argparse.Namespace, rt: Runtime) -> int:
    from bot.compare import compare_runs, render_comparison

    now = parse_now(args.now)
    source = rt.source(args)
    comparison = compare_runs(args.a, args.b, service=rt.service, source=source, now=now, lang=args.lang)
    rt.out(render_comparison(comparison, args.format, lang=args.lang, redactor=rt.redactor))
    return EXIT_OK
