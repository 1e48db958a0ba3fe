"""The Slack app's commands beyond diagnose (preflight, nodes, compare, timeline, and the admin ticket's change
since the last run), run where diagnoses run: in a
worker process (`WorkerEngine.command`) or in the calling thread (`LocalEngine.command`). Each returns what the
conversation posts: a redacted text form, the CLI's JSON document sealed through the redactor, and for a
timeline the PNG drawn from the redacted SVG. Nothing here talks to Slack.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from bot.compare import compare_runs, render_comparison
from bot.compare.since import predecessor, since_between
from bot.errors import SourceError, UsageError
from bot.models import Evidence, Job, Target, TargetKind
from bot.preflight.document import parse
from bot.preflight.inventory import Inventory
from bot.preflight.nodes import nodes_json, nodes_text, parse_selector
from bot.preflight.render import render, report_json
from bot.preflight.run import preflight
from bot.preflight.source import live_job, open_inventory
from bot.redact import Redactor, seal
from bot.service import Service, resolve_now
from bot.sources import BundleSource, EvidenceSource
from bot.timeline import png_of, render_text, timeline_of

Verb = Literal["preflight", "preflight_yaml", "nodes", "compare", "timeline", "since"]
MAX_NODES_SHOWN = 40


@dataclass(frozen=True)
class CommandTask:
    """`args`: preflight (job name), preflight_yaml (YAML text), nodes (selector), compare (A, B), timeline
    (target text, namespace), since (job name). `clusters`: for nodes, the clusters the channel may see (None:
    all)."""

    verb: Verb
    args: tuple[str, ...]
    lang: str = "en"
    clusters: tuple[str, ...] | None = None
    only_if_restarts: bool = False  # timeline: no picture unless a pod restarted or was replaced


@dataclass(frozen=True)
class CommandResult:
    """`text` and every string of `data` passed the redactor; `png` was drawn from redacted SVG."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)
    png: bytes | None = None
    ready: bool | None = None
    domain: str | None = None  # preflight of a YAML: its spec.domain, for the channel's scope


def _inventory(source: EvidenceSource, service: Service) -> Inventory:
    if isinstance(source, BundleSource):
        return open_inventory(snapshot=str(source.path), kubeconfig=None, context=None, settings=service.settings)
    return open_inventory(snapshot=None, kubeconfig=getattr(source, "kubeconfig", None),
                          context=getattr(source, "context", None), settings=service.settings)


def _preflight(task: CommandTask, *, service: Service, source: EvidenceSource) -> CommandResult:
    redactor, lang = service.redactor, task.lang
    resubmit = task.verb == "preflight"
    why = "inventory not read"
    inventory: Inventory | None = None
    if resubmit:
        inventory = _inventory(source, service)
        doc = live_job(task.args[0], inventory, where="the control plane")
    else:
        doc = parse(task.args[0], "the message's YAML")
        try:
            inventory = _inventory(source, service)
        except SourceError as exc:
            why = f"未读取清单：{exc}" if lang == "zh" else f"inventory not read: {exc}"
    report = preflight(doc, inventory=inventory, thresholds=service.settings.thresholds, scan=redactor.scan,
                       lang=lang, resubmit=resubmit, offline_why=why)
    text = render(report, fmt="text", redactor=redactor)
    spec = doc.data.get("spec")
    domain = spec.get("domain") if isinstance(spec, dict) else None
    return CommandResult(text=str(text), data=_sealed(report_json(report), redactor), ready=report.ready,
                         domain=domain if isinstance(domain, str) and domain else None)


def _nodes(task: CommandTask, *, service: Service, source: EvidenceSource) -> CommandResult:
    selector = parse_selector(task.args[0])
    data = nodes_json(selector, _inventory(source, service))
    if task.clusters is not None:  # only what the channel may see; the verdicts over what is shown
        allowed = set(task.clusters)
        data["nodes"] = [n for n in data["nodes"] if n.get("cluster") in allowed]
        data["clusters"] = [c for c in data["clusters"] if c in allowed]
        data["one_cluster"] = len(data["clusters"]) == 1
        data["one_node"] = len(data["nodes"]) == 1
    shown = dict(data, nodes=data["nodes"][:MAX_NODES_SHOWN])
    text = service.redactor.redact(nodes_text(shown)).text
    if len(data["nodes"]) > MAX_NODES_SHOWN:
        more = len(data["nodes"]) - MAX_NODES_SHOWN
        text = service.redactor.redact(f"{text}… {more} more Node(s) in the metadata\n").text
    return CommandResult(text=str(text), data=_sealed(data, service.redactor))


