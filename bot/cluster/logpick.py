"""Which container logs decide the answer: the Head, the first failing pods, then a small sample of the rest.

Pure: works on the raw pod dicts already listed, so it is cheap to test and costs no requests itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Obj = dict[str, Any]
RLARK_MAIN = "main"
SAMPLE_PODS = 3  # healthy pods read besides the head and the failing ones: enough to see what "normal" prints
PER_FAILURE = 4  # failing pods read per distinct way of failing: the 64th identical crash-loop tells nothing new


@dataclass(frozen=True)
class LogRequest:
    cluster: str
    namespace: str
    pod: str
    container: str
    previous: bool


def _statuses(pod: Obj) -> list[tuple[Obj, bool]]:
    status = pod.get("status") or {}
    return [(s, True) for s in status.get("initContainerStatuses") or []] + [
        (s, False) for s in status.get("containerStatuses") or []]


def _failing(cs: Obj, *, is_init: bool) -> bool:
    state = cs.get("state") or {}
    term = state.get("terminated") or {}
    if int(cs.get("restartCount") or 0) > 0:
        return True
    if term and int(term.get("exitCode") or 0) != 0:
        return True
    waiting = state.get("waiting") or {}
    return bool(waiting) and waiting.get("reason") not in ("ContainerCreating", "PodInitializing") and not is_init


def is_failing(pod: Obj) -> bool:
    phase = (pod.get("status") or {}).get("phase", "")
    return phase not in ("Running", "Succeeded") or any(_failing(cs, is_init=i) for cs, i in _statuses(pod))


def failure_signature(pod: Obj) -> tuple[str, ...]:
    """How a pod fails, as its status tells: task, and per failing container its reason and exit code."""
    meta = pod.get("metadata") or {}
    parts = [str((meta.get("labels") or {}).get("app", "")), str((pod.get("status") or {}).get("phase", ""))]
    for cs, is_init in _statuses(pod):
        if not _failing(cs, is_init=is_init):
            continue
        state, last = cs.get("state") or {}, cs.get("lastState") or {}
        term = state.get("terminated") or last.get("terminated") or {}
        reason = (state.get("waiting") or {}).get("reason") or term.get("reason") or ""
        parts.append(f"{cs.get('name')}:{reason}:{term.get('exitCode', '')}")
    return tuple(parts)


def requests_for_pod(cluster: str, pod: Obj, *, prefer: str | None) -> list[LogRequest]:
    """Most telling first: the last crashed instance and failing containers, then the rest.

    Follows the kubelet: for a container waiting to restart (CrashLoopBackOff) the current log *is* the last
    terminated instance, so `previous` would only read it twice; for a running container that restarted,
    `previous` holds the crash and the current log the new attempt.
    """
    meta = pod.get("metadata") or {}
    ns, name = str(meta.get("namespace", "")), str(meta.get("name", ""))
    first: list[LogRequest] = []
    rest: list[LogRequest] = []
    for cs, is_init in _statuses(pod):
        cname = str(cs.get("name", ""))
        state = cs.get("state") or {}
        crashed_before = bool((cs.get("lastState") or {}).get("terminated"))
        failing = _failing(cs, is_init=is_init)
        wanted = (prefer is None or cname == prefer) and not is_init
        if state.get("running") and crashed_before:
            first.append(LogRequest(cluster, ns, name, cname, previous=True))
            rest.append(LogRequest(cluster, ns, name, cname, previous=False))
        elif state.get("running") or state.get("terminated") or crashed_before:
            if failing:
                first.append(LogRequest(cluster, ns, name, cname, previous=False))
            elif wanted:
                rest.append(LogRequest(cluster, ns, name, cname, previous=False))
    return first + rest


def pick(pods: list[tuple[str, Obj]], *, heads: set[tuple[str, str]], max_requests: int, max_pods: int,
         prefer: str | None = None) -> list[LogRequest]:
    """`pods` in a stable order (cluster, pod); `heads` are (cluster, pod name) read first."""
    def name(p: Obj) -> str:
        return str((p.get("metadata") or {}).get("name", ""))

    head = [(c, p) for c, p in pods if (c, name(p)) in heads]
    failing: list[tuple[str, Obj]] = []
    seen: dict[tuple[str, ...], int] = {}
    for c, p in pods:
        if (c, name(p)) in heads or not is_failing(p):
            continue
        sig = failure_signature(p)
        seen[sig] = seen.get(sig, 0) + 1
        if seen[sig] <= PER_FAILURE:
            failing.append((c, p))
    healthy = [(c, p) for c, p in pods if (c, name(p)) not in heads and not is_failing(p)][:SAMPLE_PODS]
    out: list[LogRequest] = []
    used_pods = 0
    for cluster, pod in head + failing + healthy:
        reqs = requests_for_pod(cluster, pod, prefer=prefer)
        if not reqs:
            continue
        if used_pods >= max_pods:
            break
        used_pods += 1
        out.extend(reqs[: max(0, max_requests - len(out))])
        if len(out) >= max_requests:
            break
    return out
