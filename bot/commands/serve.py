"""`rlark-bot serve`: the Slack app."""

from __future__ import annotations

import argparse

from bot.commands.common import Runtime
from bot.errors import UserError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the Slack bot")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, rt: Runtime) -> int:
    raise UserError("serve: the Slack app is not wired yet")
