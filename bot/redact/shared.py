"""`redact_stream` on several CPUs, with the same output byte for byte.

The input is read in pieces of a few chunks. Forked helpers redact pieces ahead, each from the state a stream
would be in at its start if nothing were open there: carrying only the partial line before it (`StreamState`).
The caller takes their answers in order and keeps the true state: where it is that assumed state (the common
case: no PEM block, key/value pair or YAML block open across the boundary), the helper's output is exactly what
the stream would have written, since a stream's output depends only on its state and the chunks it is fed;
otherwise the caller redacts that piece itself from the true state. A helper that fails costs only time: its
piece is redacted by the caller and it is given no more.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import time
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from bot import forked
from bot.forked import can_fork, fork, readable
from bot.redact.redactor import Redactor
from bot.redact.stream import CHUNK, StreamState, is_regular_file, redact_stream

PIECE_CHUNKS = 4  # chunks per piece handed to a helper


@dataclass(frozen=True)
class _Step:
    """The helper's stream after one chunk of its piece: where its output had got to, what that chunk masked,
    and its state."""

    out_end: int
    counts: dict[str, int]
    carry: bytes
    pem_open: bool


@dataclass(frozen=True)
class _Ahead:
    """A piece redacted by a helper from the assumed state: its output, and each chunk's step."""

    out: bytes
    steps: list[_Step]


def redact_stream_shared(src: BinaryIO, dst: BinaryIO, redactor: Redactor, *, processes: int,
                         chunk_size: int = CHUNK) -> Mapping[str, int]:
    """`redact_stream(src, dst, redactor)`, with `processes` helpers redacting ahead (none: the same in this
    process alone, as when it has other threads or cannot fork)."""
    if processes < 2 or not can_fork() or not is_regular_file(src):  # a pipe streams, line by line, in one process
        return redact_stream(src, dst, redactor, chunk_size)
    state = StreamState(redactor, chunk_size)
    size = PIECE_CHUNKS * chunk_size
    first = _read(src, size)
    if len(first) < size:  # all of the input in one piece: not worth a helper
        for chunk in _chunks(first, chunk_size):
            dst.write(state.feed(chunk))
        dst.write(state.finish())
        dst.flush()
        return dict(state.counts)
    helpers = _Helpers(redactor, chunk_size=chunk_size, count=processes)
    try:
        for body, lead, ahead in helpers.pieces(src, size, first=first, max_lead=state.max_carry):
            _take(state, dst, body=body, lead=lead, ahead=ahead)
        dst.write(state.finish())
        dst.flush()
    finally:
        helpers.close()
    return dict(state.counts)


def _take(state: StreamState, dst: BinaryIO, *, body: bytes, lead: bytes, ahead: _Ahead | None) -> None:
    """Write the piece's output. From the assumed state, the helper's output is the stream's; from another (a
    block was open across the boundary), the piece is redacted here until this stream is in the state the
    helper's was after the same chunk, and the helper's output is taken from there on."""
    if ahead is not None and state.clean and state.carry == lead:
        resume = 0
    else:
        for i, chunk in enumerate(_chunks(body, state.chunk_size)):
            dst.write(state.feed(chunk))
            if ahead is not None and i + 1 < len(ahead.steps) and _same(ahead.steps[i], state):
                resume = i + 1
                break
        else:
            return  # redacted here to the end of the piece
    assert ahead is not None
    dst.write(memoryview(ahead.out)[ahead.steps[resume - 1].out_end if resume else 0:])
    for step in ahead.steps[resume:]:
        state.counts.update(step.counts)
    state.carry, state.pem_open = ahead.steps[-1].carry, ahead.steps[-1].pem_open


def _same(step: _Step, state: StreamState) -> bool:
    """The stream is where the helper's was after that chunk: fed the same chunks, the two now write the same."""
    return step.pem_open == state.pem_open and step.carry == state.carry


def _chunks(body: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start:start + size]


def _read(src: BinaryIO, size: int) -> bytes:
    parts: list[bytes] = []
    want = size
    while want > 0:
        part = src.read(want)
        if not part:
            break
        parts.append(part)
        want -= len(part)
    return b"".join(parts)


def _lead_after(lead: bytes, body: bytes) -> bytes:
    """The partial line at the end of everything read: what a stream with nothing open carries."""
    newline = body.rfind(b"\n")
    return lead + body if newline < 0 else body[newline + 1:]