def _compare(task: CommandTask, *, service: Service, source: EvidenceSource) -> CommandResult:
    a, b = task.args
    comparison = compare_runs(a, b, service=service, source=source, lang=task.lang)
    text = render_comparison(comparison, "text", lang=task.lang, redactor=service.redactor)
    doc = json.loads(str(render_comparison(comparison, "json", lang=task.lang, redactor=service.redactor)))
    return CommandResult(text=str(text), data=_sealed(doc, service.redactor))


def _timeline(task: CommandTask, *, service: Service, source: EvidenceSource,
              now: datetime | None) -> CommandResult:
    try:
        target = Target.parse(task.args[0], task.args[1] if len(task.args) > 1 else "")
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    gathered = source.for_target(target)
    evidence = gathered.evidence
    tl = timeline_of(evidence, target, now=resolve_now(now, evidence), redactor=service.redactor,
                     processes=service.processes)
    data = {"target": str(target), "rows": len(tl.rows), "restarted": tl.restarted, "replaced": tl.replaced}
    if task.only_if_restarts and not (tl.restarted or tl.replaced):
        return CommandResult(text="", data=_sealed(data, service.redactor))
    text = render_text(tl, redactor=service.redactor)
    png = png_of(tl, redactor=service.redactor)
    return CommandResult(text=str(text), data=_sealed(data, service.redactor), png=png)


def _since(task: CommandTask, *, service: Service, source: EvidenceSource) -> CommandResult:
    """The ticket's line on the change since the Job's predecessor (the latest earlier Job of the same name prefix,
    as `diagnose --format ticket` finds it in a bundle; live, among the control plane's Jobs): `text` the line ("" when
    none is known), `data["predecessor"]` its name, for the conversation to check the channel may see it before the
    line is shown."""
    target = Target(kind=TargetKind.JOB, name=task.args[0])
    evidence = source.for_target(target).evidence
    job = next((j for j in evidence.jobs if j.name == target.name), None)
    if job is None:
        return CommandResult(text="", data={"predecessor": ""})
    before, before_evidence = predecessor(evidence, job), evidence
    if before is None and not isinstance(source, BundleSource):
        # A live read holds this Job only: the control plane's Jobs (the inventory's) name its predecessor,
        # which is then read as a Job of its own.
        jobs = [Job.model_validate(obj) for obj in _inventory(source, service).jobs.values()]
        named = predecessor(Evidence(jobs=jobs), job)
        if named is not None:
            before_evidence = source.for_target(Target(kind=TargetKind.JOB, name=named.name)).evidence
            before = next((j for j in before_evidence.jobs if j.name == named.name), None)
    if before is None:
        return CommandResult(text="", data={"predecessor": ""})
    line = since_between(before_evidence, before, evidence, job, redactor=service.redactor, lang=task.lang)
    return CommandResult(text=service.redactor.redact(line).text, data=_sealed({"predecessor": before.name},
                                                                                 service.redactor))


def run_command(task: CommandTask, *, service: Service, source: EvidenceSource,
                now: datetime | None = None) -> CommandResult:
    """One command's work; raises `UserError`s (NotFound, UsageError, SourceError) as the CLI does."""
    if task.verb in ("preflight", "preflight_yaml"):
        return _preflight(task, service=service, source=source)
    if task.verb == "nodes":
        return _nodes(task, service=service, source=source)
    if task.verb == "compare":
        return _compare(task, service=service, source=source)
    if task.verb == "since":
        return _since(task, service=service, source=source)
    return _timeline(task, service=service, source=source, now=now)


def _sealed(data: dict[str, Any], redactor: Redactor) -> dict[str, Any]:
    value = seal(data, redactor).value
    assert isinstance(value, dict)
    return dict(value)
