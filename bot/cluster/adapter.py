"""One cluster, read through a guarded ApiClient: get, list (paged) and log, nothing else.

Responses stay plain dicts (the API server's JSON), so live evidence has exactly the shape a bundle has,
and 512 pods are not pushed through the SDK's model deserializer.
"""

from __future__ import annotations

import json
import re
from typing import Any

import urllib3
from kubernetes.client.exceptions import ApiException

from bot.cluster.budget import Pacing
from bot.cluster.errors import ReadFailed
from bot.cluster.resources import LOG_SUBRESOURCE, PODS, Resource
from bot.cluster.retry import RETRYABLE, pause, reason, retry_after

Obj = dict[str, Any]


class _Gone(Exception):
    """410: a list's continue token expired; the list restarts from the beginning."""


def _status_line(exc: ApiException) -> str:
    message = ""
    try:
        body = json.loads(exc.body) if exc.body else {}
        message = str(body.get("message", "")) if isinstance(body, dict) else ""
    except (ValueError, TypeError):
        pass
    head = f"{exc.status} {exc.reason or ''}".strip()
    return f"{head}: {message}" if message else head


class ClusterAdapter:
    """Read-only access to one cluster. Thread-safe; one instance per context, reused for every read."""

    def __init__(self, name: str, api_client: Any, pacing: Pacing) -> None:
        self.name = name
        self._api = api_client
        self._pacing = pacing
        self.down: str | None = None  # why the cluster is considered unreachable, once it is
        self.answered = False  # some request got a response: a later timeout is that read's, not the cluster's

    # -- the three reads -------------------------------------------------------------------------------------

    def get(self, resource: Resource, name: str, *, namespace: str | None = None) -> Obj | None:
        """One object, or None when it does not exist."""
        what = f"get {resource.stem}/{name}" + (f" in {namespace}" if namespace else "")
        try:
            data = self._request(resource.path(namespace=namespace, name=name), {}, what=what)
        except ReadFailed as exc:
            if exc.status == 404:
                return None
            raise
        obj = json.loads(data)
        if not isinstance(obj, dict):
            raise ReadFailed(f"{self.name}: {what}: response is not an object")
        return obj

    def list(self, resource: Resource, *, namespace: str | None = None, label_selector: str | None = None,
             field_selector: str | None = None) -> list[Obj]:
        """All matching objects, paged by `limit`/`continue`; an expired token (410) restarts the list."""
        scope = f" in {namespace}" if namespace else ""
        sel = ",".join(s for s in (label_selector, field_selector) if s)
        what = f"list {resource.stem}{scope}" + (f" ({sel})" if sel else "")
        query: dict[str, str] = {"limit": str(self._pacing.budget.page_size)}
        if label_selector:
            query["labelSelector"] = label_selector
        if field_selector:
            query["fieldSelector"] = field_selector
        for _attempt in range(self._pacing.budget.retries + 1):
            items: list[Obj] = []
            token: str | None = None
            try:
                while True:
                    page_query = {**query, "continue": token} if token else query
                    doc = json.loads(self._request(resource.path(namespace=namespace), page_query, what=what))
                    for item in doc.get("items") or []:
                        # List items omit kind/apiVersion; a bundle written later should still say what they are.
                        item.setdefault("kind", resource.kind)
                        item.setdefault("apiVersion", resource.api_version)
                        items.append(item)
                    token = (doc.get("metadata") or {}).get("continue") or None
                    if not token:
                        return items
            except _Gone:
                self._pacing.stats.retried()
                continue
        raise ReadFailed(f"{self.name}: {what}: the list kept changing (410 Gone on every restart)", status=410)

    def log(self, *, namespace: str, pod: str, container: str, previous: bool, tail_lines: int,
            limit_bytes: int) -> str:
        query = {"container": container, "tailLines": str(tail_lines), "limitBytes": str(limit_bytes)}
        if previous:
            query["previous"] = "true"
        what = f"log {namespace}/{pod}:{container}" + (" (previous)" if previous else "")
        path = PODS.path(namespace=namespace, name=pod, subresource=LOG_SUBRESOURCE)
        return self._request(path, query, what=what, log=True).decode("utf-8", errors="replace")

    def close(self) -> None:
        self._api.close()
        self._api.rest_client.close()

    # -- one GET with retries ---------------------------------------------------------------------------------

    def _request(self, path: str, query: dict[str, str], *, what: str, log: bool = False) -> bytes:
        attempts = self._pacing.budget.retries + 1
        last = ""
        for attempt in range(attempts):
            if self.down:
                raise ReadFailed(f"{self.name}: {what}: not read, cluster unreachable ({self.down})",
                                 cluster_down=True)
            remaining = self._pacing.deadline.remaining()
            if remaining <= 0:
                limit = self._pacing.deadline.seconds
                raise ReadFailed(f"{self.name}: {what}: not read, the {limit:g}s deadline passed")
            timeout = min(self._pacing.budget.request_timeout_seconds, remaining)
            asked: float | None = None
            try:
                data = self._send(path, query, timeout=timeout, log=log, what=what)
                self._observe(path, "200")
                return data
            except _Gone:
                raise
            except ApiException as exc:
                self._observe(path, str(exc.status))
                self.answered = True
                last = _status_line(exc)
                if exc.status == 410 and "continue" in query:
                    raise _Gone() from exc
                if exc.status not in RETRYABLE:
                    raise ReadFailed(f"{self.name}: {what}: {last}", status=exc.status) from exc
                asked = _asked(exc)
            except (urllib3.exceptions.HTTPError, OSError) as exc:
                self._observe(path, "error")
                last = reason(exc)
                if attempt == attempts - 1:
                    if self.answered and read_timed_out(exc):
                        # The server took the request but one answer was slow (a large PVC list, a big log):
                        # only this read fails; the cluster and every other read of it stay usable.
                        raise ReadFailed(f"{self.name}: {what}: no answer within {timeout:g}s "
                                         f"(gave up after {attempt + 1} attempts)") from exc
                    self.down = last
                    raise ReadFailed(f"{self.name}: {what}: unreachable ({last})", cluster_down=True) from exc
            if attempt < attempts - 1 and not pause(attempt, asked=asked, deadline=self._pacing.deadline,
                                                    stats=self._pacing.stats, sleep=self._pacing.sleep):
                break
        raise ReadFailed(f"{self.name}: {what}: {last} (gave up after {attempt + 1} attempts)")

    def _observe(self, path: str, status: str) -> None:
        hook = self._pacing.on_result
        if hook is not None:
            verb, resource = verb_and_resource(path)
            hook(verb, resource, status)

    def _send(self, path: str, query: dict[str, str], *, timeout: float, log: bool, what: str) -> bytes:
        with self._pacing.limiter:
            if self._pacing.on_request:
                self._pacing.on_request(f"{self.name}: {what}")
            self._pacing.stats.sent(log=log)
            resp = self._api.call_api(
                path, "GET", query_params=list(query.items()),
                header_params={"Accept": "*/*" if log else "application/json"},
                auth_settings=["BearerToken"], _preload_content=False, _return_http_data_only=True,
                # A (connect, read) pair: the SDK silently ignores a bare float.
                _request_timeout=(timeout, timeout))
            try:
                data: bytes = resp.data
            finally:
                resp.release_conn()
        self._pacing.stats.received(len(data))
        self.answered = True
        return data


