"""Jobs minutes old, and the same situations once their window has passed: `python -m tests.scenariogen.young`
rewrites tests/scenarios/young-*.

Each family varies the age of the job (and the wording of what the objects say) across the window of the step
it is in: a Task without pods, the Head's node check, a worker retrying the Head, an image pull, a pod the
scheduler has not tried. Inside the window and with nothing named as a failure, nothing at error level or above
may be reported (`healthy`); past it, or with a failure named in the evidence (a quota refusal, replicas 0, a Task
message that says the creation failed), the case is the first answer whatever the job's age.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable

from tests.scenariogen import ci
from tests.scenariogen.common import meta
from tests.scenariogen.rlark import (
    SCENARIOS,
    JobM,
    PodM,
    Scenario,
    event,
    fill_healthy_logs,
    head_waiting_log,
    lts,
    main_logs,
    pod_event,
    prepare_ok,
    rank_lines,
    ray_check,
    ray_head_start,
    stable_uid,
    standard_job,
    ts,
    waiting,
    worker_connect,
)

PREFIX = "young-"
AnyScenario = Scenario | ci.Scenario
REGISTRY: list[Callable[[], list[AnyScenario]]] = []
STILL = "Still starting: nothing at error level or above."


def family(fn: Callable[[], list[AnyScenario]]) -> Callable[[], list[AnyScenario]]:
    REGISTRY.append(fn)
    return fn


def _age(minutes: float) -> str:
    return f"{round(minutes * 60)}s" if minutes < 1 else f"{minutes:g}m".replace(".", "p")


def _head(job: JobM) -> PodM:
    assert job.head is not None and job.head.pods
    return job.head.pods[0]


def _no_pods(name: str, age: float, *, message: str = "", workers: int = 2) -> tuple[Scenario, JobM]:
    """A Job `age` minutes old whose Tasks are routed to a live agent and have no pods yet."""
    sc = Scenario(name)
    sc.cluster("gpu-a")
    job = standard_job(sc, f"grpo-{name.removeprefix(PREFIX)[:20].rstrip('-')}", workers=workers, age_min=age)
    for t in job.tasks:
        t.pods = []
        t.message = message
    return sc, job


# ------------------------------------------------------------------------------------ a Task without pods


NEUTRAL_MESSAGES = ["", "Waiting for pods to be created", "StatefulSet created, 0/1 pods ready", "等待 Pod 创建",
                    "workload reconciling"]
FAILING_MESSAGES = [
    'create Pod grpo-x-rollout-0 in StatefulSet grpo-x-rollout failed error: pods "grpo-x-rollout-0" is forbidden: '
    "exceeded quota: rlark-system-gpu",
    "工作负载创建失败：admission webhook \"vpod.rlark.io\" denied the request",
    "Error creating StatefulSet: Internal error occurred: failed calling webhook",
]


@family
def task_without_pods() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for i, age in enumerate((0.4, 2, 6, 9, 13.5)):
        msg = NEUTRAL_MESSAGES[i % len(NEUTRAL_MESSAGES)]
        sc, _job = _no_pods(f"young-no-pods-{_age(age)}", age, message=msg)
        sc.expects(f"Submitted {_age(age)} ago: the Tasks are routed to a live agent and have no pod yet"
                   + (f" (Task message {msg!r})" if msg else "") + ". " + STILL, healthy=True)
        out.append(sc)
    for age in (17, 30, 75):
        sc, _job = _no_pods(f"young-no-pods-expired-{_age(age)}", age)
        sc.expects(f"Submitted {_age(age)} ago and still no pod for any Task, with nothing in the evidence saying "
                   "why: past the window, the Task without workers is the answer.",
                   first="rlark.task.no-worker", excludes=["rlark.task.unrouted", "rlark.agent.disconnected"])
        out.append(sc)
    for i, (age, msg) in enumerate(zip((1.5, 4, 8), FAILING_MESSAGES, strict=True)):
        sc, _job = _no_pods(f"young-no-pods-failing-message-{i + 1}", age, message=msg)
        sc.expects(f"Submitted {_age(age)} ago; no pod, and the Task's message says the workload creation failed "
                   f"({msg[:40]!r}...): a failure named in the evidence is one at any age.",
                   first="rlark.task.no-worker")
        out.append(sc)
    return out


@family
def refused_while_young() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for age in (2.5, 7):
        sc, job = _no_pods(f"young-quota-refused-{_age(age)}", age)
        t = job.task("rollout")
        t.sts_events.append(event(
            "rlark-system", kind="StatefulSet", name=t.full, uid=stable_uid("rlark-system", t.full),
            reason="FailedCreate", component="statefulset-controller", etype="Warning", first=ts(age - 0.3),
            last=ts(0.2), count=int(age * 4),
            message=(f'create Pod {t.full}-0 in StatefulSet {t.full} failed error: pods "{t.full}-0" is forbidden: '
                     "exceeded quota: rlark-system-gpu, requested: requests.nvidia.com/gpu=8, used: "
                     "requests.nvidia.com/gpu=64, limited: requests.nvidia.com/gpu=64")))
        sc.expects(f"Submitted {_age(age)} ago; the StatefulSet controller is refused every pod by the GPU "
                   "ResourceQuota. A refusal is a failure now, not a job still starting.",
                   first="rlark.task.no-worker")
        out.append(sc)
    sc = Scenario("young-replicas-zero-2m")
    sc.cluster("gpu-a")
    job = standard_job(sc, "grpo-replicas-zero", workers=2, age_min=2, worker_kw={"replicas": 0})
    job.task("rollout").pods = []
    sc.expects("Submitted two minutes ago, not stopped, with a Task of 0 replicas: it will never get a worker, "
               "whatever its age.", first="rlark.task.no-worker", excludes=["rlark.task.stopped"])
    out.append(sc)
    return out


# ------------------------------------------------------------------------------------ the Head's node check


def _head_waits(name: str, age: float, polls: int, counts: list[int] | None = None) -> tuple[Scenario, JobM]:
    sc = Scenario(name)
    sc.cluster("gpu-a")
    job = standard_job(sc, f"ppo-{name.removeprefix(PREFIX)[:22].rstrip('-')}", workers=3, age_min=age)
    head = _head(job)
    if counts is None:
        head.logs = main_logs(head, head_waiting_log(head, polls=polls, stuck_at=1))
    else:
        head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, head.started_min - 0.1)
                              + ray_head_start(head, head.started_min - 0.6)
                              + ray_check(head, job.total_nodes, counts, head.started_min - 0.8, finished=False))
    return sc, job


def _pulling(job: JobM, since: float) -> None:
    for p in job.task("rollout").pods:
        p.phase = "Pending"
        p.waiting_all = waiting("ContainerCreating")
        p.collect_logs = False
        p.events.append(pod_event(p, "Pulling", f'Pulling image "{p.task.d.image}"', since, etype="Normal"))


def _preparing(job: JobM, downloads: int) -> None:
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + "Executing prepare script...\n" + "".join(
            f"[{lts(p.started_min - 0.2 - k * 0.3, k)}] Downloading dataset shard {k + 1}/64 (1.2 GB) ...\n"
            for k in range(downloads)))


@family
def head_check_in_window() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for age in (4, 8, 12):
        sc, job = _head_waits(f"young-head-waits-workers-pulling-{_age(age)}", age, polls=int((age - 2) * 5.5))
        _pulling(job, since=age - 0.5)
        sc.expects(f"Submitted {_age(age)} ago: the Head's node check is inside its 15 minutes at 1 of 4 nodes "
                   "while the workers' pods pull the image. " + STILL, healthy=True)
        out.append(sc)
    for age in (5, 11):
        sc, job = _head_waits(f"young-head-waits-workers-preparing-{_age(age)}", age, polls=int((age - 2) * 5.5))
        _preparing(job, downloads=int(age * 2))
        sc.expects(f"Submitted {_age(age)} ago: the Head's node check is inside its window while every worker "
                   "is still downloading in its prepare script. " + STILL, healthy=True)
        out.append(sc)
    sc, job = _head_waits("young-head-count-rising-6m", 6, polls=0, counts=[1, 1, 1, 2, 2, 2, 3, 3])
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, p.started_min - 0.1) + worker_connect(p))
    sc.expects("Six minutes old: the Head's node count rises 1, 2, 3 of 4 inside its window. " + STILL,
               healthy=True)
    out.append(sc)
    return out


@family
def head_check_past_window() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for age, polls in ((19, 86), (27, 86)):
        sc, job = _head_waits(f"young-head-waits-expired-{_age(age)}", age, polls=polls)
        for p in job.task("rollout").pods:
            p.collect_logs = False
        sc.expects(f"Submitted {_age(age)} ago: the Head has waited past its 15-minute node check at 1 of 4 nodes; "
                   "the workers' logs were not collected.", first="rlark.ray.waiting-for-nodes",
                   last_stage="ray-cluster-forming")
        out.append(sc)
    sc, job = _head_waits("young-head-stalled-workers-up-10m", 10, polls=48)
    for p in job.task("rollout").pods:
        p.collect_logs = False
    sc.expects("Ten minutes old: inside the check's 15 minutes, but the node count has stood at 1 of 4 for eight "
               "minutes while every worker pod is Running: stalled, not starting.",
               first="rlark.ray.waiting-for-nodes")
    out.append(sc)
    return out


def _deadline(text: str, seconds: int) -> str:
    """The node check's printed countdown as if it had been configured for `seconds` instead of 900."""
    return re.sub(r"Time remaining: (\d+)s", lambda m: f"Time remaining: {max(0, int(m.group(1)) + seconds - 900)}s",
                  text)