class _Helpers:
    """Forked helpers, each given one piece at a time (a task pipe in, an answer pipe out)."""

    def __init__(self, redactor: Redactor, *, chunk_size: int, count: int) -> None:
        self._redactor, self._chunk_size = redactor, chunk_size
        self._live: dict[int, tuple[int, Any, Any]] = {}  # slot -> (pid, task writer, answer reader)
        for slot in range(count):
            self._live[slot] = self._fork()

    def pieces(self, src: BinaryIO, size: int, *, first: bytes,
               max_lead: int) -> Iterator[tuple[bytes, bytes, _Ahead | None]]:
        """(body, lead, what a helper made of it) for each piece of `src` (after `first`, already read), in
        order; read ahead so that every helper has a piece while the caller takes the oldest answer."""
        free: deque[int] = deque(self._live)
        queue: deque[tuple[bytes, bytes, int | None]] = deque()
        lead, eof, held = b"", False, first
        while True:
            while not eof and (free or not queue):
                body, held = (held, b"") if held else (_read(src, size), b"")
                if not body:
                    eof = True
                    break
                slot = free.popleft() if free and len(lead) <= max_lead else None
                if slot is not None and not self._send(slot, lead, body):
                    slot = None
                queue.append((body, lead, slot))
                lead = _lead_after(lead, body)
            if not queue:
                return
            body, piece_lead, slot = queue.popleft()
            ahead = None if slot is None else self._receive(slot)
            if slot is not None and slot in self._live:
                free.append(slot)
            yield body, piece_lead, ahead

    def _send(self, slot: int, lead: bytes, body: bytes) -> bool:
        try:
            pickle.dump((lead, body), self._live[slot][1], protocol=pickle.HIGHEST_PROTOCOL)
            self._live[slot][1].flush()
            return True
        except OSError:
            self._drop(slot)
            return False

    def _receive(self, slot: int) -> _Ahead | None:
        """The helper's answer for its piece; None (and the helper killed) if it fails or is silent past PATIENCE.
        One piece at a time per helper, so nothing of its answer sits in the reader's buffer before this."""
        answers = self._live[slot][2]
        try:
            ready = readable(answers.fileno(), deadline=time.monotonic() + forked.PATIENCE)
            answer = pickle.load(answers) if ready else None
        except (OSError, EOFError, pickle.UnpicklingError):
            answer = None
        if not isinstance(answer, _Ahead):
            self._drop(slot)
            return None
        return answer

    def _drop(self, slot: int) -> None:
        pid, tasks, answers = self._live.pop(slot)
        for stream in (tasks, answers):
            with contextlib.suppress(OSError):
                stream.close()
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)

    def close(self) -> None:
        for slot in list(self._live):
            pid, tasks, answers = self._live.pop(slot)
            try:
                tasks.close()  # end of tasks: the helper exits
            except OSError:
                os.kill(pid, signal.SIGKILL)
            answers.close()
            os.waitpid(pid, 0)

    def _fork(self) -> tuple[int, Any, Any]:
        task_r, task_w = os.pipe()
        answer_r, answer_w = os.pipe()

        def helper() -> None:
            os.close(task_w)
            os.close(answer_r)
            for other in self._live.values():  # the pipes of helpers forked before this one
                other[1].close()
                other[2].close()
            self._serve(os.fdopen(task_r, "rb"), os.fdopen(answer_w, "wb"))

        pid = fork(helper)
        os.close(task_r)
        os.close(answer_w)
        return pid, os.fdopen(task_w, "wb"), os.fdopen(answer_r, "rb")

    def _serve(self, tasks: Any, answers: Any) -> None:
        while True:
            try:
                lead, body = pickle.load(tasks)
            except EOFError:
                return
            state = StreamState(self._redactor, self._chunk_size)
            state.carry = lead
            parts: list[bytes] = []
            steps: list[_Step] = []
            end = 0
            for chunk in _chunks(body, self._chunk_size):
                before = dict(state.counts)
                parts.append(state.feed(chunk))
                end += len(parts[-1])
                counts = {k: n - before.get(k, 0) for k, n in state.counts.items() if n != before.get(k, 0)}
                steps.append(_Step(end, counts, state.carry, state.pem_open))
            pickle.dump(_Ahead(b"".join(parts), steps), answers, protocol=pickle.HIGHEST_PROTOCOL)
            answers.flush()

