"""Every family, embedded every way we know, never survives redaction; redaction is idempotent."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redact_strategies import FAMILIES, SEPS, Family, b64, forms, noise, random_text

from bot.redact import Redactor, SafeText

REDACTOR = Redactor()
FALLBACK = Redactor(use_hyperscan=False)
FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(text: str, secrets: list[str], redactor: Redactor = REDACTOR) -> str:
    out = redactor.redact(text)
    assert isinstance(out.text, SafeText)
    for s in secrets:
        assert s not in out.text, f"leaked {s!r} from {text!r}\n-> {out.text!r}"
    assert sum(out.counts.values()) >= 1
    again = redactor.redact(out.text)
    assert again.text == out.text and not again.counts, "redaction must be idempotent"
    assert redactor.scan(text), "scan must report what redact masks"
    return out.text


def _embed(data: st.DataObject, family: Family, value: str) -> str:
    core = value if family.bare and data.draw(st.booleans()) else f"{family.key}={value}"
    return data.draw(noise) + data.draw(SEPS) + core + data.draw(SEPS) + data.draw(noise)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data())
def test_in_log_text(family: Family, data: st.DataObject) -> None:
    value = data.draw(family.value)
    _check(_embed(data, family, value), forms(value))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data())
def test_in_random_text(family: Family, data: st.DataObject) -> None:
    value = data.draw(family.value)
    core = value if family.bare else f"{family.key}={value}"
    _check(data.draw(random_text) + "\n" + core + "\n" + data.draw(random_text), forms(value))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data(), pretty=st.booleans())
def test_in_json(family: Family, data: st.DataObject, pretty: bool) -> None:
    value = data.draw(family.value)
    doc = {"step": 3, "msg": data.draw(noise), family.key: value, "nested": {family.key.lower(): value}}
    text = json.dumps(doc, indent=2 if pretty else None)
    _check(text, forms(value))
    # JSON inside a JSON string (log shippers do this): quotes arrive escaped.
    _check(json.dumps({"log": json.dumps(doc)}), forms(value))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data())
def test_in_yaml_and_kubernetes_env(family: Family, data: st.DataObject) -> None:
    value = data.draw(family.value)
    yaml_text = f"config:\n  {family.key.lower()}: {value}\n  other: {data.draw(noise)!r}\n"
    _check(yaml_text, forms(value))
    pod = {
        "spec": {
            "containers": [
                {"name": "main", "env": [{"name": "RANK", "value": "0"}, {"name": family.key, "value": value}]}
            ]
        }
    }
    _check(json.dumps(pod, indent=2), forms(value))
    _check(json.dumps(pod), forms(value))
    k8s_yaml = f"    env:\n    - name: {family.key}\n      value: {value}\n    - name: RANK\n      value: '0'\n"
    _check(k8s_yaml, forms(value))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data(), export=st.booleans())
def test_in_env_dump(family: Family, data: st.DataObject, export: bool) -> None:
    value = data.draw(family.value)
    prefix = "export " if export else ""
    lines = [
        "PATH=/usr/local/bin:/usr/bin",
        "RAY_ADDRESS=10.0.0.1:6379",
        f"{prefix}{family.key}={value}",
        "HOSTNAME=ppo-franka-0412-actor-0",
        "NCCL_DEBUG=INFO",
    ]
    _check("\n".join(lines), forms(value))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data())
def test_in_urls(family: Family, data: st.DataObject) -> None:
    from urllib.parse import quote

    value = data.draw(family.value)
    userinfo = f"git clone https://oauth2:{quote(value, safe='')}@gitlab.example.com/group/repo.git"
    _check(userinfo, forms(value))
    query = f"GET https://api.example.com/v1/runs?project=rl&api_key={quote(value, safe='')}&page=2 200"
    _check(query, forms(value))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@FAST
@given(data=st.data())
def test_in_base64(family: Family, data: st.DataObject) -> None:
    value = data.draw(family.value)
    blob = b64(data.draw(noise) + f"\n{family.key}={value}\n")
    out = _check(f"echo {blob} | base64 -d > /etc/job.env", [*forms(value), blob])
    assert "base64 -d" in out


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_pure_re_fallback_agrees(family: Family, data: st.DataObject) -> None:
    value = data.draw(family.value)
    text = _embed(data, family, value)
    assert FALLBACK.redact(text).text == REDACTOR.redact(text).text
    _check(text, forms(value), FALLBACK)
