"""Logs held one at a time: a bundle's log text is read again when asked for, and the one visit per log (the
survey) answers exactly what the text itself answers."""

from __future__ import annotations

import re
from pathlib import Path

from bot.bundle import read_bundle
from bot.diagnose.logscan import LogMatcher
from bot.diagnose.survey import survey_logs
from bot.models import LogExcerpt, LogSource
from bot.redact import Detection, Redactor
from bot.runbook.schema import LogCond
from bot.scope.logview import VIEW_LITERALS, LogView
from bot.scope.markers import Markers

REDACTOR = Redactor()
WORKER_LOG = """RLINF_NODE_RANK: 2
Executing prepare script...
Connecting to Ray head at job-actor-0.rlark-domain:6379...
Waiting for head to be reachable at job-actor-0.rlark-domain:6379... (attempt 1)
Waiting for head to be reachable at job-actor-0.rlark-domain:6379... (attempt 2)
Head is reachable at job-actor-0.rlark-domain:6379
NCCL WARN NET/Plugin: no plugin found, using internal
NCCL WARN socket timeout after 600s
token [REDACTED:github-token] seen
Ray worker process exited with code 1
"""
CONDS = [LogCond(pattern=re.compile(p), unless=re.compile(u) if u else None) for p, u in [
    (r"NCCL WARN", r"NET/Plugin"), (r"Ray worker process exited with code [1-9]\d*", None), (r"never there", None)]]


def _bundle(root: Path) -> Path:
    pod = root / "ns" / "p"
    pod.mkdir(parents=True)
    (root / "ns" / "pods.json").write_text('{"kind": "PodList", "items": [{"metadata": {"name": "p"}}]}',
                                           encoding="utf-8")
    (pod / "logs.txt").write_text("==== START logs for container main of pod ns/p ====\n" + WORKER_LOG
                                  + "==== END logs for container main of pod ns/p ====\n", encoding="utf-8")
    return root


def test_a_surveyed_view_answers_as_the_text_does(tmp_path: Path) -> None:
    (excerpt,) = read_bundle(_bundle(tmp_path)).logs
    assert not excerpt.held and excerpt.text == WORKER_LOG
    lazy = LogView(excerpt, REDACTOR.scan)
    held = LogView(LogExcerpt(source=excerpt.source, text=WORKER_LOG), REDACTOR.scan)
    matcher = LogMatcher(CONDS)
    found = survey_logs(matcher, [lazy])[id(lazy)]
    assert lazy._text is None  # released after the visit
    assert lazy.markers == Markers.scan(held) and lazy.markers.wait_head_attempts == 2
    assert lazy.masks == held.masks == [(9, "github-token")]
    assert lazy.holds("Head is reachable at ") and not lazy.holds("--temp-dir")
    for cond in CONDS:
        expected = matcher.first_match(cond, held, candidates=matcher.prefilter(held))
        assert matcher.first_match(cond, lazy, candidates=found) == expected
    assert lazy._text is None  # first_match answered from what the visit kept
    at = matcher.first_match(CONDS[0], lazy, candidates=found) or 0
    assert lazy.line_at(at).text == "NCCL WARN socket timeout after 600s"
    assert lazy._text == WORKER_LOG  # read again for the line
    assert lazy.head == WORKER_LOG


def test_the_shared_scan_knows_which_literals_a_log_holds() -> None:
    matcher = LogMatcher(CONDS)
    v = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="main"),
                           text=WORKER_LOG), REDACTOR.scan)
    _, present = matcher.survey(v)
    assert present == frozenset(lit for lit in VIEW_LITERALS if lit in WORKER_LOG)


def test_a_held_log_is_never_dropped() -> None:
    v = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="main"), text="x\n"),
                REDACTOR.scan)
    v.survey()
    v.release()
    assert v.text == "x\n"


def test_a_logs_bytes_are_its_texts_encoding_whether_read_or_encoded(tmp_path: Path) -> None:
    pod = _bundle(tmp_path) / "ns" / "p"
    (pod / "previous-logs.txt").write_bytes(b"==== START logs for container main of pod ns/p ====\n"
                                            b"bad \xff byte, then \xe2\x96\x88 and NCCL WARN socket\n"
                                            b"==== END logs for container main of pod ns/p ====\n")
    views = [LogView(x, REDACTOR.scan) for x in read_bundle(tmp_path).logs]
    held = LogView(LogExcerpt(source=views[0].excerpt.source, text="held \u2588 NCCL WARN x\n"), REDACTOR.scan)
    given = [view.excerpt.read()[1] is not None for view in views]
    assert sorted(given) == [False, True]  # the valid file comes with its bytes; the one with a bad byte does not
    for view in [*views, held]:
        assert view.take_utf8() == view.text.encode("utf-8", "surrogatepass")
        assert view._utf8 is not None  # kept for the credential scan of the survey
        view.survey()
        assert (view._utf8 is not None) is view.text.isascii()  # then only for an ASCII log (the characters)
    for view in views:
        view.release()
    matcher = LogMatcher(CONDS)
    found = [matcher.survey(view)[0] for view in views]
    assert all("NCCL WARN" in f for f in found)


