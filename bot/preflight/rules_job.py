"""Offline rules about the Job's name, its tasks, the Head and the run command (P01-P08, P27, P31)."""

from __future__ import annotations

import re

from bot.models.evidence import JOB_NAME
from bot.preflight.document import JobDocument
from bot.preflight.findings import Findings
from bot.preflight.view import TaskView, text
from bot.signals.selectors import head_problem

DNS1123_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
POD_LABEL_MAX = 52  # <job>-<task>: the StatefulSet's pods get the label controller-revision-hash=<name>-<hash>
SERVICE_MAX = 63
ROLES = ("Actor", "Rollout", "Env")
KINDS_OK = ("StatefulSet",)
KINDS_MISBEHAVE = ("Deployment", "DaemonSet")


def check_name(doc: JobDocument, out: Findings) -> None:
    name = doc.name
    if not name:
        out.error("P01", task=None, path="metadata.name", en="metadata.name is missing: give the Job a name",
                  zh="缺少 metadata.name：请为 Job 命名")
        return
    if not JOB_NAME.fullmatch(name):
        out.error("P01", task=None, path="metadata.name",
                  en=f"name {name!r} is not 1-63 lowercase letters, digits or hyphens without a hyphen at either end: "
                     "rename it",
                  zh=f"名称 {name!r} 不是 1–63 位小写字母、数字或连字符（且不以连字符开头或结尾）：请改名")
    if not name[0].isascii() or not name[0].isalpha():
        out.error("P02", task=None, path="metadata.name",
                  en=f"name {name!r} does not start with a letter: the Head's Service <job>-<task>-ray-head must be a "
                     "DNS-1035 label, else the Head never gets a pod; start the name with a letter",
                  zh=f"名称 {name!r} 不以字母开头：Head 的 Service <job>-<task>-ray-head 必须是 DNS-1035 标签，"
                     "否则 Head 不会创建 Pod；请以字母开头命名")


def check_lengths(doc: JobDocument, tasks: list[TaskView], *, out: Findings) -> None:
    job = doc.name
    if not job:
        return
    for t in tasks:
        if not t.name:
            continue
        full = f"{job}-{t.name}"
        if len(full) > POD_LABEL_MAX:
            out.error("P03", task=t.name, path=f"{t.path}.name",
                      en=f"{full!r} is {len(full)} characters, more than {POD_LABEL_MAX} (the StatefulSet's pod label "
                         "limit): shorten the Job or task name",
                      zh=f"{full!r} 长 {len(full)} 个字符，超过 {POD_LABEL_MAX}（StatefulSet Pod 标签上限）："
                         "请缩短 Job 名或角色名")
        service = f"{full}-ray-head"
        if t.head and len(service) > SERVICE_MAX:
            out.error("P03", task=t.name, path=f"{t.path}.name",
                      en=f"the Head Service {service!r} is {len(service)} characters, more than {SERVICE_MAX}: "
                         "shorten the Job or Head task name",
                      zh=f"Head 的 Service {service!r} 长 {len(service)} 个字符，超过 {SERVICE_MAX}：请缩短 Job 名或 "
                         "Head 角色名")


def check_roles(doc: JobDocument, tasks: list[TaskView], *, out: Findings) -> None:
    if not tasks:
        out.error("P05", task=None, path="spec.tasks", en="the Job has no task: add at least one role",
                  zh="Job 没有任何角色：请至少添加一个角色")
        return
    seen: dict[str, str] = {}
    for t in tasks:
        if not t.name:
            out.error("P05", task=t.label, path=f"{t.path}.name", en="task name is empty: name the role",
                      zh="角色名为空：请填写角色名")
            continue
        if not DNS1123_LABEL.fullmatch(t.name):
            out.error("P05", task=t.name, path=f"{t.path}.name",
                      en=f"task name {t.name!r} is not a DNS-1123 label (lowercase letters, digits, hyphens, at most "
                         "63): rename it",
                      zh=f"角色名 {t.name!r} 不是 DNS-1123 标签（小写字母、数字、连字符，最多 63 位）：请改名")
        low = t.name.lower()
        if low in seen:
            out.error("P05", task=t.name, path=f"{t.path}.name",
                      en=f"task name {t.name!r} repeats {seen[low]!r} (ignoring case): give each role its own name",
                      zh=f"角色名 {t.name!r} 与 {seen[low]!r} 重复（忽略大小写）：每个角色需用不同名称")
        seen.setdefault(low, t.name)
        role = t.data.get("role")
        if not text(role):
            out.error("P06", task=t.label, path=f"{t.path}.role", en="role is missing: set Actor, Rollout or Env",
                      zh="缺少 role：请设为 Actor、Rollout 或 Env")
        elif role not in ROLES:
            out.warn("P06", task=t.label, path=f"{t.path}.role",
                     en=f"role {role!r} is none of Actor, Rollout, Env: check the spelling",
                     zh=f"role {role!r} 不是 Actor、Rollout 或 Env：请检查拼写")


