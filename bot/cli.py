"""`rlark-bot` command line. Exit status: 0 report produced, 2 bad usage, 3 target not found, 1 anything else."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bot.commands.common import EXIT_ERROR, CommandError, say

COMMANDS = ("diagnose", "check", "snapshot", "redact", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rlark-bot", description="Read-only diagnosis for RLark jobs and CI runners")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"bot.commands.{name}")
        except ImportError:
            continue  # a command whose optional part is not installed simply is not offered
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        runner = getattr(args, "run", None) or args.func
        status: int = runner(args)
    except CommandError as exc:
        say(f"rlark-bot: {exc}")
        return exc.status
    except KeyboardInterrupt:
        say("rlark-bot: interrupted")
        return 130
    except Exception as exc:  # the last line of defence: one line, never a traceback
        say(f"rlark-bot: {type(exc).__name__}: {exc}")
        return EXIT_ERROR
    return status


if __name__ == "__main__":
    sys.exit(main())
