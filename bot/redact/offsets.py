"""Byte offsets in a text's UTF-8 encoding, mapped back to character offsets."""

from __future__ import annotations

from collections.abc import Callable


def char_offsets(text: str, data: bytes) -> Callable[[int], int]:
    """byte offset -> str index; identity for ASCII, incremental decoding otherwise (offsets ascend)."""
    if len(data) == len(text):
        return identity
    state = [0, 0]

    def to_char(b: int) -> int:
        lb, lc = state
        if b < lb:
            lb, lc = 0, 0
        lc += len(data[lb:b].decode("utf-8", "surrogatepass"))
        state[0], state[1] = b, lc
        return lc

    return to_char


def identity(b: int) -> int:
    return b
