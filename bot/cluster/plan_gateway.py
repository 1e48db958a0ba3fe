"""Member clusters the bot could not read (no context, or unreachable): their pods' `main` log tails, from the
RLark gateway, which reads them through the control plane's own channel to each agent.

What it gives is less than a member read (no pod status, no events, no previous instance, only `main`, only
the last 1000 lines), so the cluster's "not read" problem line stays and says where the logs came from.
"""

from __future__ import annotations

import re
from typing import Any

from bot.cluster import resources as R
from bot.cluster.errors import ReadFailed
from bot.cluster.gateway import CONTAINER, NAME, TAIL_LINES, PodLog
from bot.cluster.session import Session
from bot.models import LogExcerpt, LogSource
from bot.models.rlark import AGENT_NAMESPACE_PREFIX, LOCAL_POD_NAME, LOCAL_POD_NAMESPACE, MEMBER_NAMESPACE

Obj = dict[str, Any]
# What the gateway writes in place of a log (job_logs.go): a pod not started yet, or a failed proxy read.
_NO_LOGS = re.compile(r"^pod is \w*, no logs available$")
_FETCH_ERROR = "error fetching logs:"


def fallback_logs(session: Session, *, job: str, blind: dict[str, str], tasks: list[Obj],
                  heads: set[tuple[str, str]]) -> None:
    """`blind`: agent id -> the key of the problem line saying its cluster was not read (amended here)."""
    client = session.gateway()
    if client is None or not blind:
        return
    acc = session.acc
    try:
        entries = client.job_logs(job)
    except ReadFailed as exc:
        acc.problem(f"{exc}; no logs of {', '.join(sorted(blind))} were read through it")
        return
    agent_of = {str(_meta(t).get("name", "")): str(_meta(t).get("namespace", ""))[len(AGENT_NAMESPACE_PREFIX):]
                for t in tasks if str(_meta(t).get("namespace", "")).startswith(AGENT_NAMESPACE_PREFIX)}
    have = {(x.source.cluster, x.source.pod) for x in acc.logs if x.source.container == CONTAINER}
    usable: list[tuple[str, PodLog]] = []
    for entry in entries:
        agent = agent_of.get(entry.task, "")
        # Clusters read directly already have better logs; the gateway's are only for the ones that were not.
        if agent not in blind or (agent, entry.pod) in have:
            continue
        if entry.text.startswith(_FETCH_ERROR):
            acc.problem(f"{agent}: {NAME}: {entry.pod}: {_one_line(entry.text)}")
        elif entry.text.strip() and not _NO_LOGS.match(entry.text):
            usable.append((agent, entry))
    # The request is paid whatever the job's size; the evidence kept stays within the log budget: Heads first,
    # then pods the control plane already reports Failed, then the rest in name order.
    usable.sort(key=lambda ae: ((ae[0], ae[1].pod) not in heads, ae[1].phase != "Failed", ae[0], ae[1].pod))
    kept = usable[: session.budget.max_log_pods]
    namespaces = _pod_namespaces(acc.objects(acc.control_plane or "", R.POD_MIRRORS))
    for agent, entry in kept:
        source = LogSource(cluster=agent, namespace=namespaces.get((agent, entry.pod), MEMBER_NAMESPACE),
                           pod=entry.pod, container=CONTAINER)
        acc.add_log(LogExcerpt(source=source, text=_tail(entry.text, session.budget.log_limit_bytes),
                               truncated=True))
    for agent, key in sorted(blind.items()):
        n = sum(1 for a, _ in kept if a == agent)
        total = sum(1 for a, _ in usable if a == agent)
        if n:
            of = f"{n} of {total}" if total > n else str(n)
            acc.amend(key, f"; the `{CONTAINER}` logs of {of} of its pods came from the {NAME} instead "
                           f"(its tail: the last {TAIL_LINES} lines of each)")
        else:
            acc.amend(key, f"; the {NAME} had no logs of its pods either")


def _meta(obj: Obj) -> Obj:
    return obj.get("metadata") or {}


def _pod_namespaces(mirrors: list[Obj]) -> dict[tuple[str, str], str]:
    """(agent, member pod name) -> the member pod's namespace, as the Pod mirrors record it."""
    out: dict[tuple[str, str], str] = {}
    for m in mirrors:
        ns = str(_meta(m).get("namespace", ""))
        if not ns.startswith(AGENT_NAMESPACE_PREFIX):
            continue
        labels, spec = _meta(m).get("labels") or {}, m.get("spec") or {}
        name = labels.get(LOCAL_POD_NAME) or spec.get("podName")
        pod_ns = labels.get(LOCAL_POD_NAMESPACE) or spec.get("podNamespace")
        if name and pod_ns:
            out[(ns[len(AGENT_NAMESPACE_PREFIX):], str(name))] = str(pod_ns)
    return out


def _tail(text: str, limit: int) -> str:
    """At most `limit` bytes from the end, starting at a line: the tail is where a crash is."""
    data = text.encode()
    if len(data) <= limit:
        return text
    cut = data[-limit:]
    nl = cut.find(b"\n")
    return (cut[nl + 1:] if 0 <= nl < len(cut) - 1 else cut).decode("utf-8", errors="ignore")


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line[:200] + "..." if len(line) > 200 else line
