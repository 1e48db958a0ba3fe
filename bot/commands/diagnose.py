"""`rlark-bot diagnose TARGET`: walk Job -> Task -> Pod -> dependencies and say what is wrong."""

from __future__ import annotations

import argparse

from bot.commands.common import Runtime, add_source_args, interactive, parse_now, parse_target
from bot.errors import EXIT_OK
from bot.render import FORMATS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("diagnose", help="diagnose a RLark job, a pod or an EphemeralRunner")
    p.add_argument("target", metavar="TARGET", help="JOB, job/NAME, pod/NAME or runner/NAME")
    add_source_args(p)
    p.add_argument("--format", choices=(*FORMATS, "slack"), default="text",
                   help="slack: the exact Block Kit payload the bot would post (chat.postMessage arguments)")
    p.add_argument("--lang", choices=("zh", "en"), default="en")
    p.add_argument("--now", metavar="RFC3339", help="evaluate ages against this time (default: capturedAt)")
    p.set_defaults(run=run, bounded=True)  # bounded work: see bot.launch


def run(args: argparse.Namespace, rt: Runtime) -> int:
    target = parse_target(args.target, args.namespace)
    now = parse_now(args.now)
    source = rt.source(args)
    diag = rt.service.diagnose(target, source=source, now=now, progress=rt.progress(enabled=interactive(args)))
    if args.format == "slack":
        rt.out(rt.service.slack_payload(diag, lang=args.lang))
    else:
        rt.out(rt.service.render(diag, fmt=args.format, lang=args.lang))
    return EXIT_OK
