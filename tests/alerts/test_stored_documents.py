"""Alert records and queued deliveries already in the store keep working: `stored_documents.json` holds what the
notifier wrote for a NodePool alert and for two Pending pods folded by their node selector, one tick after
first seeing them, before it posted anything (records with objects as strings, deliveries carrying only what
their message shows)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alerts.fakes import RecordingSink
from alerts.helpers import T0, at, pending, pool, settings
from bot.alerts import storage
from bot.alerts.model import Action, Record
from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.models.refs import ObjectGroup, ObjectRef
from bot.store.memory import MemoryStore

DOCS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "stored_documents.json").read_text())
SELECTOR = "ci/arc/NodeSelector/kubernetes.io/arch=arm64,npu=a3"


def _alerts() -> list[Alert]:
    """What the checks said when the documents were written (the pods Pending since 07:40)."""
    pods = [pending(f"r{i}", cause="pod.schedule.insufficient-resources", group=SELECTOR) for i in range(2)]
    return [*pods, pool("a3", condition="Ready=False")]


def _stored() -> MemoryStore:
    store = MemoryStore(now=lambda: T0 + 60)
    for doc in DOCS:
        store.put_doc(storage.RECORD + doc["record"]["key"], doc, expect_version=None)
    return store


def test_stored_records_load_typed_and_the_same_alerts_write_the_same_records() -> None:
    records = {doc["record"]["key"]: Record.from_doc(doc["record"]) for doc in DOCS}
    single, folded = records["nodepool-unhealthy:ci//NodePool/a3"], records[f"long-pending:{SELECTOR}"]
    assert single.object == ObjectRef("ci", "", "NodePool", "a3") and single.objects == (single.object,)
    assert isinstance(folded.object, ObjectGroup) and folded.object.owner is None
    assert folded.object.name == "kubernetes.io/arch=arm64,npu=a3"
    assert folded.objects == (ObjectRef("ci", "arc", "Pod", "r0"), ObjectRef("ci", "arc", "Pod", "r1"))

    store = MemoryStore(now=lambda: T0)
    Notifier(store=store, sink=RecordingSink(down=True), settings=settings()).tick(_alerts(), now=at(T0))
    written = {k[len(storage.RECORD):]: v.doc["record"] for k, v in store.scan_docs(storage.RECORD)}
    assert written == {doc["record"]["key"]: doc["record"] for doc in DOCS}


def test_deliveries_queued_in_the_earlier_shape_go_out_once_and_the_threads_go_on() -> None:
    for doc in DOCS:
        [queued] = doc["queued"]
        action = Action.from_doc(queued)
        assert action.id == f"{doc['record']['key']}#{int(T0)}.1" and action.view.summary == doc["record"]["summary"]
        assert Action.from_doc(action.to_doc()) == action
    store, sink = _stored(), RecordingSink()
    n = Notifier(store=store, sink=sink, settings=settings())
    n.tick(_alerts(), now=at(T0 + 60))  # the queued roots are re-queued from their records and delivered
    roots = {r.metadata["event_payload"]["key"]: r for r in sink.roots()}
    assert set(roots) == {doc["record"]["key"] for doc in DOCS}
    payload = roots[f"long-pending:{SELECTOR}"].metadata["event_payload"]
    assert (payload["object"], payload["objects"]) == (SELECTOR, ["ci/arc/Pod/r0", "ci/arc/Pod/r1"])
    n.tick(_alerts(), now=at(T0 + 120))
    n.tick([a for a in _alerts() if a.check == "long-pending"], now=at(T0 + 180))
    n.tick([a for a in _alerts() if a.check == "long-pending"], now=at(T0 + 240))
    assert len(sink.roots()) == 2, "no thread started twice"
    pool_root = roots["nodepool-unhealthy:ci//NodePool/a3"]
    assert [r.state for r in sink.replies(pool_root.ts)] == ["resolved"]
