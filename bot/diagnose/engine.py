"""The pure diagnosis: evidence + runbook + now -> ranked findings. No I/O; time is an argument."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.diagnose.explain import Roles, hit_explains, mark_explained
from bot.diagnose.facts import first_error, gather_facts, retried_cause
from bot.diagnose.gaps import find_gaps
from bot.diagnose.history import drop_settled_history
from bot.diagnose.logscan import LogMatcher
from bot.diagnose.match import match_trigger
from bot.diagnose.narrow import Narrow
from bot.diagnose.outcome import mark_outlived, run_succeeded
from bot.diagnose.rank import rank
from bot.diagnose.result import Diagnosis, Finding, FirstError
from bot.diagnose.survey import survey_logs
from bot.diagnose.young import job_starting, mark_starting, within
from bot.models import Evidence, Target, TargetKind
from bot.redact import Redactor
from bot.redact.prefilter import DatabaseCache
from bot.runbook.schema import Case, Runbook
from bot.scope.hits import EvidenceItem, Hit, LogAt, clip
from bot.scope.logtime import line_time
from bot.scope.logview import LogView
from bot.scope.target import PodCtx, Scope, scope_evidence
from bot.settings import Thresholds
from bot.signals.base import SignalContext
from bot.signals.registry import REGISTRY
from bot.signals.stages import INDEX, job_last_stage

MAX_EVIDENCE = 6


_MATCHERS: dict[int, tuple[Runbook, LogMatcher]] = {}


def _matcher(runbook: Runbook, cache: DatabaseCache | None = None) -> LogMatcher:
    """Compiling every log pattern is the costly part of start-up: do it once per runbook."""
    cached = _MATCHERS.get(id(runbook))
    if cached is None or cached[0] is not runbook:
        conds = (t.log for c in runbook.cases.values() for t in c.when if t.log is not None)
        cached = (runbook, LogMatcher(conds, cache=cache))
        _MATCHERS[id(runbook)] = cached
    return cached[1]


def matcher_of(runbook: Runbook) -> LogMatcher:
    """The runbook's log matcher, the one its diagnoses use."""
    return _matcher(runbook)


def prepare(runbook: Runbook, *, cache: DatabaseCache | None) -> None:
    """Compile the runbook's log patterns now, through `cache` (a composition root's on-disk cache), so a
    diagnosis does not compile them."""
    _matcher(runbook, cache)


def _signal_hits(name: str, sc: SignalContext) -> list[Hit]:
    if name not in sc.cache:
        sc.cache[name] = REGISTRY[name](sc)
    return sc.cache[name]


def _case_hits(case: Case, scope: Scope, sc: SignalContext, matcher: LogMatcher,
               candidates: dict[int, dict[str, int]], others: list[PodCtx], narrow: Narrow) -> list[Hit]:
    hits: list[Hit] = []
    for trigger in case.when:
        if trigger.signal is not None:
            found = _signal_hits(trigger.signal, sc)
            if found:
                hits.extend(within(trigger, found, now=sc.now, fallback=sc.thresholds.start_window_seconds))
            continue
        for ctx in narrow.pods(trigger, scope.pods + others):
            hit = match_trigger(trigger, ctx, matcher=matcher, candidates=candidates)
            if hit is not None:
                hits.extend(within(trigger, [hit], now=sc.now, fallback=sc.thresholds.start_window_seconds)
                            if hit.since is not None else (hit,))
    return hits


def _refine(case: Case, hits: list[Hit], times: _LineTimes) -> list[Hit]:
    """Copies of `hits` (signal hits are shared between cases) with the stage each one shows - never earlier
    than where the case can fail - and, for log lines, the time stamped on or just above the line."""
    static = INDEX[case.fails_at]
    out = []
    for h in hits:
        stage = max(static, h.stage if h.stage is not None else static)
        when = h.when if h.when is not None or h.at is None else times.at(h.at)
        out.append(replace(h, stage=stage, when=when))
    return out


class _LineTimes:
    """Times of decisive log lines, read once per line from the views of the scope."""

    def __init__(self, scope: Scope, year: int) -> None:
        self._views = {(c.key, v.excerpt.source.container, v.excerpt.source.previous): v
                       for c in scope.pods for v in c.logs}
        self._year = year

    def view(self, at: LogAt) -> LogView | None:
        return self._views.get((at.pod, at.container, at.previous))

    def at(self, at: LogAt) -> datetime | None:
        view = self.view(at)
        return None if view is None else line_time(view.text, at.offset, year=self._year)


def _earlier_line(h: Hit, than: Hit) -> bool:
    """Whether `h` sits earlier in the same container's log than `than` (a previous instance comes first)."""
    if h.at is None or than.at is None or h.at.container != than.at.container:
        return False
    if h.at.previous != than.at.previous:
        return h.at.previous
    return h.at.offset < than.at.offset


