"""Turn a Diagnosis into text, markdown, JSON or an admin ticket. Every output leaves here as SafeText."""

from bot.render.output import FORMATS, render_checks, render_diagnosis

__all__ = ["FORMATS", "render_checks", "render_diagnosis"]
