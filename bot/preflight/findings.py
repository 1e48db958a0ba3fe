"""What preflight reports: findings (worst first), rules not checked, and the collector the rules write to."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.preflight.catalog import RULES
from bot.preflight.document import JobDocument

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: str
    task: str | None
    field: str
    line: int | None
    message: str

    @property
    def name(self) -> str:
        return RULES[self.rule].name

    @property
    def source(self) -> str:
        return RULES[self.rule].source

    def sort_key(self) -> tuple[int, str, int]:
        return (0 if self.severity == ERROR else 1, self.rule, self.line or 0)


@dataclass(frozen=True)
class NotChecked:
    rule: str
    why: str


@dataclass
class Findings:
    """Collects findings in the chosen language; `line` is looked up from the document when it came from a file."""

    doc: JobDocument
    lang: str = "en"
    items: list[Finding] = field(default_factory=list)
    skipped: list[NotChecked] = field(default_factory=list)

    def add(self, rule: str, severity: str, *, task: str | None, path: str, en: str, zh: str) -> None:
        line = self.doc.line(path) if self.doc.lines else None
        item = Finding(rule, severity, task, path, line, zh if self.lang == "zh" else en)
        if item not in self.items:
            self.items.append(item)

    def error(self, rule: str, *, task: str | None, path: str, en: str, zh: str) -> None:
        self.add(rule, ERROR, task=task, path=path, en=en, zh=zh)

    def warn(self, rule: str, *, task: str | None, path: str, en: str, zh: str) -> None:
        self.add(rule, WARNING, task=task, path=path, en=en, zh=zh)

    def not_checked(self, rule: str, why: str, zh: str | None = None) -> None:
        """`why` in English; `zh` the same in Chinese, used with --lang zh."""
        why = zh if self.lang == "zh" and zh else why
        if not any(s.rule == rule and s.why == why for s in self.skipped):
            self.skipped.append(NotChecked(rule, why))

    def ordered(self) -> list[Finding]:
        return sorted(self.items, key=Finding.sort_key)
