"""What the `diagnose` command calls for live evidence: the engine never knows where evidence came from."""

from __future__ import annotations

from bot.cluster.collector import collect, collect_checks
from bot.cluster.progress import for_terminal
from bot.models import Evidence, Target
from bot.settings import Settings


def collect_live(target: Target, *, kubeconfig: str | None, context: str | None, namespace: str | None,
                 settings: Settings, progress: bool) -> Evidence:
    """Read the target's evidence from live clusters.

    Raises `bot.cluster.errors.TargetNotFound` (exit 3: "not found in <where>") or `CollectionError` (exit 1,
    its message is one line). `progress`: show what is being read on stderr when it is a terminal.
    """
    reporter = for_terminal(enabled=progress)
    return collect(target, kubeconfig=kubeconfig, context=context, namespace=namespace, settings=settings,
                   progress=reporter).to_evidence()


def collect_all(*, kubeconfig: str | None, context: str | None, settings: Settings,
                progress: bool = False) -> Evidence:
    """Evidence for the scheduled checks (`rlark-bot check` without --snapshot)."""
    return collect_checks(kubeconfig=kubeconfig, context=context, settings=settings,
                          progress=for_terminal(enabled=progress)).to_evidence()