@family
def head_check_stated_deadline() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    sc, job = _head_waits("young-head-check-30m-deadline-20m", 20, polls=0, counts=[1, 1, 2, 2, 2, 3] * 16)
    head = _head(job)
    head.logs["main"] = _deadline(head.logs["main"], 1800)
    _pulling(job, since=12)
    for p in job.task("rollout").pods[:2]:
        p.phase, p.waiting_all, p.collect_logs = "Running", None, True
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, p.started_min - 0.1) + worker_connect(p))
    sc.expects("Twenty minutes old: the Head's node check counts down from 1800 s (it was given 30 minutes) and "
               "is at 3 of 4 while the last worker still pulls its image. " + STILL, healthy=True)
    out.append(sc)
    sc, job = _head_waits("young-head-check-5m-deadline-9m", 9, polls=0, counts=[1] * 40)
    head = _head(job)
    head.logs["main"] = _deadline(head.logs["main"], 300)
    _pulling(job, since=8.5)
    sc.expects("Nine minutes old: the Head's node check counts down from 300 s and has run seven minutes at 1 of 4 "
               "nodes: its own deadline has passed.", first="rlark.ray.waiting-for-nodes")
    out.append(sc)
    return out


# ------------------------------------------------------------------------------------ a worker retrying the Head


