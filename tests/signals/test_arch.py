"""node.arch-mismatch: a failing pod's native code built for another CPU than its node's."""

from __future__ import annotations

from bot.signals.arch import arch_mismatch
from signals.scenario import scenario


def test_the_pod_that_cannot_run_its_binary_is_named_with_its_nodes_architecture() -> None:
    [hit] = arch_mismatch(scenario("pod-arch-mismatch-exec-format"))
    assert hit.pod == "ci-cluster/arc-runners/linux-amd64-cpu-8-b5xwq-runner-m2t7z-workflow"
    line, node = hit.evidence[:2]
    assert "exec format error" in line.text and line.source.startswith(f"{hit.pod}:")
    assert node.text == "node cpu-x86-01: kubernetes.io/arch=amd64"
