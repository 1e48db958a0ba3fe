"""The installed `rlark-bot` command: what happens before the command line is even imported, and at exit.

A bounded command (diagnose, check, snapshot) runs with the cycle collector off, from the first import on: it
makes next to no cyclic garbage (a thousand-pod diagnosis peaks at the same RSS either way), while the collector's
walks over the modules' and then the bundle's million objects cost about 0.15 s of such a run. Commands that run
as long as their input or their pod (redact, serve) turn it back on as soon as their arguments are parsed
(`bot.cli.main`). At the end of a bounded command the process ends as soon as its output is out (`finish`):
freeing every object the run made, module by module, is work for nothing in a process about to end.
"""

from __future__ import annotations

import gc
import sys


def run() -> None:
    gc.disable()
    from bot.cli import main

    status = main(collector_off=True)
    finish(status, bounded=not gc.isenabled())  # only a bounded command keeps the collector off


def finish(status: int, *, bounded: bool) -> None:
    """End the process with `status`. A bounded command with no other thread left skips the interpreter's
    teardown: the exit handlers run and the standard streams are flushed first, so nothing written is lost;
    what is skipped is freeing the run's objects one by one. Anything else exits the usual way."""
    import threading

    if not bounded or threading.active_count() > 1:
        gc.freeze()  # the interpreter's last collection need not walk what the run made
        sys.exit(status)
    import atexit
    import os

    from bot.sinks import flush_standard_streams

    atexit._run_exitfuncs()
    if not flush_standard_streams():  # a closed pipe, a full disk: the usual exit reports it and sets the status
        gc.freeze()
        sys.exit(status)
    os._exit(status)
