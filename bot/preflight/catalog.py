"""The preflight rules (CONTRACT §8): id, short name, whether it needs the inventory, and its source."""

from __future__ import annotations

from dataclasses import dataclass

JOBS = "rlark-jobs §"
FIRST = "rlark-first-run §"
CREATOR = f"{JOBS} 创建器无法进入下一步或提交"
NO_WORKER = f"{JOBS} 尚未出现 Worker"
PENDING_WORKER = f"{JOBS} 已出现 Worker，但仍为 Pending"
WORKER_FAILED = f"{JOBS} Worker 异常或日志显示进程失败"
BY_ERROR = f"{JOBS} 按错误类型排查"
RAY_INIT = f"{JOBS} Ray 初始化或组网失败"
WIZARD = f"{FIRST} 创建向导无法继续"
SUBMITTED = f"{FIRST} 确认任务是否提交成功"
NO_OUTPUT = f"{FIRST} 处理没有持久输出的任务"


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    live: bool
    source: str


def _rules(*rows: tuple[str, str, bool, str]) -> dict[str, Rule]:
    return {r[0]: Rule(*r) for r in rows}


RULES = _rules(
    ("P01", "name-format", False, CREATOR),
    ("P02", "name-letter-first", False,
     "RLark agent (ray_init.go, pull.go): the Head Service must be a DNS-1035 label"),
    ("P03", "name-length", False, "Kubernetes name limits"),
    ("P04", "name-free", True, f"{CREATOR}; {SUBMITTED}"),
    ("P05", "roles", False, CREATOR),
    ("P06", "role-field", False, "RLark CRD"),
    ("P07", "one-head", False, CREATOR),
    ("P08", "head-replicas", False, f"{CREATOR}; {RAY_INIT}; {WIZARD}"),
    ("P09", "head-one-node", True, f"{CREATOR}; {WIZARD}"),
    ("P10", "image", False, f"{CREATOR}; {BY_ERROR}"),
    ("P11", "main-container", False, "RLark agent: only the container named main gets the Ray wrapper"),
    ("P12", "selector-nonempty", False, f"{CREATOR}; {NO_WORKER}"),
    ("P13", "selector-single-value", False, f"{CREATOR}; {WIZARD}"),
    ("P14", "selector-matches", True, NO_WORKER),
    ("P15", "selector-one-cluster", True, f"{CREATOR}; {WIZARD}"),
    ("P16", "selector-member-labels", False, "RLark model: the label exists only on RLark Node objects"),
    ("P17", "cluster-online", True, NO_WORKER),
    ("P18", "replicas-fit", True, f"RLark agent (one pod per node); {NO_WORKER}"),
    ("P19", "gpu-per-node", True, CREATOR),
    ("P20", "gpu-total", True, "RLark creator"),
    ("P21", "cpu-mem-fit", True, PENDING_WORKER),
    ("P22", "extended-limits", False, "Kubernetes: extended resources need requests equal to limits"),
    ("P23", "mount-path", False, CREATOR),
    ("P24", "hostpath", False, f"{CREATOR}; {PENDING_WORKER}"),
    ("P25", "storage-class", False, f"{CREATOR}; {NO_WORKER}"),
    ("P26", "shared-volume", False, f"{WORKER_FAILED} (shared directories)"),
    ("P27", "run-command", False, CREATOR),
    ("P28", "reserved-names", False, RAY_INIT),
    ("P29", "template-labels", False, "RLark agent: the StatefulSet selects its pods by app: <job>-<task>"),
    ("P30", "unknown-keys", False, "RLark gateway: unknown keys are dropped silently"),
    ("P31", "workload-kind", False, "RLark agent"),
    ("P32", "unsupported-fields", False, f"{BY_ERROR}; {WIZARD}"),
    ("P33", "credentials", False, CREATOR),
    ("P34", "domain", True, "RLark model: Domains"),
    ("P35", "paths-in-mounts", False, f"{WORKER_FAILED} (paths); {NO_OUTPUT}"),
)
# Live parts of rules that also have offline checks (reported as not checked without the inventory).
LIVE_PARTS = ("P25", "P26")
LIVE_RULES = tuple(r.id for r in RULES.values() if r.live) + LIVE_PARTS
