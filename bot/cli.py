"""`rlark-bot` command line. Exit status: 0 report produced, 2 bad usage, 3 target not found, 1 anything else."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Sequence
from typing import NoReturn

from bot.commands import check, compare, diagnose, feedback, nodes, preflight, redact, serve, snapshot, timeline
from bot.commands.common import Runtime, build_runtime, say
from bot.errors import EXIT_ERROR, EXIT_USAGE, UserError
from bot.redact import Redactor

COMMANDS = (diagnose, check, snapshot, redact, serve, preflight, nodes, compare, timeline, feedback)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one (redacted) line pointing at `--help`, not the usage block; exit 2."""

    def error(self, message: str) -> NoReturn:
        first = message.splitlines()[0] if message else "bad usage"
        say(Redactor(), f"{self.prog}: {first} (see '{self.prog} --help')")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rlark-bot", description="Read-only diagnosis for RLark jobs and CI runners")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, *, collector_off: bool = False) -> int:
    """`collector_off`: the caller turned the cycle collector off for the start-up; it is turned back on here
    unless the command is bounded (see `bot.launch`)."""
    args = build_parser().parse_args(argv)
    if collector_off and not getattr(args, "bounded", False):
        gc.enable()  # serve and redact run for as long as their input lasts
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


if __name__ == "__main__":
    from bot.launch import run

    run()
