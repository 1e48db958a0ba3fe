"""Import every signal module so their functions register, and expose the table."""

from bot.signals import hang, infra, outputs, pods, ray, replaced, risk, spec, tasks, tempdir
from bot.signals.base import REGISTRY, Signal

__all__ = ["REGISTRY", "Signal", "hang", "infra", "outputs", "pods", "ray", "replaced", "risk", "spec", "tasks",
           "tempdir"]
