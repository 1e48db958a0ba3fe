"""Every Kubernetes request live collection sends is heard by the observer (the bot counts them in a metric)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cluster.adapter import verb_and_resource
from bot.models import Target
from bot.settings import Settings
from bot.sources import LiveSource
from cluster.standin import StandIn


@pytest.mark.parametrize(("path", "verb", "resource"), [
    ("/api/v1/namespaces/rlark-system/pods", "list", "pods"),
    ("/api/v1/namespaces/rlark-system/pods/p-0/log", "get", "pods/log"),
    ("/api/v1/nodes", "list", "nodes"),
    ("/apis/rlinf.io/v1alpha1/jobs/ppo-big", "get", "jobs"),
    ("/apis/rlinf.io/v1alpha1/namespaces/rlark-gpu-a/tasks", "list", "tasks"),
    ("/healthz", "get", "other"),
])
def test_paths_name_their_verb_and_resource(path: str, verb: str, resource: str) -> None:
    assert verb_and_resource(path) == (verb, resource)


def test_live_collection_reports_each_request(standin: StandIn, kubeconfig: Path) -> None:
    heard: list[tuple[str, str, str]] = []
    source = LiveSource(kubeconfig=str(kubeconfig), context=None, settings=Settings(),
                        observe=lambda verb, resource, status: heard.append((verb, resource, status)))
    source.for_target(Target.parse("job/ppo-big"))
    sent = [r for r in standin.requests if r.method == "GET"]
    assert len(heard) == len(sent) > 5
    assert ("get", "jobs", "200") in heard and any(r == "pods/log" for _, r, _ in heard)
    assert {s for _, _, s in heard} <= {"200", "403", "404", "410", "429", "500", "error"}