@family
def worker_retries_head() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for age, attempts in ((2, 8), (3.5, 20)):
        name = f"young-worker-retries-head-{_age(age)}"
        sc = Scenario(name)
        sc.cluster("gpu-a")
        job = standard_job(sc, f"sft-{_age(age)}-retry", workers=2, age_min=age)
        head = _head(job)
        head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, head.started_min - 0.1))
        for p in job.task("rollout").pods:
            p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 0)
                               + worker_connect(p, attempts_unreachable=attempts, reachable=False))
        sc.expects(f"Submitted {_age(age)} ago: the Head is still in its prepare script and the workers retry it "
                   f"({attempts} attempts). " + STILL, healthy=True)
        out.append(sc)
    for age in (7, 12):
        sc = Scenario(f"young-workers-wait-head-preparing-{_age(age)}")
        sc.cluster("gpu-a")
        job = standard_job(sc, f"sft-{_age(age)}-prep", workers=2, age_min=age)
        head = _head(job)
        head.logs = main_logs(head, rank_lines(head) + "Executing prepare script...\n" + "".join(
            f"[{lts(head.started_min - 0.2 - k * 0.25, k)}] Downloading checkpoint shard {k + 1}/80 (4.1 GB) ...\n"
            for k in range(int((age - 1.6) * 4))))
        for p in job.task("rollout").pods:
            p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 0)
                               + worker_connect(p, attempts_unreachable=int(age * 10), reachable=False))
        sc.expects(f"Submitted {_age(age)} ago: the Head is still downloading its checkpoint in its prepare script, "
                   "so it has not started Ray, and the workers retry it all that time. " + STILL, healthy=True)
        out.append(sc)
    sc = Scenario("young-worker-retries-head-expired-14m")
    sc.cluster("gpu-a")
    job = standard_job(sc, "sft-14m-retry", workers=2, age_min=14)
    head = _head(job)
    head.logs = main_logs(head, head_waiting_log(head, polls=60, stuck_at=1))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 0)
                           + worker_connect(p, attempts_unreachable=120, reachable=False))
    sc.expects("Fourteen minutes old: the Head has run Ray for twelve minutes and the workers have retried it all "
               "that time without reaching it.", first="rlark.ray.head-unreachable")
    out.append(sc)
    return out


