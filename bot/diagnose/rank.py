"""Order findings so the first one answers "what is wrong, and what do I do next": the earliest unexplained
failure, by stage, then by time. Each ordering rule below says which seed sentence justifies it (ORDER); the
relations that make a finding "explained" are in relations.py, each with its own.

A credential found in the evidence goes right after the failure cause, or first when nothing failed (a risk
is not a cause and explains nothing, but it must not be buried under consequences).

Two findings that no rule orders (same stage, no time, same severity) keep the order the runbook declares its
cases in, and `why_first` says that the first place was a tie, never pretending a cause decided it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.diagnose.relations import FAILURE_SEVERITIES, Relation, explainers, relations
from bot.diagnose.result import SEVERITY_ORDER, Finding
from bot.runbook.schema import STAGES

_NEVER = datetime.max.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Rule:
    name: str
    says: str
    seed: str


ORDER = (
    Rule("safety", "people or equipment at risk come first, whatever else failed",
         "rlark-jobs § 按错误类型排查: 机器人 SDK、连接、超时或设备错误 | 停止自动重试，通知现场操作员；"
         "日志错误分类不能替代急停、断能或安全状态确认。"),
    Rule("failure", "a failure before a note that something merely looks unusual",
         "rlark-jobs § 按错误类型排查: 请结合 Pod 阶段、状态消息和应用日志判断，不要只看 Job 颜色。"),
    Rule("starting", "a failure before a wait whose window is still open (still starting, young.py)",
         "rlark-jobs § Job 与 Worker 状态不一致: 刚完成以下操作时，短暂不一致是正常的：创建 Job。"
         "先等待状态完成一次同步，再比较 Job、Task 和 Pod 阶段。"),
    Rule("history", "the current instance's failures before a lesser finding that only an earlier instance "
         "(a previous container, an older pod UID) shows, and before anything only a replaced pod's older UID shows",
         "rlark-jobs § Job 与 Worker 状态不一致: 同名 Worker 同时出现多个 IP 或状态时，控制台不会自动把它们关联为"
         "一次重试。请按查看 Worker 与 Pod记录实例信息；需要还原替换时间线时，请让管理员查询数据面 Pod UID 和事件。"),
    Rule("unexplained", "a failure no other matched failure explains before one that is explained (relations.py)",
         "rlark-jobs § Worker 异常或日志显示进程失败: 定位第一条错误，而不是只看最后一行。"),
    Rule("stage", "the earliest stage along Job, Task, Pod, containers, Ray, run script",
         "rlark-jobs § 主题: 按 Job → Task → Worker/Pod → 外部依赖的顺序排查。"),
    Rule("instance", "a failure of an earlier container instance before what the restarted one shows",
         "rlark-jobs § Job 与 Worker 状态不一致: 同名 Worker 同时出现多个 IP 或状态时，"
         "控制台不会自动把它们关联为一次重试。"),
    Rule("time", "the earlier moment first",
         "rlark-jobs § Worker 异常或日志显示进程失败: 导出日志，记录失败时间、角色和 Worker 信息。"),
    Rule("severity", "critical before error before warning",
         "rlark-jobs § 主题: 先记录各层状态、时间和错误信息"),
)


Key = tuple[int, int, int, int, int, int, int, datetime, int]


def _key(f: Finding, explained: bool) -> Key:
    return (
        0 if f.case.safety else 1,
        0 if f.severity in FAILURE_SEVERITIES else 1,
        1 if f.starting else 0,
        1 if f.history else 0,
        1 if explained else 0,
        f.stage,
        0 if f.earlier_instance else 1,
        f.when or _NEVER,
        SEVERITY_ORDER[f.severity],
    )


def rank(findings: list[Finding]) -> list[Finding]:
    """The findings in answer order; each finding's `explained_by` and `why` say what placed it."""
    rels = relations(findings)
    by = explainers(findings, rels)
    declared = {f.id: i for i, f in enumerate(findings)}  # the runbook's order: no cause, only a stable order
    _mark_history(findings)
    for f in findings:
        f.explained_by = [a for a, _ in by[f.id]]
        f.because = [(a, rel) for a, rel in by[f.id]]
        f.demoted = any(rel.name != "earlier-failure" for _, rel in by[f.id])
        f.explains = any(a == f.id for (a, _) in rels)

    def key(f: Finding) -> tuple[Key, int]:
        return _key(f, bool(by[f.id])), declared[f.id]

    risks = sorted((f for f in findings if f.case.category == "risk"), key=key)
    others = sorted((f for f in findings if f.case.category != "risk"), key=key)
    lead = [f for f in others[:1] if f.case.safety]
    rest = others[len(lead):]
    ordered = lead + rest[:1] + risks + rest[1:] if rest and rest[0].severity in FAILURE_SEVERITIES \
        else lead + risks + rest
    _explain_first(ordered, rels)
    return ordered


