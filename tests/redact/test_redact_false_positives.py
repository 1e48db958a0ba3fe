"""Ordinary training and CI logs stay readable: digests, SHAs, UUIDs, hostnames and metrics survive."""

from __future__ import annotations

import re
from pathlib import Path

from bot.redact import Redactor

CORPUS = Path(__file__).parent / "corpus" / "clean_logs.txt"
MAX_CHANGED = 0.001  # share of characters the redactor may change in clean logs


def _changed_share(before: str, after: str) -> float:
    changed = 0
    for a, b in zip(before.splitlines(), after.splitlines(), strict=True):
        if a != b:
            changed += len(a) - len(_common_affix(a, b))
    return changed / len(before)


def _common_affix(a: str, b: str) -> str:
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    j = 0
    while j < min(len(a), len(b)) - i and a[-1 - j] == b[-1 - j]:
        j += 1
    return a[:i] + (a[len(a) - j :] if j else "")


def test_clean_corpus_share_of_characters_changed() -> None:
    text = CORPUS.read_text(encoding="utf-8")
    for redactor in (Redactor(), Redactor(use_hyperscan=False)):
        out = redactor.redact(text)
        share = _changed_share(text, out.text)
        print(f"clean corpus: {len(text):,} chars, {share:.5%} changed, counts={dict(out.counts)}")
        assert share < MAX_CHANGED
        assert redactor.scan(text) == [] or share > 0


def test_identifiers_people_debug_with_stay_readable() -> None:
    text = CORPUS.read_text(encoding="utf-8")
    out = Redactor().redact(text).text
    for pattern in (
        r"sha256:[0-9a-f]{64}",
        r"containerd://[0-9a-f]{64}",
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
        r"[0-9a-f]{4}-[0-9a-f]{12}",
        r"\b[0-9a-f]{40}\b",
        r"npu-node-\d+",
    ):
        found = set(re.findall(pattern, text))
        assert found and found <= set(re.findall(pattern, out)), pattern
