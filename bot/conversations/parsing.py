"""Pure parsing of what users type after the slash command, and of button values.

Every malformed input becomes a `UsageError` with one line; nothing here touches Slack or the clusters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.errors import UsageError
from bot.models import Target, TargetKind
from bot.models.evidence import echo
from bot.preflight.nodes import parse_selector

Verb = Literal["diagnose", "ticket", "alerts", "mute", "unmute", "help", "watch", "unwatch",
               "preflight", "nodes", "compare", "timeline"]
VERBS: tuple[Verb, ...] = ("diagnose", "ticket", "alerts", "mute", "unmute", "help", "watch", "unwatch",
                           "preflight", "nodes", "compare", "timeline")
MAX_TEXT = 1000
MAX_MUTE_SECONDS = 7 * 24 * 3600
_DURATION = re.compile(r"(?:(\d{1,4})d)?(?:(\d{1,4})h)?(?:(\d{1,5})m)?(?:(\d{1,6})s)?")
_KEY = re.compile(r"[a-z0-9-]{1,40}:[A-Za-z0-9._/-]{1,400}")


@dataclass(frozen=True)
class Command:
    verb: Verb
    target: Target | None = None
    lang: Literal["zh", "en"] | None = None
    key: str = ""
    seconds: int = 0
    args: tuple[str, ...] = ()  # nodes: the selector; compare: A and B as job/NAME


def parse_duration(text: str) -> int:
    """`2h`, `30m`, `1h30m`, `1d`, `90s` -> seconds (1 s .. 7 days)."""
    m = _DURATION.fullmatch(text.strip().lower())
    if not text.strip() or m is None or not any(m.groups()):
        raise UsageError(f"duration {echo(text, 40)} is not like 2h, 30m or 1d")
    d, h, mi, s = (int(g) if g else 0 for g in m.groups())
    seconds = d * 86400 + h * 3600 + mi * 60 + s
    if not 0 < seconds <= MAX_MUTE_SECONDS:
        raise UsageError("a mute lasts between 1 second and 7 days")
    return seconds


def _options(words: list[str], allowed: set[str]) -> tuple[list[str], dict[str, str]]:
    rest: list[str] = []
    opts: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("-"):
            name, eq, value = word.partition("=")
            name = {"-n": "--namespace"}.get(name, name)
            if name not in allowed:
                raise UsageError(f"unknown option {echo(name, 40)}")
            if not eq:
                if i + 1 >= len(words):
                    raise UsageError(f"{name} needs a value")
                i += 1
                value = words[i]
            opts[name] = value
        else:
            rest.append(word)
        i += 1
    return rest, opts


def parse_command(text: str) -> Command:
    """`diagnose TARGET [--namespace NS] [--lang zh|en]`, `ticket TARGET [--namespace NS]`, `alerts`,
    `mute KEY DURATION`, `unmute KEY`, `watch TARGET [--namespace NS] [--lang zh|en]`, `unwatch TARGET
    [--namespace NS]`, `help` (also for empty text)."""
    if len(text) > MAX_TEXT:
        raise UsageError(f"command text too long ({len(text)} characters)")
    if any(ord(c) < 32 and c not in "\t\n\r" for c in text):
        raise UsageError("command text holds control characters")
    words = text.split()
    if not words:
        return Command("help")
    verb, args = words[0].lower(), words[1:]
    if verb in ("preflight", "nodes", "compare", "timeline"):
        return _before_and_between(verb, args)
    if verb in ("diagnose", "ticket", "watch", "unwatch"):
        rest, opts = _options(args, {"--namespace", "--lang"} if verb in ("diagnose", "watch") else {"--namespace"})
        if len(rest) != 1:
            raise UsageError(f"{verb} takes one target: JOB, job/NAME, pod/NAME or runner/NAME")
        lang = opts.get("--lang")
        if lang is not None and lang not in ("zh", "en"):
            raise UsageError(f"--lang {echo(lang, 20)}: use zh or en")
        try:
            target = Target.parse(rest[0], opts.get("--namespace", ""))
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        return Command(verb, target=target, lang=lang)  # type: ignore[arg-type]
    if verb in ("alerts", "help"):
        if args:
            raise UsageError(f"{verb} takes no arguments")
        return Command(verb)  # type: ignore[arg-type]
    if verb == "mute":
        if len(args) != 2:
            raise UsageError("mute takes an alert key and a duration, e.g. mute long-pending:gpu-a/ns/Pod/x 2h")
        return Command("mute", key=parse_key(args[0]), seconds=parse_duration(args[1]))
    if verb == "unmute":
        if len(args) != 1:
            raise UsageError("unmute takes one alert key")
        return Command("unmute", key=parse_key(args[0]))
    raise UsageError(f"unknown command {echo(verb, 40)}")


def _job(text: str, what: str) -> Target:
    try:
        target = Target.parse(text)
    except ValueError as exc:
        raise UsageError(f"{what}: {exc}") from exc
    if target.kind is not TargetKind.JOB:
        raise UsageError(f"{what} takes RLark Jobs (job/NAME), not {echo(text, 80)}")
    return target


def _before_and_between(verb: str, args: list[str]) -> Command:
    """`preflight job/NAME`, `nodes k=v[,k2=v2]`, `compare A B` (both job/NAME), `timeline TARGET [--namespace NS]`."""
    rest, opts = _options(args, {"--namespace"} if verb == "timeline" else set())
    if verb == "preflight":
        if len(rest) != 1:
            raise UsageError("preflight takes one Job: job/NAME (a YAML: the message shortcut \"Preflight this Job\")")
        return Command("preflight", target=_job(rest[0], "preflight"))
    if verb == "nodes":
        if len(rest) != 1:
            raise UsageError("nodes takes one selector: key=value[,key2=value2]")
        parse_selector(rest[0])
        return Command("nodes", args=(rest[0],))
    if verb == "compare":
        if len(rest) != 2:
            raise UsageError("compare takes two Jobs: compare job/A job/B")
        a, b = _job(rest[0], "A"), _job(rest[1], "B")
        if a.name == b.name:
            raise UsageError(f"A and B are the same Job ({a}): compare a run with the run resubmitted after it")
        return Command("compare", target=a, args=(f"job/{a.name}", f"job/{b.name}"))
    if len(rest) != 1:
        raise UsageError("timeline takes one target: JOB, job/NAME, pod/NAME or runner/NAME")
    try:
        return Command("timeline", target=Target.parse(rest[0], opts.get("--namespace", "")))
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def parse_key(text: str) -> str:
    """An alert key as `check --format json` prints it: `<check>:<cluster>/<namespace>/<Kind>/<name>`."""
    if not _KEY.fullmatch(text):
        raise UsageError(f"{echo(text, 80)} is not an alert key (see /rlark alerts)")
    return text


_NAMED = re.compile(r"(?<![\w/.-])(job|pod|runner)/([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?![\w/])")
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
CHAT_VERBS = ("diagnose", "ticket", "watch", "unwatch", "help")


def named_targets(text: str, *, ui_url: str | None) -> list[Target]:
    """The targets a message names, in order, each once: `job/NAME`, `pod/NAME`, `runner/NAME`, and RLark UI
    job URLs (`<ui_url>/jobs/<name>`, as typed or as Slack's `<url|label>` link). Names that are not valid
    object names are skipped."""
    text = text[:MAX_TEXT * 4]
    found: list[tuple[int, str]] = [(m.start(), f"{m.group(1)}/{m.group(2)}") for m in _NAMED.finditer(text)]
    if ui_url:
        ui = re.compile(re.escape(ui_url.rstrip("/")) + r"/jobs/([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?![\w-])")
        found += [(m.start(), f"job/{m.group(1)}") for m in ui.finditer(text)]
    out: list[Target] = []
    for _, spelled in sorted(found):
        try:
            target = Target.parse(spelled)
        except ValueError:
            continue
        if target not in out:
            out.append(target)
    return out


def parse_chat(text: str) -> Command:
    """A mention's or a DM's text: the slash command's grammar without the mentions, limited to `CHAT_VERBS`."""
    cmd = parse_command(_MENTION.sub(" ", text).strip())
    if cmd.verb not in CHAT_VERBS:
        raise UsageError(f"{cmd.verb} is for the slash command: in a mention or a DM use {', '.join(CHAT_VERBS)}")
    return cmd
