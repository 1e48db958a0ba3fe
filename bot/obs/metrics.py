"""The bot's Prometheus metrics, served at `GET /metrics`.

One `Metrics` object owns its own `CollectorRegistry` instead of prometheus_client's global one, so the
composition root makes exactly one and tests can make as many as they like without name clashes. Callers
use the small recording methods below rather than the metric objects, which keeps label names in one place
and label values bounded: a label value never comes straight from what a user typed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

# Slash-command verbs and button actions (CONTRACT §5); anything else is counted as "other".
COMMANDS: Final = frozenset({"diagnose", "ticket", "alerts", "mute", "unmute", "help", "rerun", "evidence"})
OTHER: Final = "other"
MAX_LABEL: Final = 64  # label values are identifiers the bot chose; longer ones are cut, not trusted

# A diagnosis answers in seconds; the tail up to two minutes shows a cluster that is slow to read.
DIAGNOSIS_BUCKETS: Final = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 20.0, 30.0, 60.0, 120.0)
# How late a scheduled check started against its planned time.
LAG_BUCKETS: Final = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


def _label(value: str) -> str:
    text = " ".join(str(value).split())
    return text[:MAX_LABEL] or "none"


class Metrics:
    """Every metric the bot exports, registered in a registry of its own."""

    def __init__(self, *, process: bool = True) -> None:
        """`process` adds the standard process and platform collectors (RSS, CPU, open files, Python version)."""
        self.registry = CollectorRegistry(auto_describe=True)
        reg = self.registry
        self._commands = Counter("rlark_bot_commands", "Slash commands and button actions handled, by outcome",
                                 ["command", "outcome"], registry=reg)
        self._diagnosis = Histogram("rlark_bot_diagnosis_seconds", "Wall time of one diagnosis, collection included",
                                    buckets=DIAGNOSIS_BUCKETS, registry=reg)
        self._kube = Counter("rlark_bot_kube_requests", "Kubernetes API requests sent (all reads), by answer",
                             ["verb", "resource", "status"], registry=reg)
        self._slack = Counter("rlark_bot_slack_calls", "Slack Web API calls, by method and result",
                              ["method", "status"], registry=reg)
        self._alerts = Counter("rlark_bot_alerts", "Alert state transitions (firing, changed, resolved, reopened)",
                               ["state"], registry=reg)
        self._firing = Gauge("rlark_bot_alerts_firing", "Alerts firing now", registry=reg)
        self._redactions = Counter("rlark_bot_redactions", "Values the redactor masked, by kind", ["kind"],
                                   registry=reg)
        self._store_errors = Counter("rlark_bot_store_errors", "Failed store operations, by operation", ["op"],
                                     registry=reg)
        self._lag = Histogram("rlark_bot_scheduler_lag_seconds", "How late a scheduled check started",
                              buckets=LAG_BUCKETS, registry=reg)
        self._feedback = Counter("rlark_bot_feedback", "Votes on diagnosis replies (a changed vote counts anew), "
                                 "by case and vote", ["case", "vote"], registry=reg)
        self._inflight = Gauge("rlark_bot_inflight_diagnoses", "Diagnoses running now", registry=reg)
        if process:
            ProcessCollector(registry=reg)
            PlatformCollector(registry=reg)

    # -- recording --------------------------------------------------------------------------------

    def count_command(self, *, command: str, outcome: str) -> None:
        """One handled command; an unknown verb is counted as "other" so typing cannot mint new series."""
        name = command if command in COMMANDS else OTHER
        self._commands.labels(command=name, outcome=_label(outcome)).inc()

    def observe_diagnosis(self, seconds: float) -> None:
        self._diagnosis.observe(max(0.0, seconds))

    def count_kube_request(self, *, verb: str, resource: str, status: str | int) -> None:
        """`status` is the HTTP status, or a word such as "timeout" when no answer came."""
        self._kube.labels(verb=_label(verb), resource=_label(resource), status=_label(str(status))).inc()

    def count_slack_call(self, *, method: str, status: str) -> None:
        """`status` is "ok" or Slack's error code (`not_in_channel`, `ratelimited`, ...)."""
        self._slack.labels(method=_label(method), status=_label(status)).inc()

    def alert_transition(self, state: str) -> None:
        self._alerts.labels(state=_label(state)).inc()

    def set_alerts_firing(self, count: int) -> None:
        self._firing.set(max(0, count))

    def count_redactions(self, counts: Mapping[str, int]) -> None:
        """Add a `Redacted.counts` mapping: kind -> values masked."""
        for kind, n in counts.items():
            if n > 0:
                self._redactions.labels(kind=_label(kind)).inc(n)

    def count_feedback(self, *, case: str, vote: str) -> None:
        self._feedback.labels(case=_label(case), vote=_label(vote)).inc()

    def count_store_error(self, op: str) -> None:
        self._store_errors.labels(op=_label(op)).inc()

    def observe_scheduler_lag(self, seconds: float) -> None:
        self._lag.observe(max(0.0, seconds))

    @contextmanager
    def diagnosing(self) -> Iterator[None]:
        """Around one diagnosis: counts it in flight while it runs, however it ends."""
        self._inflight.inc()
        try:
            yield
        finally:
            self._inflight.dec()

    # -- exposition -------------------------------------------------------------------------------

    def render(self) -> tuple[bytes, str]:
        """The body and `Content-Type` of a `GET /metrics` answer (Prometheus text format)."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
