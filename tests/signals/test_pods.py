"""Pod signals: an image pull that never ends, a pod Pending too long, a claim that is not bound."""

from __future__ import annotations

from bot.signals.pods import pending_long, pull_slow, pvc_pending
from bot.signals.stages import INDEX
from signals.scenario import scenario, sources, texts


def test_a_pull_without_a_pulled_event_says_for_how_long() -> None:
    [hit] = pull_slow(scenario("pod-image-pull-slow"))
    assert hit.pod == "ci-cluster/arc-runners/linux-aarch64-a2-8-p4kzs-runner-c7fqw-workflow"
    assert texts([hit]).endswith("no Pulled event after 52m")


def test_a_long_pending_pod_is_at_the_scheduling_stage_since_its_creation() -> None:
    hits = pending_long(scenario("infra-pending-long"))
    assert hits and all(h.stage == INDEX["scheduled"] and h.when is not None for h in hits)
    assert all(item.source == hit.pod and item.text.startswith("Pending for ") for hit in hits for item in hit.evidence)


def test_the_unbound_claim_is_named_for_the_pod_that_waits_for_it() -> None:
    [hit] = pvc_pending(scenario("cause-head-pvc-external-provisioner"))
    assert hit.pod == "gpu-b/rlark-system/sac-peg-1121-actor-0"
    assert sources([hit]) == ["gpu-b/rlark-system/sac-peg-1121-actor-data"]
    assert "is Pending (StorageClass cephfs)" in texts([hit])
