"""The read-only guard: installed below the kubernetes ApiClient, it lets through only GETs of declared resources.

Whatever code runs above it (ours, a future contributor's, a generated API class), a write verb or a read of
Secrets (or of anything not in `resources.ALL`) fails here before a byte leaves the process.
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


def check(method: str, url: str, host: str) -> None:
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
        check("GET", url, self._host)
        return self._inner.GET(url, **kwargs)

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        check(method, url, self._host)
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
