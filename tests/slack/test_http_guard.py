"""Requests that are not Slack's never reach bolt's parser: the signature is checked over the raw body first (401),
a body larger than any Slack request is refused before it is read (413), and neither leaves a traceback or memory
behind."""

from __future__ import annotations

import http.client
import logging
from collections.abc import Iterator
from urllib.parse import urlencode, urlsplit

import pytest

from bot.runbook import Runbook
from bot.slack.http import MAX_BODY_BYTES
from bot.store.memory import MemoryStore

from .apphost import AppHost, bundle_of
from .signing import signed_headers
from .standin import SlackStandIn

MALFORMED = b"payload=%7Bnot-json"


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(),
                 runbook=runbook) as running:
        yield running


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_wrong_signature_with_malformed_payload_is_401_without_a_traceback(
        host: AppHost, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    reply = host.send(MALFORMED, secret="not-the-signing-secret")
    assert reply.status == 401, reply
    assert not _errors(caplog), [r.getMessage() for r in _errors(caplog)]
    unsigned = host.send(MALFORMED, sign=False)
    assert unsigned.status == 401, unsigned
    assert not _errors(caplog)


def test_signed_but_malformed_payload_is_400_without_a_traceback(host: AppHost,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    reply = host.send(MALFORMED)
    assert reply.status == 400, reply
    assert not _errors(caplog), [r.getMessage() for r in _errors(caplog)]


def test_a_real_command_still_goes_through(host: AppHost) -> None:
    assert host.command("help").status == 200


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def _post_raw(url: str, *, headers: dict[str, str], chunks: Iterator[bytes]) -> int:
    """Send the body piece by piece as an attacker would; the status the server answered (it may close the
    connection before the body is through)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest("POST", parts.path)
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        try:
            for chunk in chunks:
                conn.send(chunk)
        except OSError:  # the server refused and closed: its answer is already waiting
            pass
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_50_mb_body_is_413_and_leaves_no_memory_behind(host: AppHost, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    size = 50 * 1024 * 1024
    block = b"x" * (1024 * 1024)
    body_head = urlencode({"payload": "{}"}).encode()
    before = _rss_bytes()
    status = _post_raw(host.url, headers={"Content-Type": "application/x-www-form-urlencoded",
                                          "Content-Length": str(size), "X-Slack-Request-Timestamp": "1",
                                          "X-Slack-Signature": "v0=00"},
                       chunks=iter([body_head] + [block] * 50))
    assert status == 413
    grown = _rss_bytes() - before
    assert grown < 8 * 1024 * 1024, f"memory grew by {grown / 2**20:.1f} MiB"
    assert not _errors(caplog)


def test_a_chunked_body_past_the_cap_is_413(host: AppHost) -> None:
    piece = b"y" * 65536
    count = MAX_BODY_BYTES // len(piece) + 2

    def chunks() -> Iterator[bytes]:
        for _ in range(count):
            yield b"%x\r\n" % len(piece) + piece + b"\r\n"
        yield b"0\r\n\r\n"

    headers = {"Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked",
               **{k: v for k, v in signed_headers(b"", "x").items() if k != "Content-Type"}}
    assert _post_raw(host.url, headers=headers, chunks=chunks()) == 413


def test_a_signed_body_within_the_cap_is_not_refused_for_size(host: AppHost) -> None:
    fields = urlencode({"command": "/rlark", "text": "help", "pad": "z" * (MAX_BODY_BYTES // 2)}).encode()
    assert host.send(fields).status != 413
