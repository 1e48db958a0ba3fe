"""What an instance that is gone showed (a previous container's lines, the events of an older pod UID) does not
explain what the current instance shows, and a lesser finding of it never outranks the current instance's errors."""

from __future__ import annotations

import pytest

from bot.runbook import Runbook
from diagnose.objects import diagnose_pod, event, evidence, log, pod, stamp

CURRENT = ("2026-11-20T07:55:01Z OSError: [Errno 116] Stale file handle: '/mnt/shared/ckpt'\n"
           "2026-11-20T07:56:00Z OSError: [Errno 122] Disk quota exceeded: '/mnt/shared/ckpt/step_1'\n")
EVICTIONS = [
    "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 2Gi.",
    "The node had condition: [DiskPressure].",
]


@pytest.mark.parametrize("message", EVICTIONS)
def test_an_older_pod_uid_explains_nothing_its_replacement_shows(runbook: Runbook, message: str) -> None:
    current = pod("trainer-0", node_name="gpu-2", phase="Running", created_minutes_ago=8, uid="uid-new",
                  statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(7)}}}])
    evicted = event("trainer-0", "Evicted", message, minutes_ago=9, uid="uid-old", host="gpu-1")
    diag = diagnose_pod(runbook, evidence(current, evicted, log("trainer-0", CURRENT)), "trainer-0")
    ids = [f.id for f in diag.findings]
    assert {"pod.run.disk-full", "pod.run.stale-file-handle", "pod.run.disk-quota"} <= set(ids), ids
    for f in diag.findings:
        if f.id != "pod.run.disk-full":
            assert "pod.run.disk-full" not in f.explained_by, (f.id, f.explained_by)


def test_the_same_eviction_of_the_current_uid_still_explains(runbook: Runbook) -> None:
    """The rule is about instances, not about evictions: an event of the pod's own UID keeps its place."""
    current = pod("trainer-0", node_name="gpu-2", phase="Failed", created_minutes_ago=8, uid="uid-new")
    evicted = event("trainer-0", "Evicted", EVICTIONS[0], minutes_ago=2, uid="uid-new", host="gpu-2")
    diag = diagnose_pod(runbook, evidence(current, evicted), "trainer-0")
    assert [f.id for f in diag.findings][:1] == ["pod.run.disk-full"]


@pytest.mark.parametrize("message", [
    'MountVolume.SetUp failed for volume "data" : hostPath type check failed: /data/ckpt is not a directory',
    'MountVolume.SetUp failed for volume "ckpt" : hostPath type check failed: /mnt/ckpt is not a directory',
])
def test_a_replaced_pods_older_uid_does_not_outrank_its_replacements_errors(runbook: Runbook, message: str) -> None:
    """The replacement mounted its volume and is writing to it: the older object's FailedMount is history."""
    current = pod("trainer-0", node_name="gpu-2", phase="Running", created_minutes_ago=8, uid="uid-new",
                  statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(7)}}}])
    old = event("trainer-0", "FailedMount", message, minutes_ago=9, uid="uid-old", host="gpu-1")
    diag = diagnose_pod(runbook, evidence(current, old, log("trainer-0", CURRENT)), "trainer-0")
    ids = [f.id for f in diag.findings]
    assert ids[0] == "pod.run.stale-file-handle", ids
    assert ids.index("pod.storage.hostpath-missing") > ids.index("pod.run.disk-quota"), ids
