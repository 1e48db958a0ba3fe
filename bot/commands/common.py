"""What the CLI commands share: the composition root (settings -> redactor -> service), time parsing, output."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.cache import FileCache, default_cache_dir
from bot.cluster.progress import Progress, for_terminal
from bot.commands import setting_errors
from bot.errors import UsageError
from bot.forked import usable_cpus
from bot.models import Target, parse_time
from bot.redact import Redactor, SafeText
from bot.service import Service
from bot.settings import Settings
from bot.sinks import write_stderr, write_stdout
from bot.sources import EvidenceSource, open_source


def load_settings() -> Settings:
    """Settings from the environment, checked once at start; a bad value is one line naming the variable."""
    try:
        return Settings()
    except ValidationError as exc:
        raise UsageError(setting_errors.invalid(exc)) from exc
    except SettingsError as exc:  # a value that is not JSON where JSON is expected (RLARK_BOT_CHANNELS='{bad')
        raise UsageError(setting_errors.not_json(exc)) from exc


@dataclass
class Runtime:
    """Built once per process and handed to the command: nothing below it reaches for a global."""

    settings: Settings
    redactor: Redactor
    service: Service

    def say(self, message: str) -> None:
        say(self.redactor, message)

    def out(self, text: SafeText) -> None:
        write_stdout(text)

    def progress(self, *, enabled: bool) -> Progress:
        return for_terminal(enabled=enabled, redactor=self.redactor)

    def source(self, args: argparse.Namespace, *, observe: Callable[[str, str, str], None] | None = None,
               diagnosing: Target | None = None) -> EvidenceSource:
        """`diagnosing`: the target a diagnosis of this source's evidence is for (a bundle's logs are then
        visited while they are read)."""
        visitor = self.service.visit_ahead(diagnosing) if diagnosing is not None and args.snapshot else None
        return open_source(snapshot=args.snapshot, kubeconfig=getattr(args, "kubeconfig", None),
                           context=getattr(args, "context", None), settings=self.settings, observe=observe,
                           processes=self.service.processes, visitor=visitor)


def build_runtime() -> Runtime:
    settings = load_settings()
    cache = FileCache(default_cache_dir())
    redactor = Redactor(settings.redaction_with_own_secrets(), cache=cache)
    return Runtime(settings=settings, redactor=redactor,
                   service=Service(settings=settings, redactor=redactor, cache=cache, processes=min(usable_cpus(), 4)))


def say(redactor: Redactor, message: str) -> None:
    """A one-line message on stderr; it may quote evidence (names, paths), so it is redacted too."""
    write_stderr(redactor.redact(message.rstrip("\n") + "\n").text)


# RFC3339's date-time: a date alone, or a time without its zone, would be read in some zone the user never chose.
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})")


def parse_now(text: str | None) -> datetime | None:
    if text is None:
        return None
    parsed = parse_time(text) if RFC3339.fullmatch(text) else None
    if parsed is None:
        raise UsageError(f"--now {text[:60]!r} is not an RFC3339 time (e.g. 2026-11-20T08:00:00Z)")
    return parsed


def parse_target(text: str, namespace: str) -> Target:
    try:
        return Target.parse(text, namespace)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def add_source_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--snapshot", metavar="DIR", help="read an evidence bundle instead of a live cluster")
    p.add_argument("--kubeconfig", metavar="FILE", help="kubeconfig for live mode")
    p.add_argument("--context", metavar="CTX", help="kubeconfig context of the RLark control plane (or the cluster)")
    p.add_argument("--namespace", "-n", metavar="NS", default="", help="namespace of a pod or runner target")


def interactive(args: argparse.Namespace) -> bool:
    return sys.stderr.isatty() and getattr(args, "format", "text") not in ("json", "slack")
