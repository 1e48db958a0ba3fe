"""Bounds of the bundle reader: huge logs and lines are cut with a note, hostile JSON/YAML is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.bundle import BundleError, read_bundle
from bot.bundle import files as bundle_files
from bot.bundle.bounds import cut_long_lines
from bot.bundle.logs import read_log_file


def _section(container: str, body: str, pod: str = "p1") -> str:
    return (f"==== START logs for container {container} of pod ci/{pod} ====\n{body}"
            f"==== END logs for container {container} of pod ci/{pod} ====\n")


def _pods(root: Path) -> None:
    (root / "ci" / "p1").mkdir(parents=True)
    (root / "ci" / "pods.json").write_text(json.dumps(
        {"kind": "PodList", "items": [{"metadata": {"name": "p1", "namespace": "ci"}}]}), encoding="utf-8")


def test_cut_long_lines_keeps_short_lines_and_cuts_long_ones() -> None:
    short = b"a\n" * 100
    assert cut_long_lines(short, 8) == (short, 0)
    data = b"ok\n" + b"x" * 50 + b"\nafter\n" + b"y" * 9 + b"\nz" * 3
    cut, n = cut_long_lines(data, 8)
    assert n == 2
    assert cut == b"ok\n" + b"x" * 8 + b"\nafter\n" + b"y" * 8 + b"\nz" * 3
    # A cut never splits a UTF-8 character.
    wide, n = cut_long_lines("é".encode() * 20 + b"\n", 9)
    assert n == 1 and wide.decode("utf-8") == "é" * 4 + "\n"


def test_a_line_of_exactly_the_limit_is_kept() -> None:
    data = b"q" * 16 + b"\n" + b"r" * 16
    assert cut_long_lines(data, 16) == (data, 0)


def test_huge_log_file_is_read_from_its_end_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "logs.txt"
    early = "".join(f"early line {i}\n" for i in range(2000))
    path.write_text(_section("init", "init ok\n") + _section("main", early + "Error: the last words\n"),
                    encoding="utf-8")
    read = read_log_file(path, "ci/p1/logs.txt", max_bytes=4096)
    assert [(x.container, x.truncated) for x in read.sections] == [("main", True)]
    body = read.text(read.sections[0])
    assert body.endswith("Error: the last words\n") and "early line 0\n" not in body
    assert body.startswith("early line ")  # the first, partial line was dropped
    assert read.notes and read.notes[0].startswith("ci/p1/logs.txt: ") and "only its last 4 KiB read" in read.notes[0]


def test_one_huge_line_is_bounded_in_time_and_size(tmp_path: Path) -> None:
    _pods(tmp_path)
    log = tmp_path / "ci" / "p1" / "logs.txt"
    with log.open("w", encoding="utf-8") as fh:
        fh.write("==== START logs for container main of pod ci/p1 ====\nbefore\n")
        chunk = "A" * (1 << 20)
        for _ in range(40):  # 40 MiB on one line
            fh.write(chunk)
        fh.write("\nFATAL: out of memory\n==== END logs for container main of pod ci/p1 ====\n")
    ev = read_bundle(tmp_path)
    (excerpt,) = ev.logs
    assert excerpt.source.container == "main" and excerpt.truncated
    assert excerpt.text.endswith("\nFATAL: out of memory\n")
    assert len(excerpt.text) <= (256 << 10) + 100
    assert any("1 line(s) longer than 256 KiB cut" in p for p in ev.problems)
    assert ev.incomplete


def test_ordinary_logs_are_not_marked(tmp_path: Path) -> None:
    _pods(tmp_path)
    (tmp_path / "ci" / "p1" / "logs.txt").write_text(_section("main", "hello\n"), encoding="utf-8")
    ev = read_bundle(tmp_path)
    assert [(x.text, x.truncated) for x in ev.logs] == [("hello\n", False)] and ev.problems == []


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_deeply_nested_list_file_is_one_line(tmp_path: Path, suffix: str) -> None:
    (tmp_path / "ci").mkdir()
    deep = "[" * 5_000 + "]" * 5_000  # far past both the 200-level limit and the interpreter's recursion limit
    text = '{"kind": "PodList", "items": [{"metadata": {"name": "p"}, "x": ' + deep + "}]}"
    (tmp_path / "ci" / f"pods{suffix}").write_text(text, encoding="utf-8")
    with pytest.raises(BundleError) as err:
        read_bundle(tmp_path)
    assert str(err.value) == f"ci/pods{suffix}: nested more than 200 levels deep; not read"


def test_nesting_below_the_limit_is_read(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    text = '{"kind": "PodList", "items": [{"metadata": {"name": "p"}, "x": ' + "[" * 150 + "]" * 150 + "}]}"
    (tmp_path / "ci" / "pods.yaml").write_text(text, encoding="utf-8")
    assert [p.name for p in read_bundle(tmp_path).pods] == ["p"]


def test_deep_snapshot_index_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "snapshot.yaml").write_text("clusters: " + "[" * 5_000 + "]" * 5_000 + "\n", encoding="utf-8")
    with pytest.raises(BundleError) as err:
        read_bundle(tmp_path)
    assert str(err.value) == "snapshot.yaml: nested too deeply to read"


def test_huge_list_file_is_refused_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bundle_files, "MAX_LIST_BYTES", 1 << 20)
    (tmp_path / "ci").mkdir()
    items = [{"metadata": {"name": f"p{i}", "namespace": "ci"}} for i in range(30_000)]
    (tmp_path / "ci" / "pods.json").write_text(json.dumps({"kind": "PodList", "items": items}), encoding="utf-8")
    with pytest.raises(BundleError) as err:
        read_bundle(tmp_path)
    assert str(err.value).startswith("ci/pods.json: ") and "more than the 1 MiB a list file may have" in str(err.value)


def test_yaml_alias_cycle_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "pods.yaml").write_text("kind: PodList\nitems:\n- &a {metadata: {name: p}, loop: [*a]}\n",
                                               encoding="utf-8")
    with pytest.raises(BundleError) as err:
        read_bundle(tmp_path)
    assert str(err.value) == "ci/pods.yaml: nested more than 200 levels deep; not read"


def test_shared_yaml_aliases_are_measured_once(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    laughs = "".join(f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 10)}]\n" for i in range(1, 9))
    (tmp_path / "ci" / "pods.yaml").write_text(
        "kind: PodList\nx0: &x0 [lol]\n" + laughs + "items:\n- {metadata: {name: p}, spread: *x8}\n",
        encoding="utf-8")
    assert [p.name for p in read_bundle(tmp_path).pods] == ["p"]


def test_sections_in_bytes_agree_with_the_text_splitter(tmp_path: Path) -> None:
    """The byte-offset sections give exactly what splitting the decoded text gives, odd bytes included."""
    from bot.bundle.logs import split_sections

    raw = (_section("init", "setup \xe2\x96\n", pod="p1").encode("latin-1") + b"\xff\xfe bad bytes\n"
           + _section("main", "line \u2588\u2588 bar\nlast", pod="p1").encode("utf-8")
           + b"==== START logs for container side of pod ci/p1 ====\nno end line\n")
    path = tmp_path / "logs.txt"
    path.write_bytes(raw)
    read = read_log_file(path, "logs.txt")
    got = [(x.container, read.text(x)) for x in read.sections]
    assert got == list(split_sections(raw.decode("utf-8", errors="replace")))
    assert [c for c, _ in got] == ["init", "main", "side"]


def test_bundle_logs_are_read_again_when_asked_for(tmp_path: Path) -> None:
    _pods(tmp_path)
    (tmp_path / "ci" / "p1" / "logs.txt").write_text(_section("main", "one\n") + _section("side", "two\n"),
                                                     encoding="utf-8")
    ev = read_bundle(tmp_path)
    assert [(x.source.container, x.held) for x in ev.logs] == [("main", False), ("side", False)]
    assert [x.text for x in ev.logs] == ["one\n", "two\n"]
    assert [x.text for x in ev.logs] == ["one\n", "two\n"]  # the same on every read


def test_a_logs_head_is_its_texts_beginning_whatever_the_bytes(tmp_path: Path) -> None:
    """`head(n)` reads only the beginning of a section, and gives exactly `text[:n]`: multi-byte characters,
    invalid bytes and a cut anywhere in them included."""
    _pods(tmp_path)
    body = ("\u2588\U0001f600a\xe9" * 40).encode("utf-8").replace(b"a", b"\xf0\x9f\xff", 3)  # invalid bytes
    start, end = _section("main", "@").encode("utf-8").split(b"@")
    raw = start + body + b"\n" + end + _section("side", "\u4e2d\u6587\n").encode("utf-8")
    (tmp_path / "ci" / "p1" / "logs.txt").write_bytes(raw)
    logs = read_bundle(tmp_path).logs
    assert [x.source.container for x in logs] == ["main", "side"]
    assert "\ufffd" in logs[0].text
    for excerpt in logs:
        text = excerpt.text
        for n in (0, 1, 2, 3, 5, 17, 40, 160, len(text), len(text) + 10):
            assert excerpt.head(n) == text[:n]
