"""Rules against the inventory: name free, selector matches, clusters online, capacity, storage, domains."""

from __future__ import annotations

from dataclasses import dataclass

from bot.models import RNode
from bot.preflight.document import JobDocument, join
from bot.preflight.findings import Findings
from bot.preflight.inventory import JOBS, LEASES, NODES, RCLONE_CSI, Inventory, agent_of_node
from bot.preflight.quantity import free, show
from bot.preflight.rules_pod import claims
from bot.preflight.view import TaskView, as_dict, text
from bot.settings import Thresholds
from bot.signals.selectors import multi_value_pairs, usable

SELECTOR_RULES = ("P09", "P14", "P15", "P17", "P18", "P19", "P20", "P21", "P25", "P26")


@dataclass(frozen=True)
class Match:
    """What one task's full selector matches in the inventory."""

    task: TaskView
    matched: list[RNode]
    usable: list[RNode]

    @property
    def clusters(self) -> list[str]:
        return sorted({agent_of_node(n) for n in self.matched})

    @property
    def cluster(self) -> str | None:
        return self.clusters[0] if len(self.clusters) == 1 else None


def check_replicas(tasks: list[TaskView], out: Findings) -> None:
    """P18's offline half: at least one replica (a Task with 0 replicas never gets a pod unless stopped)."""
    for t in tasks:
        if t.replicas is not None and t.replicas < 1:
            out.error("P18", task=t.label, path=f"{t.workload_path}.replicas",
                      en=f"replicas is {t.replicas}: the Task would never get a pod; set at least 1",
                      zh=f"replicas 为 {t.replicas}：Task 不会创建任何 Pod；请至少设为 1")


def check_live(doc: JobDocument, tasks: list[TaskView], *, inv: Inventory, out: Findings,
               thresholds: Thresholds, resubmit: bool) -> None:
    if not resubmit:
        _name_free(doc, inv, out=out)
    matches: list[Match] = []
    for t in tasks:
        sel = t.selector
        if not sel or multi_value_pairs(sel):
            for rule in SELECTOR_RULES:
                out.not_checked(rule, f"task {t.label}: the selector is invalid (see P12/P13)",
                                f"角色 {t.label}：选择器无效（见 P12/P13）")
            continue
        matched = inv.matching(sel)
        m = Match(t, matched, [n for n in matched if usable(n)])
        matches.append(m)
        _selector(m, inv, out=out)
        _online(m, inv, out=out, thresholds=thresholds)
        _capacity(m, inv, out=out)
        _storage(m, inv, out=out)
        _shared(doc, m, inv=inv, out=out)
    _domain(doc, matches, inv=inv, out=out)


def _nodes_lack(inv: Inventory, out: Findings, *, rule: str, task: str) -> bool:
    why = inv.lacks(NODES)
    if why:
        out.not_checked(rule, f"task {task}: Nodes not read in full ({why})", f"角色 {task}：Node 未读全（{why}）")
    return bool(why)


def _states(nodes: list[RNode]) -> str:
    shown = ", ".join(f"{agent_of_node(n)}/{n.name} {n.status.phase or '?'}"
                      + (" unschedulable" if n.spec.unschedulable else "") for n in nodes[:5])
    return shown + (f" and {len(nodes) - 5} more" if len(nodes) > 5 else "")


def _name_free(doc: JobDocument, inv: Inventory, *, out: Findings) -> None:
    if inv.lacks(JOBS):
        out.not_checked("P04", f"existing Jobs not read ({inv.lacks(JOBS)})", f"未读取现有 Job（{inv.lacks(JOBS)}）")
    elif doc.name and doc.name in inv.jobs:
        out.error("P04", task=None, path="metadata.name",
                  en=f"a Job named {doc.name!r} already exists (the gateway would answer HTTP 500): resubmit under "
                     "a new name",
                  zh=f"已存在名为 {doc.name!r} 的 Job（网关会返回 HTTP 500）：请换一个新名称提交")