def _finding(case: Case, hits: list[Hit]) -> Finding:
    # One hit per pod (the first trigger that fired there, or an earlier line of the same log), earliest stage first.
    per_pod: dict[str, Hit] = {}
    loose: list[Hit] = []
    for h in hits:
        if h.pod is None:
            loose.append(h)
        elif h.pod not in per_pod or _earlier_line(h, per_pod[h.pod]):
            per_pod[h.pod] = h
    ordered = loose + sorted(per_pod.values(), key=lambda h: h.stage or 0)
    evidence = []
    for h in ordered:
        for item in h.evidence:
            if item not in evidence:
                evidence.append(item)
    stage = min(h.stage or 0 for h in ordered)
    when = min((h.when for h in ordered if h.when is not None), default=None)
    if len(evidence) > MAX_EVIDENCE:
        extra = len(evidence) - MAX_EVIDENCE
        evidence = evidence[:MAX_EVIDENCE]
        evidence.append(EvidenceItem("", f"… and {extra} more"))
    return Finding(case=case, evidence=evidence, pods=sorted(per_pod), stage=stage, when=when,
                   earlier_instance=any(h.earlier_instance for h in ordered), hits=loose + list(per_pod.values()))


def _one_unit(matched: dict[str, list[Hit]], target: Target) -> None:
    """A runner pod and its `-workflow` pod are one CI job: explanations apply across both."""
    if target.kind is not TargetKind.JOB:
        for hits in matched.values():
            for h in hits:
                h.pod = str(target)


def _drop_superseded(matched: dict[str, list[Hit]], runbook: Runbook, roles: Roles) -> None:
    """A case that explains another on the same pod removes the other's hits there (a wait still inside its window
    removes nothing) - unless the other came
    first on that pod and so explains it (the prepare script failed, then the Ray CLI was missing), or began
    before it (an agent lost three minutes ago does not explain what failed thirty minutes ago), or is a
    container's recorded verdict (terminated OOMKilled is the kubelet's fact; no reading of a log discards it: the
    finding stays, and the ranking's relations place it). Neither exception is made for a catch-all, whose earlier
    lines are the same failure seen from further away."""
    for case_id, hits in list(matched.items()):
        case = runbook.cases[case_id]
        for ref in case.supersedes:
            if ref not in matched:
                continue
            severity, generic = runbook.cases[ref].severity, runbook.cases[ref].generic
            matched[ref] = [h for h in matched[ref] if (h.state and not generic) or not any(
                s.pod == h.pod and not s.starting and not (_began_before(h, s) and not generic)
                and not hit_explains(h, s, a_severity=severity, roles=roles) for s in hits)]
    for case_id in [c for c, h in matched.items() if not h]:
        del matched[case_id]


def _began_before(h: Hit, s: Hit) -> bool:
    """Whether `h` is stamped strictly before `s`: then `s` cannot be what caused it."""
    return h.when is not None and s.when is not None and h.when < s.when


def _roles(scope: Scope) -> Roles:
    heads = [c for c in scope.pods if c.is_head]
    # "Ray cluster is ready" (or the run script, which only starts after it) without a failed check before it:
    # the node check passed, every worker had joined.
    formed = [c.key for c in heads if any(
        (v.markers.check_passed or v.markers.ready is not None or v.markers.run is not None)
        and v.markers.check_failed is None for v in c.logs if v.excerpt.source.container == "main")]
    return Roles(heads=frozenset(c.key for c in heads), formed=frozenset(formed),
                 workers=frozenset(c.key for c in scope.pods if c.task is not None and not c.is_head))


def _answer_line(findings: list[Finding], times: _LineTimes) -> FirstError | None:
    """The first error of the answer itself: the earliest concrete log line of the first finding (earliest
    stamped, else a previous instance, else the earliest stage, the Head first). It is what the ranking chose,
    so the report's "first error" never points at a consequence the answer explains."""
    if not findings:
        return None
    hits = [h for h in findings[0].hits if h.at is not None and h.concrete]
    if not hits:
        return None
    best = min(hits, key=lambda h: (h.when is None, h.when or datetime.min.replace(tzinfo=UTC),
                                    not h.at.previous if h.at else True, h.stage or 0))
    assert best.at is not None
    view = times.view(best.at)
    if view is None:
        return None
    pos = best.at.offset
    if not findings[0].case.safety:
        # The first error since the wrapper's last step, when the case's own line came after it (a worker's
        # "exited with code 1" after the raylet's OOM line): the first error, not the last line.
        m = view.markers
        steps = [p for p in (m.rank, m.prepare, m.connecting, m.reachable, m.waiting, m.ready, m.run)
                 if p is not None and p <= pos]
        earlier = view.first_error(max(steps), pos) if steps else None
        pos = pos if earlier is None else _exception_of(view, earlier)
    line = view.line_at(pos)
    ctx = tuple(f"{ln.number:>6}  {clip(ln.text, 300)}" for ln in view.context(pos))
    return FirstError(view.excerpt.source.ref(), line.number, clip(line.text), ctx)


