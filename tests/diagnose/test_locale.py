"""Log patterns in every locale: an English message a runbook pattern quotes also matches the zh_CN translation
the same program prints under LANG=zh_CN.UTF-8 (glibc, bash, gcc, ld.so), without the runbook listing it."""

from __future__ import annotations

import re

import pytest

from bot.runbook import Runbook
from bot.runbook.locale import CATALOG, localise
from bot.runbook.schema import LogCond


def _cases_matching(runbook: Runbook, line: str) -> set[str]:
    return {c.id for c in runbook.cases.values() for t in c.when
            if t.log is not None and t.log.pattern.search(line)
            and not (t.log.unless is not None and t.log.unless.search(line))}


@pytest.mark.parametrize(("en", "zh"), [(en, zh) for en, zhs in CATALOG.items() for zh in zhs])
def test_a_pattern_quoting_a_message_matches_its_translation(en: str, zh: str) -> None:
    cond = LogCond.model_validate({"pattern": f"(?i)open\\('/data/x'\\) failed: {en.lower()}"})
    assert cond.pattern.search(f"open('/data/x') failed: {en}")
    assert cond.pattern.search(f"open('/data/x') failed: {zh}")
    assert not cond.pattern.search("open('/data/x') failed: 成功")


# Lines as programs print them under zh_CN (glibc 2.35 / bash 5 / gcc 12 catalogs), with the case whose English
# pattern they must meet, and English twins that must meet the same case.
ZH_LINES = [
    ("gcc: 致命错误：已杀死 信号终止了程序 cc1", "Killed signal terminated program cc1", "ci.build.parallel-oom"),
    ("x86_64-linux-gnu-g++: 致命错误：已杀死 信号终止了程序 cc1plus",
     "x86_64-linux-gnu-g++: fatal error: Killed signal terminated program cc1plus", "ci.build.parallel-oom"),
    ("aten/src/ATen/native/Foo.cpp:12:1: 编译器内部错误：已杀死 (程序 cc1plus)",
     "aten/src/ATen/native/Foo.cpp:12:1: internal compiler error: Killed (program cc1plus)", "ci.build.parallel-oom"),
    ("cp: 写入'/ckpt/global_step_40/model.safetensors' 出错: 设备上没有空间",
     "cp: error writing '/ckpt/global_step_40/model.safetensors': No space left on device", "pod.run.disk-full"),
    ("mkdir: 无法创建目录\"/tmp/ray/session_2026-12-01_10-00-00_1_1\": 只读文件系统",
     "mkdir: cannot create directory '/tmp/ray/session_2026-12-01_10-00-00_1_1': Read-only file system",
     "rlark.ray.temp-dir"),
]


@pytest.mark.parametrize(("zh", "en", "case"), ZH_LINES)
def test_real_zh_lines_meet_the_case_their_english_twin_meets(runbook: Runbook, zh: str, en: str,
                                                              case: str) -> None:
    if case not in runbook.cases:
        pytest.skip(f"{case} is not in this runbook")
    assert case in _cases_matching(runbook, en)
    assert case in _cases_matching(runbook, zh)


def test_localising_twice_changes_nothing() -> None:
    once = localise(r"(?i)(permission denied|read-only file system)[^\n]*(/tmp/ray)")
    assert localise(once) == once
    assert re.compile(once).search("权限不够: /tmp/ray/session_latest")


@pytest.mark.parametrize("pattern", [r"\bNo route to host", r"xNo route to host", r"No route to hosts"])
def test_only_whole_messages_standing_as_text_are_rewritten(pattern: str) -> None:
    if pattern.startswith("\\b"):
        assert "没有到主机的路由" in localise(pattern)
    else:
        assert localise(pattern) == pattern


def test_a_translation_the_pattern_already_lists_is_not_added_again() -> None:
    pattern = "(?i)(no space left on device|设备上没有空间)"
    assert localise(pattern) == pattern
