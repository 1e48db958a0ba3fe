"""Bundles holding two runs of one job (A, then B resubmitted under a new name), built with the scenario generator
into a temporary directory: the pair differs in exactly what a test passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.scenariogen.rlark import (
    JobM,
    Scenario,
    crashloop,
    fill_healthy_logs,
    main_logs,
    rank_lines,
    standard_job,
)

A, B = "ppo-franka-0412", "ppo-franka-0413"
REPO = "registry.rlinf.example/rlinf/rlinf"


def cli_missing_logs(job: JobM) -> None:
    """Every wrapper stops after the prepare script: "Ray CLI is not found" (rlark.ray.cli-missing)."""
    for t in job.tasks:
        for p in t.pods:
            log = (rank_lines(p) + "Executing prepare script...\n"
                   "Error: Ray CLI is not found. Please ensure Ray is installed.\n")
            p.logs = main_logs(p, log)
            p.prev_logs = {"main": log}
            crashloop(p, 1, 8, 1.5 + p.rank * 0.2)


def build(root: Path, *, a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
          a_outcome: str = "healthy", b_outcome: str = "healthy", domain: tuple[str, str] = ("", ""),
          b_agent: str = "gpu-a") -> Path:
    """Write a bundle with runs A and B. `a`/`b`: keyword overrides per run, {"head": {...}, "worker": {...}} of
    the generator's TaskDef fields; `*_outcome`: "healthy" or "cli-missing"."""
    sc = Scenario("pair", root=root)
    sc.cluster("gpu-a")
    if b_agent != "gpu-a":
        sc.cluster(b_agent)
    jobs = []
    for name, kw, how, dom, agent, age in ((A, a or {}, a_outcome, domain[0], "gpu-a", 90),
                                           (B, b or {}, b_outcome, domain[1], b_agent, 40)):
        job = standard_job(sc, name, workers=1, agent=agent, age_min=age, domain=dom,
                           head_kw=kw.get("head"), worker_kw=kw.get("worker"))
        if how == "cli-missing":
            cli_missing_logs(job)
        else:
            fill_healthy_logs(job)
        jobs.append(job)
    return sc.write()


def set_digest(bundle: Path, job: str, digest: str) -> None:
    """Make every member pod of `job` report that `main` ran the image with this digest (`imageID`)."""
    for path in bundle.glob("*/rlark-system/pods.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for pod in doc["items"]:
            if not pod["metadata"]["name"].startswith(job + "-"):
                continue
            for status in pod["status"].get("containerStatuses", []):
                if status["name"] == "main":
                    status["imageID"] = f"docker-pullable://{REPO}@sha256:{(digest * 64)[:64]}"
        path.write_text(json.dumps(doc, indent=1), encoding="utf-8")


def job_yaml(bundle: Path, job: str, *, name: str, edit: Any = None) -> str:
    """Job `job` of the bundle as a YAML document under a new name (status and server fields dropped, the name
    replaced where the spec holds it as a value), edited
    by `edit(doc)` when given: a planned run."""
    import yaml

    doc = next(j for j in json.loads((bundle / "control-plane" / "jobs.rlinf.io.json").read_text())["items"]
               if j["metadata"]["name"] == job)
    # as the creator writes it: the new name wherever the spec named the Job (RLINF_JOB_NAME)
    spec = json.loads(json.dumps(doc["spec"]).replace(f'"{job}"', f'"{name}"'))
    planned = {"apiVersion": doc["apiVersion"], "kind": "Job", "metadata": {"name": name}, "spec": spec}
    if edit is not None:
        edit(planned)
    return yaml.safe_dump(planned, sort_keys=False)


def edit_job(bundle: Path, job: str, edit: Any) -> None:
    """Change Job `job` in the bundle's control plane with `edit(doc)` (for fields the generator does not vary)."""
    path = bundle / "control-plane" / "jobs.rlinf.io.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    for item in doc["items"]:
        if item["metadata"]["name"] == job:
            edit(item)
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")


def task_of(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in doc["spec"]["tasks"] if t["name"] == name)


def main_of(task: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in task["kubernetes"]["workload"]["template"]["spec"]["containers"] if c["name"] == "main")
