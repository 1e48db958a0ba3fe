"""The kubeconfig is parsed once per collection and every context's client is loaded from that parse, exactly as
the client would load it from the file: relative certificate paths resolve next to the file that names them, and
KUBECONFIG's list is merged (the first file naming a context wins)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from bot.cluster import kubeconfig as kc
from bot.cluster.errors import CollectionError
from bot.settings import CollectionBudget


def _write(path: Path, contexts: dict[str, str], current: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.parent / "ca.crt").write_text("not checked until a TLS handshake\n", encoding="utf-8")
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": current,
        "clusters": [
            {"name": n, "cluster": {"server": url, "certificate-authority": "ca.crt"}} for n, url in contexts.items()
        ],
        "users": [{"name": n, "user": {"token": f"token-of-{n}"}} for n in contexts],
        "contexts": [{"name": n, "context": {"cluster": n, "user": n}} for n in contexts],
    }
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def test_relative_certificate_paths_resolve_next_to_their_own_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _write(tmp_path / "a" / "config", {"cp": "https://cp.example:6443"}, "cp")
    second = _write(tmp_path / "b" / "config", {"gpu-a": "https://gpu-a.example:6443", "cp": "https://x:1"}, "gpu-a")
    monkeypatch.setenv("KUBECONFIG", f"{first}{os.pathsep}{second}")
    source = kc.load_source(None)
    assert source.contexts == {"cp", "gpu-a"}
    cp = kc.new_api_client(source, "cp", budget=CollectionBudget()).configuration
    gpu = kc.new_api_client(source, "gpu-a", budget=CollectionBudget()).configuration
    assert cp.host == "https://cp.example:6443"  # the first file naming a context wins
    assert Path(cp.ssl_ca_cert) == tmp_path / "a" / "ca.crt"
    assert gpu.host == "https://gpu-a.example:6443"
    assert Path(gpu.ssl_ca_cert) == tmp_path / "b" / "ca.crt"
    assert gpu.api_key["authorization"] == "Bearer token-of-gpu-a"


def test_a_context_missing_from_the_parsed_file_is_one_line(tmp_path: Path) -> None:
    source = kc.load_source(str(_write(tmp_path / "config", {"cp": "https://cp.example:6443"}, "cp")))
    with pytest.raises(CollectionError, match="cannot load kubeconfig context 'nope'"):
        kc.new_api_client(source, "nope", budget=CollectionBudget())


@pytest.mark.parametrize("text", ["", "[]\n", "clusters: 3\n", "{unclosed\n"])
def test_an_unusable_file_is_one_line_naming_it(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CollectionError, match=f"cannot read kubeconfig {path}") as err:
        kc.load_source(str(path))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("data", "says"), [
    (b"- a\n- b\n", "not a kubeconfig: a YAML list at the top, not a mapping"),
    (b"my-host\n", "not a kubeconfig: a YAML string at the top, not a mapping"),
    (b"contexts: 5\n", "contexts must be a list, not a number"),
    (b"clusters: {a: 1}\n", "clusters must be a list, not a mapping"),
    (b"users:\n- 5\n", "users[0] must be a mapping with a name"),
    (b"contexts:\n- name: a\n  context: 5\ncurrent-context: a\n",
     "contexts[0].context must be a mapping, not a number"),
    (b"current-context: [a]\ncontexts: []\n", "current-context must be a string, not a list"),
    (b"\xbd\xff\x00binary", "not UTF-8 text"),
])
def test_a_malformed_file_is_said_in_kubectls_terms_not_pythons(tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "config"
    path.write_bytes(data)
    with pytest.raises(CollectionError) as err:
        kc.load_source(str(path))
    assert str(err.value) == f"cannot read kubeconfig {path}: {says}"


def test_in_a_kubeconfig_list_the_malformed_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = _write(tmp_path / "a" / "config", {"cp": "https://cp.example:6443"}, "cp")
    bad = tmp_path / "b" / "config"
    bad.parent.mkdir()
    bad.write_text("- not\n- a mapping\n", encoding="utf-8")
    monkeypatch.setenv("KUBECONFIG", f"{good}{os.pathsep}{bad}")
    with pytest.raises(CollectionError, match=f"{bad}: not a kubeconfig: a YAML list at the top"):
        kc.load_source(None)
