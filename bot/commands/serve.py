"""`rlark-bot serve`: the Slack app."""

from __future__ import annotations

import argparse

from bot.commands.common import CommandError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the Slack bot")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    raise CommandError("serve: the Slack app is not included in this release; use `diagnose` and `check`")
