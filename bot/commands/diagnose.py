"""`rlark-bot diagnose TARGET`: walk Job -> Task -> Pod -> dependencies and say what is wrong."""

from __future__ import annotations

import argparse

from bot.commands.common import Runtime, add_source_args, interactive, parse_now, parse_target
from bot.errors import EXIT_OK, UsageError
from bot.models import TargetKind
from bot.models.evidence import JOB_NAME, echo
from bot.render import FORMATS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("diagnose", help="diagnose a RLark job, a pod or an EphemeralRunner")
    p.add_argument("target", metavar="TARGET", help="JOB, job/NAME, pod/NAME or runner/NAME")
    add_source_args(p)
    p.add_argument("--format", choices=(*FORMATS, "slack"), default="text",
                   help="slack: the exact Block Kit payload the bot would post (chat.postMessage arguments)")
    p.add_argument("--lang", choices=("zh", "en"), default="en")
    p.add_argument("--now", metavar="RFC3339", help="evaluate ages against this time (default: capturedAt)")
    p.add_argument("--since", metavar="JOB", help="ticket: the run before this one (default: the latest earlier "
                                                  "Job with the same name prefix)")
    p.set_defaults(run=run, bounded=True)  # bounded work: see bot.launch


def run(args: argparse.Namespace, rt: Runtime) -> int:
    target = parse_target(args.target, args.namespace)
    since = _since(args.since)
    now = parse_now(args.now)
    source = rt.source(args, diagnosing=target)
    gathered = source.for_target(target, progress=rt.progress(enabled=interactive(args)))
    diag = rt.service.diagnose(target, source=source, now=now, gathered=gathered)
    if args.format == "slack":
        rt.out(rt.service.slack_payload(diag, lang=args.lang))
        return EXIT_OK
    line = ""
    if args.format == "ticket" and target.kind is TargetKind.JOB:
        from bot.compare.since import since_last_run  # a ticket's part only: not loaded for the other formats

        job = next((j for j in gathered.evidence.jobs if j.name == target.name), None)
        if job is not None:
            line = since_last_run(gathered.evidence, job, redactor=rt.redactor, lang=args.lang, since=since)
    rt.out(rt.service.render(diag, fmt=args.format, lang=args.lang, since_last_run=line))
    return EXIT_OK


def _since(text: str | None) -> str | None:
    if text is None:
        return None
    name = text.removeprefix("job/")
    if not JOB_NAME.fullmatch(name):
        raise UsageError(f"--since {echo(text)}: not a Job name")
    return name
