"""The schema of a scenario's expect.yaml: a typo in a field name is an error, not a check silently skipped."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from bot.models.refs import Stage


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AlertExpect(_Strict):
    check: str
    case: str
    object: str


class ChecksExpect(_Strict):
    now: str | None = None
    alerts: list[AlertExpect] = Field(default_factory=list)


class Expect(_Strict):
    description: str
    target: str
    namespace: str = ""
    first: str | None = None  # the right first answer
    includes: list[str] = Field(default_factory=list)  # must also be found
    excludes: list[str] = Field(default_factory=list)  # must not be (false-positive traps)
    healthy: bool = False  # nothing at error level or above
    last_stage: Stage | None = None
    incomplete: bool | None = None
    checks: ChecksExpect | None = None


def load_expect(path: Path) -> Expect:
    return Expect.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
