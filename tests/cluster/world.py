"""A synthetic RLark job spread over member clusters, sized at will (tests and the benchmark).

Control plane `kcp`: the Job, one Task per agent (the Head task on the first agent), Pod mirrors, RLark Nodes
and heartbeat Leases. Each member cluster: the StatefulSets, pods `<job>-<task>-<n>` labelled `app`, a few
events per pod, nodes (8 GPUs each) and `main` logs with the Ray wrapper markers. `failing[agent]` workers
crash-loop with an NCCL error in their previous `main` log.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.cluster import resources as R
from cluster.standin import ClusterData

Obj = dict[str, Any]
def ts(seconds_ago: float = 0) -> str:
    """Relative to the moment the world is built: live diagnosis compares against the real clock (heartbeats)."""
    return (datetime.now(UTC) - timedelta(seconds=seconds_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _meta(name: str, ns: str | None = None, **extra: Any) -> Obj:
    m: Obj = {"name": name, "uid": f"uid-{ns or ''}-{name}", "creationTimestamp": ts(3600), "resourceVersion": "7"}
    if ns is not None:
        m["namespace"] = ns
    m.update(extra)
    return m


def _container(name: str, state: Obj, *, restarts: int = 0, last: Obj | None = None) -> Obj:
    return {"name": name, "image": "rlinf/rlinf:latest", "state": state, "lastState": last or {},
            "ready": "running" in state, "restartCount": restarts, "started": "running" in state}


def _pod(name: str, app: str, node: str, *, failing: bool) -> Obj:
    main = _container("main", {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 5m0s"}}, restarts=4,
                      last={"terminated": {"exitCode": 1, "reason": "Error", "startedAt": ts(400),
                                           "finishedAt": ts(300)}}) if failing else _container(
        "main", {"running": {"startedAt": ts(3000)}})
    return {
        "metadata": _meta(name, "rlark-system", labels={"app": app}),
        "spec": {"nodeName": node, "containers": [{"name": c, "image": "rlinf/rlinf:latest"}
                                                  for c in ("main", "tensorboard", "rlark-network-sidecar")]},
        "status": {"phase": "Running", "podIP": f"10.0.{len(name) % 250}.{sum(map(ord, name)) % 250}",
                   "hostIP": "192.168.0.1", "startTime": ts(3500),
                   "conditions": [{"type": "Ready", "status": "False" if failing else "True"}],
                   "containerStatuses": [main,
                                         _container("tensorboard", {"running": {"startedAt": ts(3000)}}),
                                         _container("rlark-network-sidecar", {"running": {"startedAt": ts(3000)}})]},
    }


def _event(ns: str, pod: str, reason: str, message: str, etype: str = "Normal") -> Obj:
    return {"metadata": _meta(f"{pod}.{reason.lower()}", ns), "involvedObject": {
        "kind": "Pod", "namespace": ns, "name": pod, "uid": f"uid-{ns}-{pod}"}, "reason": reason,
        "message": message, "type": etype, "count": 1, "firstTimestamp": ts(3400), "lastTimestamp": ts(60),
        "source": {"component": "kubelet"}}


def build_world(*, job: str, workers: dict[str, int], failing: dict[str, int] | None = None,
                stale_agents: tuple[str, ...] = ()) -> dict[str, ClusterData]:
    failing = failing or {}
    cp = ClusterData()
    agents = list(workers)
    tasks_spec = [{"name": "head", "head": True, "nodeSelector": {"pool": agents[0]},
                   "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": 1}}}]
    tasks_spec += [{"name": f"worker-{a}", "nodeSelector": {"pool": a},
                    "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": n}}} for a, n in workers.items()]
    cp.add(R.JOBS, {"apiVersion": "rlinf.io/v1alpha1", "kind": "Job", "metadata": _meta(job),
                    "spec": {"tasks": tasks_spec},
                    "status": {"phase": "Running", "startTime": ts(3600),
                               "tasks": [{"name": t["name"], "phase": "Running"} for t in tasks_spec]}})
    total = 1 + sum(workers.values())
    out: dict[str, ClusterData] = {"kcp": cp}
    for i, agent in enumerate(agents):
        ns = f"rlark-{agent}"
        member = out[agent] = ClusterData()
        task_entries = ([tasks_spec[0]] if i == 0 else []) + [tasks_spec[1 + i]]
        pods_here = 0
        for spec in task_entries:
            tname = f"{job}-{spec['name']}"
            head = bool(spec.get("head"))
            replicas = spec["kubernetes"]["workload"]["replicas"]
            cp.add(R.TASKS, {"metadata": _meta(tname, ns, labels={"rlinf.io/job": job}, annotations={
                "rlark.io/ray-role": "head" if head else "worker", "rlark.io/ray-total-nodes": str(total),
                "rlark.io/ray-head-task-name": f"{job}-head"}), "spec": spec,
                "status": {"phase": "Running"}})
            member.add(R.STATEFULSETS, {"metadata": _meta(tname, "rlark-system", annotations={
                "rlark.io/management-task-name": tname, "rlark.io/management-task-namespace": ns}),
                "spec": {"replicas": replicas}, "status": {"replicas": replicas, "readyReplicas": replicas}})
            n_failing = 0 if head else failing.get(agent, 0)
            for k in range(replicas):
                pod_name = f"{tname}-{k}"
                node = f"{agent}-node-{(pods_here) // 8}"
                pods_here += 1
                bad = k >= replicas - n_failing
                member.add(R.PODS, _pod(pod_name, tname, node, failing=bad))
                cp.add(R.POD_MIRRORS, {"metadata": _meta(f"uid-{pod_name}", ns, labels={
                    "rlark.io/task-name": tname, "rlark.io/local-pod-name": pod_name,
                    "rlark.io/local-pod-namespace": "rlark-system"}),
                    "status": {"phase": "Running", "node": node}})
                member.add(R.EVENTS, _event("rlark-system", pod_name, "Scheduled", f"assigned to {node}"))
                member.add(R.EVENTS, _event("rlark-system", pod_name, "Started", "Started container main"))
                rank = 0 if head else k + 1
                lines = [f"RLINF_NODE_RANK: {rank}", "Executing prepare script..."]
                if head:
                    lines += [f"Waiting for {total} nodes to join the Ray cluster...", f"Current node count: {total}",
                              "Ray cluster is ready. Printing cluster information:", "Executing run script...",
                              *[f"step {s} loss 0.{s:03d}" for s in range(200)]]
                else:
                    lines += [f"Connecting to Ray head at {job}-head-ray-head:6379...",
                              f"Head is reachable at {job}-head-ray-head:6379"]
                member.add_log("rlark-system", pod_name, "main", "\n".join(lines) + "\n")
                member.add_log("rlark-system", pod_name, "tensorboard", "TensorBoard 2.15.1 at http://0.0.0.0:6006/\n")
                if bad:
                    member.add(R.EVENTS, _event("rlark-system", pod_name, "BackOff",
                                                "Back-off restarting failed container main", "Warning"))
                    member.add_log("rlark-system", pod_name, "main", "\n".join(
                        [*lines, "NCCL WARN socket timeout", "torch.distributed.DistBackendError: NCCL error",
                         "Ray worker process exited with code 1"]) + "\n", previous=True)
        for n in range((pods_here + 7) // 8):
            node = f"{agent}-node-{n}"
            member.add(R.NODES, {"metadata": _meta(node, labels={"pool": agent, "kubernetes.io/hostname": node}),
                                 "spec": {}, "status": {"conditions": [{"type": "Ready", "status": "True"}],
                                                        "allocatable": {"nvidia.com/gpu": "8"},
                                                        "nodeInfo": {"architecture": "amd64"}}})
            cp.add(R.RLARK_NODES, {"metadata": _meta(node, ns, labels={"rlark.io/cluster-id": ns, "pool": agent}),
                                   "spec": {}, "status": {"phase": "Online"}})
        renewed = ts(600) if agent in stale_agents else ts(1)
        cp.add(R.LEASES, {"metadata": _meta("heartbeat", ns), "spec": {"holderIdentity": agent,
                                                                      "renewTime": renewed.replace("Z", ".000000Z")}})
    return out
