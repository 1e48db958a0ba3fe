"""The command line as users and scripts call it: output formats and exit codes (CONTRACT §3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "ci-runner-image-pull"
RUNNER = "runner/linux-aarch64-a2-1-kq7xv-runner-x7k2p"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_the_contract_object(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "diagnose", RUNNER, "--snapshot", str(EXAMPLE), "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    assert set(doc) >= {"target", "findings", "last_stage", "incomplete", "redactions"}
    assert doc["target"] == {"kind": "EphemeralRunner", "name": RUNNER.split("/")[1], "namespace": "arc-runners",
                             "cluster": "ci-cluster"}
    first = doc["findings"][0]
    assert first["case"] == "pod.image.pull-failed"
    assert set(first) == {"case", "title", "severity", "evidence", "next_steps", "avoid", "escalate_to"}
    assert all(set(e) == {"source", "text"} for e in first["evidence"])
    assert first["escalate_to"] in ("user", "admin", "ci-infra", "operator")
    assert isinstance(doc["redactions"], int)


@pytest.mark.parametrize("fmt", ["text", "markdown", "ticket"])
def test_human_formats(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    status, out, _ = run(capsys, "diagnose", RUNNER, "--snapshot", str(EXAMPLE), "--format", fmt, "--lang", "zh")
    assert status == 0
    assert "pod.image.pull-failed" in out
    assert "已脱敏" in out


@pytest.mark.parametrize(("fmt", "lang", "who"), [
    ("text", "zh", "升级给: 提交者本人"), ("markdown", "zh", "升级给: 提交者本人"),
    ("text", "en", "Escalate to: the job owner (user)"),
])
def test_whom_to_escalate_to_is_said_in_the_readers_language(capsys: pytest.CaptureFixture[str], fmt: str, lang: str,
                                                             who: str) -> None:
    _, out, _ = run(capsys, "diagnose", RUNNER, "--snapshot", str(EXAMPLE), "--format", fmt, "--lang", lang)
    assert who in out
    assert "升级给: user" not in out and "Escalate to: user" not in out


def test_ticket_has_the_fields_admins_ask_for(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "diagnose", RUNNER, "--snapshot", str(EXAMPLE), "--format", "ticket")
    for label in ("Target:", "Job phase:", "Last stage reached:", "Worker/Pod", "Clusters:", "Nodes:", "Images:",
                  "StorageClass:", "First error (redacted):", "Already tried:"):
        assert label in out


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["diagnose", "Bad_Name", "--snapshot", "."], 2, "invalid job name 'Bad_Name'"),
        (["diagnose", "-leading", "--snapshot", "."], 2, ""),
        (["diagnose", "node/x", "--snapshot", "."], 2, "unknown target kind 'node'"),
        (["diagnose", "no-such-job", "--snapshot", str(EXAMPLE)], 3, "job/no-such-job not found: looked for Job"),
        (["diagnose", "pod/nope", "--snapshot", str(EXAMPLE)], 3, "in clusters ci-cluster"),
        (["diagnose", "x", "--snapshot", "/nonexistent"], 1, "cannot read snapshot /nonexistent: not a directory\n"),
        (["check", "--snapshot", str(EXAMPLE), "--now", "yesterday"], 2, "--now 'yesterday' is not an RFC3339"),
        (["check", "--snapshot", str(EXAMPLE), "--now", "2026-11-20"], 2, "--now '2026-11-20' is not an RFC3339"),
        (["check", "--snapshot", str(EXAMPLE), "--now", "2026-11-20T08:00:00"], 2, "is not an RFC3339"),
        (["snapshot", "x", "--snapshot", str(EXAMPLE), "--output", ""], 2, "--output must name a directory"),
        (["snapshot", "x", "--snapshot", str(EXAMPLE), "--output", "  "], 2, "--output must name a directory"),
        (["frobnicate"], 2, ""),
    ],
)
def test_exit_codes(capsys: pytest.CaptureFixture[str], argv: list[str], status: int, message: str) -> None:
    try:
        got = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        got = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert got == status
    assert message in err
    assert "Traceback" not in err


def test_corrupt_bundle_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "pods.json").write_text("{nope", encoding="utf-8")
    status, out, err = run(capsys, "diagnose", "pod/x", "--snapshot", str(tmp_path))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "ns/pods.json: not valid JSON" in err


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--snapshot", str(EXAMPLE), "--format", "json",
                         "--now", "2026-11-20T08:00:00Z")
    assert status == 0
    doc = json.loads(out)
    for alert in doc["alerts"]:
        assert set(alert) == {"check", "key", "case", "object", "severity", "since", "summary"}


def test_check_honours_now_and_keys_are_stable(capsys: pytest.CaptureFixture[str]) -> None:
    bundle = str(ROOT / "tests" / "scenarios" / "infra-pending-long" / "bundle")
    _, out, _ = run(capsys, "check", "--snapshot", bundle, "--format", "json")
    alerts = json.loads(out)["alerts"]
    assert [a["check"] for a in alerts] == ["long-pending"]
    _, again, _ = run(capsys, "check", "--snapshot", bundle, "--format", "json")
    assert [a["key"] for a in json.loads(again)["alerts"]] == [a["key"] for a in alerts]
    created = alerts[0]["since"]
    _, early, _ = run(capsys, "check", "--snapshot", bundle, "--format", "json", "--now", created)
    assert json.loads(early)["alerts"] == []


def test_bad_setting_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLARK_BOT_THRESHOLDS__PENDING_SECONDS", "soon")
    status, out, err = run(capsys, "diagnose", RUNNER, "--snapshot", str(EXAMPLE))
    assert status == 2 and out == ""
    assert err.startswith("rlark-bot: bad setting RLARK_BOT_THRESHOLDS__PENDING_SECONDS:") and err.count("\n") == 1


def test_redaction_settings_apply_to_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "build.log"
    log.write_text("ticket ACME-123456 opened\nbot token xoxb-not-really-but-configured-1234 seen\n", encoding="utf-8")
    monkeypatch.setenv("RLARK_BOT_REDACTION__EXTRA_PATTERNS", '["ACME-[0-9]{6}"]')
    monkeypatch.setenv("RLARK_BOT_SLACK_BOT_TOKEN", "not-really-but-configured-1234")
    status, out, _ = run(capsys, "redact", str(log))
    assert status == 0
    assert "ACME-123456" not in out and "not-really-but-configured-1234" not in out
    assert "ticket" in out and "opened" in out
    monkeypatch.setenv("RLARK_BOT_REDACTION__EXTRA_PATTERNS", '["ACME-[0-9"]')
    status, out, err = run(capsys, "redact", str(log))
    assert status == 2 and out == "" and "RLARK_BOT_REDACTION__EXTRA_PATTERNS" in err and err.count("\n") == 1


@pytest.mark.parametrize(("argv", "collects"), [
    (["diagnose", RUNNER, "--snapshot", str(EXAMPLE)], False),
    (["check", "--snapshot", str(EXAMPLE)], False),
    (["redact", "{log}"], True),  # as long as its input: the collector is back on
])
def test_only_bounded_commands_run_without_the_cycle_collector(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                               argv: list[str], collects: bool) -> None:
    """The installed command starts with the cycle collector off (`bot.launch`); only diagnose, check and snapshot
    keep it off."""
    import gc

    log = tmp_path / "build.log"
    log.write_text("token=ghp_" + "a" * 36 + "\n", encoding="utf-8")
    gc.disable()
    try:
        status = main([a.format(log=log) for a in argv], collector_off=True)
        assert gc.isenabled() is collects
    finally:
        gc.enable()
    assert status == 0, capsys.readouterr().err


@pytest.mark.parametrize(("variable", "says"), [
    ("RLARK_BOT_THRESHOLDS__PENDING_MINUTES", "(did you mean RLARK_BOT_THRESHOLDS__PENDING_SECONDS?)"),
    ("RLARK_BOT_COLLECTION__DEADLINE", "(did you mean RLARK_BOT_COLLECTION__DEADLINE_SECONDS?)"),
    ("RLARK_BOT_CHECKS__INTERVAL", "(did you mean RLARK_BOT_CHECKS__INTERVAL_SECONDS?)"),
    ("RLARK_BOT_CHANNELS__C01__DOMAIN", "(did you mean RLARK_BOT_CHANNELS__C01__DOMAINS?)"),
    ("RLARK_BOT_THRESHOLDS__ZZZ", "(known: RLARK_BOT_THRESHOLDS__SYNC_GRACE_SECONDS, "),
])
def test_a_mistyped_nested_setting_is_refused_naming_the_one_meant(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, variable: str, says: str
) -> None:
    monkeypatch.setenv(variable, "5")
    status, out, err = run(capsys, "check", "--snapshot", str(EXAMPLE))
    assert status == 2 and out == ""
    assert err.startswith(f"rlark-bot: unknown setting {variable} {says}") and err.count("\n") == 1


def test_a_nested_value_that_is_not_json_is_named(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLARK_BOT_REDACTION__EXTRA_PATTERNS", "not json")
    status, _, err = run(capsys, "check", "--snapshot", str(EXAMPLE))
    assert (status, err) == (2, "rlark-bot: bad setting RLARK_BOT_REDACTION__EXTRA_PATTERNS: not valid JSON\n")


def test_kubernetes_service_links_named_like_the_bot_are_not_settings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = run(capsys, "check", "--snapshot", str(EXAMPLE))
    # A Service called rlark-bot gives every pod of its namespace these, unless enableServiceLinks is off.
    for name, value in {"RLARK_BOT_SERVICE_HOST": "10.0.0.7", "RLARK_BOT_SERVICE_PORT": "80",
                        "RLARK_BOT_PORT": "tcp://10.0.0.7:80", "RLARK_BOT_PORT_80_TCP_ADDR": "10.0.0.7"}.items():
        monkeypatch.setenv(name, value)
    status, out, err = run(capsys, "check", "--snapshot", str(EXAMPLE))
    assert (status, out, err) == plain and status == 0 and "long-pending" in out and err == ""


def test_a_value_no_arm_of_a_union_takes_is_said_once_for_the_setting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RLARK_BOT_CHANNELS", '{"C01": {"domains": 5}}')
    status, _, err = run(capsys, "check", "--snapshot", str(EXAMPLE))
    assert (status, err) == (2, "rlark-bot: bad setting RLARK_BOT_CHANNELS__C01__DOMAINS: "
                                "Input should be '*' or a valid list\n")


@pytest.mark.parametrize(
    ("argv", "prog"),
    [
        ([], "rlark-bot"),
        (["frobnicate"], "rlark-bot"),
        (["diagnose"], "rlark-bot diagnose"),
        (["diagnose", "x", "--format", "nope"], "rlark-bot diagnose"),
        (["check", "--bogus"], "rlark-bot"),
        (["redact", "--chunk", "x"], "rlark-bot"),
        (["serve", "--port", "eighty"], "rlark-bot serve"),
    ],
)
def test_a_usage_error_is_one_line_pointing_at_help(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                    prog: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(prog + ": "), err
    assert err.rstrip().endswith(f"(see '{prog} --help')") and "usage:" not in err


def test_a_usage_error_quoting_a_credential_is_redacted(capsys: pytest.CaptureFixture[str]) -> None:
    token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    with pytest.raises(SystemExit):
        main(["diagnose", "x", "--token", token])
    _, err = capsys.readouterr()
    assert token not in err and "[REDACTED:github-token]" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--help"], ["diagnose", "--help"], ["redact", "-h"]])
def test_help_still_prints_the_usage(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, _ = capsys.readouterr()
    assert exc.value.code == 0 and out.startswith("usage: rlark-bot")
