"""One typed settings object, built once at start (environment `RLARK_BOT_*` or a `.env` file) and passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.redact import RedactionSettings
from bot.redact.config import MIN_KNOWN_SECRET


class Thresholds(BaseModel):
    """Ages and periods the signals and checks compare against `now`."""

    model_config = ConfigDict(extra="forbid")  # a mistyped key is said, not ignored

    sync_grace_seconds: int = Field(default=180, ge=0, description="Job/Task/Pod state may lag this long")
    stop_grace_seconds: int = Field(default=300, ge=0, description="pods may keep running this long after stop")
    heartbeat_timeout_seconds: int = Field(default=30, ge=1, description="agent Lease older than this: disconnected")
    pending_seconds: int = Field(default=900, ge=1, description="a pod Pending longer than this raises an alert")
    pull_slow_seconds: int = Field(default=900, ge=1, description="image pull / init without progress this long")
    start_window_seconds: int = Field(default=300, ge=0, description="a wait that began less than this ago (Ray's node "
                                      "check, workers reaching the Head) is still starting, not yet a failure")
    stale_runner_seconds: int = Field(default=600, ge=0, description="a Running EphemeralRunner without pod, this long")
    runner_max_age_seconds: int = Field(default=12 * 3600, ge=1, description="an EphemeralRunner older than this")
    log_stall_seconds: int = Field(default=3600, ge=1,
                                   description="a running log silent this long after a wait or load step: a hang")
    training_stall_seconds: int = Field(
        default=2 * 3600, ge=1, description="a training log silent this long (and for 20 of its steps), its container "
        "running: a hang. Longer than a start-up step's: evaluation rollouts and checkpoint saves of large models "
        "print nothing for long stretches")
    nodepool_grace_seconds: int = Field(default=300, ge=0,
                                        description="a NodePool this young may still report Unknown conditions")
    settled_seconds: int = Field(default=3600, ge=0,
                                 description="a replacement pod Ready without a restart this long: what ended the "
                                 "instance it replaced is history, not the present failure")


class CollectionBudget(BaseModel):
    """Bounds on live collection: requests, bytes and time."""

    model_config = ConfigDict(extra="forbid")  # a mistyped key is said, not ignored

    max_concurrency: int = Field(default=8, ge=1)
    request_timeout_seconds: float = Field(default=10.0, gt=0)
    deadline_seconds: float = Field(default=60.0, gt=0)
    page_size: int = Field(default=500, ge=1)
    log_tail_lines: int = Field(default=2000, ge=1)
    log_limit_bytes: int = Field(default=1 << 20, ge=1024)
    max_log_pods: int = Field(default=16, ge=1)
    max_log_requests: int = Field(default=16, ge=1, description="container log reads per collection")
    retries: int = Field(default=3, ge=0)
    gateway_max_bytes: int = Field(default=64 << 20, ge=1 << 20,
                                   description="largest RLark gateway job-logs answer read (it holds every pod's tail)")


Scope = Literal["*"] | list[str]


class ChannelBinding(BaseModel):
    """What one Slack channel may diagnose and which alerts it hears (CONTRACT §5, §6)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    domains: Scope = Field(default_factory=list, description="RLark Job spec.domain values, or \"*\"")
    namespaces: Scope = Field(default_factory=list, description="namespaces of pod and runner targets, or \"*\"")
    clusters: Scope = Field(default_factory=list, description="cluster names, or \"*\"")
    lang: Literal["zh", "en"] = "en"
    alerts: bool = False

    @staticmethod
    def _matches(scope: Scope, value: str | None) -> bool:
        if scope == "*":
            return True
        return value is not None and value in scope

    def cluster_ok(self, cluster: str | None) -> bool:
        return self._matches(self.clusters, cluster)

    def domain_ok(self, domain: str | None) -> bool:
        # A Job without a domain matches only "*".
        return self._matches(self.domains, domain or None)

    def namespace_ok(self, namespace: str | None) -> bool:
        return self._matches(self.namespaces, namespace or None)

    @property
    def everywhere(self) -> bool:
        return self.domains == "*" and self.namespaces == "*" and self.clusters == "*"


class ChecksSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a mistyped key is said, not ignored

    interval_seconds: int = Field(default=60, ge=5, description="how often each scheduled check runs")
    clear_after_ticks: int = Field(default=2, ge=1, description="ticks without an alert before it is resolved")
    update_every_seconds: int = Field(default=600, ge=0, description="at most one change reply per alert this often")
    hold_down_seconds: int = Field(default=300, ge=0, description="a resolved alert re-opens only after this")
    lock_ttl_seconds: int = Field(default=120, ge=5, description="a replica that died mid-run blocks no longer")


class WatchSettings(BaseModel):
    """`/rlark watch`: how often watches tick, how many a channel may hold, how long one lasts (CONTRACT §11)."""

    model_config = ConfigDict(extra="forbid")  # a mistyped key is said, not ignored

    interval_seconds: int | None = Field(default=None, ge=5, description="default: the checks' interval")
    max_hours: float = Field(default=24.0, gt=0, le=24 * 14, description="a watch stops after this long")
    max_per_channel: int = Field(default=20, ge=1, le=500, description="watches one channel may hold at once")
    full_look_ticks: int = Field(default=5, ge=1, le=1000,
                                 description="a target whose objects did not move gets a full look (its logs: the "
                                             "stage) once in this many ticks; 1: a full look every tick")


class HomeSettings(BaseModel):
    """The App Home tab: how long a user's channels and their published view are reused."""

    model_config = ConfigDict(extra="forbid")  # a mistyped key is said, not ignored

    channels_ttl_seconds: int = Field(default=600, ge=0, description="users.conversations answers are kept this long")
    view_ttl_seconds: int = Field(default=30, ge=0, description="a published view is reused this long")
    firing_ttl_seconds: int = Field(default=10, ge=0,
                                    description="a channel's firing alerts, read for one user's tab, serve every "
                                                "user opening theirs this long")


class AlertSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a mistyped key is said, not ignored

    auto_diagnose: bool = Field(default=False,
                                description="diagnose an alert's object into its thread when it is first seen")


