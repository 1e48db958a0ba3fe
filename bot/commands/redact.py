"""``rlark-bot redact [FILE ...]``: the bot's redactor as a filter for logs pasted into tickets."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any, BinaryIO

from bot.commands.common import Runtime
from bot.redact.shared import redact_stream_shared
from bot.sinks import stdout_bytes


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "redact",
        help="redact credentials from files or stdin, writing to stdout",
        description="Mask keys, tokens, passwords, private keys and signed-URL signatures; streams in "
        "bounded memory. Reads stdin when no FILE is given.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="files to redact (default: stdin)")
    parser.add_argument("--summary", action="store_true", help="print 'redacted N values (kinds)' to stderr")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, rt: Runtime) -> int:
    redactor = rt.redactor  # extra patterns, allowlist and the bot's own secrets apply here too
    say = rt.say
    out: BinaryIO = stdout_bytes()
    counts: Counter[str] = Counter()
    files: list[str] = list(getattr(args, "files", []) or [])
    try:
        if not files:
            counts.update(redact_stream_shared(sys.stdin.buffer, out, redactor, processes=rt.service.processes))
        for name in files:
            try:
                with open(name, "rb") as src:
                    counts.update(redact_stream_shared(src, out, redactor, processes=rt.service.processes))
            except BrokenPipeError:  # the reader of the output went away, not the file
                raise
            except OSError as exc:
                out.flush()
                say(f"rlark-bot redact: cannot read {name}: {exc.strerror or exc}")
                return 1
    except BrokenPipeError:  # `rlark-bot redact log | head` is normal use
        return 0
    if getattr(args, "summary", False) or sys.stderr.isatty():
        total = sum(counts.values())
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
        say(f"redacted {total} values" + (f" ({kinds})" if kinds else ""))
    return 0