def check_head(tasks: list[TaskView], out: Findings) -> None:
    if not tasks:
        return
    heads = [t for t in tasks if t.head]
    problem = head_problem([(t.label, t.replicas) for t in heads])
    if problem is None:
        return
    if problem.kind == "none":
        out.error("P07", task=None, path="spec.tasks", en="no task has head: true: mark exactly one role as the Head",
                  zh="没有角色设置 head: true：请把恰好一个角色设为 Head")
    elif problem.kind == "several":
        names = ", ".join(problem.names)
        out.error("P07", task=None, path=f"{heads[1].path}.head",
                  en=f"{len(heads)} tasks have head: true ({names}): keep exactly one Head",
                  zh=f"{len(heads)} 个角色设置了 head: true（{names}）：只保留一个 Head")
    else:
        t = heads[0]
        out.error("P08", task=t.label, path=f"{t.workload_path}.replicas",
                  en=f"the Head has replicas: {problem.replicas}: set it to 1 (the creator does not enforce this; "
                     "workers belong in another role)",
                  zh=f"Head 的 replicas 为 {problem.replicas}：请设为 1（创建器不会校验；Worker 请放在其他角色）")


def check_run_command(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        script = text(t.data.get("runScript"))
        if t.head and not script.strip():
            out.error("P27", task=t.label, path=f"{t.path}.runScript",
                      en="the Head has no runScript: fill in the run command (only the Head's is executed)",
                      zh="Head 没有 runScript：请填写运行命令（只执行 Head 的运行命令）")
        elif not t.head and script.strip():
            out.warn("P27", task=t.label, path=f"{t.path}.runScript",
                     en="runScript on a task that is not the Head is ignored: move it to the Head",
                     zh="非 Head 角色的 runScript 会被忽略：请移到 Head")


def check_workload_kind(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        agent = t.data.get("agentType")
        if agent != "Kubernetes":
            out.error("P31", task=t.label, path=f"{t.path}.agentType",
                      en=f"agentType is {agent!r}: set agentType: Kubernetes (the creator's workloads run on the "
                         "Kubernetes agent)",
                      zh=f"agentType 为 {agent!r}：请设为 Kubernetes")
            continue
        kind = t.workload.get("kind")
        if kind in KINDS_OK:
            continue
        if kind in KINDS_MISBEHAVE:
            out.warn("P31", task=t.label, path=f"{t.workload_path}.kind",
                     en=f"workload kind {kind}: the Ray wrapper, ranks and the Head Service assume a StatefulSet; "
                        "use kind: StatefulSet",
                     zh=f"workload kind 为 {kind}：Ray 包装脚本、rank 和 Head Service 都按 StatefulSet 设计；请改为 S"
                        "tatefulSet")
        else:
            out.error("P31", task=t.label, path=f"{t.workload_path}.kind",
                      en=f"workload kind {kind!r}: the agent skips any kind but StatefulSet, Deployment and DaemonSet "
                         "and the Task never runs; use kind: StatefulSet",
                      zh=f"workload kind 为 {kind!r}：agent 会跳过 StatefulSet/Deployment/DaemonSet 以外的类型，Task "
                         "永远不会运行；"
                         "请改为 StatefulSet")
