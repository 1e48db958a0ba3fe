"""Turning a kubeconfig (or the in-cluster service account) into guarded ApiClients, one per context."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubernetes import client, config

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


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def load_source(kubeconfig: str | None) -> KubeSource:
    """Read the context names; raises CollectionError with one line when there is nothing usable."""
    default_exists = any(Path(p).expanduser().is_file()
                         for p in os.environ.get("KUBECONFIG", "~/.kube/config").split(os.pathsep) if p)
    if kubeconfig is None and not default_exists and os.environ.get("KUBERNETES_SERVICE_HOST"):
        return KubeSource(kubeconfig=None, contexts=frozenset({IN_CLUSTER}), current=IN_CLUSTER, in_cluster=True)
    if kubeconfig is not None and not Path(kubeconfig).is_file():
        raise CollectionError(f"cannot read kubeconfig {kubeconfig}: no such file")
    try:
        contexts, current = config.list_kube_config_contexts(config_file=kubeconfig)
    except Exception as exc:  # the loader raises ConfigException, OSError, YAML and type errors alike
        where = kubeconfig or os.environ.get("KUBECONFIG", "~/.kube/config")
        raise CollectionError(f"cannot read kubeconfig {where}: {_one_line(exc)}") from exc
    names = frozenset(str(c.get("name")) for c in contexts or [] if isinstance(c, dict) and c.get("name"))
    cur = current.get("name") if isinstance(current, dict) else None
    return KubeSource(kubeconfig=kubeconfig, contexts=names, current=cur)


def new_api_client(source: KubeSource, context: str, *, budget: CollectionBudget) -> Any:
    """A guarded ApiClient for one context; raises CollectionError when the context cannot be loaded."""
    cfg = client.Configuration()
    try:
        if source.in_cluster:
            config.load_incluster_config(client_configuration=cfg)
        else:
            config.load_kube_config(config_file=source.kubeconfig, context=context, client_configuration=cfg,
                                    persist_config=False)
    except Exception as exc:
        raise CollectionError(f"cannot load kubeconfig context {context!r}: {_one_line(exc)}") from exc
    # Retries are ours (bounded, honouring Retry-After, within the deadline), so urllib3 must not add its own.
    cfg.retries = False
    cfg.connection_pool_maxsize = budget.max_concurrency
    api = client.ApiClient(cfg)
    guard.install(api)
    return api
