"""risk.credentials: credentials in plain text in the logs or the spec, pointed at and never shown."""

from __future__ import annotations

from bot.signals.risk import credentials
from signals.scenario import scenario


def test_credentials_in_a_log_are_located_by_line_and_kind_and_withheld() -> None:
    [hit] = credentials(scenario("rlark-risk-credentials-exposed"))
    items = hit.evidence
    assert [i.text for i in items[:2]] == ["line 4: a aws-access-key-id value (withheld)",
                                           "line 6: a aws-secret-key value (withheld)"]
    assert all(i.withheld and i.source == "gpu-a/rlark-system/ppo-franka-0412-actor-0:main" for i in items[:2])


def test_a_credential_in_the_spec_is_named_by_its_variable_only() -> None:
    [hit] = credentials(scenario("rlark-risk-credentials-in-spec"))
    [item] = hit.evidence
    assert item.text == "env WANDB_API_KEY: a credential in plain text (withheld)" and item.withheld
