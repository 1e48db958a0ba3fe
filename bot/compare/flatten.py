"""A task's submitted spec as flat (category, field) -> value pairs, the only fields a comparison looks at.

Names, uids, timestamps, status and RLark's restart annotations are never read, so they can never show up as a
change. The Job's own name is replaced by `<job>` where it appears in claim names, pvcStorageMap keys, env values
and scripts: a resubmission under a new name is not a change. Env values and scripts are redacted here, with the
env variable's name in front of its value, so that a secret is recognised by its key.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bot.models.rlark import TaskSpec
from bot.redact import Redactor

Key = tuple[str, str]
JOB_TOKEN = "<job>"


class Flat(dict[Key, str]):
    """Field -> the value as shown (redacted). `raw` keeps, for redacted fields only, the value as written: a
    changed secret is still a change, though both sides show the same mask. `raw` is compared, never shown."""

    def __init__(self) -> None:
        super().__init__()
        self.raw: dict[Key, str] = {}

    def put(self, key: Key, *, shown: str, raw: str) -> None:
        self[key] = shown
        if raw != shown:
            self.raw[key] = raw

    def compared(self, key: Key) -> str | None:
        return self.raw.get(key, self.get(key))


class Namer:
    """Replaces one Job's name by `<job>` in text taken from its spec."""

    def __init__(self, job: str) -> None:
        self.job = job
        self._word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(job)}(?![A-Za-z0-9])") if len(job) >= 3 else None

    def text(self, value: str) -> str:
        return self._word.sub(JOB_TOKEN, value) if self._word is not None else value

    def claim(self, name: str) -> str:
        return JOB_TOKEN + name[len(self.job):] if self.job and name.startswith(self.job + "-") else name


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _workload(t: TaskSpec) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the workload as given, its pod template spec)."""
    wl = t.kubernetes.workload if t.kubernetes else None
    if wl is None:
        return {}, {}
    spec = wl.template.get("spec") if isinstance(wl.template, dict) else None
    return wl.model_dump(by_alias=True), spec if isinstance(spec, dict) else {}


def _containers(pod: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for key in ("initContainers", "containers"):
        items = pod.get(key)
        if isinstance(items, list):
            out.extend(c for c in items if isinstance(c, dict))
    return out


def flatten(task: TaskSpec, *, namer: Namer, redactor: Redactor) -> Flat:
    flat = Flat()
    workload, pod = _workload(task)
    _identity(flat, task=task, workload=workload)
    _selector(flat, task=task, pod=pod)
    for c in _containers(pod):
        name = str(c.get("name", "")) or "?"
        if c.get("image") is not None:
            flat[("image", f"{name}.image")] = str(c.get("image"))
        _resources(flat, container=name, resources=c.get("resources"))
        _env(flat, container=name, env=c.get("env"), namer=namer, redactor=redactor)
        for key in ("command", "args"):
            if c.get(key):
                raw = namer.text(_dump(c[key]))
                flat.put(("scripts", f"{name}.{key}"), shown=str(redactor.redact(raw).text), raw=raw)
        mounts = c.get("volumeMounts")
        for m in mounts if isinstance(mounts, list) else []:
            if isinstance(m, dict):
                rest = {k: v for k, v in m.items() if k != "mountPath"}
                flat[("mounts", f"{name}.mount {m.get('mountPath', '?')}")] = _dump(rest)
    _volumes(flat, pod=pod, workload=workload, namer=namer)
    for key, attr in (("prepareScript", task.prepare_script), ("runScript", task.run_script)):
        if attr:
            raw = namer.text(attr)
            flat.put(("scripts", key), shown=str(redactor.redact(raw).text), raw=raw)
    extra = task.model_extra or {}
    if extra.get("tensorBoardDir"):
        flat[("mounts", "tensorBoardDir")] = str(extra["tensorBoardDir"])
    return flat


def _identity(flat: Flat, *, task: TaskSpec, workload: dict[str, Any]) -> None:
    replicas = workload.get("replicas")
    flat[("replicas", "replicas")] = str(1 if replicas is None else replicas)
    flat[("replicas", "head")] = "true" if task.head else "false"
    if workload.get("kind"):
        flat[("kind", "workload.kind")] = str(workload["kind"])
    agent = (task.model_extra or {}).get("agentType")
    if agent:
        flat[("kind", "agentType")] = str(agent)
    if task.domain:
        flat[("domain", "task.domain")] = task.domain


def _selector(flat: Flat, *, task: TaskSpec, pod: dict[str, Any]) -> None:
    for k, v in sorted((task.node_selector or {}).items()):
        flat[("selector", f"nodeSelector.{k}")] = str(v)
    for k, v in sorted((pod.get("nodeSelector") or {}).items()) if isinstance(pod.get("nodeSelector"), dict) else []:
        flat[("selector", f"template.nodeSelector.{k}")] = str(v)
    for key in ("affinity", "tolerations"):
        if pod.get(key):
            flat[("selector", f"template.{key}")] = _dump(pod[key])


def _resources(flat: Flat, *, container: str, resources: Any) -> None:
    if not isinstance(resources, dict):
        return
    for kind in ("requests", "limits"):
        values = resources.get(kind)
        for res, qty in sorted(values.items()) if isinstance(values, dict) else []:
            flat[("resources", f"{container}.{kind}.{res}")] = str(qty)


def _env(flat: Flat, *, container: str, env: Any, namer: Namer, redactor: Redactor) -> None:
    for item in env if isinstance(env, list) else []:
        if not isinstance(item, dict) or not item.get("name"):
            continue
        name = str(item["name"])
        if "value" in item:
            # The redactor sees NAME=value, so a secret is recognised by its key as well as by its shape.
            raw = namer.text(str(item["value"]))
            shown = str(redactor.redact(f"{name}={raw}").text)
            flat.put(("env", f"{container}.{name}"),
                     shown=shown[len(name) + 1:] if shown.startswith(name + "=") else shown, raw=raw)
        else:
            flat[("env", f"{container}.{name}")] = _dump({k: v for k, v in item.items() if k != "name"})


def _volumes(flat: Flat, *, pod: dict[str, Any], workload: dict[str, Any], namer: Namer) -> None:
    volumes = pod.get("volumes")
    for v in volumes if isinstance(volumes, list) else []:
        if not isinstance(v, dict):
            continue
        source = {k: v[k] for k in v if k != "name"}
        claim = source.get("persistentVolumeClaim")
        if isinstance(claim, dict) and isinstance(claim.get("claimName"), str):
            source["persistentVolumeClaim"] = dict(claim, claimName=namer.claim(claim["claimName"]))
        flat[("mounts", f"volume {v.get('name', '?')}")] = _dump(source)
    storage = workload.get("pvcStorageMap")
    for claim_name, cls in sorted(storage.items()) if isinstance(storage, dict) else []:
        flat[("mounts", f"pvcStorageMap.{namer.claim(str(claim_name))}")] = str(cls)