# ------------------------------------------------------------------------------------ image pulls, unscheduled pods


@family
def pulls() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for age in (3, 9, 13):
        sc = Scenario(f"young-pulling-{_age(age)}")
        sc.cluster("gpu-a")
        job = standard_job(sc, f"grpo-pull-{_age(age)}", workers=2, age_min=age)
        for t in job.tasks:
            for p in t.pods:
                p.phase, p.collect_logs = "Pending", False
                p.waiting_all = waiting("ContainerCreating")
                p.events.append(pod_event(p, "Pulling", f'Pulling image "{t.d.image}"', age - 0.6, etype="Normal"))
        sc.expects(f"Submitted {_age(age)} ago: every pod is scheduled and pulling the image, no pull has failed. "
                   + STILL, healthy=True)
        out.append(sc)
    sc = Scenario("young-pull-stalled-40m")
    sc.cluster("gpu-a")
    job = standard_job(sc, "grpo-pull-40m", workers=2, age_min=40)
    for t in job.tasks:
        for p in t.pods:
            p.phase, p.collect_logs = "Pending", False
            p.waiting_all = waiting("ContainerCreating")
            p.events.append(pod_event(p, "Pulling", f'Pulling image "{t.d.image}"', 39.4, etype="Normal"))
    sc.expects("Forty minutes pulling the image without a Pulled event: the pull is stalled, past any window.",
               first="pod.image.pull-slow")
    out.append(sc)
    for seconds in (15, 50):
        sc = Scenario(f"young-pending-untried-{seconds}s")
        sc.cluster("gpu-a")
        job = standard_job(sc, f"ppo-untried-{seconds}s", workers=2, age_min=seconds / 60)
        for t in job.tasks:
            for p in t.pods:
                p.node, p.ip, p.phase, p.collect_logs = None, None, "Pending", False
                p.conditions = []
        sc.expects(f"Submitted {seconds}s ago: the pods are Pending and the scheduler has not tried them yet. "
                   + STILL, healthy=True)
        out.append(sc)
    return out


# ------------------------------------------------------------------------------------ a claim being provisioned

UNBOUND = ("0/8 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/8 nodes are "
           "available: 8 Preemption is not helpful for scheduling.")


