"""HTTP: Slack's requests at `POST /slack/events` (bolt's WSGI adapter) and `/healthz`, `/readyz`, `/metrics`.

Served by waitress, a production WSGI server; in Socket Mode the same server answers only the three probes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from waitress import wasyncore
from waitress.server import create_server

from bot.conversations.deps import Readiness
from bot.obs.metrics import Metrics

StartResponse = Callable[..., Any]
Wsgi = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def wsgi_app(*, app: App | None, readiness: Readiness, metrics: Metrics) -> Wsgi:
    slack = SlackRequestHandler(app) if app is not None else None

    def handle(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if path == "/slack/events" and slack is not None and method == "POST":
            if not _timestamp_readable(environ):
                return _plain(start_response, "401 Unauthorized", b"invalid request\n")
            result: Iterable[bytes] = slack(environ, start_response)
            return result
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
                                     clear_untrusted_proxy_headers=True)
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
