"""The RLark gateway's job-logs endpoint: the `main` log tail of every pod of a job, read via the control plane.

`GET <gateway>/api/v1/rlinf.io/v1alpha1/jobs/<job>/logs` answers `{"pods": [{taskName, podName, phase, node,
logs}]}`, where `logs` is the last 1000 lines of a Running/Succeeded/Failed pod's `main` container, or a text
saying why there is none. One request for the whole job, so it is used only as the fallback for member
clusters the bot cannot read itself. Same rules as the Kubernetes reads: GET only (guard.ReadOnlyGatewayPool),
the budget's timeout and deadline, bounded retries on 429/5xx and connection errors, counted in the stats.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import urllib3

from bot.cluster.budget import Pacing
from bot.cluster.errors import ReadFailed
from bot.cluster.guard import ReadOnlyGatewayPool
from bot.cluster.retry import RETRYABLE, pause, reason, retry_after

TAIL_LINES = 1000  # what the gateway asks each pod for (`tailLines=1000&container=main`)
CONTAINER = "main"
NAME = "RLark gateway"


@dataclass(frozen=True)
class PodLog:
    task: str
    pod: str
    phase: str
    node: str
    text: str


def job_logs_path(job: str) -> str:
    return f"/api/v1/rlinf.io/v1alpha1/jobs/{quote(job, safe='')}/logs"


class GatewayClient:
    """One gateway; `job_logs` is its only read. Thread-safe like the adapters (one urllib3 pool)."""

    def __init__(self, base_url: str, token: str | None, pacing: Pacing) -> None:
        self.base_url = base_url.rstrip("/")
        # Retries are ours (as for the adapters); a redirect is an answer too (an auth proxy's login page), not
        # something to follow somewhere the guard did not check.
        self._pool = ReadOnlyGatewayPool(urllib3.PoolManager(num_pools=1, maxsize=1, retries=False),
                                         self.base_url)
        self._headers = {"Accept": "application/json"}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"
        self._pacing = pacing

    def job_logs(self, job: str) -> list[PodLog]:
        """The gateway's entries for `job`; raises ReadFailed (one line) when there is no usable answer."""
        what = f"GET {job_logs_path(job)}"
        data = self._request(self.base_url + job_logs_path(job), what=what)
        try:
            doc = json.loads(data)
        except ValueError as exc:
            raise ReadFailed(f"{NAME}: {what}: the answer is not JSON") from exc
        pods = doc.get("pods") if isinstance(doc, dict) else None
        if not isinstance(doc, dict) or "pods" not in doc or not isinstance(pods, list | None):
            raise ReadFailed(f"{NAME}: {what}: the answer has no `pods` list")
        # Go marshals an empty result as `"pods": null`; entries that are not objects say nothing usable.
        return [PodLog(task=_s(p, "taskName"), pod=_s(p, "podName"), phase=_s(p, "phase"), node=_s(p, "node"),
                       text=_s(p, "logs")) for p in pods or [] if isinstance(p, dict) and _s(p, "podName")]

    def close(self) -> None:
        self._pool.close()

    def _request(self, url: str, *, what: str) -> bytes:
        attempts = self._pacing.budget.retries + 1
        last = ""
        for attempt in range(attempts):
            remaining = self._pacing.deadline.remaining()
            if remaining <= 0:
                raise ReadFailed(f"{NAME}: {what}: not read, the {self._pacing.deadline.seconds:g}s deadline passed")
            timeout = min(self._pacing.budget.request_timeout_seconds, remaining)
            asked: float | None = None
            try:
                status, headers, body = self._send(url, timeout=timeout, what=what)
            except (urllib3.exceptions.HTTPError, OSError) as exc:
                last = reason(exc)
                if attempt == attempts - 1:
                    raise ReadFailed(f"{NAME}: {what}: unreachable ({last})", cluster_down=True) from exc
            else:
                if status == 200:
                    return body
                last = _status_line(status, body)
                if status not in RETRYABLE:
                    raise ReadFailed(f"{NAME}: {what}: {last}", status=status)
                asked = retry_after(headers.get("Retry-After"))
            if attempt < attempts - 1 and not pause(attempt, asked=asked, deadline=self._pacing.deadline,
                                                    stats=self._pacing.stats, sleep=self._pacing.sleep):
                break
        raise ReadFailed(f"{NAME}: {what}: {last} (gave up after {attempt + 1} attempts)")

    def _send(self, url: str, *, timeout: float, what: str) -> tuple[int, Any, bytes]:
        limit = self._pacing.budget.gateway_max_bytes
        with self._pacing.limiter:
            if self._pacing.on_request:
                self._pacing.on_request(f"{NAME}: {what}")
            self._pacing.stats.sent(log=True)
            resp = self._pool.get(url, headers=self._headers, preload_content=False, redirect=False,
                                  timeout=urllib3.Timeout(connect=timeout, read=timeout))
            try:
                chunks: list[bytes] = []
                size = 0
                for chunk in resp.stream(1 << 16):
                    chunks.append(chunk)
                    size += len(chunk)
                    if size > limit:
                        self._pacing.stats.received(size)
                        # A cut JSON document is unreadable: refuse it whole rather than parse half.
                        raise ReadFailed(f"{NAME}: {what}: the answer exceeds {limit >> 20} MiB "
                                         "(collection.gateway_max_bytes); not read")
            finally:
                resp.release_conn()
        self._pacing.stats.received(size)
        return int(resp.status), resp.headers, b"".join(chunks)


def _s(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    return value if isinstance(value, str) else ""


def _status_line(status: int, body: bytes) -> str:
    """`403 Forbidden: <the gateway's (gin's) "error" text>`, or the start of a non-JSON body (a proxy's page)."""
    try:
        head = f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        head = str(status)
    message = ""
    try:
        doc = json.loads(body)
        if isinstance(doc, dict):
            message = str(doc.get("error") or doc.get("message") or "")
    except ValueError:
        message = body[:120].decode("utf-8", errors="replace")
    message = " ".join(message.split())[:160]
    if 300 <= status < 400:
        message = message or "redirected (an auth proxy asking for a login?); set RLARK_BOT_GATEWAY_TOKEN"
    return f"{head}: {message}" if message else head


