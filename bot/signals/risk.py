"""Credentials that appear in the evidence: logs, the Job's scripts and pod env values."""

from __future__ import annotations

from bot.redact import default_redactor
from bot.signals.base import EvidenceItem, Hit, SignalContext, signal

MAX_ITEMS = 8


@signal("risk.credentials")
def credentials(sc: SignalContext) -> list[Hit]:
    redactor = default_redactor()
    items: list[EvidenceItem] = []
    for ctx in sc.scope.pods:
        for view in ctx.logs:
            for det in view.detections:
                items.append(EvidenceItem(view.excerpt.source.ref(),
                                          f"line {det.line}: a {det.kind} value (withheld)"))
        if ctx.pod is not None:
            for c in ctx.pod.spec.containers + ctx.pod.spec.init_containers:
                for env in c.env:
                    value = env.get("value")
                    if isinstance(value, str) and redactor.scan(f"{env.get('name', '')}={value}"):
                        items.append(EvidenceItem(f"{ctx.key}:{c.name}",
                                                  f"env {env.get('name')}: a credential in plain text (withheld)"))
    job = sc.scope.job
    if job is not None:
        for task in job.spec.tasks:
            for field_name, script in (("prepareScript", task.prepare_script), ("runScript", task.run_script)):
                for det in redactor.scan(script):
                    items.append(EvidenceItem(f"{job.ref()}:spec.tasks[{task.name}].{field_name}",
                                              f"line {det.line}: a {det.kind} value (withheld)"))
    if not items:
        return []
    unique = list(dict.fromkeys(items))
    return [Hit(unique[:MAX_ITEMS] + ([EvidenceItem("", f"… and {len(unique) - MAX_ITEMS} more")]
                                      if len(unique) > MAX_ITEMS else []))]
