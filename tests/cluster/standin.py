"""A Kubernetes API stand-in: a real HTTP server for the resources the bot reads, loaded from evidence bundles.

It serves several clusters on one port under `/clusters/<name>` (a kubeconfig `server:` may carry a path),
honours label/field selectors, `limit`/`continue` with 410 on an expired token, the pod log subresource
(`container`, `previous`, `tailLines`, `limitBytes`), discovery for `kubectl`, per-request latency and
injected faults, and records every request so tests can assert that nothing but GET was ever sent.

Under `/gateway` it also plays the RLark gateway's job-logs endpoint (apps/rlark/pkg/gateway/job_logs.go): the
`main` log tail of each pod of a job, built from the control plane's Tasks and Pod mirrors and the member
clusters' logs, as the gateway builds it through the agents. Faults apply to it as cluster `gateway`.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import yaml

from bot.bundle.files import find_list_file, load_list
from bot.bundle.logs import split_sections
from bot.cluster import resources
from bot.cluster.resources import Resource
from cluster.k8s_selectors import SelectorError, field_selector, label_selector

Obj = dict[str, Any]
LogKey = tuple[str, str, str, bool]  # namespace, pod, container, previous
GATEWAY = "gateway"  # the RequestRecord.cluster of requests to the gateway stand-in
GATEWAY_TAIL_LINES = 1000


@dataclass
class ClusterData:
    objects: dict[Resource, list[Obj]] = field(default_factory=dict)
    logs: dict[LogKey, str] = field(default_factory=dict)

    def add(self, resource: Resource, obj: Obj) -> None:
        self.objects.setdefault(resource, []).append(obj)

    def add_log(self, namespace: str, pod: str, container: str, text: str, *, previous: bool = False) -> None:
        self.logs[(namespace, pod, container, previous)] = text


@dataclass
class Fault:
    """Applies to requests whose `/clusters/<c>`-relative path matches `path` (regex) on `cluster` (None: any).

    `times` None means every matching request; otherwise it fires that many times and then stops.
    """

    path: str = ".*"
    cluster: str | None = None
    status: int | None = None
    retry_after: float | None = None
    delay: float = 0.0
    drop: bool = False
    times: int | None = None
    only_continue: bool = False  # only requests carrying a continue token (to fake an expiry mid-list)
    body: str | None = None  # answer 200 with this body instead (a proxy's page, broken JSON)


@dataclass(frozen=True)
class RequestRecord:
    cluster: str
    method: str
    path: str
    query: dict[str, list[str]]
    status: int
    nbytes: int
    authorization: str = ""


def load_bundle(root: Path) -> dict[str, ClusterData]:
    """Raw objects and logs of a bundle, per cluster directory (a flat bundle is the one cluster `default`)."""
    index: Obj = {}
    if (root / "snapshot.yaml").is_file():
        index = yaml.safe_load((root / "snapshot.yaml").read_text(encoding="utf-8")) or {}
    names = list(dict.fromkeys(([index["controlPlane"]] if index.get("controlPlane") else [])
                               + list(index.get("clusters") or [])))
    dirs = {n: root / n for n in names} if names else {"default": root}
    out: dict[str, ClusterData] = {}
    for name, directory in dirs.items():
        data = out[name] = ClusterData()
        if not directory.is_dir():
            continue
        for res in resources.ALL:
            if not res.namespaced and (path := find_list_file(directory, res.stem)):
                for obj in load_list(path, str(path)):
                    data.add(res, obj)
        for ns_dir in sorted(p for p in directory.iterdir() if p.is_dir()):
            for res in resources.ALL:
                if res.namespaced and (path := find_list_file(ns_dir, res.stem)):
                    for obj in load_list(path, str(path)):
                        obj.setdefault("metadata", {}).setdefault("namespace", ns_dir.name)
                        data.add(res, obj)
            for pod_dir in sorted(p for p in ns_dir.iterdir() if p.is_dir()):
                for fname, previous in (("logs.txt", False), ("previous-logs.txt", True)):
                    if (pod_dir / fname).is_file():
                        text = (pod_dir / fname).read_text(encoding="utf-8", errors="replace")
                        for container, body in split_sections(text):
                            data.add_log(ns_dir.name, pod_dir.name, container, body, previous=previous)
    return out


_RESOURCE_PATH = re.compile(
    r"^/(?:api/(?P<cv>v1)|apis/(?P<group>[^/]+)/(?P<gv>[^/]+))"
    r"(?:/namespaces/(?P<ns>[^/]+))?/(?P<plural>[^/]+)(?:/(?P<name>[^/]+)(?:/(?P<sub>[^/]+))?)?$")


def _status(code: int, reason: str, message: str) -> Obj:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason, "code": code}


class _HTTPError(Exception):
    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message


class StandIn:
    """Start with `with StandIn(clusters) as api:`; `api.url(name)` is that cluster's server URL."""

    def __init__(self, clusters: dict[str, ClusterData], *, latency: float = 0.0, page_limit_cap: int = 0,
                 control_plane: str | None = None) -> None:
        self.clusters = clusters
        # Whose Tasks and Pod mirrors the gateway reads: by default the cluster holding Tasks.
        self.control_plane = control_plane or next(
            (name for name, data in clusters.items() if data.objects.get(resources.TASKS)), None)
        self.latency = latency
        self.page_limit_cap = page_limit_cap  # >0: serve at most this many items per page whatever `limit` says
        self.faults: list[Fault] = []
        self.requests: list[RequestRecord] = []
        self.token_epoch = 1
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------------------------

    def __enter__(self) -> StandIn:
        handler = type("Handler", (_Handler,), {"standin": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.005},
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    def url(self, cluster: str) -> str:
        return f"http://127.0.0.1:{self.port}/clusters/{cluster}"

    @property
    def gateway_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{GATEWAY}"

    def write_kubeconfig(self, path: Path, contexts: dict[str, str], *, current: str) -> Path:
        """`contexts` maps context name -> cluster name served here."""
        doc = {
            "apiVersion": "v1", "kind": "Config", "current-context": current, "preferences": {},
            "clusters": [{"name": c, "cluster": {"server": self.url(c)}} for c in sorted(set(contexts.values()))],
            "users": [{"name": "reader", "user": {"token": "standin-token"}}],
            "contexts": [{"name": ctx, "context": {"cluster": c, "user": "reader"}} for ctx, c in contexts.items()],
        }
        path.write_text(yaml.safe_dump(doc), encoding="utf-8")
        return path

    # -- inspection -------------------------------------------------------------------------------------------

    def expire_tokens(self) -> None:
        """Every continue token handed out so far now answers 410 Gone."""
        self.token_epoch += 1

    def reset_log(self) -> None:
        with self._lock:
            self.requests.clear()

    def record(self, rec: RequestRecord) -> None:
        with self._lock:
            self.requests.append(rec)

    def take_fault(self, cluster: str, path: str, has_continue: bool) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if fault.cluster not in (None, cluster) or not re.search(fault.path, path):
                    continue
                if fault.only_continue and not has_continue:
                    continue
                if fault.times is not None:
                    if fault.times <= 0:
                        continue
                    fault.times -= 1
                return fault
        return None

    def sleep(self, seconds: float) -> None:
        """Sleep that ends early at shutdown, so a slow-response fault never blocks server_close()."""
        self._stopping.wait(seconds)

    # -- the API ----------------------------------------------------------------------------------------------

    def serve(self, cluster: str, path: str, query: dict[str, list[str]], accept: str) -> tuple[bytes, str]:
        if cluster == GATEWAY:
            return self._gateway(path)
        if path in ("/api", "/api/"):
            return _json({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []})
        if path in ("/apis", "/apis/"):
            return _json(_group_list())
        if path == "/version":
            return _json({"major": "1", "minor": "32", "gitVersion": "v1.32.0-standin"})
        if path == "/api/v1" or re.fullmatch(r"/apis/[^/]+/[^/]+", path):
            return _json(_resource_list(path))
        m = _RESOURCE_PATH.match(path)
        if not m:
            raise _HTTPError(404, "NotFound", f"the server could not find the requested resource ({path})")
        group = m["group"] or ""
        version = m["cv"] or m["gv"]
        res = next((r for r in resources.ALL
                    if r.group == group and r.version == version and r.plural == m["plural"]), None)
        if res is None:
            raise _HTTPError(404, "NotFound", f"the server could not find the requested resource ({path})")
        data = self.clusters.get(cluster)
        if data is None:
            raise _HTTPError(404, "NotFound", f"no cluster {cluster}")
        if res.namespaced is False and m["ns"]:
            raise _HTTPError(404, "NotFound", f"{res.plural} is not namespaced")
        if m["name"] is None:
            return _json(self._list(data, res, m["ns"], query))
        obj = _find(data, res, m["ns"], m["name"])
        if m["sub"] is None:
            return _json({"kind": res.kind, "apiVersion": res.api_version, **obj})  # as a real GET answers
        if m["sub"] == "log" and res is resources.PODS:
            return _log(data, obj, query).encode(), "text/plain"
        raise _HTTPError(404, "NotFound", f"no subresource {m['sub']}")

    def _list(self, data: ClusterData, res: Resource, namespace: str | None, query: dict[str, list[str]]) -> Obj:
        items = [o for o in data.objects.get(res, [])
                 if not namespace or (o.get("metadata") or {}).get("namespace") == namespace]
        try:
            if sel := query.get("labelSelector", [""])[0]:
                by_label = label_selector(sel)
                items = [o for o in items if by_label(o)]
            if sel := query.get("fieldSelector", [""])[0]:
                by_field = field_selector(sel, res.plural, core=res.group in ("", "apps", "coordination.k8s.io"))
                items = [o for o in items if by_field(o)]
        except SelectorError as exc:
            raise _HTTPError(400, "BadRequest", str(exc)) from exc
        items.sort(key=lambda o: ((o.get("metadata") or {}).get("namespace", ""),
                                  (o.get("metadata") or {}).get("name", "")))
        offset = 0
        if token := query.get("continue", [""])[0]:
            try:
                state = json.loads(base64.urlsafe_b64decode(token.encode()))
                epoch, offset = int(state["epoch"]), int(state["offset"])
            except (ValueError, KeyError, TypeError) as exc:
                raise _HTTPError(400, "BadRequest", "continue key is not valid") from exc
            if epoch != self.token_epoch:
                raise _HTTPError(410, "Expired", "The provided continue parameter is too old to display a "
                                 "consistent list result. You can start a new list without the continue parameter.")
        limit = int(query.get("limit", ["0"])[0] or 0)
        if self.page_limit_cap:
            limit = min(limit, self.page_limit_cap) if limit else self.page_limit_cap
        meta: Obj = {"resourceVersion": str(self.token_epoch)}
        page = items[offset:]
        if limit and len(page) > limit:
            page = page[:limit]
            nxt = {"epoch": self.token_epoch, "offset": offset + limit}
            meta["continue"] = base64.urlsafe_b64encode(json.dumps(nxt).encode()).decode()
            meta["remainingItemCount"] = len(items) - offset - limit
        return {"kind": f"{res.kind}List", "apiVersion": res.api_version, "metadata": meta, "items": page}


    # -- the RLark gateway's job logs ------------------------------------------------------------------------

    def _gateway(self, path: str) -> tuple[bytes, str]:
        m = re.fullmatch(r"/api/v1/rlinf\.io/v1alpha1/jobs/(?P<job>[^/]+)/logs", path)
        cp = self.clusters.get(self.control_plane or "")
        if not m or cp is None:
            raise _HTTPError(404, "NotFound", "404 page not found")
        results: list[Obj] = []
        for task in cp.objects.get(resources.TASKS, []):
            meta = task.get("metadata") or {}
            ns = str(meta.get("namespace", ""))
            if (meta.get("labels") or {}).get("rlinf.io/job") != m["job"] or not ns.startswith("rlark-"):
                continue
            for mirror in cp.objects.get(resources.POD_MIRRORS, []):
                mmeta = mirror.get("metadata") or {}
                labels, spec = mmeta.get("labels") or {}, mirror.get("spec") or {}
                if mmeta.get("namespace") != ns or labels.get("rlark.io/task-name") != meta.get("name"):
                    continue
                pod = str(spec.get("podName") or labels.get("rlark.io/local-pod-name", ""))
                pod_ns = str(spec.get("podNamespace") or labels.get("rlark.io/local-pod-namespace", ""))
                status = mirror.get("status") or {}
                phase = str(status.get("phase", ""))
                if phase in ("Running", "Succeeded", "Failed"):
                    logs = self._gateway_log(ns[len("rlark-"):], pod_ns, pod)
                else:
                    logs = f"pod is {phase}, no logs available"
                results.append({"taskName": meta.get("name"), "podName": pod, "phase": phase,
                                "node": status.get("node", ""), "logs": logs})
        return json.dumps({"pods": results or None}).encode(), "application/json"  # Go: a nil slice is null

    def _gateway_log(self, agent: str, namespace: str, pod: str) -> str:
        """What the gateway gets from the agent's proxy: `?tailLines=1000&container=main`, or its error text."""
        data = self.clusters.get(agent)
        try:
            if data is None:
                raise _HTTPError(502, "BadGateway", f"agent {agent} is not connected")
            obj = _find(data, resources.PODS, namespace, pod)
            return _log(data, obj, {"container": ["main"], "tailLines": [str(GATEWAY_TAIL_LINES)]})
        except _HTTPError as exc:
            body = json.dumps(_status(exc.code, exc.reason, exc.message))
            return f"error fetching logs: server proxy returned HTTP {exc.code}: {body}"


def _find(data: ClusterData, res: Resource, namespace: str | None, name: str) -> Obj:
    for obj in data.objects.get(res, []):
        meta = obj.get("metadata") or {}
        if meta.get("name") == name and (not res.namespaced or meta.get("namespace") == namespace):
            return obj
    raise _HTTPError(404, "NotFound", f'{res.plural}{"." + res.group if res.group else ""} "{name}" not found')


def _log(data: ClusterData, pod: Obj, query: dict[str, list[str]]) -> str:
    ns, name = pod["metadata"].get("namespace", ""), pod["metadata"]["name"]
    spec = pod.get("spec") or {}
    names = [c.get("name") for c in (spec.get("containers") or [])]
    all_names = names + [c.get("name") for c in (spec.get("initContainers") or [])]
    container = query.get("container", [""])[0]
    if not container:
        if len(names) != 1:
            raise _HTTPError(400, "BadRequest", f"a container name must be specified for pod {name}, "
                             f"choose one of: {names}")
        container = str(names[0])
    if all_names and container not in all_names:
        raise _HTTPError(400, "BadRequest", f"container {container} is not valid for pod {name}")
    previous = query.get("previous", ["false"])[0] == "true"
    status = next((s for s in (pod.get("status") or {}).get("containerStatuses", []) +
                   (pod.get("status") or {}).get("initContainerStatuses", []) if s.get("name") == container), {})
    state = status.get("state") or {}
    crashed_before = bool((status.get("lastState") or {}).get("terminated"))
    text = data.logs.get((ns, name, container, previous))
    if text is None and previous and crashed_before and not state.get("running"):
        # As the kubelet does: waiting to restart, "current" and "previous" are both the last terminated instance.
        text = data.logs.get((ns, name, container, False))
    if text is None:
        if previous:
            raise _HTTPError(400, "BadRequest",
                             f'previous terminated container "{container}" in pod "{name}" not found')
        waiting = state.get("waiting")
        if waiting and not crashed_before:
            raise _HTTPError(400, "BadRequest", f'container "{container}" in pod "{name}" is waiting to start: '
                             f'{waiting.get("reason", "")}')
        text = ""
    if tail := query.get("tailLines", [""])[0]:
        lines = text.splitlines(keepends=True)
        text = "".join(lines[-int(tail):]) if int(tail) > 0 else ""
    if limit := query.get("limitBytes", [""])[0]:
        # The kubelet stops after limitBytes from where reading started: the end is cut, not the head.
        text = text.encode()[: int(limit)].decode(errors="ignore")
    return text


def _json(obj: Obj) -> tuple[bytes, str]:
    return json.dumps(obj).encode(), "application/json"


def _group_list() -> Obj:
    groups: dict[str, list[str]] = {}
    for r in resources.ALL:
        if r.group:
            groups.setdefault(r.group, [])
            if r.version not in groups[r.group]:
                groups[r.group].append(r.version)
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
        {"name": g, "versions": [{"groupVersion": f"{g}/{v}", "version": v} for v in vs],
         "preferredVersion": {"groupVersion": f"{g}/{vs[0]}", "version": vs[0]}} for g, vs in groups.items()]}


