"""Settings for the redactor, validated once at start so a bad regex fails the bot, not a report."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, SecretStr, field_validator

# A known secret shorter than this would mask ordinary words everywhere.
MIN_KNOWN_SECRET = 6


def _check_regexes(values: list[str], what: str) -> list[str]:
    for index, pattern in enumerate(values):
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"{what}[{index}] {pattern!r} is not a valid regular expression: {exc}") from None
        if compiled.search("") is not None:
            # A pattern matching the empty string would redact (or allow) everything.
            raise ValueError(f"{what}[{index}] {pattern!r} matches the empty string")
    return values


class RedactionSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    extra_patterns: list[str] = []
    allowlist: list[str] = []
    known_secrets: list[SecretStr] = []

    @field_validator("extra_patterns")
    @classmethod
    def _valid_extra(cls, values: list[str]) -> list[str]:
        return _check_regexes(values, "extra_patterns")

    @field_validator("allowlist")
    @classmethod
    def _valid_allow(cls, values: list[str]) -> list[str]:
        return _check_regexes(values, "allowlist")

    @field_validator("known_secrets")
    @classmethod
    def _valid_known(cls, values: list[SecretStr]) -> list[SecretStr]:
        for index, secret in enumerate(values):
            if len(secret.get_secret_value()) < MIN_KNOWN_SECRET:
                raise ValueError(f"known_secrets[{index}] is shorter than {MIN_KNOWN_SECRET} characters")
        return values
