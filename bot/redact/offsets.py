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


# Continuation bytes of UTF-8 (10xxxxxx): every other byte of an encoding starts one character.
_CONTINUATION = bytes(range(0x80, 0xC0))
_PIECE = 1 << 20  # bytes counted at a time: no copy of a whole large text is made


def encoded_offsets(data: bytes) -> Callable[[int], int]:
    """byte offset -> str index in the text `data` is the UTF-8 encoding of (lone surrogates passed through), for
    offsets at character starts: counts the bytes that start a character, without decoding (offsets ascend)."""
    state = [0, 0]

    def to_char(b: int) -> int:
        lb, lc = state
        if b < lb:
            lb, lc = 0, 0
        while lb < b:
            stop = min(b, lb + _PIECE)
            lc += len(data[lb:stop].translate(None, _CONTINUATION))
            lb = stop
        state[0], state[1] = b, lc
        return lc

    return to_char


def identity(b: int) -> int:
    return b
