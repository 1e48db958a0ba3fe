"""Times read from log lines: the formats runtimes print, and the nearest stamped line above a bare one."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.scope.logtime import line_time

T = datetime(2026, 11, 20, 7, 41, 12, tzinfo=UTC)


def at(text: str, needle: str) -> datetime | None:
    return line_time(text, text.index(needle), year=2026)


def test_python_logging_ray_iso_and_glog_stamps() -> None:
    assert at("2026-11-20 07:41:12,345\tINFO scripts.py:1047 -- Local node IP\n", "Local") == T
    assert at("[2026-11-20 07:41:12,345 E 211 211] (raylet) lost GCS\n", "lost") == T
    assert at("2026-11-20T07:41:12.512Z\tINFO\tsidecar\n", "sidecar") == T
    assert at("E1120 07:41:12.123456  1234 ProcessGroupNCCL.cpp:1181] watchdog\n", "watchdog") == T


def test_a_bare_line_takes_the_stamp_just_above_it() -> None:
    text = "2026-11-20 07:41:12,001 ERROR start failed\nTraceback (most recent call last):\nOSError: boom\n"
    assert at(text, "OSError") == T


def test_no_stamp_nearby_means_no_time() -> None:
    text = "2026-11-20 07:41:12,001 INFO old\n" + "".join(f"line {i}\n" for i in range(20)) + "OSError: boom\n"
    assert at(text, "OSError") is None
    assert at("Ray worker process exited with code 1\n", "Ray") is None
    assert at("2026-13-45 99:00:00 not a date\n", "not") is None


def test_the_first_stamp_of_a_text_is_the_earlier_of_its_iso_and_glog_stamps() -> None:
    from bot.scope.logtime import first_stamp

    assert first_stamp("no stamps\nat all\n") is None
    assert first_stamp("RLINF_NODE_RANK: 3\n2026-11-20 07:41:12,345 INFO up\n") == 19
    text = "x\nW1120 07:41:02.000 rendezvous\n2026-11-20T07:41:12Z later\n"
    assert first_stamp(text) == 2
    assert line_time(text, 2, year=2026) == datetime(2026, 11, 20, 7, 41, 2, tzinfo=UTC)
    assert first_stamp("abcI1120 07:41:12.1 glued to a word\n") is None
    assert first_stamp("[E1120 07:41:12.1] in brackets\n") == 1
