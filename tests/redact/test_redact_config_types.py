"""Settings validation, the SafeText guarantee (at runtime and for mypy), and the CLI command."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.commands import redact as redact_cmd
from bot.commands.common import build_runtime
from bot.redact import Detection, RedactionSettings, Redactor, SafeText


def test_bad_regex_is_a_clear_error_naming_the_entry() -> None:
    with pytest.raises(ValidationError) as err:
        RedactionSettings(extra_patterns=["ok-[0-9]+", "bad[("])
    assert "extra_patterns[1]" in str(err.value) and "bad[(" in str(err.value)
    assert isinstance(err.value, ValueError)
    with pytest.raises(ValueError, match=r"allowlist\[0\]"):
        RedactionSettings(allowlist=["(unclosed"])
    with pytest.raises(ValueError, match="empty string"):
        RedactionSettings(extra_patterns=["x*"])
    with pytest.raises(ValueError, match="known_secrets"):
        RedactionSettings(known_secrets=[SecretStr("abc")])


def test_known_secrets_and_their_encodings() -> None:
    import base64
    import json
    from urllib.parse import quote

    secret = 's3cr3t/bot+token=value"x'
    r = Redactor(RedactionSettings(known_secrets=[SecretStr(secret)]))
    forms = [secret, quote(secret, safe=""), json.dumps(secret)[1:-1], base64.b64encode(secret.encode()).decode()]
    for form in forms:
        out = r.redact(f"sending {form} now")
        assert form not in out.text and out.counts.get("known-secret", 0) >= 1, form
    embedded = base64.b64encode(b"prefix:" + secret.encode() + b":suffix").decode()
    assert embedded not in r.redact(f"blob {embedded}").text
    assert "s3cr3t" not in repr(r.settings)


def test_extra_patterns_and_allowlist() -> None:
    r = Redactor(RedactionSettings(extra_patterns=[r"INTERNAL-[0-9]{6}"], allowlist=[r"ghp_0{36}"]))
    out = r.redact("ticket INTERNAL-123456 uses ghp_000000000000000000000000000000000000")
    assert out.text == "ticket [REDACTED:custom] uses ghp_000000000000000000000000000000000000"


def test_safetext_cannot_be_built_from_str() -> None:
    with pytest.raises(TypeError):
        SafeText("raw")
    r = Redactor()
    a, b = r.redact("a").text, r.redact("password=hunter22").text
    joined = r.safe_join([a, b], "\n")
    assert isinstance(joined, SafeText) and joined == "a\npassword=[REDACTED:password]"
    with pytest.raises(TypeError):
        r.safe_join([a, "raw"], "")  # type: ignore[list-item]
    with pytest.raises(ValueError):
        r.safe_join([a, b], "ghp_" + "x1" * 18)
    assert not isinstance(a + "x", SafeText)  # str operations drop the guarantee


def test_scan_reports_positions_not_values() -> None:
    text = "line one\nHF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH\n"
    (d,) = Redactor().scan(text)
    assert d == Detection("huggingface-token", text.index("hf_"), len(text) - 1, 2)
    assert "hf_" not in repr(d)


def _run_cli(argv: list[str], stdin: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, bytes, str]:
    parser = argparse.ArgumentParser()
    redact_cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(["redact", *argv])
    out, err = io.BytesIO(), io.StringIO()
    fake_out = io.TextIOWrapper(out)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    monkeypatch.setattr(sys, "stdout", fake_out)
    monkeypatch.setattr(sys, "stderr", err)
    code = redact_cmd.run(args, build_runtime())
    fake_out.flush()
    return code, out.getvalue(), err.getvalue()


def test_cli_stdin_files_summary_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _run_cli(["--summary"], b"token: ghp_" + b"Ab1" * 12 + b"\nok\n", monkeypatch)
    assert code == 0 and out == b"token: [REDACTED:github-token]\nok\n"
    assert err.strip() == "redacted 1 values (github-token 1)"
    log = tmp_path / "job.log"
    log.write_bytes(b"PASSWORD=hunter2hunter2\n")
    code, out, err = _run_cli([str(log)], b"", monkeypatch)
    assert code == 0 and out == b"PASSWORD=[REDACTED:password]\n" and err == ""
    code, out, err = _run_cli([str(tmp_path / "missing.log")], b"", monkeypatch)
    assert code == 1 and err.count("\n") == 1 and "missing.log" in err
