"""Import every signal module so their functions register, and expose the table."""

from bot.signals import (
           arch,
           cadence,
           clock,
           hang,
           infra,
           outputs,
           pods,
           ray,
           replaced,
           risk,
           scheduling,
           spec,
           tasks,
           tempdir,
)
from bot.signals.base import REGISTRY, Signal

__all__ = ["REGISTRY", "Signal", "arch", "cadence", "clock", "hang", "infra", "outputs", "pods", "ray", "replaced",
           "risk", "scheduling", "spec", "tasks", "tempdir"]
