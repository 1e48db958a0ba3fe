"""A watch's glance runs where diagnoses run: in a worker process it gives what the source gives in-process, and
a bundle replaced between two glances gives another fingerprint."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from slack.apphost import bundle_of

from bot.models import Target
from bot.settings import Settings
from bot.sources import BundleSource
from bot.workers.child import WorkerSpec
from bot.workers.pool import WorkerEngine, wait_started

pytestmark = pytest.mark.xdist_group("worker-processes")


def test_a_glance_in_a_worker_equals_the_glance_in_process(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(bundle_of("ray-workers-never-join"), bundle)
    target = Target.parse("job/ppo-franka-0412")
    engine = WorkerEngine(WorkerSpec(settings=Settings(), snapshot=str(bundle), nice=0), workers=1)
    try:
        assert wait_started(engine, count=1, timeout=60.0), engine.problem()
        mark = engine.glance(target)
        assert mark == BundleSource(bundle).glance(target) and engine.glance(target) == mark
        (bundle / "snapshot.yaml").write_text((bundle / "snapshot.yaml").read_text() + "\n", encoding="utf-8")
        assert engine.glance(target) != mark, "the bundle was replaced"
    finally:
        engine.close()
