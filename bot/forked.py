"""Independent pieces of work shared out between this process and forked helpers.

`Shared(items, work, processes=n)` forks n - 1 helpers that take items from one queue (in `order`, e.g.
largest first) and send back `work(item)`, pickled, through a pipe. The caller may do something else meanwhile;
`results()` then takes what is left from the same queue itself and returns every result, in item order. A helper
sees exactly what the caller saw when it was forked, and writes nothing but its answers. Whatever a helper did not
send back (it failed, was killed, or hung: see PATIENCE) is worked on again by the caller, so an error is raised
here, as it would be without helpers, and the answer is the same either way. No helpers are forked when this
process has other threads (one could hold a lock the helper would wait for forever) or cannot fork; then
everything runs here.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")
_HELPER_FAILED = 70


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1


# Below this much input (log bytes), forking helpers costs more than it saves.
MIN_SHARED_BYTES = 32 << 20
# How long the caller waits for a helper that owes it an answer (once the caller has no work left itself, a helper
# is at most one item behind), or for the queue's lock (held for a few instructions): past it the helper is taken
# for hung or dead holding the lock. It is killed and its work done here: slower, never stuck, the same answer.
PATIENCE = 30.0


def readable(fd: int, *, deadline: float) -> bool:
    """Whether `fd` has data (or its end) before `deadline` (time.monotonic())."""
    left = deadline - time.monotonic()
    if left <= 0:
        return False
    ready, _, _ = select.select([fd], [], [], left)  # a signal's interruption is retried by select itself
    return bool(ready)


def fork(helper: Callable[[], None]) -> int:
    """Fork a helper process that runs `helper()` and exits: status 0 when it returned, 70 when it raised (or
    was interrupted). It never returns into the caller's code, nor runs the caller's exit handlers or flushes its
    buffers. Returns the helper's pid."""
    pid = os.fork()
    if pid == 0:
        status = _HELPER_FAILED
        try:
            helper()
            status = 0
        finally:
            os._exit(status)
    return pid


class _Queue:
    """Slots 0..n-1 handed out once each, across forked processes: a counter in shared memory."""

    def __init__(self, n: int) -> None:
        import multiprocessing  # only when sharing: its import costs a few milliseconds

        self._lock = multiprocessing.Lock()
        self._next = multiprocessing.RawValue("l", 0)
        self._n = n

    def __iter__(self) -> Iterator[int]:
        while True:
            if not self._lock.acquire(timeout=PATIENCE):  # its holder died holding it: no more slots from here
                return
            try:
                slot = self._next.value
                if slot >= self._n:
                    return
                self._next.value = slot + 1
            finally:
                self._lock.release()
            yield slot


class _Serial:
    """The queue when nothing is shared: every slot, in turn."""

    def __init__(self, n: int) -> None:
        self._slots = iter(range(n))

    def __iter__(self) -> Iterator[int]:
        return self._slots


class Shared(Generic[T, R]):
    def __init__(self, items: Sequence[T], work: Callable[[T], R], *, processes: int,
                 order: Sequence[int] | None = None) -> None:
        self._items = items
        self._work = work
        self._order = list(range(len(items))) if order is None else list(order)
        self._processes = processes if len(items) > 1 else 1
        self._queue: _Queue | _Serial = _Serial(len(self._order))
        self._helpers: list[tuple[int, int]] = []
        self._frozen = False

    def __enter__(self) -> Shared[T, R]:
        if self._processes > 1 and can_fork():
            self._queue = _Queue(len(self._order))
            gc.freeze()  # a collection in a helper would write to every object's header, copying the heap into it
            self._frozen = True
            for _ in range(self._processes - 1):
                self._helpers.append(self._fork())
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for pid, _ in self._helpers:  # still here only when the caller failed: their work is not wanted
            os.kill(pid, signal.SIGKILL)
        for helper in self._helpers:
            _collect(*helper, deadline=time.monotonic())
        self._helpers = []
        if self._frozen:
            gc.unfreeze()
            self._frozen = False

    def results(self) -> list[R]:
        """Every item's result, in item order: what is left in the queue is worked on here meanwhile."""
        done: dict[int, R] = {}
        for slot in self._queue:
            i = self._order[slot]
            done[i] = self._work(self._items[i])
        helpers, self._helpers = self._helpers, []
        deadline = time.monotonic() + PATIENCE
        for helper in helpers:
            done.update(_collect(*helper, deadline=deadline))
        return [done[i] if i in done else self._work(item) for i, item in enumerate(self._items)]

    def _fork(self) -> tuple[int, int]:
        read_end, write_end = os.pipe()

        def helper() -> None:
            os.close(read_end)
            gc.disable()
            answer = {}
            for slot in self._queue:
                i = self._order[slot]
                answer[i] = self._work(self._items[i])
            with os.fdopen(write_end, "wb") as pipe:
                pickle.dump(answer, pipe, protocol=pickle.HIGHEST_PROTOCOL)

        pid = fork(helper)
        os.close(write_end)
        return pid, read_end


def _collect(pid: int, read_end: int, *, deadline: float) -> dict[int, Any]:
    """A helper's answers; nothing if it failed, or sent nothing by `deadline` (then it is killed). Its items are
    then worked on by the caller."""
    parts: list[bytes] = []
    try:
        while readable(read_end, deadline=deadline):
            part = os.read(read_end, 1 << 20)
            if not part:  # the helper's end: all of its answer is here
                break
            parts.append(part)
        else:  # the deadline came first
            os.kill(pid, signal.SIGKILL)
            parts = []
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    data = b"".join(parts)
    if os.waitstatus_to_exitcode(status) != 0 or not data:
        return {}
    try:
        answer: Any = pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError):
        return {}
    return answer if isinstance(answer, dict) else {}
