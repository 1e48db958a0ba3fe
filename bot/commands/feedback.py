"""``rlark-bot feedback export [--format json|csv]``: the 👍/👎 votes on diagnosis replies, read from the store
(`REDIS_URL`, else the embedded store in `RLARK_BOT_DATA_DIR`), so that wrong answers become runbook work."""

from __future__ import annotations

import argparse
from typing import Any

from bot.commands.common import Runtime
from bot.errors import SourceError, UsageError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "feedback", help="export the votes on diagnosis replies",
        description="The 👍/👎 votes people gave diagnosis replies in Slack, one row per user per reply, with "
        "the case each reply named. Reads the store `serve` uses (REDIS_URL, else the embedded store).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", help="print every vote (json: with counts per case)")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.set_defaults(run=run)


def run(args: argparse.Namespace, rt: Runtime) -> int:
    # Imported here: the store's client libraries are no part of the other commands' start-up.
    from bot.store.base import StoreUnavailable
    from bot.store.factory import open_store
    from bot.store.feedback import as_csv, as_json, votes

    settings = rt.settings
    try:
        store = open_store(url=settings.redis_url, data_dir=settings.data_dir)
    except ValueError as exc:
        raise UsageError(f"bad setting REDIS_URL: {exc}") from exc
    except StoreUnavailable as exc:
        raise SourceError(f"cannot open the store in {settings.data_dir}: {exc}") from exc
    try:
        entries = votes(store)
    except StoreUnavailable as exc:
        raise SourceError(f"cannot read the store: {exc}") from exc
    finally:
        store.close()
    text = as_csv(entries) if args.format == "csv" else as_json(entries) + "\n"
    rt.out(rt.redactor.redact(text).text)
    return 0
