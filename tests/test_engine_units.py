"""Units of the engine that scenarios exercise only indirectly: markers, first error, ranking, log prefilter."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from datetime import UTC, datetime
from pathlib import Path

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.diagnose.logscan import LogMatcher
from bot.diagnose.rank import rank
from bot.diagnose.result import Finding
from bot.models import LogExcerpt, LogSource, Target
from bot.redact import Redactor
from bot.runbook import Runbook, load_runbook
from bot.runbook.schema import LogCond
from bot.scope.hits import clip
from bot.scope.logview import LogView
from bot.signals.names import SIGNALS
from bot.signals.stages import INDEX, reached_at

REDACTOR = Redactor()  # built once: the scenarios need no configured secrets

ROOT = Path(__file__).resolve().parents[1]


def view(text: str, container: str = "main") -> LogView:
    return LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container=container), text=text),
                   REDACTOR.scan)


HEAD_LOG = """RLINF_NODE_RANK: 0
Executing prepare script...
pip install ... Requirement already satisfied: torch
Waiting for 4 nodes to join the Ray cluster...
Current node count: 1
Current node count: 2
Warning: Ray cluster check failed, proceeding anyway.
Ray cluster is ready. Printing cluster information:
Executing run script...
Traceback (most recent call last):
RuntimeError: boom
"""


def test_markers_and_stage_at_position() -> None:
    v = view(HEAD_LOG)
    m = v.markers
    assert m.rank == 0 and m.expected_nodes == 4 and m.last_count == 2
    assert m.check_failed is not None and m.run is not None
    # "ready" printed after a failed check does not count as a formed cluster
    assert reached_at(m, len(HEAD_LOG) - 1) == INDEX["run-script"]
    assert reached_at(m, HEAD_LOG.index("Current node count: 2")) == INDEX["ray-cli-checked"]


def test_first_error_skips_benign_noise() -> None:
    text = "epoch 1 0 errors\nerror_rate=0.01\nWARNING: deprecated option\nreal: ERROR something broke\nlast\n"
    v = view(text)
    pos = v.first_error()
    assert pos is not None and v.line_at(pos) .text == "real: ERROR something broke"
    assert v.line_at(pos).number == 4


def test_context_lines_numbered() -> None:
    v = view("a\nb\nc\nd\ne\nf\ng\n")
    lines = v.context(v.text.index("d"), before=2, after=1)
    assert [(x.number, x.text) for x in lines] == [(2, "b"), (3, "c"), (4, "d"), (5, "e")]


def test_clip_never_cuts_a_token() -> None:
    token = "x" * 500
    assert clip(f"key {token}", 100) == "key …"
    assert clip(token, 100) == "[long value omitted]"
    assert clip("short", 100) == "short"


def test_hyperscan_and_re_agree() -> None:
    conds = [LogCond(pattern=re.compile(p), unless=re.compile(u) if u else None) for p, u in [
        (r"(?i)no space left on device", r"/dev/shm"),
        (r"NCCL WARN", None),
        (r"Ray worker process exited with code [1-9]\d*", None),
        (r"(?<=x)lookbehind", None),  # not Hyperscan syntax: must fall back to `re`
    ]]
    text = ("ok\nwrite /dev/shm/x: No space left on device\nOSError: [Errno 28] No space left on device\n"
            "NCCL WARN Net : Connection closed\nRay worker process exited with code 0\n"
            "Ray worker process exited with code 137\nxlookbehind\n")
    fast, slow = LogMatcher(conds), LogMatcher(conds, use_hyperscan=False)
    assert slow.accelerated == 0
    v = view(text)
    for c in conds:
        a = fast.first_match(c, v, candidates=fast.prefilter(v))
        b = slow.first_match(c, v, candidates=slow.prefilter(v))
        assert a == b and a is not None
    assert v.line_at(fast.first_match(conds[0], v, candidates=fast.prefilter(v)) or 0).text.startswith("OSError")
    assert v.line_at(fast.first_match(conds[2], v, candidates=fast.prefilter(v)) or 0).text.endswith("137")


def _finding(runbook: Runbook, case: str, stage: str) -> Finding:
    c = runbook.cases[case]
    return Finding(case=c, evidence=[], pods=[], stage=INDEX[stage])


def test_ranking_rules(runbook: Runbook) -> None:
    waiting = _finding(runbook, "rlark.ray.head-unreachable", "ray-cluster-forming")
    pending = _finding(runbook, "pod.schedule.insufficient-resources", "scheduled")
    creds = _finding(runbook, "rlark.risk.credentials-exposed", "submitted")
    robot = _finding(runbook, "rlark.run.robot-device", "training-signal")
    assert [f.id for f in rank([waiting, creds, pending])] == [pending.id, creds.id, waiting.id]
    assert [f.id for f in rank([waiting, creds, pending, robot])][:3] == [robot.id, pending.id, creds.id]
    stopped = _finding(runbook, "rlark.task.stopped", "pod-created")
    assert [f.id for f in rank([stopped, creds])] == [creds.id, stopped.id]
    assert [f.id for f in rank([creds])] == [creds.id]


def test_a_new_log_case_needs_yaml_only(tmp_path: Path) -> None:
    """Copy the runbook, add one log-signature case in YAML, and the engine finds it in a bundle."""
    rb_dir = tmp_path / "runbooks"
    shutil.copytree(ROOT / "runbooks", rb_dir)
    (rb_dir / "zz-local.yaml").write_text(textwrap.dedent("""\
        cases:
          - id: ci.run.flux-capacitor
            title: {zh: 通量电容器过载, en: Flux capacitor overloaded}
            symptom: {zh: 日志出现 FLUX-88 错误。, en: The log shows error FLUX-88.}
            severity: error
            fails_at: containers-started
            sources: [{page: ci-runner, section: 容器崩溃}]
            when:
              - log: {pattern: 'FLUX-88: capacitor overloaded'}
            supersedes: [ci.run.user-script, pod.run.crash-on-start]
            next_steps: [{zh: 降低负载后重跑。, en: Lower the load and re-run.}]
            avoid: [{zh: 不要反复重跑。, en: Do not re-run again and again.}]
            escalate_to: user
        """), encoding="utf-8")
    bundle = tmp_path / "bundle"
    (bundle / "ci" / "runner-1").mkdir(parents=True)
    pod = {"metadata": {"name": "runner-1", "namespace": "ci"}, "status": {"phase": "Failed", "containerStatuses": [
        {"name": "runner", "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}]}}
    (bundle / "ci" / "pods.json").write_text(json.dumps({"kind": "PodList", "items": [pod]}), encoding="utf-8")
    (bundle / "ci" / "runner-1" / "logs.txt").write_text(
        "==== START logs for container runner of pod ci/runner-1 ====\nstep 1 ok\n"
        "FLUX-88: capacitor overloaded\nstep 2 skipped\n==== END logs for container runner of pod ci/runner-1 ====\n",
        encoding="utf-8")
    rb = load_runbook(rb_dir, known_signals=SIGNALS)
    diag = diagnose(read_bundle(bundle), rb, now=datetime(2026, 11, 20, tzinfo=UTC),
                    target=Target.parse("pod/runner-1"), redactor=REDACTOR)
    assert diag.findings[0].id == "ci.run.flux-capacitor"
    assert "line 2: FLUX-88" in diag.findings[0].evidence[0].text