def _resource_list(path: str) -> Obj:
    gv = path[len("/api/"):] if path.startswith("/api/") else path[len("/apis/"):]
    items = []
    for r in resources.ALL:
        if r.api_version != gv:
            continue
        items.append({"name": r.plural, "singularName": r.kind.lower(), "namespaced": r.namespaced,
                      "kind": r.kind, "verbs": ["get", "list", "watch"]})
        if r is resources.PODS:
            items.append({"name": "pods/log", "singularName": "", "namespaced": True, "kind": "Pod",
                          "verbs": ["get"]})
    if not items:
        raise _HTTPError(404, "NotFound", f"no group version {gv}")
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": items}


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default backlog of 5 drops SYNs under parallel reads: a 1 s retransmit each

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer (a timeout or a cut connection, as fault tests make) is not the
        stand-in's error: only anything else is printed, as the server would."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    standin: StandIn
    protocol_version = "HTTP/1.1"  # keep-alive, so the client's connection pool is exercised
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall between

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        m = re.match(r"^/clusters/(?P<c>[^/]+)(?P<rest>/.*)?$", url.path)
        g = re.match(rf"^/{GATEWAY}(?P<rest>/.*)?$", url.path)
        cluster, path = (m["c"], m["rest"] or "/") if m else (GATEWAY, g["rest"] or "/") if g else ("", url.path)
        auth = self.headers.get("Authorization", "")
        if length := int(self.headers.get("Content-Length") or 0):
            self.rfile.read(length)
        st = self.standin
        if st.latency:
            st.sleep(st.latency)
        status, body, ctype, headers = 200, b"", "application/json", {}
        try:
            if self.command != "GET":
                raise _HTTPError(405, "MethodNotAllowed", f"{self.command} is not served by the stand-in")
            fault = st.take_fault(cluster, path, "continue" in query)
            if fault is not None:
                if fault.delay:
                    st.sleep(fault.delay)
                if fault.drop:
                    st.record(RequestRecord(cluster, self.command, path, query, 0, 0, auth))
                    self.close_connection = True
                    return
                if fault.status:
                    if fault.retry_after is not None:
                        headers["Retry-After"] = f"{fault.retry_after:g}"
                    raise _HTTPError(fault.status, _REASONS.get(fault.status, "Error"), f"injected {fault.status}")
            if fault is not None and fault.body is not None:
                body, ctype = fault.body.encode(), "application/json"
            else:
                body, ctype = st.serve(cluster, path, query, self.headers.get("Accept", ""))
        except _HTTPError as exc:
            status, body, ctype = exc.code, json.dumps(_status(exc.code, exc.reason, exc.message)).encode(), \
                "application/json"
        st.record(RequestRecord(cluster, self.command, path, query, status, len(body), auth))
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except OSError:
            self.close_connection = True  # the client gave up (its timeout); nothing to tell it

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle


_REASONS = {403: "Forbidden", 404: "NotFound", 410: "Expired", 429: "TooManyRequests", 500: "InternalError",
            503: "ServiceUnavailable"}


def iter_bundles(root: Path) -> Iterator[Path]:
    yield from sorted(p for p in root.glob("*/bundle") if p.is_dir())
