"""run.no-persistent-output: the run script writes its outputs where no volume keeps them."""

from __future__ import annotations

from bot.signals.outputs import no_persistent_output
from signals.scenario import scenario


def test_outputs_under_no_mount_are_named_with_the_mounts_there_are() -> None:
    [hit] = no_persistent_output(scenario("rlark-run-device-oom"))
    assert hit.pod == "gpu-a/rlark-system/ppo-franka-0412-actor-0"
    writes, mounts = hit.evidence[:2]
    assert writes.source == "control-plane/rlark-gpu-a/ppo-franka-0412-actor:runScript"
    assert writes.text.startswith("writes /workspace/outputs")
    assert mounts.source == f"{hit.pod}:main" and mounts.text.endswith("the paths above are under none")
