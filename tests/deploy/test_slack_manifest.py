"""deploy/slack/manifest.yaml creates the app in one step: the /rlark command, least scopes, Socket Mode and
interactivity, and it agrees with the settings the bot is deployed with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
MANIFEST = DEPLOY / "slack" / "manifest.yaml"
USAGE = ("diagnose JOB | ticket JOB | watch JOB | unwatch JOB | preflight job/NAME | nodes k=v | compare job/A job/B "
         "| timeline JOB | alerts | mute KEY 2h | unmute KEY | help")
SCOPES = {"commands", "chat:write", "files:write", "usergroups:read", "channels:read", "groups:read",
          "app_mentions:read", "im:history", "links:read", "links:write", "channels:history", "groups:history"}
# History is read only to find the bot's own post by its idempotency key when Slack answered it late.
HISTORY = {"channels:history", "groups:history"}
# Keys of Slack's app manifest schema that this manifest may use (display, features, OAuth, settings).
TOP_KEYS = {"_metadata", "display_information", "features", "oauth_config", "settings"}
SETTINGS_KEYS = {"allowed_ip_address_ranges", "event_subscriptions", "incoming_webhooks", "interactivity",
                 "org_deploy_enabled", "socket_mode_enabled", "token_rotation_enabled", "is_hosted",
                 "function_runtime"}
COMMAND_KEYS = {"command", "description", "usage_hint", "should_escape", "url"}


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_only_keys_of_the_manifest_schema(manifest: dict[str, Any]) -> None:
    assert set(manifest) <= TOP_KEYS
    assert set(manifest["settings"]) <= SETTINGS_KEYS
    assert manifest["_metadata"]["major_version"] in (1, 2)


def test_names_and_descriptions(manifest: dict[str, Any]) -> None:
    assert manifest["display_information"]["name"] == "rlark-bot"
    assert manifest["features"]["bot_user"]["display_name"] == "rlark-bot"
    # Slack refuses a long description shorter than 174 or longer than 4,000 characters.
    assert 174 <= len(manifest["display_information"]["long_description"]) <= 4000


def test_the_slash_command(manifest: dict[str, Any]) -> None:
    (command,) = manifest["features"]["slash_commands"]
    assert set(command) <= COMMAND_KEYS
    assert command["command"] == "/rlark" and command["usage_hint"] == USAGE
    assert command["should_escape"] is False  # targets arrive as typed, not as Slack's <#C...|name> escapes
    assert "url" not in command  # Socket Mode; the header says how to add it for HTTP mode


def test_the_command_matches_the_deployed_setting(manifest: dict[str, Any]) -> None:
    settings = yaml.safe_load((DEPLOY / "base" / "configmap.yaml").read_text(encoding="utf-8"))
    assert settings["data"]["RLARK_BOT_SLASH_COMMAND"] == manifest["features"]["slash_commands"][0]["command"]


def test_least_scopes(manifest: dict[str, Any]) -> None:
    scopes = manifest["oauth_config"]["scopes"]
    assert set(scopes) == {"bot"}  # no user token
    assert set(scopes["bot"]) == SCOPES and len(scopes["bot"]) == len(SCOPES)
    assert "chat:write.public" not in scopes["bot"]
    # History the bot may read: its own DMs (message.im), and channels' only to find its own late-answered post.
    assert not [s for s in scopes["bot"]
                if (s.endswith(":history") and s not in HISTORY | {"im:history"}) or s.startswith("admin")]


def test_events_shortcuts_and_the_home_tab(manifest: dict[str, Any]) -> None:
    assert manifest["settings"]["event_subscriptions"]["bot_events"] == ["link_shared", "app_mention", "message.im",
                                                                         "app_home_opened"]
    shortcuts = {s["callback_id"]: s["type"] for s in manifest["features"]["shortcuts"]}
    assert shortcuts == {"rlark_diagnose_message": "message", "rlark_diagnose_modal": "global",
                         "rlark_preflight_message": "message"}
    assert all(len(s["name"]) <= 24 and len(s["description"]) <= 80 for s in manifest["features"]["shortcuts"])
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    assert manifest["features"]["app_home"]["messages_tab_enabled"] is True  # DMs to the bot


def test_socket_mode_and_interactivity(manifest: dict[str, Any]) -> None:
    settings = manifest["settings"]
    assert settings["socket_mode_enabled"] is True
    assert settings["interactivity"] == {"is_enabled": True}  # buttons rlark_ticket, rlark_rerun, rlark_evidence
    assert settings["org_deploy_enabled"] is False and settings["token_rotation_enabled"] is False


def test_the_header_says_how_to_switch_to_http_and_names_the_metadata_types() -> None:
    text = MANIFEST.read_text(encoding="utf-8")
    assert "socket_mode_enabled: false" in text
    assert text.count("https://<host>/slack/events") >= 4  # commands, interactivity and events
    for event_type in ("rlark_diagnosis", "rlark_ticket", "rlark_alert", "rlark_watch"):
        assert event_type in text


def test_the_preflight_message_shortcut(manifest: dict[str, Any]) -> None:
    shortcuts = manifest["features"]["shortcuts"]
    [preflight] = [s for s in shortcuts if s["callback_id"] == "rlark_preflight_message"]
    assert preflight["type"] == "message" and preflight["name"] == "Preflight this Job"
    assert set(preflight) == {"name", "type", "callback_id", "description"}
    assert len(preflight["name"]) <= 24 and len(preflight["description"]) <= 80  # Slack's limits


def test_pasted_job_links_are_previewed(manifest: dict[str, Any]) -> None:
    assert "link_shared" in manifest["settings"]["event_subscriptions"]["bot_events"]
    assert manifest["features"]["unfurl_domains"], "Slack sends link_shared only for these domains"
    assert {"links:read", "links:write"} <= set(manifest["oauth_config"]["scopes"]["bot"])
