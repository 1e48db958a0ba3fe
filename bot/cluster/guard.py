"""The read-only guard: installed below the kubernetes ApiClient, it lets through only GETs of declared resources.

Whatever code runs above it (ours, a future contributor's, a generated API class), a write verb or a read of
Secrets (or of anything not in `resources.ALL`) fails here before a byte leaves the process.

The RLark gateway is the one non-Kubernetes endpoint the bot talks to. RBAC does not bound it (it acts with the
control plane's admin certificate, and most of its routes create, patch, delete or open terminals), so its
guard is narrower still: GET of exactly one path, a job's log tails.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from bot.cluster import resources
from bot.cluster.errors import ReadOnlyViolation


def _allowed_path_pattern() -> re.Pattern[str]:
    seg = r"[^/]+"
    alternatives = []
    for r in resources.ALL:
        prefix = rf"/apis/{re.escape(r.group)}/{r.version}" if r.group else rf"/api/{r.version}"
        ns = rf"(?:/namespaces/{seg})?" if r.namespaced else ""
        sub = rf"(?:/{resources.LOG_SUBRESOURCE})?" if r is resources.PODS else ""
        alternatives.append(rf"{prefix}{ns}/{re.escape(r.plural)}(?:/{seg}{sub})?")
    return re.compile("^(?:" + "|".join(alternatives) + ")$")


_ALLOWED = _allowed_path_pattern()


def check(method: str, url: str, *, host: str) -> None:
    """Raise ReadOnlyViolation unless this is a GET of a declared resource."""
    if method.upper() != "GET":
        raise ReadOnlyViolation(f"refused {method.upper()} {url}: the bot is read-only")
    path = urlsplit(url).path
    base = urlsplit(host).path.rstrip("/")
    if base and path.startswith(base):
        path = path[len(base):]
    if "/secrets" in path or not _ALLOWED.match(path):
        raise ReadOnlyViolation(f"refused GET {path}: not a resource the bot is allowed to read")


class ReadOnlyRESTClient:
    """Stands in for `kubernetes.client.rest.RESTClientObject`; only GET is implemented."""

    def __init__(self, inner: Any, host: str) -> None:
        self._inner = inner
        self._host = host

    def GET(self, url: str, **kwargs: Any) -> Any:
        check("GET", url, host=self._host)
        return self._inner.GET(url, **kwargs)

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        check(method, url, host=self._host)
        return self._inner.request(method, url, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # HEAD, POST, PUT, PATCH, DELETE, OPTIONS and anything added later.
        if name.isupper():
            def refuse(url: str, *args: Any, **kwargs: Any) -> Any:
                raise ReadOnlyViolation(f"refused {name} {url}: the bot is read-only")
            return refuse
        raise AttributeError(name)

    def close(self) -> None:
        # ApiClient.close() leaves urllib3's pools open; clearing them avoids ResourceWarnings.
        self._inner.pool_manager.clear()


def install(api_client: Any) -> None:
    """Replace the ApiClient's REST client with the guarded one (idempotent)."""
    if not isinstance(api_client.rest_client, ReadOnlyRESTClient):
        api_client.rest_client = ReadOnlyRESTClient(api_client.rest_client, api_client.configuration.host)


# The gateway's `GET /api/v1/rlinf.io/v1alpha1/jobs/<job>/logs`; nothing else on it may be requested.
GATEWAY_JOB_LOGS = re.compile(r"^/api/v1/rlinf\.io/v1alpha1/jobs/[^/]+/logs$")


def check_gateway(method: str, url: str, *, base: str) -> None:
    """Raise ReadOnlyViolation unless this is a GET of a job's logs on the gateway at `base` (no query either)."""
    if method.upper() != "GET":
        raise ReadOnlyViolation(f"refused {method.upper()} {url}: the bot is read-only")
    got, want = urlsplit(url), urlsplit(base)
    prefix = want.path.rstrip("/")
    path = got.path[len(prefix):] if got.path.startswith(prefix) else ""
    if (got.scheme, got.netloc) != (want.scheme, want.netloc) or got.query or not GATEWAY_JOB_LOGS.match(path):
        raise ReadOnlyViolation(f"refused GET {url}: the only gateway read allowed is a job's logs")


class ReadOnlyGatewayPool:
    """Wraps the urllib3 pool that talks to the gateway; `get` of the one allowed path is all it offers."""

    def __init__(self, pool: Any, base: str) -> None:
        self._pool = pool
        self._base = base

    def get(self, url: str, **kwargs: Any) -> Any:
        check_gateway("GET", url, base=self._base)
        return self._pool.request("GET", url, **kwargs)

    def close(self) -> None:
        self._pool.clear()