def _claim_job(name: str, age: float, *, scheduler_tried: bool, provisioner: bool,
               failed: str = "") -> Scenario:
    sc = Scenario(name)
    c = sc.cluster("gpu-a")
    job_name = f"ppo-claim-{name.removeprefix(PREFIX)[-12:].strip('-')}"
    claim = f"{job_name}-actor-ckpt"  # named after its Task, as the collector finds a Task's claims
    mounts = [{"name": "ckpt", "mountPath": "/data/checkpoints"}]
    vols = [{"name": "ckpt", "persistentVolumeClaim": {"claimName": claim}}]
    job = standard_job(sc, job_name, workers=1, age_min=age,
                       head_kw={"mounts": mounts, "volumes": vols, "pvc_map": {claim: "juicefs-sc"}})
    head = _head(job)
    sc.node(head.node or "").used_gpus = 0
    head.node, head.ip, head.phase, head.collect_logs, head.conditions = None, None, "Pending", False, []
    if scheduler_tried:
        head.events.append(pod_event(head, "FailedScheduling", UNBOUND, age - 0.05, 0.1, count=max(1, int(age * 2)),
                                     component="default-scheduler"))
    uid = stable_uid("rlark-system", claim)
    c.pvcs.append({"kind": "PersistentVolumeClaim", "apiVersion": "v1",
                   "metadata": meta(claim, "rlark-system", created=ts(age - 0.03), uid=uid,
                                    labels={"rlark.io/task": head.task.full},
                                    annotations={"rlark.io/pvc-owner": head.task.full,
                                                 "rlark.io/pvc-owner-task": head.task.full}),
                   "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "50Gi"}},
                            "storageClassName": "juicefs-sc", "volumeMode": "Filesystem"},
                   "status": {"phase": "Pending"}})
    if provisioner:
        c.extra_events.append(event(
            "rlark-system", kind="PersistentVolumeClaim", name=claim, uid=uid, reason="ExternalProvisioning",
            component="persistentvolume-controller", first=ts(age - 0.03), last=ts(0.05), count=max(1, int(age * 4)),
            message="Waiting for a volume to be created either by the external provisioner 'csi.juicefs.com' or "
                    "manually by the system administrator. If volume creation is delayed, please verify that the "
                    "provisioner is running and correctly registered."))
    if failed:
        c.extra_events.append(event(
            "rlark-system", kind="PersistentVolumeClaim", name=claim, uid=uid, reason="ProvisioningFailed",
            etype="Warning", component="csi.juicefs.com", first=ts(age - 0.1), last=ts(0.1), count=3, message=failed))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 0) + worker_connect(p, attempts_unreachable=3,
                                                                                 reachable=False))
    return sc


@family
def claims() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for age, tried, prov in ((0.3, False, False), (1.5, True, True), (3.5, True, True), (2.5, False, True)):
        sc = _claim_job(f"young-claim-provisioning-{_age(age)}{'' if tried else '-untried'}", age,
                        scheduler_tried=tried, provisioner=prov)
        sc.expects(f"Submitted {_age(age)} ago: the Head's checkpoint claim is being provisioned"
                   + (" (the external provisioner is working)" if prov else "")
                   + (" and the scheduler waits for it to bind" if tried else "") + ". " + STILL, healthy=True)
        out.append(sc)
    sc = _claim_job("young-claim-provisioning-expired-25m", 25, scheduler_tried=True, provisioner=True)
    sc.expects("The claim has waited 25 minutes for its external provisioner: past the window, the unbound claim is "
               "the answer.", first="pod.storage.pvc-unbound")
    out.append(sc)
    sc = _claim_job("young-claim-provisioning-failed-2m", 2, scheduler_tried=True, provisioner=True,
                    failed='failed to provision volume with StorageClass "juicefs-sc": rpc error: code = Internal '
                           'desc = juicefs format: secret "juicefs-secret" not found')
    sc.expects("Two minutes old, but the provisioner already answered that it failed: a failure named in the "
               "evidence is one at any age.", first="pod.storage.pvc-unbound")
    out.append(sc)
    return out


# ------------------------------------------------------------------------------------ an autoscaler bringing up a node

