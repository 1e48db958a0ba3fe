"""Every output path, run on an evidence bundle with one planted secret of every family, shows none of them.

The secrets sit where real ones do: in a pod's logs, in env values of the pod spec (and so in the Job's
task template), in an event message and in the Job's runScript. Each path's whole output (or every file it
writes) is searched for each planted value and its base64, URL-encoded and JSON-escaped forms.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from bench.redact.corpus import FAMILIES, planted
from bench.redact.shapes3 import FAMILIES as SHAPES3
from bot.cli import main
from tests.scenariogen.rlark import (
    DEFAULT_RUN,
    JOB,
    Scenario,
    crashloop,
    fill_healthy_logs,
    pod_event,
    standard_job,
)

Planted = dict[str, tuple[list[str], list[str]]]  # family -> (lines, values that must not appear)


def _one_of_each(seed: int = 20261129) -> Planted:
    rng = random.Random(seed)
    out: Planted = {}
    while len(out) < len(FAMILIES):
        fam, lines, values = planted(rng)
        out.setdefault(fam, (lines, values))
    return out


def _round_three(seed: int = 20261203) -> Planted:
    """One record of each family whose value only its neighbourhood names (bench/redact/shapes3.py)."""
    rng = random.Random(seed)
    return {f"shapes3:{name}": make(rng) for name, make in sorted(SHAPES3.items())}


PLANTED = _one_of_each()
PLANTED3 = _round_three()
VALUES = sorted({v for _, values in [*PLANTED.values(), *PLANTED3.values()] for v in values})


def _forms(value: str) -> Iterator[str]:
    yield value
    yield quote(value, safe="")
    yield json.dumps(value)[1:-1]
    yield base64.b64encode(value.encode()).decode().rstrip("=")
    yield base64.urlsafe_b64encode(value.encode()).decode().rstrip("=")


PIECE = 16  # no run this long of a planted value may show either: a secret is never cut and half shown
PIECES = sorted({v[i : i + PIECE] for v in VALUES if len(v) >= 2 * PIECE for i in range(len(v) - PIECE + 1)})


def _assert_clean(where: str, text: str) -> None:
    leaks = [(v, f) for v in VALUES for f in _forms(v) if f in text]
    assert not leaks, f"{where} leaks {len(leaks)} planted value(s), e.g. {leaks[0][1][:40]!r}"
    halves = [p for p in PIECES if p in text]
    assert not halves, f"{where} shows part of a planted value: {halves[0]!r}"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("canaries")
    fams = sorted(PLANTED)
    single = [PLANTED[f][0][0] for f in fams if len(PLANTED[f][0]) == 1]  # one-line records
    env = [{"name": f"CANARY_{i}", "value": line} for i, line in enumerate(single)]
    env += [
        {"name": "WANDB_API_KEY", "value": PLANTED["wandb"][1][0]},
        {"name": "AWS_SECRET_ACCESS_KEY", "value": PLANTED["aws"][1][1]},
        {"name": "SSH_PRIVATE_KEY", "value": "\n".join(PLANTED["pem"][0][1:]) + "\n"},
        {"name": "KUBECONFIG_DATA", "value": "\n".join(PLANTED["kubeconfig"][0])},
    ]
    round_three = [line for f in sorted(PLANTED3) for line in PLANTED3[f][0]]
    run = DEFAULT_RUN + "\n" + "\n".join([*(line for f in fams for line in PLANTED[f][0]), *round_three]) + "\n"
    sc = Scenario("canaries", root=root)
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=1, head_kw={"env": env, "run": run}, worker_kw={"env": env})
    fill_healthy_logs(job, steps=3)
    head_task = job.head
    assert head_task is not None
    head = head_task.pods[0]
    every_line = [line for f in fams for line in PLANTED[f][0]] + round_three
    # the first error quotes a credential, so the report shows a masked line
    first_error = f"ERROR: fatal: could not read from remote: {PLANTED['github'][0][0]}"
    head.logs["main"] += "\n".join(every_line) + f"\n{first_error}\nTraceback (most recent call last):\n"
    head.logs["main"] += "".join(
        f'  File "/opt/rlinf/run.py", line {i}\n    {line}\n' for i, line in enumerate(single, 10)
    )
    head.logs["main"] += f"RuntimeError: login failed: {PLANTED['bearer'][0][0]}\n"
    crashloop(head, 1, 3, 2.0)
    for i, line in enumerate(single):
        head.events.append(pod_event(head, "Failed", f"Error: exec: {line}", 3.0 + i * 0.01))
    worker = job.tasks[1].pods[0]
    worker.logs["main"] = worker.logs["main"] + "\n".join(every_line) + "\n"
    out = sc.write()
    raw = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file())
    encoded_only = {PLANTED["base64-env"][1][0]}  # a token planted only inside a base64 blob
    missing = [v for v in VALUES if v not in raw and json.dumps(v)[1:-1] not in raw and v not in encoded_only]
    assert not missing, f"canaries not planted: {missing}"
    return out


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "ticket"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_diagnose_formats(bundle: Path, fmt: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["diagnose", f"job/{JOB}", "--snapshot", str(bundle), "--format", fmt, "--lang", lang])
    out, err = capsys.readouterr()
    assert status in (0, 1) and out, err
    _assert_clean(f"diagnose --format {fmt} --lang {lang}", out + err)


def test_diagnose_json_accounts_for_the_redactions(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["diagnose", f"job/{JOB}", "--snapshot", str(bundle), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["redactions"] > 0
    found = json.dumps(doc)
    assert "rlark.risk.credentials-exposed" in found


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check(bundle: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--snapshot", str(bundle), "--format", fmt])
    out, err = capsys.readouterr()
    assert out, err
    _assert_clean(f"check --format {fmt}", out + err)


def test_snapshot_writes_no_planted_value(bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "out"
    status = main(["snapshot", f"job/{JOB}", "--output", str(dest), "--snapshot", str(bundle)])
    out, err = capsys.readouterr()
    assert status == 0, err
    _assert_clean("snapshot (stdout/stderr)", out + err)
    files = [p for p in dest.rglob("*") if p.is_file()]
    assert any(p.name == "logs.txt" for p in files), "the snapshot should carry the logs (redacted)"
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    assert written.count("[REDACTED:") >= len(VALUES), "the canaries are masked in place, not dropped"
    for path in files:
        _assert_clean(f"snapshot file {path.relative_to(dest)}", path.read_bytes().decode("utf-8", "replace"))


def test_redact_filter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "pasted.log"
    lines = [line for f in sorted(PLANTED) for line in PLANTED[f][0]]
    lines += [line for f in sorted(PLANTED3) for line in PLANTED3[f][0]]
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["redact", str(src)]) == 0
    out, err = capsys.readouterr()
    _assert_clean("redact FILE", out + err)
    assert out.count("[REDACTED:") >= len(PLANTED)
