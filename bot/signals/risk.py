"""Credentials that appear in the evidence: logs, the Job's scripts and pod env values.

A bundle written by `rlark-bot snapshot` is already redacted; its `[REDACTED:<kind>]` masks still prove a
credential was there, so they count too (and the diagnosis of a snapshot matches the live one).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.redact.masks import MASK
from bot.redact.masks import OPEN as MASK_OPEN
from bot.scope.hits import EvidenceItem, Hit
from bot.signals.base import SignalContext, signal

MAX_ITEMS = 8


def _masks(text: str) -> Iterator[tuple[int, str]]:
    if MASK_OPEN not in text:
        return
    for mark in MASK.finditer(text):
        yield text.count("\n", 0, mark.start()) + 1, mark.group(1)


def _found(sc: SignalContext, text: str, memo: dict[str, list[tuple[int, str]]]) -> list[tuple[int, str]]:
    """Credentials and masks in `text`; a thousand replicas carry the same env values, so `memo` scans each
    distinct text once."""
    if text not in memo:
        memo[text] = [(d.line, d.kind) for d in sc.scan(text)] + list(_masks(text))
    return memo[text]


@signal("risk.credentials")
def credentials(sc: SignalContext) -> list[Hit]:
    items: list[EvidenceItem] = []
    memo: dict[str, list[tuple[int, str]]] = {}
    for ctx in sc.scope.pods:
        for view in ctx.logs:
            found = [(d.line, d.kind) for d in view.detections] + view.masks
            items += [EvidenceItem(view.excerpt.source.ref(), f"line {line}: a {kind} value (withheld)", withheld=kind)
                      for line, kind in found]
        if ctx.pod is not None:
            for c in ctx.pod.spec.containers + ctx.pod.spec.init_containers:
                for env in c.env:
                    value = env.get("value")
                    if isinstance(value, str) and _found(sc, f"{env.get('name', '')}={value}", memo):
                        items.append(EvidenceItem(f"{ctx.key}:{c.name}",
                                                  f"env {env.get('name')}: a credential in plain text (withheld)",
                                                  withheld="env-value"))
    job = sc.scope.job
    if job is not None:
        for task in job.spec.tasks:
            for field_name, script in (("prepareScript", task.prepare_script), ("runScript", task.run_script)):
                items += [EvidenceItem(f"{job.ref()}:spec.tasks[{task.name}].{field_name}",
                                       f"line {line}: a {kind} value (withheld)", withheld=kind)
                      for line, kind in _found(sc, script, memo)]
    if not items:
        return []
    unique = list(dict.fromkeys(items))
    more = [EvidenceItem("", f"… and {len(unique) - MAX_ITEMS} more")] if len(unique) > MAX_ITEMS else []
    return [Hit(unique[:MAX_ITEMS] + more)]
