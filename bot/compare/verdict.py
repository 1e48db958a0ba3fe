"""The verdict in one line, the furthest stage both runs reached, and the "B still running" warning."""

from __future__ import annotations

from bot.compare.model import CATEGORIES, ErrorLines, Outcome, Placement, SameStage, SpecChange
from bot.runbook.schema import STAGES

INDEX = {name: i for i, name in enumerate(STAGES)}
SHORT = 48


def _short(value: str | None, lang: str) -> str:
    if value is None:
        return "（无）" if lang == "zh" else "(none)"
    one = " ".join(value.split())
    return one if len(one) <= SHORT else "…" + one[-(SHORT - 1):]  # the end: an image's tag, a path's leaf


def _what(changes: list[SpecChange], lang: str) -> str:
    """The one category's change, shown by its first field (and how many tasks changed alike)."""
    c = changes[0]
    if c.diff:
        shown = f"{c.field} 已修改" if lang == "zh" else f"{c.field} edited"
    else:
        shown = f"{_short(c.a, lang)} → {_short(c.b, lang)}"
    alike = sum(1 for x in changes if (x.field, x.a, x.b) == (c.field, c.a, c.b))
    if alike > 1:
        shown += f"，{alike} 个 task" if lang == "zh" else f", {alike} tasks"
    more = len(changes) - alike
    if more:
        shown += f"，另 {more} 项" if lang == "zh" else f", +{more} more"
    return f"{c.category}: {shown}" if lang == "en" else f"{c.category}：{shown}"


def _cases(a: Outcome, b: Outcome, *, lang: str) -> list[str]:
    out = []
    if a.case != "none" and a.case not in b.cases:
        out.append(f"{a.case} " + ("消失" if lang == "zh" else "gone"))
    if b.case != "none" and b.case not in a.cases:
        out.append(f"{b.case} " + ("新出现" if lang == "zh" else "new"))
    return out


def _result(a: Outcome, b: Outcome | None, *, lang: str) -> str:
    if b is None:
        return "B 尚未运行（计划中）：没有结果" if lang == "zh" else "B is planned: no outcome yet"
    stage = ("阶段 " if lang == "zh" else "stage ") + f"{a.last_stage} → {b.last_stage}"
    return ("；" if lang == "zh" else "; ").join([stage, *_cases(a, b, lang=lang)])


def _environment(a: Placement, b: Placement | None, *, lang: str) -> str:
    zh = lang == "zh"
    if b is None:
        return "请看环境：集群与节点的状态" if zh else "look at the environment: the clusters' and Nodes' state"
    ca, cb = ", ".join(a.clusters) or "-", ", ".join(b.clusters) or "-"
    if a.clusters != b.clusters:
        return (f"请看环境：集群 {ca} → {cb}" if zh else f"look at the environment: clusters {ca} → {cb}")
    if a.nodes != b.nodes:
        moved = len(set(b.nodes) - set(a.nodes))
        return (f"请看环境：同一集群 {ca}，{moved} 个节点不同" if zh
                else f"look at the environment: same cluster {ca}, {moved} Node(s) differ")
    return (f"请看环境：放置相同（集群 {ca}），检查集群、节点与存储的状态" if zh
            else f"look at the environment: same placement (cluster {ca}); check the clusters', Nodes' and storage's "
                 "state")


def spec_summary(changes: list[SpecChange], *, lang: str) -> str:
    """The spec half of the verdict: the one category's change, how many categories changed, or none."""
    zh = lang == "zh"
    cats = [c for c in CATEGORIES if any(x.category == c for x in changes)]
    if len(cats) == 1:
        return f"1 处变更（{_what(changes, lang)}）" if zh else f"1 change ({_what(changes, lang)})"
    if len(cats) > 1:
        head = (f"{len(cats)} 类变更：结果无法归因于单一变更" if zh
                else f"{len(cats)} categories changed: the outcome cannot be pinned on one change")
        return head + f" ({', '.join(cats)})"
    return "提交的 spec 没有变化" if zh else "no change in the submitted spec"


def verdict(changes: list[SpecChange], *, a: Outcome, b: Outcome | None, lang: str) -> str:
    zh = lang == "zh"
    head = spec_summary(changes, lang=lang)
    if len({c.category for c in changes}) == 1:
        return head + ("：" if zh else ": ") + _result(a, b, lang=lang)
    if changes:
        return head + ("；" if zh else "; ") + _result(a, b, lang=lang)
    env = _environment(a.placement, b.placement if b else None, lang=lang)
    return head + ("：" if zh else ": ") + env + ("；" if zh else "; ") + _result(a, b, lang=lang)


def _at(o: Outcome, idx: int) -> ErrorLines | None:
    found = o.stage_errors.get(idx + 1) or o.stage_errors.get(idx)
    if found is None and INDEX.get(o.last_stage) == idx:
        return o.first_error
    return found


def same_stage(a: Outcome, b: Outcome | None) -> SameStage | None:
    """The furthest stage both reached and, side by side, the first error lines each printed there."""
    if b is None:
        return None
    idx = min(INDEX.get(a.last_stage, 0), INDEX.get(b.last_stage, 0))
    return SameStage(stage=STAGES[idx], a=_at(a, idx), b=_at(b, idx))


def still_running(b: Outcome | None, *, now: str, lang: str) -> str | None:
    """B neither Succeeded, Failed nor Stopped and not yet at run-script: its outcome may still change."""
    if b is None or b.finished or INDEX.get(b.last_stage, 0) >= INDEX["run-script"]:
        return None
    if lang == "zh":
        return f"B 仍在运行（阶段 {b.last_stage}）：结果以 {now} 为准，之后可能变化"
    return f"B is still running (stage {b.last_stage}): its outcome is as of {now} and may still change"
