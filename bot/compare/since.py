""""The only change since the last run", for the admin ticket: the spec half of `compare` against the predecessor.

The predecessor is the Job named with `--since`, else the latest Job created before this one whose name has the
same prefix (the name without its last `-` part: `ppo-franka-0412` follows `ppo-franka-0411`).
"""

from __future__ import annotations

from bot.compare.runs import digests, find_run
from bot.compare.spec import spec_changes
from bot.compare.verdict import spec_summary
from bot.models import Evidence, Job
from bot.redact import Redactor


def prefix(name: str) -> str:
    return name.rsplit("-", 1)[0] if "-" in name else ""


def predecessor(evidence: Evidence, job: Job, *, since: str | None = None) -> Job | None:
    if since:
        return next((j for j in evidence.jobs if j.name == since and j.name != job.name), None)
    mine, created = prefix(job.name), job.metadata.creation_timestamp
    if not mine or created is None:
        return None
    earlier = [j for j in evidence.jobs if j.name != job.name and prefix(j.name) == mine
               and j.metadata.creation_timestamp is not None and j.metadata.creation_timestamp < created]
    return max(earlier, key=lambda j: (j.metadata.creation_timestamp, j.name), default=None)


def since_last_run(evidence: Evidence, job: Job, *, redactor: Redactor, lang: str, since: str | None = None
                   ) -> str:
    """One line for the ticket; "" when no predecessor is known (and none was named)."""
    before = predecessor(evidence, job, since=since)
    if before is None:
        if since:
            return (f"job/{since}：证据中没有这个 Job" if lang == "zh"
                    else f"job/{since}: not in the evidence read")
        return ""
    return since_between(evidence, before, evidence, job, redactor=redactor, lang=lang)


def since_between(before_evidence: Evidence, before: Job, evidence: Evidence, job: Job, *, redactor: Redactor,
                  lang: str) -> str:
    """The line for `job` against `before`, each run's digests read from the evidence it came with (a live read of
    one Job holds only that Job's pods)."""
    dig = (digests(find_run(before_evidence, before)), digests(find_run(evidence, job)))
    changes = spec_changes(before.spec, job.spec, names=(before.name, job.name), redactor=redactor, digests=dig)
    return f"job/{before.name} → job/{job.name}: {spec_summary(changes, lang=lang)}"
