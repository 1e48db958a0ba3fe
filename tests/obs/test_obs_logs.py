"""Structured logs: one JSON object per line on stderr, and no planted secret ever reaches stderr."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from bot.obs import Metrics
from bot.obs.logs import JsonFormatter, RedactingHandler, configure_logging, new_id
from bot.redact import RedactionSettings, Redactor

GITHUB = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
OWN_TOKEN = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx"
PLAIN_PASSWORD = "correct-horse-battery-staple-42"


@pytest.fixture(scope="module")
def redactor() -> Redactor:
    return Redactor(RedactionSettings(known_secrets=[SecretStr(OWN_TOKEN)]))


@pytest.fixture
def log(redactor: Redactor) -> Iterator[logging.Logger]:
    logger = logging.getLogger("rlark_bot.test.obs")
    handler = RedactingHandler(redactor)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger
    logger.removeHandler(handler)
    logger.propagate = True


def lines(err: str) -> list[dict[str, object]]:
    out = err.splitlines()
    assert out, "nothing was logged"
    return [json.loads(line) for line in out]


def test_each_record_is_one_json_line_with_the_fixed_fields_and_extras(
        log: logging.Logger, capsys: pytest.CaptureFixture[str]) -> None:
    log.info("diagnosis finished for %s", "job/ppo-franka-0412",
             extra={"request_id": "3f2a9c0d1e4b5a67", "diagnosis_id": "a1b2c3d4e5f60718", "user": "U024BE7LH",
                    "channel": "C0123456789", "command": "diagnose", "target": "job/ppo-franka-0412",
                    "outcome": "ok", "duration_ms": 1834})
    log.warning("second line\nwith a break inside")
    first, second = lines(capsys.readouterr().err)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", str(first["time"]))
    assert (first["level"], first["logger"]) == ("info", "rlark_bot.test.obs")
    assert first["message"] == "diagnosis finished for job/ppo-franka-0412"
    assert first["duration_ms"] == 1834  # numbers stay numbers
    assert {k: first[k] for k in ("request_id", "diagnosis_id", "user", "channel", "command", "target", "outcome")} \
        == {"request_id": "3f2a9c0d1e4b5a67", "diagnosis_id": "a1b2c3d4e5f60718", "user": "U024BE7LH",
            "channel": "C0123456789", "command": "diagnose", "target": "job/ppo-franka-0412", "outcome": "ok"}
    assert second["level"] == "warning" and second["message"] == "second line\nwith a break inside"


@pytest.mark.parametrize(("call", "secret"), [
    (lambda log: log.info(f"pulled with token {GITHUB}"), GITHUB),
    (lambda log: log.info("pulled with token %s", GITHUB), GITHUB),
    (lambda log: log.info("env dump", extra={"target": f"AWS_SECRET_ACCESS_KEY={AWS}"}), AWS),
    (lambda log: log.info("login", extra={"password": PLAIN_PASSWORD}), PLAIN_PASSWORD),
    (lambda log: log.info("headers", extra={"headers": {"Authorization": f"token {GITHUB}"}}), GITHUB),
    (lambda log: log.info("args", extra={"argv": ["git", "clone", f"https://x:{GITHUB}@github.com/o/r"]}), GITHUB),
    (lambda log: log.info("posting with the bot's own token %s", OWN_TOKEN), OWN_TOKEN),
], ids=["message", "message-args", "extra-value", "extra-key", "nested-mapping", "list", "own-token"])
def test_a_planted_secret_never_reaches_stderr(log: logging.Logger, capsys: pytest.CaptureFixture[str],
                                               call: object, secret: str) -> None:
    call(log)  # type: ignore[operator]
    err = capsys.readouterr().err
    assert secret not in err
    (record,) = lines(err)
    assert "[REDACTED:" in json.dumps(record)


def test_an_exception_is_logged_redacted_with_its_stack(log: logging.Logger,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    try:
        raise RuntimeError(f"clone failed: https://oauth2:{GITHUB}@git.example.com/repo.git")
    except RuntimeError:
        log.exception("store write failed", extra={"op": "set"})
    err = capsys.readouterr().err
    assert GITHUB not in err
    (record,) = lines(err)
    assert str(record["error"]).startswith("RuntimeError: clone failed")
    assert "Traceback" in str(record["stack"]) and record["level"] == "error" and record["op"] == "set"


def test_a_record_that_cannot_be_formatted_prints_neither_message_nor_arguments(
        log: logging.Logger, capsys: pytest.CaptureFixture[str]) -> None:
    log.info("count %d", GITHUB)  # wrong placeholder: logging's own error path would print the raw argument
    err = capsys.readouterr().err
    assert GITHUB not in err and "Traceback" not in err
    (record,) = lines(err)
    assert record["message"] == "log record could not be formatted"


def test_a_foreign_formatter_that_breaks_json_is_withheld_not_half_printed(
        redactor: Redactor, capsys: pytest.CaptureFixture[str]) -> None:
    logger = logging.getLogger("rlark_bot.test.obs.plain")
    handler = RedactingHandler(redactor)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("token %s", GITHUB)
        logger.warning("nothing secret here")
    finally:
        logger.removeHandler(handler)
    out = capsys.readouterr().err.splitlines()
    assert GITHUB not in "".join(out)
    assert json.loads(out[0])["message"] == "log record withheld: it held a credential"
    assert out[1] == "nothing secret here"  # a clean line passes as the formatter made it


def test_redactions_are_counted_into_the_metrics(redactor: Redactor, capsys: pytest.CaptureFixture[str]) -> None:
    metrics = Metrics(process=False)
    logger = logging.getLogger("rlark_bot.test.obs.counted")
    handler = RedactingHandler(redactor, on_redacted=metrics.count_redactions)
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("two tokens: %s and %s", GITHUB, "ghp_" + "zyxwvutsrqponmlkjihgfedcba9876543210")
    finally:
        logger.removeHandler(handler)
    capsys.readouterr()
    body, _ = metrics.render()
    family = next(f for f in text_string_to_metric_families(body.decode()) if f.name == "rlark_bot_redactions")
    assert {s.labels["kind"]: s.value for s in family.samples if s.name.endswith("_total")} == {"github-token": 2.0}


def test_formatter_alone_keeps_values_and_encodes_unusual_ones() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", (), None)
    record.ratio = float("nan")
    record.tags = frozenset({"a"})
    record.obj = object()
    data = json.loads(JsonFormatter().format(record))
    assert data["message"] == "hello" and data["ratio"] == "nan" and data["tags"] == ["a"]
    assert str(data["obj"]).startswith("<object object")


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    yield root
    root.handlers[:] = saved
    root.setLevel(level)


def test_configure_logging_is_idempotent_and_displaces_plain_stderr_handlers(
        root_logger: logging.Logger, redactor: Redactor, capsys: pytest.CaptureFixture[str]) -> None:
    plain = logging.StreamHandler()
    root_logger.addHandler(plain)
    configure_logging(redactor=redactor)
    configure_logging(redactor=redactor, level="debug")
    ours = [h for h in root_logger.handlers if isinstance(h, RedactingHandler)]
    assert len(ours) == 1 and plain not in root_logger.handlers
    assert root_logger.level == logging.DEBUG
    logging.getLogger("rlark_bot.test.obs.root").debug("via root with %s", GITHUB)
    err = capsys.readouterr().err
    assert GITHUB not in err
    assert [r["message"] for r in lines(err)] == ["via root with [REDACTED:github-token]"]


def test_configure_logging_refuses_an_unknown_level_in_one_line(root_logger: logging.Logger,
                                                                redactor: Redactor) -> None:
    with pytest.raises(ValueError, match=r"^log level 'LOUD': use one of DEBUG, INFO") as exc:
        configure_logging(redactor=redactor, level="LOUD")
    assert "\n" not in str(exc.value)
    assert not any(isinstance(h, RedactingHandler) for h in root_logger.handlers)


def test_new_ids_are_short_unique_and_pass_the_redactor_unchanged(redactor: Redactor) -> None:
    ids = [new_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)
    text = " ".join(f"request_id={i}" for i in ids[:200])
    assert str(redactor.redact(text).text) == text
