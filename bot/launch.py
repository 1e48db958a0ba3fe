"""The installed `rlark-bot` command: what happens before the command line is even imported, and at exit.

A bounded command (diagnose, check, snapshot) runs with the cycle collector off, from the first import on: it
makes next to no cyclic garbage (a thousand-pod diagnosis peaks at the same RSS either way), while the collector's
walks over the modules' and then the bundle's million objects cost about 0.15 s of such a run. Commands that run
as long as their input or their pod (redact, serve) turn it back on as soon as their arguments are parsed
(`bot.cli.main`). At exit the interpreter's last walk over every object the run made is skipped (the process is
ending anyway).
"""

from __future__ import annotations

import gc
import sys


def run() -> None:
    gc.disable()
    from bot.cli import main

    status = main(collector_off=True)
    gc.freeze()
    sys.exit(status)
