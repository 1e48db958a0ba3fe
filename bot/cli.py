"""`rlark-bot` command line. Exit status: 0 report produced, 2 bad usage, 3 target not found, 1 anything else."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence

from bot.commands import check, diagnose, redact, serve, snapshot
from bot.commands.common import Runtime, build_runtime, say
from bot.errors import EXIT_ERROR, UserError
from bot.redact import Redactor

COMMANDS = (diagnose, check, snapshot, redact, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rlark-bot", description="Read-only diagnosis for RLark jobs and CI runners")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    runtime: Runtime | None = None
    try:
        runtime = build_runtime()
        status: int = args.run(args, runtime)
    except UserError as exc:
        _say(runtime, f"rlark-bot: {exc}")
        return exc.status
    except KeyboardInterrupt:
        _say(runtime, "rlark-bot: interrupted")
        return 130
    except Exception as exc:  # the last line of defence: one line, never a traceback
        _say(runtime, f"rlark-bot: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        return EXIT_ERROR
    return status


def _say(runtime: Runtime | None, message: str) -> None:
    # Before settings loaded there is no configured redactor yet: the built-in rules still apply.
    say(runtime.redactor if runtime else Redactor(), message)


def run() -> None:
    """The installed `rlark-bot` command: `main`, then exit without the interpreter's last walk over every
    object the run made (a thousand-pod bundle leaves millions; the process is ending anyway)."""
    status = main()
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