def read_timed_out(exc: BaseException) -> bool:
    """A read timeout (connected, the answer was slow), as opposed to a cluster that cannot be reached at all
    (refused, unresolvable, connect timeout). urllib3 may wrap it in MaxRetryError."""
    inner = getattr(exc, "reason", None) if isinstance(exc, urllib3.exceptions.MaxRetryError) else exc
    if isinstance(inner, urllib3.exceptions.ConnectTimeoutError):
        return False
    return isinstance(inner, (urllib3.exceptions.ReadTimeoutError, TimeoutError))


_PATH = re.compile(r"^/(?:api/v1|apis/[^/]+/[^/]+)(?:/namespaces/[^/]+)?/([^/]+)(?:/([^/]+)(?:/([^/]+))?)?")


def verb_and_resource(path: str) -> tuple[str, str]:
    """`/api/v1/namespaces/ns/pods/p/log` -> ("get", "pods/log"); `/apis/rlinf.io/v1alpha1/jobs` -> ("list", "jobs")."""
    m = _PATH.match(path)
    if m is None:
        return "get", "other"
    plural, name, sub = m.groups()
    return ("get" if name else "list"), plural + (f"/{sub}" if sub else "")


def _asked(exc: ApiException) -> float | None:
    headers = exc.headers or {}
    return retry_after(headers.get("Retry-After") if hasattr(headers, "get") else None)