def _selector(m: Match, inv: Inventory, *, out: Findings) -> None:
    t, sel_path = m.task, f"{m.task.path}.nodeSelector"
    shown = ", ".join(f"{k}={v}" for k, v in t.selector.items())
    certain = t.head and (len(m.matched) > 1 or not _nodes_lack(inv, out, rule="P09", task=t.label))  # unread Nodes add
    if certain and len(m.matched) != 1:
        out.error("P09", task=t.label, path=sel_path,
                  en=f"the Head's selector {shown} matches {len(m.matched)} Nodes ({_states(m.matched) or 'none'}): "
                     "it must match exactly 1; add kubernetes.io/hostname or another pair the admin confirms",
                  zh=f"Head 的选择器 {shown} 匹配到 {len(m.matched)} 个 Node（{_states(m.matched) or '无'}）："
                     "必须恰好匹配 1 个；请加上 kubernetes.io/hostname 等经管理员确认的条件")
    if not m.usable and not _nodes_lack(inv, out, rule="P14", task=t.label):
        out.error("P14", task=t.label, path=sel_path,
                  en=f"selector {shown} matches no Online schedulable Node (matched: {_states(m.matched) or 'none'}): "
                     "ask the admin for the global match (rlark-bot nodes SELECTOR) and fix the selector",
                  zh=f"选择器 {shown} 没有匹配到 Online 且可调度的 Node（匹配：{_states(m.matched) or '无'}）："
                     "请让管理员做全局匹配（rlark-bot nodes SELECTOR）后修正选择器")
    if len(m.clusters) <= 1:
        _nodes_lack(inv, out, rule="P15", task=t.label)  # Nodes not read could still add a cluster
    else:
        out.error("P15", task=t.label, path=sel_path,
                  en=f"selector {shown} matches Nodes in {len(m.clusters)} clusters ({', '.join(m.clusters)}): the "
                     "Task may land in the wrong one; add a pair that only one cluster's Nodes carry",
                  zh=f"选择器 {shown} 跨 {len(m.clusters)} 个集群命中（{', '.join(m.clusters)}）：Task 可能落到错误集"
                     "群；"
                     "请增加只有一个集群的 Node 才有的条件")


def _online(m: Match, inv: Inventory, *, out: Findings, thresholds: Thresholds) -> None:
    t = m.task
    clusters = sorted({agent_of_node(n) for n in m.usable}) or m.clusters
    if not clusters:
        return
    if inv.lacks(LEASES):
        out.not_checked("P17", f"task {t.label}: heartbeat Leases not read ({inv.lacks(LEASES)})",
                        f"角色 {t.label}：未读取心跳 Lease（{inv.lacks(LEASES)}）")
        return
    limit = thresholds.heartbeat_timeout_seconds
    for cluster in clusters:
        lease = inv.heartbeat(cluster)
        age = lease.heartbeat_age(inv.now) if lease is not None else None
        if lease is not None and not lease.disconnected(inv.now, limit) and age is not None:
            continue
        why_en = (f"its heartbeat was last renewed {age:.0f}s ago (limit {limit}s)" if age is not None
                  else "it has no heartbeat Lease")
        why_zh = f"心跳 {age:.0f} 秒前才续约（上限 {limit} 秒）" if age is not None else "没有心跳 Lease"
        out.error("P17", task=t.label, path=f"{t.path}.nodeSelector",
                  en=f"cluster {cluster}'s agent is disconnected: {why_en}; nothing is scheduled there until it "
                     "reconnects: ask the admin",
                  zh=f"集群 {cluster} 的 agent 已断开：{why_zh}；重新连接前不会调度任何内容：请联系管理员")


