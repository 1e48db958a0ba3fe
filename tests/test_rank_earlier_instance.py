"""A warning seen in a restarted container's earlier instance must not outrank two errors its current instance shows.

Stated through the command line's JSON: a pod whose previous instance logged a stale lock (a warning case) and whose
current instance logs a stale file handle and a full disk (two error cases). The warning is about an instance that is
gone: it neither explains the current instance's errors nor ranks before them (rank.py, rule 'history').
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

HEADER = "==== START logs for container main of pod ci/p ====\n"
PREVIOUS = '2026-11-20T07:10:01Z File "/usr/lib/python3/site-packages/torch/utils/file_baton.py", line 42, in wait\n'
CURRENT = (
    "2026-11-20T07:40:01Z OSError: [Errno 116] Stale file handle: '/mnt/shared/ckpt'\n"
    "2026-11-20T07:41:00Z OSError: [Errno 28] No space left on device: '/mnt/shared/ckpt/step_1'\n"
)


def _bundle(root: Path) -> None:
    ns = root / "ci"
    (ns / "p").mkdir(parents=True)
    pod = {
        "kind": "Pod", "apiVersion": "v1",
        "metadata": {"name": "p", "namespace": "ci", "uid": "u1", "creationTimestamp": "2026-11-20T07:00:00Z"},
        "spec": {"restartPolicy": "Always", "nodeName": "n1", "containers": [{"name": "main", "image": "img:1"}]},
        "status": {
            "phase": "Running", "startTime": "2026-11-20T07:00:00Z",
            "containerStatuses": [{
                "name": "main", "image": "img:1", "ready": True, "restartCount": 1,
                "state": {"running": {"startedAt": "2026-11-20T07:30:00Z"}},
                "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-11-20T07:29:00Z"}},
            }],
        },
    }
    (ns / "pods.json").write_text(json.dumps({"kind": "PodList", "items": [pod]}), encoding="utf-8")
    (ns / "events.json").write_text(json.dumps({"kind": "EventList", "items": []}), encoding="utf-8")
    (root / "nodes.json").write_text(json.dumps({"kind": "NodeList", "items": []}), encoding="utf-8")
    (ns / "p" / "previous-logs.txt").write_text(HEADER + PREVIOUS, encoding="utf-8")
    (ns / "p" / "logs.txt").write_text(HEADER + CURRENT, encoding="utf-8")
    (root / "snapshot.yaml").write_text("capturedAt: '2026-11-20T08:00:00Z'\n", encoding="utf-8")


def test_a_warning_of_an_earlier_instance_does_not_outrank_two_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _bundle(tmp_path)
    status = main(["diagnose", "pod/p", "--namespace", "ci", "--snapshot", str(tmp_path), "--format", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert status == 0
    severities = [f["severity"] for f in findings]
    assert severities.count("error") >= 2 and "warning" in severities  # the situation the rule is about
    assert findings[0]["severity"] == "error", [(f["case"], f["severity"]) for f in findings]
