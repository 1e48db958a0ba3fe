"""One collection run: the kubeconfig, one reused adapter per context, the shared budget and a worker pool."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.cluster.adapter import ClusterAdapter
from bot.cluster.budget import REAL_CLOCK, Clock, Deadline, Pacing, Stats
from bot.cluster.collected import Collected
from bot.cluster.errors import CollectionError, ReadFailed
from bot.cluster.gateway import GatewayClient
from bot.cluster.kubeconfig import KubeSource, new_api_client
from bot.cluster.progress import Progress
from bot.models import Missing
from bot.settings import Settings

T = TypeVar("T")
Observe = Callable[[str, str, str], None]  # (verb, resource, status) of every request, for metrics
K = TypeVar("K")


class Session:
    def __init__(self, source: KubeSource, *, settings: Settings, acc: Collected, progress: Progress,
                 deadline: Deadline | None = None, observe: Observe | None = None, clock: Clock = REAL_CLOCK) -> None:
        self.source = source
        self.settings = settings
        self.budget = settings.collection
        self.acc = acc
        self.progress = progress
        self.clock = clock
        self.deadline = deadline or Deadline(self.budget.deadline_seconds, clock.monotonic)
        self.stats = Stats()
        self._limiter = threading.Semaphore(self.budget.max_concurrency)
        self._pacing = Pacing(self.budget, self.deadline, self.stats, self._limiter, on_request=self._on_request,
                              on_result=observe, sleep=clock.sleep)
        self._pool = ThreadPoolExecutor(max_workers=self.budget.max_concurrency, thread_name_prefix="collect")
        self._adapters: dict[str, ClusterAdapter] = {}
        self._gateway: GatewayClient | None = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        for adapter in self._adapters.values():
            adapter.close()
        self._adapters.clear()
        if self._gateway is not None:
            self._gateway.close()
            self._gateway = None

    def adapter(self, context: str, cluster: str) -> ClusterAdapter:
        """The adapter for `context`, created once; raises CollectionError when the context cannot be loaded."""
        if context not in self._adapters:
            api = new_api_client(self.source, context, budget=self.budget)
            self._adapters[context] = ClusterAdapter(cluster, api, self._pacing)
        return self._adapters[context]

    def gateway(self) -> GatewayClient | None:
        """The RLark gateway client when `gateway_url` is set, sharing this run's budget, deadline and stats."""
        url = self.settings.gateway_url
        if not url:
            return None
        if self._gateway is None:
            token = self.settings.gateway_token
            self._gateway = GatewayClient(url, token.get_secret_value() if token else None, self._pacing)
        return self._gateway

    def has_context(self, context: str) -> bool:
        return context in self.source.contexts

    def _on_request(self, what: str) -> None:
        self.progress.reading(what, requests=self.stats.requests, nbytes=self.stats.bytes_read)

    def parallel(self, calls: Mapping[K, Callable[[], T]]) -> dict[K, T | ReadFailed]:
        """Run reads concurrently (bounded by the pool); a failed read comes back as its ReadFailed."""
        def guarded(fn: Callable[[], T]) -> T | ReadFailed:
            try:
                return fn()
            except ReadFailed as exc:
                return exc
        futures = {k: self._pool.submit(guarded, fn) for k, fn in calls.items()}
        return {k: f.result() for k, f in futures.items()}

    def record_failure(self, exc: ReadFailed, *, cluster: str, missing: Missing | None = None) -> None:
        if exc.cluster_down:
            self.acc.problem(f"{cluster}: unreachable, nothing more was read from it ({exc})",
                             key=f"down:{cluster}")
        else:
            self.acc.problem(str(exc))
        if missing:
            self.acc.missing(missing)


def require(result: Any, cls: type[T]) -> T:
    """Narrow a parallel() result that the caller already checked is not a ReadFailed."""
    if not isinstance(result, cls):
        raise CollectionError(f"internal: expected {cls.__name__}")
    return result
