"""HTTP: Slack's requests at `POST /slack/events` (bolt's WSGI adapter) and `/healthz`, `/readyz`, `/metrics`.

Served by waitress, a production WSGI server; in Socket Mode the same server answers only the three probes.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import SecretStr
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk.signature import SignatureVerifier
from waitress import wasyncore
from waitress.server import create_server

from bot.conversations.deps import Readiness
from bot.obs.metrics import Metrics

MAX_BODY_BYTES = 1024 * 1024  # Slack's own requests are a few kB; a view submission stays well below this
StartResponse = Callable[..., Any]
Wsgi = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


log = logging.getLogger("rlark_bot.http")


def wsgi_app(*, app: App | None, readiness: Readiness, metrics: Metrics,
             signing_secret: SecretStr | None = None) -> Wsgi:
    """`signing_secret`: checked over the raw body before bolt parses anything (HTTP mode needs it)."""
    slack = SlackRequestHandler(app) if app is not None else None
    verifier = SignatureVerifier(signing_secret.get_secret_value()) if signing_secret else None

    def handle(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if path == "/slack/events" and slack is not None and method == "POST":
            return _slack_request(environ, start_response, slack=slack, verifier=verifier)
        if path == "/healthz" and method in ("GET", "HEAD"):
            return _plain(start_response, "200 OK", b"ok\n")
        if path == "/readyz" and method in ("GET", "HEAD"):
            if readiness.ready:
                return _plain(start_response, "200 OK", b"ready\n")
            return _plain(start_response, "503 Service Unavailable", (readiness.reason() + "\n").encode())
        if path == "/metrics" and method in ("GET", "HEAD"):
            body, content_type = metrics.render()
            start_response("200 OK", [("Content-Type", content_type), ("Content-Length", str(len(body)))])
            return [body]
        return _plain(start_response, "404 Not Found", b"not found\n")

    return handle


def _slack_request(environ: dict[str, Any], start_response: StartResponse, *, slack: SlackRequestHandler,
                   verifier: SignatureVerifier | None) -> Iterable[bytes]:
    """Size first (413 before reading a byte), then the signature over the raw body (401), and only then bolt.
    Bolt builds its request, parsing the body, before it verifies the signature: a malformed body from anyone
    made it raise (HTTP 500 and a traceback), and a large one stayed in memory."""
    size = _content_length(environ)
    if size is None:
        return _plain(start_response, "400 Bad Request", b"bad request\n")
    if size > MAX_BODY_BYTES:
        return _plain(start_response, "413 Content Too Large", b"request too large\n")
    body = environ["wsgi.input"].read(size) if size else b""
    if verifier is None or not _timestamp_readable(environ) or not verifier.is_valid(
            body=body, timestamp=str(environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP", "")),
            signature=str(environ.get("HTTP_X_SLACK_SIGNATURE", ""))):
        return _plain(start_response, "401 Unauthorized", b"invalid request\n")
    environ["wsgi.input"] = io.BytesIO(body)
    try:
        result: Iterable[bytes] = slack(environ, start_response)
    except ValueError as exc:  # signed by Slack's secret, yet not a form or JSON bolt can read
        log.warning("a signed request bolt could not read: %s", type(exc).__name__)
        return _plain(start_response, "400 Bad Request", b"bad request\n")
    return result


def _content_length(environ: dict[str, Any]) -> int | None:
    """The body's length (waitress sets it for a chunked body too, after de-chunking it within its own cap)."""
    raw = str(environ.get("CONTENT_LENGTH") or "0")
    return int(raw) if raw.isascii() and raw.isdigit() else None


def _timestamp_readable(environ: dict[str, Any]) -> bool:
    """A request timestamp that is not a whole number is refused here: bolt's verifier would raise on it (HTTP 500
    and the error handler answering an unverified request) instead of refusing it."""
    stamp = str(environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP", ""))
    return stamp.isascii() and stamp.isdigit()


def _plain(start_response: StartResponse, status: str, body: bytes) -> list[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
    return [body]


class HttpServer:
    """A waitress server in the calling thread (`serve_forever`) or a background one (`start`)."""

    def __init__(self, app: Wsgi, *, host: str, port: int, threads: int = 8) -> None:
        self._server = create_server(app, host=host, port=port, threads=threads, ident="rlark-bot",
                                     clear_untrusted_proxy_headers=True, max_request_body_size=MAX_BODY_BYTES)
        self._serving = False

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    def serve_forever(self) -> None:
        self._serving = True
        try:
            self._server.run()
        finally:
            self._serving = False

    def close(self) -> None:
        """Stop serving, from any thread. While the loop runs, every socket it watches (the listener and idle
        keep-alive connections too) is closed on the loop's own thread through waitress's trigger, so the loop
        finds nothing left and returns: closing them from another thread would make it select() a closed
        descriptor (EBADF), and an idle connection left open would keep it, and the process, running."""
        server = self._server
        if self._serving:
            try:
                server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
                return
            except OSError:  # the loop ended meanwhile and closed its trigger: nothing is left to wake
                pass
        wasyncore.close_all(server._map)
