"""Turning a kubeconfig (or the in-cluster service account) into guarded ApiClients, one per context."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from kubernetes import client, config
from kubernetes.config import kube_config

from bot.cluster import guard
from bot.cluster.errors import CollectionError
from bot.settings import CollectionBudget

IN_CLUSTER = "in-cluster"


@dataclass(frozen=True)
class KubeSource:
    """Where credentials come from: a kubeconfig file (or the default discovery), or the pod's service account."""

    kubeconfig: str | None
    contexts: frozenset[str] = field(default_factory=frozenset)
    current: str | None = None
    in_cluster: bool = False
    # The file(s) parsed once, merged as the client merges KUBECONFIG's list (each entry remembering its file, so
    # relative certificate paths resolve as before); every context's client is loaded from it.
    merged: Any = field(default=None, compare=False, repr=False)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


_NAMED_LISTS = ("clusters", "users", "contexts")  # each a list of {name, <its singular>: mapping}


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    return "boolean" if isinstance(value, bool) else "number" if isinstance(value, int | float) else "value"


def _file_problem(path: Path) -> str | None:
    try:
        doc = yaml.safe_load(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except (OSError, yaml.YAMLError):
        return None  # the loader's own message says what is wrong
    if doc is None:
        return None
    if not isinstance(doc, dict):
        return f"not a kubeconfig: a YAML {_kind(doc)} at the top, not a mapping"
    for key in _NAMED_LISTS:
        items, singular = doc.get(key), key[:-1]
        if items is None:
            continue
        if not isinstance(items, list):
            return f"{key} must be a list, not a {_kind(items)}"
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                return f"{key}[{i}] must be a mapping with a name"
            body = item.get(singular)
            if body is not None and not isinstance(body, dict):
                return f"{key}[{i}].{singular} must be a mapping, not a {_kind(body)}"
    current = doc.get("current-context")
    if current is not None and not isinstance(current, str):
        return f"current-context must be a string, not a {_kind(current)}"
    return None


def _shape_problem(where: str) -> str | None:
    """What is wrong with the shape of the kubeconfig file(s) in `where` (a KUBECONFIG-style list), in kubectl's
    terms: the client's own errors on a malformed file are Python's ("'int' object is not iterable"). None when
    the shape is right (the client's message then says what is wrong)."""
    for name in where.split(os.pathsep):
        path = Path(name).expanduser()
        problem = _file_problem(path) if name and path.is_file() else None
        if problem is not None:
            return f"{path}: {problem}" if os.pathsep in where else problem
    return None


def load_source(kubeconfig: str | None) -> KubeSource:
    """Read the context names; raises CollectionError with one line when there is nothing usable."""
    default = os.environ.get("KUBECONFIG", "~/.kube/config")  # a list, merged as kubectl merges it
    default_exists = any(Path(p).expanduser().is_file() for p in default.split(os.pathsep) if p)
    if kubeconfig is None and not default_exists and os.environ.get("KUBERNETES_SERVICE_HOST"):
        return KubeSource(kubeconfig=None, contexts=frozenset({IN_CLUSTER}), current=IN_CLUSTER, in_cluster=True)
    if kubeconfig is not None and not Path(kubeconfig).is_file():
        raise CollectionError(f"cannot read kubeconfig {kubeconfig}: no such file")
    try:
        merged = kube_config.KubeConfigMerger(kubeconfig or default).config
        if merged is None:
            raise config.ConfigException("Invalid kube-config file. No configuration found.")
        loader = kube_config.KubeConfigLoader(config_dict=merged, config_base_path=None)
        contexts, current = loader.list_contexts(), loader.current_context
    except Exception as exc:  # the loader raises ConfigException, OSError, YAML and type errors alike
        where = kubeconfig or default
        raise CollectionError(f"cannot read kubeconfig {where}: {_shape_problem(where) or _one_line(exc)}") from exc
    names = frozenset(str(c.get("name")) for c in contexts or [] if isinstance(c, dict) and c.get("name"))
    cur = current.get("name") if isinstance(current, dict) else None
    return KubeSource(kubeconfig=kubeconfig, contexts=names, current=cur, merged=merged)


def new_api_client(source: KubeSource, context: str, *, budget: CollectionBudget) -> Any:
    """A guarded ApiClient for one context; raises CollectionError when the context cannot be loaded."""
    cfg = client.Configuration()
    try:
        if source.in_cluster:
            config.load_incluster_config(client_configuration=cfg)
        else:
            config.load_kube_config_from_dict(source.merged, context=context, client_configuration=cfg,
                                              persist_config=False)
    except Exception as exc:
        raise CollectionError(f"cannot load kubeconfig context {context!r}: {_one_line(exc)}") from exc
    # Retries are ours (bounded, honouring Retry-After, within the deadline), so urllib3 must not add its own.
    cfg.retries = False
    cfg.connection_pool_maxsize = budget.max_concurrency
    api = client.ApiClient(cfg)
    guard.install(api)
    return api
