"""Shared by the preflight tests: the ready example Job, the example inventory, and running the rules."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from bot.preflight.document import parse
from bot.preflight.inventory import Inventory
from bot.preflight.inventory_bundle import read_inventory
from bot.preflight.run import PreflightReport, preflight
from bot.redact import Redactor
from bot.settings import Thresholds

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "preflight"
JOBS = EXAMPLE / "jobs"
READY = JOBS / "ready.yaml"


@cache
def redactor() -> Redactor:
    return Redactor()


def ready() -> dict[str, Any]:
    """A fresh copy of the ready example Job, to mutate."""
    return copy.deepcopy(_ready())


@cache
def _ready() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(READY.read_text(encoding="utf-8"))
    return data


def inventory() -> Inventory:
    return read_inventory(EXAMPLE)


def check(data: dict[str, Any] | str, *, inv: Inventory | None = None, live: bool = True, lang: str = "en",
          resubmit: bool = False) -> PreflightReport:
    """Run every rule over `data` (a Job tree, dumped to YAML and parsed back as a file would be, or YAML text)."""
    text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    doc = parse(text, "job.yaml")
    used = (inv or inventory()) if live else None
    return preflight(doc, inventory=used, thresholds=Thresholds(), scan=redactor().scan, lang=lang,
                     resubmit=resubmit)


def rules(report: PreflightReport, severity: str | None = None) -> set[str]:
    return {f.rule for f in report.findings if severity is None or f.severity == severity}


def task(data: dict[str, Any], index: int) -> dict[str, Any]:
    out: dict[str, Any] = data["spec"]["tasks"][index]
    return out


def main_container(data: dict[str, Any], index: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = task(data, index)["kubernetes"]["workload"]["template"]["spec"]["containers"][0]
    return out


def pod_spec(data: dict[str, Any], index: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = task(data, index)["kubernetes"]["workload"]["template"]["spec"]
    return out
