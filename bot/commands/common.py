"""What the CLI commands share: the composition root (settings -> redactor -> service), time parsing, output."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_settings import SettingsError

from bot.cache import FileCache, default_cache_dir
from bot.cluster.progress import Progress, for_terminal
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
        errors = exc.errors()
        err, loc = errors[0], _path(errors[0]["loc"])
        where = "__".join(loc).upper()
        name = where if where.startswith(("SLACK_", "REDIS_", "PORT", "HOST")) else f"RLARK_BOT_{where}"
        if err["type"] == "extra_forbidden":
            raise UsageError(f"unknown setting {name}{_did_you_mean(err['loc'])}") from exc
        raise UsageError(f"bad setting {name}: {_either([e['msg'] for e in errors if _path(e['loc']) == loc])}") \
            from exc
    except SettingsError as exc:  # a value that is not JSON where JSON is expected (RLARK_BOT_CHANNELS='{bad')
        m = re.search(r'field "([a-z_]+)"', str(exc))
        name = m.group(1).upper() if m else ""
        variable = f"RLARK_BOT_{name}" if name and not name.startswith(("SLACK_", "REDIS_")) else name or "a setting"
        raise UsageError(f"bad setting {_not_json(variable)}: not valid JSON") from exc


def _path(loc: tuple[int | str, ...]) -> tuple[str, ...]:
    """A setting's path: its keys, without list indexes or the names pydantic gives the arms of a union
    ("literal['*']", "list[str]")."""
    return tuple(str(p) for p in loc if not isinstance(p, int) and not any(c in str(p) for c in "[]'(),"))


def _either(messages: list[str]) -> str:
    """One message for the arms of a union that all refused a value: "Input should be '*' or a valid list"."""
    unique = list(dict.fromkeys(messages))
    lead = "Input should be "
    if len(unique) > 1 and all(m.startswith(lead) for m in unique):
        return lead + " or ".join(m[len(lead):] for m in unique)
    return unique[0]


def _did_you_mean(loc: tuple[int | str, ...]) -> str:
    """The settings next to a mistyped key (a nested model forbids unknown keys), the closest one first."""
    model: type[BaseModel] = Settings
    keyed = False  # the part after a mapping field is a key of it (a channel id), not a field
    for part in loc[:-1]:
        if keyed:
            keyed = False
            continue
        field = model.model_fields.get(str(part))
        kind = field.annotation if field is not None else None
        if get_origin(kind) is dict:
            kind, keyed = get_args(kind)[1], True
        if not (isinstance(kind, type) and issubclass(kind, BaseModel)):
            return ""
        model = kind
    prefix = "RLARK_BOT_" + "".join(f"{p}__" for p in loc[:-1]).upper()
    known = list(model.model_fields)
    close = difflib.get_close_matches(str(loc[-1]), known, n=1)
    if close:
        return f" (did you mean {prefix}{close[0].upper()}?)"
    return f" (known: {', '.join(prefix + k.upper() for k in known)})"


def _not_json(variable: str) -> str:
    """The variable holding the value that is not JSON: the field's own, or one of its nested keys' (a list or a
    mapping under RLARK_BOT_REDACTION__EXTRA_PATTERNS is read as JSON too)."""
    for key, value in sorted(os.environ.items()):
        if key.upper().startswith(variable + "__") and value:
            try:
                json.loads(value)
            except ValueError:
                return key.upper()
    return variable


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

    def source(self, args: argparse.Namespace, *,
               observe: Callable[[str, str, str], None] | None = None) -> EvidenceSource:
        return open_source(snapshot=args.snapshot, kubeconfig=getattr(args, "kubeconfig", None),
                           context=getattr(args, "context", None), settings=self.settings, observe=observe,
                           processes=self.service.processes)


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
