"""Spec diff units: task matching, quantities, name normalisation, and the verdict's wording."""

from __future__ import annotations

from typing import Any

from bot.compare.model import ErrorLines, Outcome, Placement, SpecChange
from bot.compare.quantity import same_quantity
from bot.compare.spec import match_tasks, spec_changes
from bot.compare.verdict import same_stage, still_running, verdict
from bot.models.rlark import JobSpec, TaskSpec
from bot.redact import Redactor

REDACTOR = Redactor()


def task(name: str, *, head: bool = False, role: str = "Rollout", image: str = "img:1", replicas: int = 1,
         **extra: Any) -> dict[str, Any]:
    main = {"name": "main", "image": image, **extra.pop("main", {})}
    return {"name": name, "head": head, "role": role, "nodeSelector": {"pool": "a"}, **extra,
            "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": replicas,
                                        "template": {"spec": {"containers": [main]}}}}}


def spec(*tasks: dict[str, Any], domain: str = "") -> JobSpec:
    return JobSpec.model_validate({"tasks": list(tasks), "domain": domain})


def changes(a: JobSpec, b: JobSpec, names: tuple[str, str] = ("job-a", "job-b")) -> list[SpecChange]:
    return spec_changes(a, b, names=names, redactor=REDACTOR)


def test_tasks_matched_by_name_then_head_then_role() -> None:
    a = [TaskSpec.model_validate(t) for t in (task("actor", head=True, role="Actor"), task("rollout"),
                                              task("env", role="Env"))]
    b = [TaskSpec.model_validate(t) for t in (task("learner", head=True, role="Actor"), task("rollout"),
                                              task("sim", role="Env"), task("extra", role="Reward"))]
    pairs = [(x.name if x else None, y.name if y else None) for x, y in match_tasks(a, b)]
    assert pairs == [("rollout", "rollout"), ("actor", "learner"), ("env", "sim"), (None, "extra")]


def test_renamed_tasks_are_no_change_and_an_added_task_is() -> None:
    a = spec(task("actor", head=True, role="Actor"))
    b = spec(task("learner", head=True, role="Actor"), task("extra", role="Reward"))
    found = changes(a, b)
    assert [(c.task, c.category, c.field, c.a, c.b) for c in found] == [
        ("extra", "replicas", "task", None, "present")]


def test_quantities_compare_by_value() -> None:
    assert same_quantity("1Gi", "1024Mi") and same_quantity("500m", "0.5") and same_quantity("8", "8")
    assert not same_quantity("1Gi", "1G") and not same_quantity("4", "8") and not same_quantity(None, "1")


def test_job_name_in_claims_and_env_is_not_a_change() -> None:
    def one(job: str) -> JobSpec:
        return spec(task("actor", head=True, main={"env": [{"name": "LOG_DIR", "value": f"/data/{job}/logs"}]},
                         prepareScript=f"mkdir -p /out/{job}"))
    assert changes(one("job-a"), one("job-b")) == []
    # B still naming A (its logs and outputs would land in A's directories) is a change
    found = changes(one("job-a"), one("job-a"))
    assert {(c.category, c.field) for c in found} == {("env", "main.LOG_DIR"), ("scripts", "prepareScript")}


def test_changed_secret_is_reported_but_never_shown() -> None:
    def one(value: str) -> JobSpec:
        return spec(task("actor", head=True, main={"env": [{"name": "HF_TOKEN", "value": value}]}))
    a_tok, b_tok = "hf_" + "a" * 34, "hf_" + "b" * 34
    found = changes(one(a_tok), one(b_tok))
    assert [(c.category, c.field) for c in found] == [("env", "main.HF_TOKEN")]
    assert a_tok not in str(found) and b_tok not in str(found)


def _outcome(stage: str, case: str = "none", *, phase: str = "Running", cases: tuple[str, ...] = (),
             errors: dict[int, ErrorLines] | None = None, clusters: str = "gpu-a") -> Outcome:
    return Outcome(phase=phase, last_stage=stage, first_error=None, case=case, cases=cases or (
        (case,) if case != "none" else ()), placement=Placement(tasks={"actor": (clusters, ("n1",))}),
        durations={}, stage_errors=errors or {})


def test_verdict_wording_in_both_languages() -> None:
    one = [SpecChange(task="actor", category="scripts", field="prepareScript", a="x", b="y", diff="-x\n+y")]
    a = _outcome("prepare-script", "rlark.ray.prepare-failed")
    b = _outcome("run-script", "rlark.run.nccl")
    assert verdict(one, a=a, b=b, lang="en") == (
        "1 change (scripts: prepareScript edited): stage prepare-script → run-script; "
        "rlark.ray.prepare-failed gone; rlark.run.nccl new")
    assert verdict(one, a=a, b=b, lang="zh").startswith(
        "1 处变更（scripts：prepareScript 已修改）：阶段 prepare-script → run-script")
    moved = _outcome("scheduled", clusters="gpu-b")
    assert verdict([], a=a, b=moved, lang="en").startswith("no change in the submitted spec: look at the environment: "
                                                  "clusters gpu-a → gpu-b")


def test_same_stage_and_still_running() -> None:
    err = ErrorLines(source="s", lines=("Error: boom",))
    a = _outcome("prepare-script", "rlark.ray.prepare-failed", errors={7: err})
    b = _outcome("run-script")
    same = same_stage(a, b)
    assert same is not None and same.stage == "prepare-script" and same.a == err and same.b is None
    assert still_running(_outcome("scheduled"), now="t", lang="en") is not None
    assert still_running(_outcome("scheduled", phase="Failed"), now="t", lang="en") is None
    assert still_running(_outcome("run-script"), now="t", lang="en") is None
