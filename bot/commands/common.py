"""What the commands share: exit codes, time parsing, loading evidence from a bundle."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from bot.bundle import BundleError, read_bundle
from bot.models import Evidence, parse_time
from bot.redact import SafeText, configure_default, default_redactor
from bot.settings import Settings
from bot.sinks import write_stderr, write_stdout

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_NOT_FOUND = 0, 1, 2, 3


class CommandError(Exception):
    """A one-line reason for the user, with the exit status to use."""

    def __init__(self, message: str, status: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.status = status


def load_settings() -> Settings:
    """Settings from the environment, checked once at start; a bad value is one line naming the variable."""
    try:
        settings = Settings()
        configure_default(settings.redaction_with_own_secrets())
    except ValidationError as exc:
        err = exc.errors()[0]
        where = "__".join(str(p) for p in err["loc"] if not isinstance(p, int)).upper()
        raise CommandError(f"bad setting RLARK_BOT_{where}: {err['msg']}", EXIT_USAGE) from exc
    return settings


def parse_now(text: str | None) -> datetime | None:
    if text is None:
        return None
    parsed = parse_time(text)
    if parsed is None:
        raise CommandError(f"--now {text!r} is not an RFC3339 time (e.g. 2026-11-20T08:00:00Z)", EXIT_USAGE)
    return parsed


def load_snapshot(path: str) -> Evidence:
    try:
        return read_bundle(Path(path))
    except BundleError as exc:
        raise CommandError(f"cannot read snapshot {path}: {exc}") from exc


def resolve_now(explicit: datetime | None, evidence: Evidence) -> datetime:
    return explicit or evidence.captured_at or datetime.now(UTC)


def write_out(text: SafeText) -> None:
    write_stdout(text)


def say(message: str) -> None:
    """A one-line message on stderr; it may quote evidence (names, paths), so it is redacted too."""
    write_stderr(default_redactor().redact(message.rstrip("\n") + "\n").text)


def add_source_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--snapshot", metavar="DIR", help="read an evidence bundle instead of a live cluster")
    p.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig for live mode")
    p.add_argument("--context", metavar="CTX", help="kubeconfig context of the RLark control plane (or the cluster)")
    p.add_argument("--namespace", "-n", metavar="NS", default="", help="namespace of a pod or runner target")
