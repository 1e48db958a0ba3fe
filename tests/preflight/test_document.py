"""Input that is not one Job document: one clear line and exit 2, never a traceback or a hang."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.preflight.document import MAX_BYTES, DocumentError, parse, read_input
from preflight.helpers import READY

BAD = {
    "not-yaml": ("a: [1, 2\nb: c\n", "not valid YAML at line"),
    "tabs": ("apiVersion: rlinf.io/v1alpha1\nkind: Job\nspec:\n\ttasks: []\n", "line 4: a tab in the indentation"),
    "several": ("apiVersion: rlinf.io/v1alpha1\nkind: Job\n---\napiVersion: rlinf.io/v1alpha1\nkind: Job\n",
                "several YAML documents (another starts at line 3)"),
    "list": ("apiVersion: v1\nkind: List\nitems: []\n", "a List"),
    "job-list": ("apiVersion: rlinf.io/v1alpha1\nkind: JobList\nitems: []\n", "a List"),
    "pod": ("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "kind 'Pod', not an RLark Job"),
    "batch-job": ("apiVersion: batch/v1\nkind: Job\n", "apiVersion 'batch/v1'"),
    "scalar": ("just some text\n", "a YAML plain value, not a Job object"),
    "sequence": ("- a\n- b\n", "a YAML list"),
    "empty": ("\n  \n", "empty"),
    "alias": ("apiVersion: rlinf.io/v1alpha1\nkind: Job\nmetadata: &m {name: x}\nspec: {x: *m}\n",
              "the alias *m is not accepted"),
    "deep": ("apiVersion: rlinf.io/v1alpha1\nkind: Job\nspec: " + "[" * 500 + "]" * 500 + "\n", "nested more than"),
    "unhashable-key": ("? [a, b]\n: c\n", "not valid YAML"),
}
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(20))


@pytest.mark.parametrize("case", sorted(BAD))
def test_one_clear_line(case: str) -> None:
    text, expected = BAD[case]
    with pytest.raises(DocumentError) as caught:
        parse(text, "job.yaml")
    message = str(caught.value)
    assert expected in message and "\n" not in message and message.startswith("job.yaml: ")
    assert caught.value.status == 2


def test_an_alias_bomb_is_refused_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(DocumentError, match="alias"):
        parse(BOMB, "bomb.yaml")
    assert time.monotonic() - started < 1.0  # refused while composing: nothing was expanded


def test_a_large_file_is_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(50 << 20)  # 50 MiB, sparse
    assert main(["preflight", str(big), "--offline"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "50 MiB, more than the 1 MiB" in err


def test_stdin_is_capped_too() -> None:
    with pytest.raises(DocumentError, match="more than the 1 MiB"):
        read_input("-", stdin=io.BytesIO(b"#" * (MAX_BYTES + 10)))


def test_not_utf8_and_missing_files(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"kind: Job\nname: caf\xe9\n")
    with pytest.raises(DocumentError, match="not UTF-8"):
        read_input(str(bad))
    with pytest.raises(DocumentError, match="no such file"):
        read_input(str(tmp_path / "nope.yaml"))


@pytest.mark.parametrize("case", sorted(BAD))
def test_the_cli_says_one_line_and_exits_2(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{case}.yaml"
    path.write_text(BAD[case][0], encoding="utf-8")
    assert main(["preflight", str(path), "--offline"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("rlark-bot: ") and "Traceback" not in err


def test_lines_are_those_of_the_file() -> None:
    doc = parse(READY.read_text(encoding="utf-8"), "ready.yaml")
    lines = READY.read_text(encoding="utf-8").splitlines()
    for path in ("metadata.name", "spec.tasks[1].nodeSelector", 'spec.tasks[0].nodeSelector["kubernetes.io/hostname"]',
                 "spec.tasks[0].kubernetes.workload.replicas"):
        key = path.rsplit(".", 1)[-1].split("[")[0].strip('"]')
        if "[" in path.rsplit(".", 1)[-1]:
            key = path.rsplit('["', 1)[-1].rstrip('"]')
        assert key in lines[doc.lines[path] - 1], path


def test_duplicate_keys_are_reported_not_silently_merged() -> None:
    text = READY.read_text(encoding="utf-8").replace("      role: Rollout\n", "      role: Rollout\n      role: Env\n")
    doc = parse(text, "dup.yaml")
    assert doc.duplicates and doc.duplicates[0][0] == "spec.tasks[1].role"
