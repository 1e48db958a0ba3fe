"""`rlark-bot nodes SELECTOR`: the global Node match an admin is asked for (CONTRACT §8)."""

from __future__ import annotations

import argparse

from bot.commands.common import Runtime, parse_now
from bot.errors import EXIT_OK


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("nodes", help="every RLark Node matching a selector, across all clusters",
                       description="List every RLark Node whose labels carry all pairs of SELECTOR (k=v[,k2=v2]), "
                                   "with cluster, phase, schedulable and free GPU/devices; the last line says "
                                   "whether the match is exactly one cluster and exactly one Node.")
    p.add_argument("selector", metavar="SELECTOR", help="k=v[,k2=v2] (all pairs must match)")
    p.add_argument("--snapshot", metavar="DIR", help="read the inventory from an evidence bundle")
    p.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig for live mode")
    p.add_argument("--context", metavar="CTX", help="kubeconfig context of the RLark control plane")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--now", metavar="RFC3339", help=argparse.SUPPRESS)
    p.set_defaults(run=run, bounded=True)


def run(args: argparse.Namespace, rt: Runtime) -> int:
    # Imported here, as every command's own machinery: start-up loads only the command that runs.
    from bot.preflight.nodes import nodes_json, nodes_text, parse_selector
    from bot.preflight.source import open_inventory
    from bot.redact import dump_json, seal

    selector = parse_selector(args.selector)
    inv = open_inventory(snapshot=args.snapshot, kubeconfig=args.kubeconfig, context=args.context,
                         settings=rt.settings, now=parse_now(args.now))
    data = nodes_json(selector, inv)
    if args.format == "json":
        rt.out(dump_json(seal(data, rt.redactor), indent=2))
    else:
        rt.out(rt.redactor.redact(nodes_text(data)).text)
    return EXIT_OK