def _env(*names: str) -> AliasChoices:
    return AliasChoices(*names)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RLARK_BOT_", env_nested_delimiter="__", env_file=".env",
                                      env_ignore_empty=True, extra="ignore")

    control_plane_context: str | None = Field(default=None, description="kubeconfig context of the RLark kcp workspace")
    cluster_contexts: dict[str, str] = Field(default_factory=dict, description="agent id -> kubeconfig context")
    thresholds: Thresholds = Field(default_factory=Thresholds)
    collection: CollectionBudget = Field(default_factory=CollectionBudget)
    redaction: RedactionSettings = Field(default_factory=RedactionSettings)
    # The Slack app (CONTRACT §5): Slack's usual variable names, without the bot's prefix.
    slack_bot_token: SecretStr | None = Field(default=None, validation_alias=_env("SLACK_BOT_TOKEN"))
    slack_signing_secret: SecretStr | None = Field(default=None, validation_alias=_env("SLACK_SIGNING_SECRET"))
    slack_app_token: SecretStr | None = Field(default=None, validation_alias=_env("SLACK_APP_TOKEN"))
    slack_api_base_url: str = Field(default="https://slack.com/api/", validation_alias=_env("SLACK_API_BASE_URL"))
    redis_url: str | None = Field(default=None, validation_alias=_env("REDIS_URL"))
    port: int = Field(default=3000, ge=1, le=65535, validation_alias=_env("PORT"))
    host: str = Field(default="0.0.0.0", validation_alias=_env("HOST"))
    data_dir: Path = Field(default=Path(".rlark-bot"), description="the embedded store keeps its data here")
    channels: dict[str, ChannelBinding] = Field(default_factory=dict, description="channel id -> binding")
    admin_channel: str | None = None
    alerts_channel: str | None = None
    admin_usergroup: str | None = None
    slash_command: str = "/rlark"
    timeline_auto: bool = Field(default=True, description="a diagnosed job with restarts or replaced pods gets its "
                                                          "timeline picture in the thread")
    readiness_interval_seconds: float = Field(
        default=5.0, gt=0, le=300, description="how often /readyz's checks run while not ready (6x that once ready)")
    checks: ChecksSettings = Field(default_factory=ChecksSettings)
    alerts: AlertSettings = Field(default_factory=AlertSettings)
    # Links (CONTRACT §11): a runbook source page -> the URL of that page (its sections become anchors), and the
    # RLark UI whose job pages (`<ui_url>/jobs/<name>`) the bot unfurls when they are pasted in a bound channel.
    doc_urls: dict[str, str] = Field(default_factory=dict, description="runbook source page -> URL")
    ui_url: str | None = Field(default=None, description="RLark UI base URL, e.g. https://rlark.example")
    watch: WatchSettings = Field(default_factory=WatchSettings)
    home: HomeSettings = Field(default_factory=HomeSettings)
    # A DM to the bot works like the slash command in a channel with this binding: a bound channel's id (its
    # binding applies) or a binding object. None: every DM request gets the refusal.
    dm_scope: str | ChannelBinding | None = None
    # The RLark gateway serves the `main` log tail of a job's pods through the control plane: the fallback for a
    # member cluster the bot has no context for (or cannot reach). The gateway itself checks no credentials; the
    # token is for whatever fronts it (an ingress or auth proxy) and is sent as `Authorization: Bearer`.
    gateway_url: str | None = Field(default=None, description="RLark gateway base URL, e.g. https://rlark.example")
    gateway_token: SecretStr | None = None

    @field_validator("gateway_url", "ui_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or len(value.split("://", 1)[1]) == 0:
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("dm_scope", mode="before")
    @classmethod
    def _dm_scope(cls, value: object) -> object:
        if value in (None, ""):
            return None
        if isinstance(value, str) and value.strip().startswith("{"):
            import json

            return json.loads(value)
        return value

    @property
    def watch_interval_seconds(self) -> int:
        return self.watch.interval_seconds or self.checks.interval_seconds

    def dm_binding(self) -> ChannelBinding | None:
        """The binding a DM request is checked against (`RLARK_BOT_DM_SCOPE`), None when DMs are refused."""
        if isinstance(self.dm_scope, ChannelBinding):
            return self.dm_scope
        return self.channels.get(self.dm_scope) if self.dm_scope else None

    @field_validator("doc_urls")
    @classmethod
    def _doc_urls(cls, value: dict[str, str]) -> dict[str, str]:
        for page, url in value.items():
            if not page.strip() or not url.strip().startswith(("http://", "https://")):
                raise ValueError(f"{page[:40]!r}: each value must be an http:// or https:// URL")
        return {page.strip(): url.strip() for page, url in value.items()}

    @field_validator("slack_api_base_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value if value.endswith("/") else value + "/"

    @field_validator("channels", mode="before")
    @classmethod
    def _no_channels(cls, value: object) -> object:
        return {} if value in (None, "") else value

    @field_validator("slash_command")
    @classmethod
    def _slash(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith("/") or len(value) < 2 or " " in value:
            raise ValueError("must look like /rlark")
        return value

    @field_validator("gateway_token")
    @classmethod
    def _redactable(cls, value: SecretStr | None) -> SecretStr | None:
        # Checked here so a short token is reported under its own variable, not as a redaction setting.
        if value is not None and len(value.get_secret_value()) < MIN_KNOWN_SECRET:
            raise ValueError(f"shorter than {MIN_KNOWN_SECRET} characters")
        return value

    def redaction_with_own_secrets(self) -> RedactionSettings:
        """The configured redaction plus the bot's own tokens: they must never appear in what it prints."""
        own = [s for s in (self.slack_bot_token, self.slack_signing_secret, self.slack_app_token, self.gateway_token)
               if s is not None and len(s.get_secret_value()) >= MIN_KNOWN_SECRET]
        extra = self.redaction
        return RedactionSettings(extra_patterns=extra.extra_patterns, allowlist=extra.allowlist,
                                 known_secrets=[*extra.known_secrets, *own])
