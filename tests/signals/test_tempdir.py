"""ray.temp-dir: a permission or space error on the Ray temp dir, with where that dir was set."""

from __future__ import annotations

from bot.signals.tempdir import temp_dir_error
from signals.scenario import scenario


def test_the_error_and_the_prepare_script_line_that_chose_the_dir() -> None:
    [hit] = temp_dir_error(scenario("cause-temp-dir-exported-in-prepare"))
    error, where = hit.evidence[:2]
    assert error.source == f"{hit.pod}:main" and "Failed to start the GCS server" in error.text
    assert where.text == "Ray temp dir /data/raytmp (RAY_TEMP_DIR=/data/raytmp/$RLINF_JOB_NAME set in the Task's " \
                         "prepareScript)"


def test_an_error_only_in_the_previous_instance_is_marked_as_earlier() -> None:
    hits = temp_dir_error(scenario("cause-temp-dir-previous-only"))
    assert [h.pod for h in hits] == ["gpu-a/rlark-system/ppo-franka-0412-rollout-1",
                                     "gpu-a/rlark-system/ppo-franka-0412-rollout-2"]
    assert all(h.earlier_instance for h in hits)
    assert "Permission denied: '/scratch/ray/sockets/raylet'" in hits[0].evidence[0].text
