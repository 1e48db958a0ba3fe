"""Where the inventory comes from: `--snapshot DIR` or live clusters; and a live Job's spec for `job/NAME`."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from bot.cluster.budget import Stats
from bot.errors import NotFound, SourceError, UsageError
from bot.preflight.document import API_VERSION, JobDocument
from bot.preflight.inventory import JOBS, Inventory
from bot.preflight.inventory_bundle import read_inventory
from bot.settings import Settings

KEEP_META = ("name", "labels", "annotations")


def open_inventory(*, snapshot: str | None, kubeconfig: str | None, context: str | None, settings: Settings,
                   now: datetime | None = None, stats: Stats | None = None) -> Inventory:
    if snapshot is not None:
        if kubeconfig or context:
            raise UsageError("--snapshot reads a bundle: it cannot be combined with --kubeconfig or --context")
        return read_inventory(Path(snapshot), now=now)
    from bot.preflight.inventory_live import read_live  # the Kubernetes client loads only in live mode

    return read_live(kubeconfig=kubeconfig, context=context, settings=settings, now=now, stats=stats)


def live_job(name: str, inv: Inventory, *, where: str) -> JobDocument:
    """The spec of an existing Job, as a document to check before resubmitting it."""
    if inv.lacks(JOBS):
        raise SourceError(f"cannot read Jobs from {where}: {inv.lacks(JOBS)}")
    obj = inv.jobs.get(name)
    if obj is None:
        raise NotFound(f"job/{name} not found: looked in the Jobs of {where}")
    raw_meta = obj.get("metadata")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    data: dict[str, Any] = {"apiVersion": obj.get("apiVersion") or API_VERSION, "kind": obj.get("kind") or "Job",
                            "metadata": {k: meta[k] for k in KEEP_META if k in meta}, "spec": obj.get("spec") or {}}
    return JobDocument(data=data, origin=f"job/{name}")
