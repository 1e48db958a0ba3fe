"""Scenario bundles read and scoped for the timeline tests, and a PNG reader that decodes what it checks."""

from __future__ import annotations

import struct
import zlib
from functools import cache
from pathlib import Path

from bot.bundle import read_bundle
from bot.models import Target
from bot.redact import Redactor
from bot.timeline import Timeline, timeline_of

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
GOLDEN = Path(__file__).resolve().parent / "golden"
JOB = "job/ppo-franka-0412"
REDACTOR = Redactor()


@cache
def timeline(scenario: str, target: str = JOB) -> Timeline:
    evidence = read_bundle(SCENARIOS / scenario / "bundle")
    assert evidence.captured_at is not None
    return timeline_of(evidence, Target.parse(target), now=evidence.captured_at, redactor=REDACTOR)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, after checking every chunk's CRC and inflating its pixels: the image must
    decode to exactly height rows of 1 filter byte plus width pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, header = 8, bytearray(), b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    assert len(zlib.decompress(bytes(idat))) == height * (1 + width * channels * depth // 8)
    return width, height
