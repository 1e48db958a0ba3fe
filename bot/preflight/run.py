"""Run every preflight rule over one Job document, with or without the inventory."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.preflight import rules_job, rules_live, rules_paths, rules_pod, rules_spec
from bot.preflight.catalog import LIVE_RULES
from bot.preflight.document import JobDocument
from bot.preflight.findings import ERROR, Finding, Findings, NotChecked
from bot.preflight.inventory import Inventory
from bot.preflight.view import tasks as task_views
from bot.redact import Scan
from bot.settings import Thresholds


@dataclass
class PreflightReport:
    job: str
    origin: str
    findings: list[Finding]
    not_checked: list[NotChecked]
    inventory: Inventory | None = None
    lang: str = "en"
    clusters: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)


def preflight(doc: JobDocument, *, inventory: Inventory | None, thresholds: Thresholds, scan: Scan,
              lang: str = "en", resubmit: bool = False, offline_why: str = "--offline: the inventory was not read"
              ) -> PreflightReport:
    """`inventory` None: offline rules only, every live rule not checked (`offline_why`). `resubmit`: a live Job
    re-checked before resubmitting (P04 does not apply)."""
    out = Findings(doc, lang=lang)
    tasks = task_views(doc)
    rules_job.check_name(doc, out)
    rules_job.check_lengths(doc, tasks, out=out)
    rules_job.check_roles(doc, tasks, out=out)
    rules_job.check_head(tasks, out)
    rules_job.check_run_command(tasks, out)
    rules_job.check_workload_kind(tasks, out)
    rules_pod.check_image(tasks, out)
    rules_pod.check_limits(tasks, out)
    rules_pod.check_mounts(tasks, out)
    rules_pod.check_storage(tasks, out)
    rules_pod.check_reserved(doc, tasks, out=out)
    rules_pod.check_labels(doc, tasks, out=out)
    rules_pod.check_unsupported(tasks, out)
    rules_spec.check_selectors(tasks, out)
    rules_spec.check_schema(doc, out)
    rules_spec.check_credentials(doc, tasks, out=out, scan=scan)
    rules_paths.check_paths(tasks, out)
    rules_live.check_replicas(tasks, out)
    if inventory is None:
        for rule in LIVE_RULES:
            if not (rule == "P04" and resubmit):
                out.not_checked(rule, offline_why)
    else:
        rules_live.check_live(doc, tasks, inv=inventory, out=out, thresholds=thresholds, resubmit=resubmit)
    skipped = sorted(out.skipped, key=lambda s: s.rule)
    return PreflightReport(job=doc.name, origin=doc.origin, findings=out.ordered(), not_checked=skipped,
                           inventory=inventory, lang=lang)