NO_ROOM = ("0/12 nodes are available: 3 Insufficient huawei.com/Ascend910, 9 node(s) didn't match Pod's node "
           "affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming "
           "pod, 9 Preemption is not helpful for scheduling.")
ANSWERS = [
    ("Nominated", "Pod should schedule on: nodeclaim/a2-npu-{salt}", "karpenter"),
    ("TriggeredScaleUp", "pod triggered scale-up: [{{a2-npu-pool-{salt} 3->4 (max: 16)}}]", "cluster-autoscaler"),
]


def _unplaced_runner(name: str, description: str, age: float, salt: str) -> tuple[ci.Scenario, str]:
    runner = ci.runner_name("linux-aarch64-a2-16", salt[:5], salt[5:10])
    s = ci.Scenario(name, description, f"pod/{runner}")
    ci.unschedulable_runner(s, runner, created=age, message=NO_ROOM, count=max(1, int(age * 3)))
    return s, runner


@family
def scaling_up() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for i, age in enumerate((1.5, 4, 8)):
        reason, msg, component = ANSWERS[i % 2]
        s, runner = _unplaced_runner(f"young-ci-scaling-up-{_age(age)}", f"A runner pod {_age(age)} old does not "
                                     f"fit any node for lack of NPUs, and the autoscaler answered ({reason}): a node "
                                     "is on its way. " + STILL, age, f"su{i}k7q2w9")
        s.ev(runner, reason, msg.format(salt=f"x{i}q7z"), age - 0.05, component=component)
        out.append(ci.expect(s, healthy=True))
    s, runner = _unplaced_runner("young-ci-scaling-up-expired-25m", "The autoscaler nominated a node 25 minutes ago "
                                 "and the runner pod still does not fit: past the window, the shortage is the answer.",
                                 25, "se5t8v1n3m")
    s.ev(runner, "Nominated", "Pod should schedule on: nodeclaim/a2-npu-r8d2k", 24.9, component="karpenter")
    out.append(ci.expect(s, "pod.schedule.insufficient-resources"))
    s, runner = _unplaced_runner("young-ci-scale-up-refused-3m", "Three minutes old; the autoscaler first scaled up, "
                                 "then said it would not (max node group size reached): nothing is coming.",
                                 3, "sr2f6g4h8j")
    s.ev(runner, "TriggeredScaleUp", "pod triggered scale-up: [{a2-npu-pool 15->16 (max: 16)}]", 2.9,
         component="cluster-autoscaler")
    s.ev(runner, "NotTriggerScaleUp", "pod didn't trigger scale-up: 1 max node group size reached", 1.2,
         component="cluster-autoscaler")
    out.append(ci.expect(s, "pod.schedule.insufficient-resources"))
    s, _runner = _unplaced_runner("young-ci-no-autoscaler-2m", "Two minutes old, the scheduler tried and no node has "
                                  "room, and no autoscaler answered: a shortage now, whatever the pod's age.",
                                  2, "na9c3x5z7b")
    out.append(ci.expect(s, "pod.schedule.insufficient-resources"))
    return out


# -------------------------------------------------------------------------------- a step that failed, then went through

PULL_ERRORS = [
    'Failed to pull image "{img}": rpc error: code = Unknown desc = failed to pull and unpack image "{img}": failed '
    'to copy: httpReadSeeker: failed open: failed to do request: Get "https://registry.rlinf.example/v2/": dial tcp '
    "10.0.0.5:443: i/o timeout",
    'Failed to pull image "{img}": rpc error: code = Unknown desc = failed to resolve reference "{img}": unexpected '
    "status from HEAD request: 429 Too Many Requests",
    'Failed to pull image "{img}": rpc error: code = Canceled desc = failed to pull and unpack image "{img}": '
    "context canceled",
]


