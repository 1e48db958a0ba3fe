"""Scheduled checks: one function per check over the whole evidence, each returning alerts with stable keys."""

from bot.checks.alerts import Alert
from bot.checks.run import CHECKS, run_checks

__all__ = ["CHECKS", "Alert", "run_checks"]
