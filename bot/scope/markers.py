"""Where the RLark Ray wrapper's fixed lines are in a container log.

RLark replaces the `main` container's command with a wrapper script that prints fixed lines in a fixed
order (CONTRACT §1). Their positions tell how far a pod got. Logs can be large, so markers are located with
`str.find` and line numbers are computed only for the handful of positions that matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.scope.logview import LogView

RANK = "RLINF_NODE_RANK:"
PREPARE = "Executing prepare script..."
CLI_MISSING = "Error: Ray CLI is not found"
WAITING_NODES = re.compile(r"Waiting for (\d+) nodes to join the Ray cluster")
NODE_COUNT = re.compile(r"Current node count: (\d+)")
CHECK_FAILED = "Warning: Ray cluster check failed, proceeding anyway."
CHECK_PASSED = ("Ray cluster check passed.", "Cluster is ready: ")
READY = "Ray cluster is ready. Printing cluster information:"
CONNECTING = "Connecting to Ray head at "
WAIT_HEAD = "Waiting for head to be reachable at "
REACHABLE = "Head is reachable at "
RUN = "Executing run script..."
WORKER_EXIT = re.compile(r"Ray worker process exited with code (-?\d+)")
JOIN, COUNT, EXITED = "nodes to join the Ray cluster", "Current node count", "Ray worker process exited"
# Literals whose every occurrence the reading needs (how many, and where the last is), not only whether the log
# holds one: a scan that finds them all tells the view (`LogView.learn_tallies`), sparing a pass over the text.
COUNTED = (WAIT_HEAD,)
# Every line the wrapper prints that `scan` looks for (each marker's fixed text), in the order the shared scan
# numbers them (`logview.VIEW_LITERALS` starts with these).
LITERALS = (RANK, PREPARE, CLI_MISSING, JOIN, COUNT, CHECK_FAILED, *CHECK_PASSED, READY, CONNECTING, WAIT_HEAD,
            REACHABLE, RUN, EXITED)


@dataclass(frozen=True)
class Markers:
    rank: int | None
    prepare: int | None
    cli_missing: int | None
    waiting: int | None
    expected_nodes: int | None
    last_count: int | None
    check_failed: int | None
    check_passed: bool
    ready: int | None
    connecting: int | None
    wait_head_attempts: int
    wait_head_last: int | None
    reachable: int | None
    run: int | None
    worker_exit: int | None
    worker_exit_code: int | None

    @property
    def any(self) -> bool:
        return self.rank is not None

    @property
    def is_head(self) -> bool:
        return self.waiting is not None or self.run is not None or self.ready is not None

    @property
    def is_worker(self) -> bool:
        return self.connecting is not None or self.worker_exit is not None

    @classmethod
    def scan(cls, view: LogView, present: frozenset[str] | None = None) -> Markers:
        """`present`: which of VIEW_LITERALS the text holds, when a scan already found out (a literal it
        does not hold is then not searched for: a miss would read the whole text)."""
        if present is not None and present.isdisjoint(LITERALS):
            return NONE  # most logs of a bundle (sidecars, other containers): one shared answer, read or sent back
        def has(needle: str) -> bool:
            return needle in present if present is not None else needle in text

        def pos(needle: str) -> int | None:
            p = view.find(needle) if present is None or needle in present else -1
            return None if p < 0 else p

        text = view.text
        near = text.find(JOIN) if has(JOIN) else -1
        waiting = WAITING_NODES.search(text, max(near - 40, 0)) if near >= 0 else None
        count_m = _last(NODE_COUNT, COUNT, text) if has(COUNT) else None
        # The last exit line counts: a restarted wrapper prints one per worker process.
        exit_m = _last(WORKER_EXIT, EXITED, text) if has(EXITED) else None
        tally = view.tally(WAIT_HEAD)  # counted by the scan that found the literals, when it saw every one
        if tally is None:
            tally = _count_and_last(text, WAIT_HEAD) if has(WAIT_HEAD) else (0, -1)
        attempts, wait_last = tally
        return cls(
            rank=pos(RANK),
            prepare=pos(PREPARE),
            cli_missing=pos(CLI_MISSING),
            waiting=waiting.start() if waiting else None,
            expected_nodes=int(waiting.group(1)) if waiting else None,
            last_count=int(count_m.group(1)) if count_m else None,
            check_failed=pos(CHECK_FAILED),
            check_passed=waiting is not None and any(has(p) for p in CHECK_PASSED),
            ready=pos(READY),
            connecting=pos(CONNECTING),
            wait_head_attempts=attempts,
            wait_head_last=None if wait_last < 0 else wait_last,
            reachable=pos(REACHABLE),
            run=pos(RUN),
            worker_exit=exit_m.start() if exit_m else None,
            worker_exit_code=int(exit_m.group(1)) if exit_m else None,
        )


# What `scan` finds in a log holding none of them.
NONE = Markers(rank=None, prepare=None, cli_missing=None, waiting=None, expected_nodes=None, last_count=None,
               check_failed=None, check_passed=False, ready=None, connecting=None, wait_head_attempts=0,
               wait_head_last=None, reachable=None, run=None, worker_exit=None, worker_exit_code=None)


def _count_and_last(text: str, needle: str) -> tuple[int, int]:
    """`(text.count(needle), text.rfind(needle))` in one forward pass (no second, backward pass over the text).
    Exact for a needle that cannot overlap itself (no proper prefix is also a suffix), as WAIT_HEAD."""
    count, last = 0, -1
    pos = text.find(needle)
    while pos >= 0:
        count, last = count + 1, pos
        pos = text.find(needle, pos + len(needle))
    return count, last


def _overlaps_itself(needle: str) -> bool:
    return any(needle[:k] == needle[-k:] for k in range(1, len(needle)))


if _overlaps_itself(WAIT_HEAD):  # pragma: no cover - a guard on the constant above
    raise ValueError("WAIT_HEAD must not overlap itself: _count_and_last relies on it")


def _last(pattern: re.Pattern[str], literal: str, text: str) -> re.Match[str] | None:
    """The last match of `pattern` (which starts with `literal`), found from the end of the text: what
    `list(pattern.finditer(text))[-1]` is, without reading the whole text."""
    end = len(text)
    while True:
        pos = text.rfind(literal, 0, end)
        if pos < 0:
            return None
        m = pattern.match(text, pos)
        if m is not None:
            return m
        end = pos + len(literal) - 1
