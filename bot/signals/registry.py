"""Import every signal module so their functions register, and expose the table."""

from bot.signals import arch, clock, infra, pods, ray, replaced, risk, scheduling, spec, tasks, tempdir
from bot.signals.base import REGISTRY, Signal

__all__ = ["REGISTRY", "Signal", "arch", "clock", "infra", "pods", "ray", "replaced", "risk", "scheduling", "spec",
           "tasks", "tempdir"]