def _capacity(m: Match, inv: Inventory, *, out: Findings) -> None:
    t = m.task
    if inv.lacks(NODES):
        for rule in ("P18", "P19", "P20", "P21"):
            _nodes_lack(inv, out, rule=rule, task=t.label)
        return
    if not m.usable:
        return  # P14 said it
    replicas = t.effective_replicas
    rpath = f"{t.workload_path}.replicas"
    if replicas > len(m.usable):
        out.error("P18", task=t.label, path=rpath,
                  en=f"replicas {replicas} but only {len(m.usable)} matched Node(s) are Online and schedulable (one "
                     "pod per node): lower replicas or widen the selector",
                  zh=f"replicas 为 {replicas}，但只有 {len(m.usable)} 个匹配的 Node 在线且可调度（每节点一个 Pod）："
                     "请减少副本数或放宽选择器")
    for key, want in sorted(t.gpu_request().items()):
        spare = [free(n.status.allocatable, n.status.used, key=key) for n in m.usable]
        best, total = max(spare), sum(max(s, 0.0) for s in spare)
        path = f"{t.pod_path}.containers"
        if want > best:
            out.error("P19", task=t.label, path=path,
                      en=f"each pod asks for {show(want)} {key}; the most any matched Node has free is {show(best)}: "
                         "lower the request or choose Nodes with more free devices",
                      zh=f"每个 Pod 请求 {show(want)} 个 {key}；匹配 Node 中最多只有 {show(best)} 个空闲：请降低请求"
                         "或选择空闲更多的 Node")
        elif replicas * want > total:
            out.error("P20", task=t.label, path=path,
                      en=f"{replicas} replicas x {show(want)} {key} = {show(replicas * want)}, but the matched Nodes "
                         f"have {show(total)} free in all: lower replicas or the request",
                      zh=f"{replicas} 个副本 × {show(want)} 个 {key} = {show(replicas * want)}，但匹配 Node 共只有 "
                         f"{show(total)} 个空闲：请减少副本数或请求")
    _cpu_mem(m, out)


def _cpu_mem(m: Match, out: Findings) -> None:
    t = m.task
    cpu, mem = t.requests("cpu"), t.requests("memory")
    if not cpu and not mem:
        return
    if any(free(n.status.allocatable, n.status.used, key="cpu") >= cpu
           and free(n.status.allocatable, n.status.used, key="memory") >= mem for n in m.usable):
        return
    out.warn("P21", task=t.label, path=f"{t.pod_path}.containers",
             en=f"no matched Node has {show(cpu)} CPU and {show(mem / 2**30)} GiB memory free at once: the pod may "
                "stay Pending; lower the requests or ask which Nodes have room",
             zh=f"没有匹配 Node 同时空闲 {show(cpu)} 核 CPU 和 {show(mem / 2**30)} GiB 内存：Pod 可能一直 Pending；"
                "请降低请求或确认哪些 Node 有余量")


def _storage(m: Match, inv: Inventory, *, out: Findings) -> None:
    t = m.task
    storage = as_dict(t.workload.get("pvcStorageMap"))
    wanted = [(path, claim, text(storage.get(claim))) for path, claim in claims(t) if text(storage.get(claim))]
    if not wanted:
        return
    cluster = m.cluster
    if cluster is None:
        out.not_checked("P25", f"task {t.label}: no single target cluster to look for StorageClasses in",
                        f"角色 {t.label}：没有唯一的目标集群可查 StorageClass")
        return
    lack = inv.storage_lacks(cluster)
    if lack:
        out.not_checked("P25", f"task {t.label}: {lack}", f"角色 {t.label}：{lack}")
        return
    classes = {text(as_dict(sc.get("metadata")).get("name")): sc for sc in inv.storage_classes[cluster]}
    for _, claim, cls in wanted:
        path = join(f"{t.workload_path}.pvcStorageMap", claim)
        if cls not in classes:
            out.error("P25", task=t.label, path=path,
                      en=f"StorageClass {cls!r} (claim {claim!r}) does not exist in cluster {cluster} (it has: "
                         f"{', '.join(sorted(classes)) or 'none'}): pick one of those or ask the admin to link the "
                         "object storage to this cluster",
                      zh=f"集群 {cluster} 中不存在 StorageClass {cls!r}（PVC {claim!r}；现有"
                         f"：{', '.join(sorted(classes)) or '无'}）："
                         "请选择已有的，或请管理员把对象存储关联到该集群")
        elif text(classes[cls].get("provisioner")) != RCLONE_CSI:
            out.warn("P25", task=t.label, path=path,
                     en=f"StorageClass {cls!r} in {cluster} is provisioned by {classes[cls].get('provisioner')!r}, "
                        f"not RLark's object storage ({RCLONE_CSI}): confirm it is the storage you mean",
                     zh=f"{cluster} 中的 StorageClass {cls!r} 由 {classes[cls].get('provisioner')!r} 提供，"
                        f"不是 RLark 的对象存储（{RCLONE_CSI}）：请确认")