def test_head_wait_lines_are_counted_and_the_last_found_in_one_pass() -> None:
    from bot.scope.markers import WAIT_HEAD, _count_and_last

    texts = [WORKER_LOG, "", "no wait here\n", WAIT_HEAD, WAIT_HEAD * 3 + "x",
             "a\n" + WAIT_HEAD + "1\n" * 9 + WAIT_HEAD]
    for text in texts:
        assert _count_and_last(text, WAIT_HEAD) == (text.count(WAIT_HEAD), text.rfind(WAIT_HEAD))
    assert _count_and_last(WORKER_LOG, WAIT_HEAD)[0] == 2


def test_the_credential_scan_of_an_ascii_log_takes_the_bytes_it_was_read_from(tmp_path: Path) -> None:
    """The survey hands the log's own bytes to the redactor's scan (no second encoding), ASCII or not; the
    detections are those of the text."""
    (excerpt,) = read_bundle(_bundle(tmp_path)).logs
    given: list[bytes | None] = []

    def scan(text: str, /, *, utf8: bytes | None = None) -> list[Detection]:
        given.append(utf8)
        return REDACTOR.scan(text, utf8=utf8)

    view = LogView(excerpt, scan)
    survey_logs(LogMatcher(CONDS), [view])
    assert given == [WORKER_LOG.encode()]
    assert view.detections == REDACTOR.scan(WORKER_LOG)
    wide_text = "进度 ██ token=ghp_" + "a1B2c3D4e5" * 4 + "\n" + WORKER_LOG + "进度 ██ password: hunter2hunter2\n"
    wide = LogView(LogExcerpt(source=excerpt.source, text=wide_text), scan)
    survey_logs(LogMatcher(CONDS), [wide])
    assert given[-1] == wide_text.encode()  # not ASCII: the bytes too, offsets counted back to characters
    assert wide.detections == REDACTOR.scan(wide_text) != []
    assert wide._utf8 is None  # then not held through the rest of the visit


def test_a_scan_given_the_bytes_finds_what_it_finds_in_the_text() -> None:
    text = "export GH_TOKEN=ghp_" + "a1B2c3D4e5" * 3 + "abcdef\npassword: hunter2hunter2\nstep 1\n"
    assert REDACTOR.scan(text, utf8=text.encode()) == REDACTOR.scan(text) != []


def test_the_shared_scan_counts_head_waits_as_the_text_does() -> None:
    from bot.scope.markers import WAIT_HEAD

    matcher = LogMatcher(CONDS)
    texts = [WORKER_LOG, "no wait here\n", WAIT_HEAD + "x\n", "a\n" + (WAIT_HEAD + "1\n") * 9 + "b\n",
             WORKER_LOG.replace("(attempt 2)", "(第 2 次) █")]  # the last is not ASCII: counted in the text
    for text in texts:
        view = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="main"),
                                  text=text), REDACTOR.scan)
        matcher.survey(view)
        assert (view.tally(WAIT_HEAD) is not None) is text.isascii()
        view.survey()
        held = Markers.scan(LogView(LogExcerpt(source=view.excerpt.source, text=text), REDACTOR.scan))
        assert view.markers == held
        last = view.markers.wait_head_last
        assert (view.markers.wait_head_attempts, -1 if last is None else last) == \
            (text.count(WAIT_HEAD), text.rfind(WAIT_HEAD))


def test_a_log_without_the_wrappers_lines_gets_the_one_empty_reading() -> None:
    from bot.scope.markers import NONE

    matcher = LogMatcher(CONDS)
    for text in ["", "TensorBoard 2.15.1 at http://p:6006/\n", "Hosts sync started\nRay cluster\n", WORKER_LOG]:
        view = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="x"), text=text),
                       REDACTOR.scan)
        _, present = matcher.survey(view)
        read = Markers.scan(view, present)
        assert read == Markers.scan(LogView(view.excerpt, REDACTOR.scan))  # the text's own reading
        assert (read is NONE) is (present is not None and not any(lit in text for lit in ("RLINF", "Ray worker",
                                                                                          "Executing", "Waiting")))