@family
def went_through() -> list[AnyScenario]:
    out: list[AnyScenario] = []
    for i, age in enumerate((9, 25, 70)):
        sc = Scenario(f"young-pull-retried-then-pulled-{_age(age)}")
        sc.cluster("gpu-a")
        job = standard_job(sc, f"ppo-pull-retry-{_age(age)}", workers=1, age_min=age)
        fill_healthy_logs(job, steps=3)
        for t in job.tasks:
            for p in t.pods:
                img = t.d.image
                p.events += [
                    pod_event(p, "Failed", PULL_ERRORS[i].format(img=img), age - 0.3, age - 0.4, count=2),
                    pod_event(p, "Failed", "Error: ErrImagePull", age - 0.3, age - 0.4, count=2),
                    pod_event(p, "BackOff", f'Back-off pulling image "{img}"', age - 0.35, age - 0.5, count=2,
                              etype="Normal"),
                    pod_event(p, "Failed", "Error: ImagePullBackOff", age - 0.35, age - 0.5, count=2),
                    pod_event(p, "Pulled", f'Successfully pulled image "{img}" in 38.2s (38.2s including waiting)',
                              age - 1.1, etype="Normal")]
        sc.expects(f"The image pull failed twice ({PULL_ERRORS[i].split(': ')[-1][:40]}...) and went through on the "
                   "next try; the job trains. A retry that succeeded is not a failure.", healthy=True,
                   excludes=["pod.image.pull-failed"], last_stage="training-signal")
        out.append(sc)
    sc = Scenario("young-pull-failing-3m")
    sc.cluster("gpu-a")
    job = standard_job(sc, "ppo-pull-failing", workers=1, age_min=3)
    for t in job.tasks:
        for p in t.pods:
            img = t.d.image
            p.phase, p.collect_logs = "Pending", False
            p.waiting_all = waiting("ImagePullBackOff", f'Back-off pulling image "{img}"')
            p.events += [pod_event(p, "Failed", PULL_ERRORS[1].format(img=img), 2.8, 0.3, count=4),
                         pod_event(p, "BackOff", f'Back-off pulling image "{img}"', 2.7, 0.2, count=6,
                                   etype="Normal")]
    sc.expects("Three minutes old and every pull is refused (429) with the containers waiting in "
               "ImagePullBackOff: a failure named in the evidence is one at any age.", first="pod.image.pull-failed")
    out.append(sc)
    for age in (12, 45):
        sc = Scenario(f"young-scheduled-after-scale-up-{_age(age)}")
        sc.cluster("gpu-a")
        job = standard_job(sc, f"ppo-scaled-{_age(age)}", workers=2, age_min=age)
        fill_healthy_logs(job, steps=3)
        for t in job.tasks:
            for p in t.pods:
                p.events += [
                    pod_event(p, "FailedScheduling", "0/8 nodes are available: 8 Insufficient nvidia.com/gpu. "
                              "preemption: 0/8 nodes are available: 8 No preemption victims found for incoming pod.",
                              age - 0.02, age - 0.9, count=4, component="default-scheduler"),
                    pod_event(p, "Nominated", f"Pod should schedule on: nodeclaim/a800-train-{p.ordinal}x7k",
                              age - 0.05, etype="Normal", component="karpenter")]
        sc.expects("Every pod waited a minute for a node Karpenter brought up, was then scheduled and trains: the "
                   "FailedScheduling before it is history.", healthy=True,
                   excludes=["pod.schedule.insufficient-resources"], last_stage="training-signal")
        out.append(sc)
    return out


def main(argv: list[str] | None = None) -> int:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    for d in SCENARIOS.iterdir():
        if d.is_dir() and d.name.startswith(PREFIX):
            shutil.rmtree(d)
    names: set[str] = set()
    for fn in REGISTRY:
        for sc in fn():
            if sc.name in names or not sc.name.startswith(PREFIX):
                raise SystemExit(f"{sc.name}: duplicate or not a {PREFIX} name")
            names.add(sc.name)
            if isinstance(sc, ci.Scenario):
                sc.write(SCENARIOS / sc.name)
            else:
                sc.write()
    print(f"wrote {len(names)} bundles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