def _exception_of(view: LogView, pos: int, *, limit: int = 200) -> int:
    """A Python traceback says what failed on its last line: from "Traceback (most recent call last):" go to
    the exception line that ends it (the first line after it that is not indented)."""
    text = view.text
    start = text.rfind("\n", 0, pos) + 1
    if not text.startswith("Traceback (most recent call last):", start):
        return pos
    cursor = text.find("\n", start)
    for _ in range(limit):
        if cursor < 0:
            break
        nxt = cursor + 1
        if nxt < len(text) and text[nxt] not in " \t\n":
            return nxt
        cursor = text.find("\n", nxt)
    return pos


def _decisive_line(findings: list[Finding]) -> FirstError | None:
    """When no line looks like an error (a worker retrying quietly), the answer's own log evidence is it."""
    for f in findings[:1]:
        for item in f.evidence:
            if item.context:
                return FirstError(item.source, None, item.text, item.context)
        if f.evidence and f.evidence[0].source:
            return FirstError(f.evidence[0].source, None, f.evidence[0].text)
    return None


def diagnose(evidence: Evidence, runbook: Runbook, *, now: datetime, target: Target, redactor: Redactor,
             thresholds: Thresholds | None = None, processes: int = 1) -> Diagnosis:
    """Pure: no I/O but reading the evidence's logs. `redactor` finds the credentials the evidence shows (the finding,
    and masks in evidence lines). `processes`: how many may share the logs' visits (see `survey_logs`)."""
    scope = scope_evidence(evidence, target, scan=redactor.scan)
    diag = Diagnosis(target=target, found=scope.found, where=scope.where, now=now,
                     problems=list(evidence.problems), not_collected=[str(m) for m in evidence.not_collected])
    if not scope.found:
        return diag
    sc = SignalContext(scope=scope, now=now, thresholds=thresholds or Thresholds(), scan=redactor.scan)
    matcher = _matcher(runbook)
    candidates = survey_logs(matcher, [v for c in scope.pods for v in c.logs], processes=processes)
    orphan_events = [PodCtx(name=target.name, cluster="", namespace="", events=scope.events)] if scope.events else []
    narrow = Narrow(scope.pods + orphan_events, candidates, matcher)
    matched: dict[str, list[Hit]] = {}
    for case in runbook.cases.values():
        hits = _case_hits(case, scope, sc, matcher, candidates, orphan_events, narrow)
        if hits:
            matched[case.id] = hits
    _one_unit(matched, target)
    times = _LineTimes(scope, now.year)
    matched = {c: _refine(runbook.cases[c], h, times) for c, h in matched.items()}
    drop_settled_history(matched, scope, runbook, now=now, settle_seconds=sc.thresholds.settled_seconds)
    roles = _roles(scope)
    _drop_superseded(matched, runbook, roles)
    findings = [_finding(runbook.cases[c], h) for c, h in matched.items()]
    # A wait inside its window is a job still starting: a note (info) that explains nothing, not yet a failure.
    mark_starting(findings)
    success = run_succeeded(scope, year=now.year)
    mark_outlived(findings, success)
    mark_explained(findings, roles)
    diag.findings = rank(findings)
    diag.last_stage = job_last_stage(scope)
    diag.starting = success is None and job_starting(
        scope, diag.findings, now=now, young_seconds=sc.thresholds.pending_seconds,
        reached_training=diag.last_stage == "training-signal")
    failing = [] if diag.findings and diag.findings[0].starting else diag.findings  # a wait in its window: no error
    diag.first_error = (_answer_line(failing, times) or first_error(scope)
                        or retried_cause(scope, failing[0].pods if failing else [], year=now.year)
                        or _decisive_line(failing))
    diag.facts = gather_facts(scope)
    gaps = find_gaps(scope)
    diag.not_collected += [g for g in gaps.missing if g not in diag.not_collected]
    diag.gaps = gaps.decisive
    diag.problems += [g for g in gaps.decisive if g not in diag.problems]
    if target.kind is TargetKind.JOB:
        diag.target_cluster = evidence.control_plane or (scope.job.cluster if scope.job else "")
    elif scope.pods:
        diag.target_namespace, diag.target_cluster = scope.pods[0].namespace, scope.pods[0].cluster
    elif scope.runners:
        diag.target_namespace, diag.target_cluster = scope.runners[0].namespace, scope.runners[0].cluster
    return diag

