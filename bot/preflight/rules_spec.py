"""Offline rules on selectors (P12, P13, P16), the schema (P30) and credentials (P33)."""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

import yaml

from bot.preflight.document import JobDocument, join
from bot.preflight.findings import Findings
from bot.preflight.view import TaskView, as_dict
from bot.redact import Scan
from bot.signals.selectors import control_plane_only_keys, multi_value_pairs

SELECTOR_MISSPELLINGS = ("nodeselector", "node_selector", "nodeSelectors", "NodeSelector", "selector")
OBJECT_META = {"name", "generateName", "namespace", "labels", "annotations", "uid", "resourceVersion", "generation",
               "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences",
               "finalizers", "managedFields", "selfLink"}
TASK_PATH = re.compile(r"spec\.tasks\[(\d+)\]")
TYPES: dict[str, tuple[type, ...]] = {"s": (str,), "i": (int,), "n": (int, float), "b": (bool,), "x": (int, str),
                                      "l": (list,), "o": (dict,)}
TYPE_NAMES = {"s": "a string", "i": "an integer", "n": "a number", "b": "true or false", "x": "a number or string",
              "l": "a list", "o": "an object"}


@cache
def schema() -> Any:
    return json.loads(resources.files("bot.preflight").joinpath("data/job_schema.json").read_text(encoding="utf-8"))


def check_selectors(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        path = f"{t.path}.nodeSelector"
        sel = t.selector
        if not sel:
            typo = next((k for k in SELECTOR_MISSPELLINGS if k in t.data), None)
            hint_en = f" (the key {typo!r} is not nodeSelector: the gateway drops it)" if typo else ""
            hint_zh = f"（键 {typo!r} 不是 nodeSelector：网关会丢弃它）" if typo else ""
            out.error("P12", task=t.label, path=path,
                      en=f"nodeSelector is empty{hint_en}: the Task would land in namespace default and never run; "
                         "use single-value pairs the admin confirmed against the global Node list",
                      zh=f"nodeSelector 为空{hint_zh}：Task 会落到 default 命名空间且永远不会运行；"
                         "请使用管理员从全局 Node 清单确认过的单值条件")
            continue
        for key, value in multi_value_pairs(sel).items():
            out.error("P13", task=t.label, path=join(path, key),
                      en=f"selector {key}={value} holds a comma: RLark matches the value literally, so no Node "
                         "matches; use one value per key",
                      zh=f"选择器 {key}={value} 含逗号：RLark 按字面值匹配，不会命中任何 Node；每个键只写一个值")
        for key in control_plane_only_keys(sel):
            out.error("P16", task=t.label, path=join(path, key),
                      en=f"selector key {key} exists only on RLark Node objects, not on member-cluster nodes: the "
                         "pod never schedules; use the node's own labels (e.g. kubernetes.io/hostname)",
                      zh=f"选择器键 {key} 只存在于 RLark Node 对象上，成员集群节点没有：Pod 永远无法调度；"
                         "请使用节点自身的标签（如 kubernetes.io/hostname）")


def check_schema(doc: JobDocument, out: Findings) -> None:
    for path, line in doc.duplicates:
        out.error("P30", task=None, path=path,
                  en=f"{path} is given twice (line {line}): YAML keeps only the last; keep one",
                  zh=f"{path} 出现两次（第 {line} 行）：YAML 只保留最后一个；请只保留一个")
    root = schema()
    for key, value in doc.data.items():
        if key == "metadata":
            for mkey in as_dict(value):
                if mkey not in OBJECT_META:
                    _unknown(out, join("metadata", str(mkey)), key=str(mkey), known=OBJECT_META)
        elif key != "status":
            _walk(out, value, node=root.get(key, 1) if key in root else None, path=str(key), key=str(key), parent=root)


def _walk(out: Findings, value: Any, *, node: Any, path: str, key: str, parent: dict[str, Any]) -> None:
    if node is None:
        _unknown(out, path, key=key, known=set(parent) - {"*"})
        return
    if node == 1 or value is None:
        return
    want = node if isinstance(node, str) else "l" if isinstance(node, list) else "o"
    if not isinstance(value, TYPES[want]) or (isinstance(value, bool) and want != "b"):
        out.error("P30", task=None, path=path,
                  en=f"{path} is {_kind(value)} where the Job schema wants {TYPE_NAMES[want]}: the gateway refuses "
                     "it (HTTP 500); fix the value",
                  zh=f"{path} 是{_kind(value)}，而 Job 模式要求{TYPE_NAMES[want]}：网关会拒绝（HTTP 500）；请更正")
        return
    if isinstance(node, list) and isinstance(value, list):
        for i, item in enumerate(value):
            _walk(out, item, node=node[0], path=join(path, i), key=key, parent={})
    elif isinstance(node, dict) and isinstance(value, dict):
        for k, v in value.items():
            sub = node.get(str(k), node.get("*"))
            _walk(out, v, node=sub, path=join(path, str(k)), key=str(k), parent=node)


def _kind(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), "a value")


def _unknown(out: Findings, path: str, *, key: str, known: set[str]) -> None:
    lower = {k.lower(): k for k in known}
    guess = lower.get(key.lower()) or next(iter(difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.75)), "")
    hint_en, hint_zh = (f"; did you mean {guess}?", f"；是否应为 {guess}？") if guess else ("", "")
    out.error("P30", task=None, path=path,
              en=f"{key!r} is not a field of the Job schema: the gateway drops it silently{hint_en}",
              zh=f"{key!r} 不是 Job 模式中的字段：网关会静默丢弃它{hint_zh}")


def check_credentials(doc: JobDocument, tasks: list[TaskView], *, out: Findings, scan: Scan) -> None:
    text = doc.text or yaml.safe_dump(doc.data, sort_keys=False, allow_unicode=True)
    by_line = _paths_by_line(doc) if doc.text else {}
    for found in scan(text):
        where = by_line.get(found.line, "")
        at_en = f"line {found.line}" if doc.text else "the Job's spec"
        at_zh = f"第 {found.line} 行" if doc.text else "Job 的 spec"
        at = TASK_PATH.match(where)
        task = next((t.label for t in tasks if at and t.index == int(at.group(1))), None)
        out.error("P33", task=task, path=where or f"line {found.line}",
                  en=f"a {found.kind} credential in plain text at {at_en} (value withheld): remove it, rotate it, "
                     "and take secrets from a Kubernetes Secret the admin provides",
                  zh=f"{at_zh}有明文 {found.kind} 凭据（值已隐去）：请删除并轮换，改用管理员提供的 Kubernetes Secret")


def _paths_by_line(doc: JobDocument) -> dict[int, str]:
    """The deepest YAML path starting on each line; a line inside a block scalar takes its field's path."""
    starts = sorted((line, path) for path, line in doc.lines.items())
    out: dict[int, str] = {}
    for line, path in starts:
        if path.count(".") + path.count("[") >= out.get(line, "").count(".") + out.get(line, "").count("["):
            out[line] = path
    last = ""
    total = doc.text.count("\n") + 1
    for n in range(1, total + 1):
        last = out.get(n, last)
        out[n] = last
    return out
