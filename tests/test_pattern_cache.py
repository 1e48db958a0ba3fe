"""The compiled-prefilter cache: used when present, never holding the bot's own secrets, harmless when damaged."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.cache import FileCache
from bot.redact import RedactionSettings, Redactor, prefilter

LINE = "export GH_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 password=hunter2hunter2 ok"


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a new process would: no database compiled or read yet."""
    monkeypatch.setattr(prefilter, "_LOADED", {})


def test_the_cached_database_redacts_exactly_like_a_fresh_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = FileCache(tmp_path / "c")
    first = Redactor(cache=cache)
    files = list((tmp_path / "c").glob("*.bin"))
    assert len(files) == 1 and files[0].stat().st_size > 1000
    monkeypatch.setattr(prefilter, "_LOADED", {})  # a new process reads the file
    again = Redactor(cache=cache)
    assert again.accelerated and str(again.redact(LINE).text) == str(first.redact(LINE).text)
    monkeypatch.setattr(prefilter, "_LOADED", {})  # and one without a cache compiles afresh
    assert str(again.redact(LINE).text) == str(Redactor().redact(LINE).text)


def test_the_bots_own_secrets_are_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import base64

    own = "owned-secret-value-0123456789"  # no token shape: only its being configured makes it a secret
    settings = RedactionSettings(known_secrets=[SecretStr(own)])
    redactor = Redactor(settings, cache=FileCache(tmp_path / "c"))
    assert str(redactor.redact(f"token {own} ok").text) == "token [REDACTED:known-secret] ok"
    # The built-in rules are cached (so a bot with tokens starts fast); the own secrets are compiled apart and
    # never written: no cached file holds the value or one of the encodings the redactor looks for.
    (path,) = (tmp_path / "c").glob("*.bin")
    blob = path.read_bytes()
    for form in (own, base64.b64encode(own.encode()).decode()[:20], own.upper()):
        assert form.encode() not in blob
    assert [f.name for f in (tmp_path / "c").iterdir()] == [path.name]  # nothing else was written
    again = Redactor(settings, cache=FileCache(tmp_path / "c"))
    assert again.accelerated and str(again.redact(f"token {own} ok").text) == "token [REDACTED:known-secret] ok"
    monkeypatch.setattr(prefilter, "_LOADED", {})  # another process: a bot without tokens
    plain = Redactor(cache=FileCache(tmp_path / "plain"))
    (same,) = (tmp_path / "plain").glob("*.bin")
    assert same.name == path.name and same.read_bytes() == blob  # the very database a bot without tokens uses
    assert str(plain.redact(f"token {own} ok").text) == f"token {own} ok"


def test_a_damaged_or_unwritable_cache_only_costs_a_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = FileCache(tmp_path / "c")
    Redactor(cache=cache)
    (path,) = (tmp_path / "c").glob("*.bin")
    path.write_bytes(b"not a database")
    monkeypatch.setattr(prefilter, "_LOADED", {})  # the next process finds the damaged file
    assert str(Redactor(cache=cache).redact(LINE).text) == str(Redactor().redact(LINE).text)
    assert path.read_bytes() != b"not a database"  # replaced by a good one
    blocked = tmp_path / "file"
    blocked.write_text("x")
    monkeypatch.setattr(prefilter, "_LOADED", {})
    assert "[REDACTED:" in str(Redactor(cache=FileCache(blocked / "sub")).redact(LINE).text)


def test_the_runbooks_log_patterns_are_cached_and_match_the_same(tmp_path: Path) -> None:
    from bot.diagnose.logscan import LogMatcher
    from bot.models import LogExcerpt, LogSource
    from bot.scope.logview import LogView
    from bot.service import shipped_runbook

    conds = [t.log for c in shipped_runbook().cases.values() for t in c.when if t.log is not None]
    cache = FileCache(tmp_path / "c")
    fresh, first = LogMatcher(conds), LogMatcher(conds, cache=cache)
    (path,) = (tmp_path / "c").glob("runbook-*.bin")
    again = LogMatcher(conds, cache=cache)
    view = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="main"),
                              text="Executing prepare script...\nError: Ray CLI is not found\n"),
                   lambda _, utf8=None: [])
    assert fresh.accelerated == first.accelerated == again.accelerated > 0
    assert fresh.prefilter(view) == again.prefilter(view) and fresh.prefilter(view)
    path.write_bytes(b"not a database")  # damaged: compiled afresh and replaced
    assert LogMatcher(conds, cache=cache).prefilter(view) == fresh.prefilter(view)
    assert path.read_bytes() != b"not a database"
