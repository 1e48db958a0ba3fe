"""Names of the signals a runbook trigger may use, with what each one means.

Signals are facts a regex over one line cannot establish: stage order in the Ray wrapper's log, counts across
pods, ages against `now`, cross-object comparisons. Each is implemented in this package.
"""

SIGNALS: dict[str, str] = {
    "ray.wrapper-stopped": "a pod printed `RLINF_NODE_RANK:` but its main container ended before the prepare script"
    " or the Ray steps began",
    "ray.prepare-failed": "after `Executing prepare script...` the container failed before the Ray CLI check"
    " (first error after the marker)",
    "ray.waiting-for-nodes": "the Head printed `Waiting for N nodes` and never counted N"
    " (`Current node count: m`, m < N)",
    "ray.head-unreachable": "a worker printed `Connecting to Ray head` and kept retrying without `Head is reachable`",
    "ray.multi-head": "more than one pod printed `Executing run script...`",
    "ray.temp-dir": "a permission, read-only, space or quota error on the Ray temp dir the role set (RAY_TEMP_DIR,"
    " --temp-dir), in any of the pod's logs",
    "ray.run-script-failed": "after `Executing run script...` an error came before any training signal",
    "spec.head-invalid": "the Job has no Head task or more than one, or the Head task's replicas is not 1",
    "spec.selector-invalid": "a Task's nodeSelector is empty or has comma-separated values",
    "spec.selector-cross-cluster": "a selector matches RLark Nodes in more than one cluster, or a worker runs on a"
    " node outside its Task's cluster",
    "spec.selector-control-plane-label": "a selector uses a label only RLark Node objects carry (rlark.io/*), so"
    " member-cluster pods never schedule",
    "task.unrouted": "a Task sits in namespace `default`: no Node matched, no agent will run it",
    "task.no-worker": "a routed Task has no pods at all although it is not stopped",
    "task.stopped": "the Job is stopped (spec.stopped or phase Stopped)",
    "agent.disconnected": "the heartbeat Lease of a Task's cluster was not renewed for over 30 s",
    "status.out-of-sync": "Job, Task, Pod mirror and member Pod phases disagree beyond the sync grace period",
    "stop.workers-remain": "the Job is stopped but member pods still run beyond the grace period",
    "worker.replaced": "one worker name was seen with several pod UIDs, IPs or nodes (mirrors, events about an"
    " older UID, an eviction from another node, or the Head's Ray marking the worker's old address dead)",
    "schedule.fit-no-node-selected": "judged from the nodes' labels against the pod's nodeSelector and required"
    " affinity (or a pod-less Task's template against the RLark Nodes), no node is one the pod asks for",
    "schedule.fit-nodes-closed": "every node the pod asks for is cordoned, not Online, or carries a taint the pod"
    " does not tolerate",
    "schedule.fit-no-room": "a node the pod asks for is open to it, but its allocatable minus what bound pods request"
    " is short of the pod's requests",
    "node.arch-mismatch": "a failing pod's logs, container messages or events name, for native code (a wheel's"
    " platform tag, a shared object, an image platform), another CPU architecture than its node's kubernetes.io/arch;"
    " or say exec format error on a node whose architecture is known",
    "node.clock-skew": "on a failing pod, times from different sources disagree beyond two minutes: the kubelet's"
    " container start before the API server created the pod, or the first log line before the pod existed or after"
    " the capture",
    "pod.pvc-pending": "a pod that cannot be scheduled mounts a PVC whose status is still Pending (or Lost)",
    "pod.pull-slow": "a pod is still pulling images / initializing far beyond normal with no error",
    "pod.pending-long": "a pod has been Pending longer than the threshold",
    "arc.stale-runner": "an EphemeralRunner is Running without its pod, or failed runners were left behind",
    "karpenter.nodepool-unhealthy": "a NodePool has NodeRegistrationHealthy=False, is not Ready past its first"
    " minutes, or its NodeClass is missing",
    "arc.runner-too-old": "an EphemeralRunner is older than the runner age limit (12 h by default), whatever its phase",
    "node.mixed-schedulers": "the pod's node is shared by pods of two schedulers whose requests exceed its"
    " allocatable resources",
    "run.lock-wait-stalled": "a running container's log stopped at a wait (a lock, another process, \"using ... as"
    " ... root\") longer ago than the stall threshold",
    "run.output-stalled": "a running container's log stopped at a load, download or start-up step longer ago than"
    " the stall threshold (outside an RLark run script)",
    "run.script-stalled": "after `Executing run script...`, before any training signal, the log stopped at a load or"
    " start-up step longer ago than the stall threshold",
    "run.training-stalled": "a training log that printed progress at a steady rhythm has printed nothing for far"
    " longer than its steps take (and than the training stall threshold), its container still running, no error"
    " printed",
    "run.no-persistent-output": "a script or log writes outputs or checkpoints to an absolute path outside every"
    " volumeMount of the container",
    "liqo.offloading-failed": "a NamespaceOffloading is not taken over (CreationLoopBackOff / not Ready)",
    "risk.credentials": "the redactor found a credential in logs, spec or env",
}
