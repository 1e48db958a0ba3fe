"""Between runs: `compare A B` (CONTRACT §9): spec changes per task, each run's outcome from the diagnosis engine,
a one-line verdict and the warnings, rendered as text, markdown or JSON in Chinese or English."""

from bot.compare.model import CATEGORIES, Comparison, SpecChange
from bot.compare.render import FORMATS, render_comparison
from bot.compare.usecase import compare_runs

__all__ = ["CATEGORIES", "FORMATS", "Comparison", "SpecChange", "compare_runs", "render_comparison"]
