"""Streaming redaction in bounded memory.

Input is cut only at line ends, and the engine itself says how far it is done: a PEM block, a
Kubernetes ``name:``/``value:`` pair or a YAML block still open at the end of a chunk is carried
into the next one, so nothing is cut in half. A single line longer than ``max_line`` is cut at the
last whitespace (tokens do not contain any) so memory stays bounded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import BinaryIO

from bot.redact.engine import MAX_PEM, Redactor

_SEPS = b" \t,;"


def redact_stream(src: BinaryIO, dst: BinaryIO, redactor: Redactor, chunk_size: int = 1 << 20) -> Mapping[str, int]:
    counts: Counter[str] = Counter()
    max_carry = max(4 * chunk_size, 2 * MAX_PEM)
    carry = b""
    pem_open = False
    eof = False
    while not eof:
        chunk = src.read(chunk_size)
        eof = not chunk
        buf = carry + chunk
        if not buf:
            break
        if eof:
            cut = len(buf)
        else:
            cut = buf.rfind(b"\n") + 1
            if cut == 0:
                if len(buf) < max_carry:
                    carry = buf
                    continue
                cut = _soft_cut(buf)
        head, carry = buf[:cut], buf[cut:]
        text = head.decode("utf-8", "surrogateescape")
        forced = not eof and len(carry) + len(head) >= max_carry
        out, found, done, pem_open = redactor.redact_prefix(text, final=eof or forced, pem_open=pem_open)
        counts.update(found)
        dst.write(out.encode("utf-8", "surrogateescape"))
        if done < len(text):
            carry = text[done:].encode("utf-8", "surrogateescape") + carry
    dst.flush()
    return dict(counts)


def _soft_cut(buf: bytes) -> int:
    """Cut an overlong line after its last separator, never inside a token (nor a UTF-8 sequence)."""
    window = buf[-65536:]
    best = max(window.rfind(bytes([c])) for c in _SEPS)
    if best >= 0:
        return len(buf) - len(window) + best + 1
    cut = len(buf)
    while cut > 0 and (buf[cut - 1] & 0xC0) == 0x80:
        cut -= 1
    return max(cut - 1, 1) if cut < len(buf) else cut
