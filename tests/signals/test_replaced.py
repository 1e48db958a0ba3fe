"""worker.replaced: one worker name seen as several pods (UIDs, IPs, nodes)."""

from __future__ import annotations

from bot.signals.replaced import worker_replaced
from signals.scenario import scenario, texts


def test_a_worker_seen_with_two_ips_on_two_nodes_was_replaced_and_the_head_saw_its_old_address_die() -> None:
    [hit] = worker_replaced(scenario("rlark-worker-replaced"))
    assert hit.pod == "gpu-a/rlark-system/ppo-franka-0412-rollout-1"
    said = texts([hit])
    assert "seen as 2 pods with IPs 10.0.1.13, 10.0.1.17 on nodes gpu-a-node-03, gpu-a-node-07" in said
    assert "the Head's Ray marked the node at 10.0.1.13 dead" in said


def test_events_about_an_earlier_instance_name_its_uid_and_the_current_one() -> None:
    [hit] = worker_replaced(scenario("calm-evicted-long-ago"))
    assert hit.evidence[0].text.startswith("Evicted on gpu-a-node-03 about an earlier instance (UID c8ea4df4")
    assert "now 084538c8" in hit.evidence[0].text