def _volumes_of(task: dict[str, object]) -> set[str]:
    view = TaskView(0, dict(task))
    out = {f"claim {c}" for _, c in claims(view) if c}
    out |= {f"hostPath {text(as_dict(v.get('hostPath')).get('path'))}" for _, v in view.volumes() if "hostPath" in v}
    return out


def _shared(doc: JobDocument, m: Match, *, inv: Inventory, out: Findings) -> None:
    mine = _volumes_of(m.task.data)
    if not mine:
        return
    if inv.lacks(JOBS):
        out.not_checked("P26", f"existing Jobs not read ({inv.lacks(JOBS)})", f"未读取现有 Job（{inv.lacks(JOBS)}）")
        return
    nodes = {(n.cluster_id, n.name) for n in m.matched}
    for name, job in sorted(inv.jobs.items()):
        spec, status = as_dict(job.get("spec")), as_dict(job.get("status"))
        if name == doc.name or spec.get("stopped") is True or status.get("phase") in ("Succeeded", "Failed", "Stopped"):
            continue
        for other in (as_dict(x) for x in spec.get("tasks") or []):
            both = mine & _volumes_of(other)
            sel = {str(k): str(v) for k, v in as_dict(other.get("nodeSelector")).items()}
            if both and sel and nodes & {(n.cluster_id, n.name) for n in inv.matching(sel)}:
                out.warn("P26", task=m.task.label, path=f"{m.task.pod_path}.volumes",
                         en=f"running Job {name!r} (task {text(other.get('name'))!r}) uses the same "
                            f"{', '.join(sorted(both))} on the same Nodes: the runs would overwrite each other; use "
                            "a directory of this run's own",
                         zh=f"运行中的 Job {name!r}（角色 {text(other.get('name'))!r}）在相同 Node 上使用同一 "
                            f"{', '.join(sorted(both))}：两次运行会互相覆盖；请使用本次运行独立的目录")


def _domain(doc: JobDocument, matches: list[Match], *, inv: Inventory, out: Findings) -> None:
    domain = text(as_dict(doc.data.get("spec")).get("domain"))
    if domain:
        if inv.lacks("domains"):
            why = inv.lacks("domains")
            out.not_checked("P34", f"Domains not read ({why})", f"未读取 Domain（{why}）")
        elif domain not in inv.domains:
            out.error("P34", task=None, path="spec.domain",
                      en=f"Domain {domain!r} does not exist (known: {', '.join(sorted(inv.domains)) or 'none'}): use "
                         "an existing Domain or ask the admin to create it",
                      zh=f"Domain {domain!r} 不存在（现有：{', '.join(sorted(inv.domains)) or '无'}）：请使用已有 Dom"
                         "ain 或请管理员创建")
        return
    clusters = sorted({m.cluster for m in matches if m.cluster})
    if len(clusters) > 1:
        out.warn("P34", task=None, path="spec",
                 en=f"tasks run in different clusters ({', '.join(clusters)}) and the Job has no spec.domain: "
                    "they cannot reach each other across clusters; set a Domain that spans them",
                 zh=f"各角色分布在不同集群（{', '.join(clusters)}）且 Job 没有 spec.domain：跨集群无法互通；"
                    "请设置覆盖这些集群的 Domain")