def _only_earlier(f: Finding) -> bool:
    return bool(f.hits) and all(h.earlier_instance for h in f.hits)


def _mark_history(findings: list[Finding]) -> None:
    """`history` on each finding that only an earlier instance shows, when the current instance shows worse (a
    warning about a container that is gone never outranks what the current one shows), or, for a pod that was
    replaced (an older pod UID), as bad on that same pod: the replacement got past what ended the older object."""
    failures = [f for f in findings if f.severity in FAILURE_SEVERITIES and f.case.category != "risk"
                and not _only_earlier(f)]
    worst = min((SEVERITY_ORDER[f.severity] for f in failures), default=None)
    now_uid: dict[str, str] = {}
    worst_on: dict[str, int] = {}
    for f in failures:
        for h in f.hits:
            if h.pod and not h.earlier_instance:
                now_uid.setdefault(h.pod, h.instance)
                worst_on[h.pod] = min(worst_on.get(h.pod, 3), SEVERITY_ORDER[f.severity])
    for f in findings:
        sev = SEVERITY_ORDER[f.severity]
        older = bool(f.hits) and all(h.earlier_instance and h.pod in worst_on and h.instance
                                     and h.instance != now_uid.get(h.pod) and worst_on[h.pod] <= sev
                                     for h in f.hits)
        f.history = _only_earlier(f) and ((worst is not None and sev > worst) or older)


def _explain_first(ordered: list[Finding], rels: dict[tuple[str, str], Relation]) -> None:
    """`why` of the first finding: which rule put it before the runner-up, and what it explains."""
    if not ordered:
        return
    first = ordered[0]
    why = [_answer(first)]
    rivals = [f for f in ordered[1:] if f.case.category != "risk"]
    if rivals:
        why.append(_decided_by(first, rivals[0]))
    explained = [(b, rel) for (a, b), rel in sorted(rels.items()) if a == first.id]
    for b, rel in explained:
        why.append(f"it explains {b} ({rel.name}: {rel.says}; seed {rel.seed})")
    if len(why) == 1:
        why.append("the only finding")
    first.why = why


def _answer(f: Finding) -> str:
    """What the answer claims: its case, stage, and the instances and moment its evidence is about."""
    where = sorted({f"{h.pod} (uid {h.instance})" if h.instance else h.pod for h in f.hits if h.pod})
    at = f" since {f.when:%Y-%m-%dT%H:%M:%SZ}" if f.when else ""
    on = f" on {', '.join(where[:3])}{' …' if len(where) > 3 else ''}" if where else ""
    if f.starting:  # nothing failed: the first note is a wait still inside its window (young.py)
        opened = f" since {f.opened:%Y-%m-%dT%H:%M:%SZ}" if f.opened else ""
        window = f", inside its {int(f.window)} s window" if f.window else ""
        return f"still starting: {f.id} waits at {STAGES[f.stage]}{on}{opened}{window}"
    return f"answer {f.id}: fails at {STAGES[f.stage]}{on}{at}"


def _decided_by(a: Finding, b: Finding) -> str:
    ka, kb = _key(a, bool(a.explained_by)), _key(b, bool(b.explained_by))
    for rule, x, y in zip(ORDER, ka, kb, strict=True):
        if x != y:
            detail = {"stage": f" ({STAGES[a.stage]} before {STAGES[b.stage]})",
                      "time": f" ({a.when:%Y-%m-%dT%H:%M:%SZ} before "
                              f"{b.when:%Y-%m-%dT%H:%M:%SZ})" if a.when and b.when else "",
                      "unexplained": f" ({b.id} is explained by {', '.join(b.explained_by)})"}.get(rule.name, "")
            return f"before {b.id} by rule '{rule.name}': {rule.says}{detail}; seed {rule.seed}"
    return (f"tied with {b.id}: same stage ({STAGES[a.stage]}), no time or severity sets them apart; "
            "the runbook's order of cases kept")
