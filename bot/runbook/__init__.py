"""The runbook: known cases as strict, validated data loaded from `runbooks/*.yaml`."""

from bot.runbook.loader import RunbookError, load_runbook
from bot.runbook.schema import STAGES, Case, Runbook, Stage, Trigger

__all__ = ["STAGES", "Case", "Runbook", "RunbookError", "Stage", "Trigger", "load_runbook"]
