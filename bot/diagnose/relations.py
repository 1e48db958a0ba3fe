"""Explicit "explains" relations between matched cases, each with the seed sentence that justifies it.

A finding is a consequence when another matched finding explains it; the ranking (rank.py) then puts every
unexplained failure before it. Relations, strongest first (when two findings explain each other, the stronger
relation decides; at equal strength neither is the other's explanation):

* `earlier-failure` (explain.py): hit by hit, an earlier failure along the way a job starts, on the same pod or on
  a pod the other depends on, never one stamped after its supposed consequence.
* `supersedes` (the runbook's `supersedes:`): the case names what the other only shows, on the same pod; never
  when the other began first (an agent lost minutes ago does not explain a failure half an hour old).
* `catch-all`: a `generic: true` case says something failed where a specific matched case says what failed
  (unless the catch-all's failure began before the specific one: then it is not that one's consequence).
* `describes`: an alert says how long something has been wrong; a matched cause says why. An alert that
  itself `supersedes` a matched cause (an unhealthy NodePool behind "Insufficient") is that cause, not a description.

A wait still inside its window (young.py: severity info) is never the explaining side of any relation.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.diagnose.result import Finding

FAILURE_SEVERITIES = ("critical", "error", "warning")


@dataclass(frozen=True)
class Relation:
    name: str
    strength: int  # higher wins when two findings explain each other
    says: str
    seed: str  # the seed sentence it rests on (page § section: sentence)


EARLIER_FAILURE = Relation(
    "earlier-failure", 4, "an earlier failure along the way the job starts explains what came after it",
    "rlark-jobs § Worker 异常或日志显示进程失败: 关闭实时滚动或使用文本过滤，定位第一条错误，而不是只看最后一行。")
SUPERSEDES = Relation(
    "supersedes", 3, "the more specific case names what the other only shows on the same pod",
    "rlark-jobs § 按错误类型排查: 控制台不会自动把错误分类为镜像、GPU、NCCL、共享内存或机器人故障。"
    "请结合 Pod 阶段、状态消息和应用日志判断")
CATCH_ALL = Relation(
    "catch-all", 2, "a catch-all says something failed; a specific matched case says what failed",
    "rlark-jobs § Worker 异常或日志显示进程失败: "
    "区分失败发生在镜像/挂载、准备脚本、Ray 集群建立，还是 Head Task 的运行命令。")
DESCRIBES = Relation(
    "describes", 1, "an alert says how long something has been wrong; the matched cause says why",
    "rlark-jobs § 按错误类型排查: 长时间 Pending，尚无 Pod 日志 | 选择器、不可调度节点、CPU/内存/GPU、PVC 或镜像拉取")


def _failure(f: Finding) -> bool:
    return f.severity in FAILURE_SEVERITIES and f.case.category != "risk"


def _began_before(b: Finding, a: Finding) -> bool:
    """Whether `b` is stamped before `a` began: a cause never comes after its consequence."""
    return b.when is not None and a.when is not None and b.when < a.when


def relations(findings: list[Finding]) -> dict[tuple[str, str], Relation]:
    """(explaining case, explained case) -> the strongest relation between them, over the matched findings."""
    out: dict[tuple[str, str], Relation] = {}

    def add(a: Finding, b: Finding, rel: Relation) -> None:
        key = (a.id, b.id)
        if a is not b and (key not in out or out[key].strength < rel.strength):
            out[key] = rel

    present = {f.id: f for f in findings}
    for b in findings:
        for a_id in b.explained_by:  # set by explain.mark_explained
            if a_id in present:
                add(present[a_id], b, EARLIER_FAILURE)
    for a in findings:
        if a.starting:
            continue  # a wait still inside its window explains nothing (young.py)
        for ref in a.case.supersedes:
            if ref in present and not _began_before(present[ref], a):
                add(a, present[ref], SUPERSEDES)
        if not _failure(a) or a.case.category == "alert":
            continue
        for b in findings:
            if b.case.generic and not a.case.generic and _failure(b) and not _began_before(b, a):
                add(a, b, CATCH_ALL)
            if b.case.category == "alert" and not (set(b.case.supersedes) & set(present)):
                add(a, b, DESCRIBES)
    return out


def explainers(findings: list[Finding], rels: dict[tuple[str, str], Relation]) -> dict[str, list[tuple[str, Relation]]]:
    """For each case, the matched cases that explain it and how - leaving out one explained back more strongly, or
    as strongly (two findings that explain each other equally are both still to be ranked on their own)."""
    out: dict[str, list[tuple[str, Relation]]] = {f.id: [] for f in findings}
    for (a, b), rel in rels.items():
        back = rels.get((b, a))
        if back is not None and back.strength >= rel.strength:
            continue
        out[b].append((a, rel))
    for v in out.values():
        v.sort(key=lambda item: (-item[1].strength, item[0]))
    return out
